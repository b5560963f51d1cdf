import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { ORDER_ADMIN_MESSAGES } from "~/modules/orders/order-admin.logic";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor, type TestUser } from "../../tests/factories/users";
import { insertCoupon, insertOrder, TEST_ADDRESS } from "../../tests/factories/orders";
import { insertProduct } from "../../tests/factories/catalog";
import { couponState, insertAwaitingOrder, outboxFor } from "../../tests/factories/payments";
import * as route from "./admin.orders";
import { adminOrdersView } from "~/modules/orders/order-admin.server";

/** The owner's orders page: tabs and search, every transition with its stamp, the coupon it holds, edit, e-mail, delete. */
const db = () => getDb();
let cookie = "";
let customer: TestUser;

beforeAll(async () => {
  const admin = await createUser(db(), { isAdmin: true });
  cookie = await sessionCookieFor(db(), admin.id);
  customer = await createUser(db());
});

const post = (form: Record<string, string>) => callAction(route.action, "/admin/orders", form, { headers: { cookie } });
const load = (search = "") => callLoader(route.loader, `/admin/orders${search}`, { headers: { cookie } });
const row = (id: string) => db().selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const metrics = (id: string) => db().selectFrom("order_metrics").selectAll().where("order_id", "=", id).executeTakeFirst();
const ok = async (result: unknown, message: string) => {
  expect(statusOf(result)).toBe(200);
  expect(await dataOf(result)).toMatchObject({ ok: true, message });
};

describe("admin orders: the list", () => {
  it("shows one status tab at a time with every tab's count, and finds an order by its id prefix or the customer's e-mail", async () => {
    const shopper = await createUser(db(), { email: `zanele.${Date.now()}@example.co.za` });
    const pending = await insertOrder(db(), { userId: shopper.id });
    const shipped = await insertOrder(db(), { userId: shopper.id, status: "shipped", paymentStatus: "completed", trackingNumber: "TRK123" });

    const byEmail = await dataOf(await load(`?q=${encodeURIComponent(shopper.email.slice(0, 12))}`));
    expect(byEmail.tab).toBe("pending");
    expect(byEmail.list.rows.map((o: { id: string }) => o.id)).toEqual([pending.id]);
    expect(byEmail.counts).toMatchObject({ pending: 1, shipped: 1, processing: 0, delivered: 0, cancelled: 0 });

    const byId = await dataOf(await load(`?status=shipped&q=${shipped.id.slice(0, 8).toUpperCase()}`));
    expect(byId.list.rows).toHaveLength(1);
    expect(byId.list.rows[0]).toMatchObject({ id: shipped.id, shortId: shipped.id.slice(0, 8), trackingNumber: "TRK123", customerEmail: shopper.email });
    expect(byId.list.rows[0].lines).toHaveLength(1);
    expect((await dataOf(await load(`?status=shipped&q=${shipped.id.slice(0, 13)}`))).list.rows).toHaveLength(1);
    expect((await dataOf(await load(`?status=pending&q=${shipped.id.slice(0, 8)}`))).list.rows).toHaveLength(0);
    const nobody = await dataOf(await load("?q=no-such-customer@nowhere"));
    expect(nobody.list.rows).toEqual([]);
    expect(Object.values(nobody.counts)).toEqual([0, 0, 0, 0, 0]);
  });

  it("counts a broad search's tabs only up to a bound, says so, and lists the newest; a narrow search stays exact", async () => {
    // Three customers share a name; small limits stand in for 500 customers and 1 000 orders (the same code path).
    const name = `mokoena${Date.now()}`;
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await createUser(db(), { email: `thandi.${name}.${i}@example.co.za` }));
    const delivered = [];
    for (let i = 0; i < 5; i++) {
      delivered.push(await insertOrder(db(), { userId: people[i % 3]!.id, status: "delivered", paymentStatus: "completed", createdAt: new Date(Date.UTC(2026, 0, 10 + i)).toISOString() }));
    }
    await insertOrder(db(), { userId: people[0]!.id });
    const limits = { customers: 2, countBound: 3 };

    const broad = await adminOrdersView(db(), { status: "delivered", q: name, page: 1 }, limits);
    expect(broad.counts).toEqual({ pending: 1, processing: 0, shipped: 0, delivered: 3, cancelled: 0 });
    expect(broad.over).toEqual(["delivered"]);
    // the newest three of the five, newest first, on one page
    expect(broad.list.rows.map((o) => o.id)).toEqual(delivered.slice(2).reverse().map((o) => o.id));
    expect(broad.list.pageCount).toBe(1);
    expect((await adminOrdersView(db(), { status: "delivered", q: name, page: 2 }, limits)).list.page).toBe(1);

    // one customer's e-mail is a narrow search: exact, whatever the bound
    const narrow = await adminOrdersView(db(), { status: "delivered", q: people[0]!.email, page: 1 }, limits);
    expect(narrow.counts).toEqual({ pending: 1, processing: 0, shipped: 0, delivered: 2, cancelled: 0 });
    expect(narrow.over).toEqual([]);

    // with the shop's limits this search is narrow: every tab exact, and the page says nothing of a bound
    const page = await dataOf(await load(`?status=delivered&q=${name.toUpperCase()}`));
    expect(page.counts).toEqual({ pending: 1, processing: 0, shipped: 0, delivered: 5, cancelled: 0 });
    expect(page.over).toEqual([]);
    expect(page.list.rows).toHaveLength(5);
  });

  it("lists a search whose customers fill much of a tab by walking the tab newest first: the same orders, page by page", async () => {
    // 120 delivered orders of three customers among 40 of others, interleaved in time: page 1 is read by walking the
    // tab (its matches are dense), later pages by reading and sorting the matches; both must be the search's own.
    const name = `dlamini${Date.now()}`;
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await createUser(db(), { email: `sipho.${name}.${i}@example.co.za` }));
    const product = await insertProduct(db(), { price_cents: 30_000 });
    const lines = [{ productId: product.id, name: product.name, unitPriceCents: 30_000 }];
    const matches: { id: string; createdAt: string }[] = [];
    for (let i = 0; i < 160; i++) {
      const mine = i % 4 !== 3;
      const createdAt = new Date(Date.UTC(2025, 5, 1) + i * 3_600_000).toISOString();
      const o = await insertOrder(db(), { userId: mine ? people[i % 3]!.id : customer.id, status: "delivered", paymentStatus: "completed", createdAt, lines });
      if (mine) matches.push({ id: o.id, createdAt });
    }
    const newestFirst = matches.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)).map((o) => o.id);
    for (const page of [1, 2, 6]) {
      const view = await adminOrdersView(db(), { status: "delivered", q: name, page });
      expect(view.counts.delivered).toBe(120);
      expect(view.list.rows.map((o) => o.id)).toEqual(newestFirst.slice((page - 1) * 20, page * 20));
      expect(view.list.rows.every((o) => o.customerEmail?.includes(name))).toBe(true);
    }
  });

  it("finds a customer's orders as soon as their e-mail matches: a kept search is read again when a customer changes", async () => {
    const name = `khumalo${Date.now()}`;
    const first = await createUser(db(), { email: `ayanda.${name}@example.co.za` });
    const other = await createUser(db(), { email: `bongani.${Date.now()}@example.co.za` });
    await insertOrder(db(), { userId: first.id, status: "delivered", paymentStatus: "completed" });
    await insertOrder(db(), { userId: other.id, status: "delivered", paymentStatus: "completed" });
    expect((await adminOrdersView(db(), { status: "delivered", q: name, page: 1 })).counts.delivered).toBe(1);
    expect((await adminOrdersView(db(), { status: "delivered", q: name, page: 1 })).counts.delivered).toBe(1);
    // only the customer changes (no order does): the search must see it
    await db().updateTable("users").set({ email: `bongani.${name}@example.co.za` }).where("id", "=", other.id).execute();
    const after = await adminOrdersView(db(), { status: "delivered", q: name, page: 1 });
    expect(after.counts.delivered).toBe(2);
    expect(after.list.rows.map((o) => o.customerEmail).sort()).toEqual([`ayanda.${name}@example.co.za`, `bongani.${name}@example.co.za`]);
  });

  it("a search's tab counts follow every change of its orders: an old one's (kept until one changes) and today's", async () => {
    const name = `dlamini${Date.now()}`;
    const buyer = await createUser(db(), { email: `thandi.${name}@example.co.za` });
    const old = await insertOrder(db(), { userId: buyer.id, status: "shipped", paymentStatus: "completed", createdAt: new Date(Date.now() - 9 * 86_400_000).toISOString() });
    await insertOrder(db(), { userId: buyer.id, status: "processing", paymentStatus: "completed" });
    const counts = async () => (await adminOrdersView(db(), { status: "delivered", q: name, page: 1 })).counts;
    expect(await counts()).toMatchObject({ shipped: 1, processing: 1, delivered: 0 });
    expect(await counts()).toMatchObject({ shipped: 1, processing: 1, delivered: 0 });
    // the old order delivered (written directly, as a courier's tracking would)
    await db().updateTable("orders").set({ status: "delivered" }).where("id", "=", old.id).execute();
    expect(await counts()).toMatchObject({ shipped: 0, processing: 1, delivered: 1 });
    // a new order of theirs, and one moved to another customer
    const fresh = await insertOrder(db(), { userId: buyer.id, status: "pending", paymentStatus: "pending" });
    expect(await counts()).toMatchObject({ pending: 1, processing: 1, delivered: 1 });
    await db().updateTable("orders").set({ user_id: customer.id }).where("id", "=", old.id).execute();
    expect(await counts()).toMatchObject({ pending: 1, processing: 1, delivered: 0 });
    await db().deleteFrom("orders").where("id", "=", fresh.id).execute();
    expect(await counts()).toMatchObject({ pending: 0, processing: 1, delivered: 0 });
  });

  it("computes the metrics of SPEC §9 from order_metrics", async () => {
    const data = await dataOf(await load());
    const m = await db()
      .selectFrom("order_metrics")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.count<number>("delivery_time").as("d"), eb.fn.avg<number>("processing_time").as("p")])
      .executeTakeFirstOrThrow();
    if (Number(m.n) === 0) expect(data.metrics).toEqual({ avgProcessingHours: null, avgDeliveryDays: null, completionRate: null });
    else expect(data.metrics.completionRate).toBe(Math.round((Number(m.d) / Number(m.n)) * 100));
  });
});

describe("admin orders: status and payment", () => {
  it.each([
    ["processing", "processing_started_at"],
    ["shipped", "shipped_at"],
    ["delivered", "actual_delivery_date"],
  ] as const)("moving to %s stamps %s", async (status, column) => {
    const order = await insertOrder(db(), { userId: customer.id, paymentStatus: "completed", status: "pending" });
    await ok(await post({ intent: "status", id: order.id, status }), `Order status updated to ${status}`);
    const after = await row(order.id);
    expect(after.status).toBe(status);
    expect(after[column]).not.toBeNull();
    expect(Date.now() - Date.parse(after[column]!)).toBeLessThan(60_000);
  });

  it("cancelled stamps nothing; any status can go to any status", async () => {
    const order = await insertOrder(db(), { userId: customer.id, status: "delivered", paymentStatus: "completed" });
    await ok(await post({ intent: "status", id: order.id, status: "cancelled" }), "Order status updated to cancelled");
    const after = await row(order.id);
    expect(after).toMatchObject({ status: "cancelled", processing_started_at: null, shipped_at: null, actual_delivery_date: null });
    await ok(await post({ intent: "status", id: order.id, status: "pending" }), "Order status updated to pending");
    expect((await row(order.id)).status).toBe("pending");
  });

  it("moving an old order sums its day again in the action, so the next page reads the stored sums as they are", async () => {
    const { sql } = await import("kysely");
    const { sumSettledOrderDays } = await import("~/modules/order-days/order-days.server");
    const order = await insertOrder(db(), { userId: customer.id, status: "shipped", paymentStatus: "completed", createdAt: new Date(Date.now() - 6 * 86_400_000).toISOString() });
    await sumSettledOrderDays(db()); // the past days summed, as the background job does
    const before = (await dataOf(await load("?status=delivered"))) as { counts: Record<string, number> };
    await ok(await post({ intent: "status", id: order.id, status: "delivered" }), "Order status updated to delivered");
    // the action left no stale day behind (it summed the order's day again)…
    const stale = await sql<{ day: string }>`select day from order_days_stale`.execute(db());
    expect(stale.rows.filter((r) => r.day < new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10))).toEqual([]);
    // …and the tabs count the order where it now is
    const after = (await dataOf(await load("?status=delivered"))) as { counts: Record<string, number> };
    expect(after.counts.delivered).toBe(before.counts.delivered + 1);
    expect(after.counts.shipped).toBe(before.counts.shipped - 1);
  });

  it("shipping then delivering writes the order's metrics row (processing and delivery time in seconds)", async () => {
    const started = new Date(Date.now() - 5 * 3600_000).toISOString();
    const order = await insertOrder(db(), { userId: customer.id, status: "processing", paymentStatus: "completed", processingStartedAt: started });
    await post({ intent: "status", id: order.id, status: "shipped" });
    const shipped = await metrics(order.id);
    expect(shipped?.processing_time).toBeGreaterThanOrEqual(5 * 3600 - 5);
    expect(shipped?.delivery_time).toBeNull();
    await post({ intent: "status", id: order.id, status: "delivered" });
    expect((await metrics(order.id))?.delivery_time).toBeGreaterThanOrEqual(0);
  });

  it("payment completed on a pending order also moves it to processing and stamps it, and the customer gets the confirmation", async () => {
    const order = await insertOrder(db(), { userId: customer.id });
    await ok(await post({ intent: "payment", id: order.id, paymentStatus: "completed" }), "Payment status updated to completed");
    const after = await row(order.id);
    expect(after).toMatchObject({ status: "processing", payment_status: "completed" });
    expect(after.processing_started_at).not.toBeNull();
    const mail = await outboxFor(db(), customer.email);
    expect(mail.some((m) => m.subject.includes(order.id.slice(0, 8)) && m.subject.includes("confirmed"))).toBe(true);
  });

  it("payment failed on a processing order changes the payment only", async () => {
    const order = await insertOrder(db(), { userId: customer.id, status: "shipped", paymentStatus: "completed" });
    await ok(await post({ intent: "payment", id: order.id, paymentStatus: "failed" }), "Payment status updated to failed");
    expect(await row(order.id)).toMatchObject({ status: "shipped", payment_status: "failed" });
  });

  it("refuses an unknown status or payment status and changes nothing", async () => {
    const order = await insertOrder(db(), { userId: customer.id });
    for (const form of [
      { intent: "status", id: order.id, status: "lost" } as Record<string, string>,
      { intent: "payment", id: order.id, paymentStatus: "refunded" },
    ]) {
      expect(statusOf(await post(form))).toBe(400);
    }
    expect(await row(order.id)).toMatchObject({ status: "pending", payment_status: "pending" });
    const missing = await post({ intent: "status", id: "no-such-order", status: "shipped" });
    expect(statusOf(missing)).toBe(404);
  });
});

describe("admin orders: the coupon an order holds", () => {
  it("cancelling releases the redemption; reopening takes it back while the coupon has room", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 1 });
    const order = await insertAwaitingOrder(db(), { userId: customer.id, coupon, discountCents: 3500 });
    expect((await couponState(db(), coupon.id)).timesRedeemed).toBe(1);

    await ok(await post({ intent: "status", id: order.id, status: "cancelled" }), "Order status updated to cancelled");
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 0, usageOrders: [] });

    await ok(await post({ intent: "payment", id: order.id, paymentStatus: "completed" }), "Payment status updated to completed");
    expect(await row(order.id)).toMatchObject({ status: "processing", payment_status: "completed" });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [order.id] });
  });

  it("a cancelled order whose coupon is used up stays cancelled, and the owner is told why", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 1 });
    const first = await insertAwaitingOrder(db(), { userId: customer.id, coupon, discountCents: 2000 });
    await post({ intent: "status", id: first.id, status: "cancelled" });
    await insertAwaitingOrder(db(), { userId: customer.id, coupon, discountCents: 2000 });

    for (const form of [
      { intent: "payment", id: first.id, paymentStatus: "completed" } as Record<string, string>,
      { intent: "status", id: first.id, status: "processing" },
    ]) {
      const refused = await post(form);
      expect(statusOf(refused)).toBe(409);
      expect((await dataOf(refused)).error).toBe(ORDER_ADMIN_MESSAGES.couponFull(coupon.code));
    }
    expect(await row(first.id)).toMatchObject({ status: "cancelled", payment_status: "pending", processing_started_at: null });
    expect((await couponState(db(), coupon.id)).timesRedeemed).toBe(1);
  });

  it("deleting an order that holds a redemption gives it back", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 5 });
    const order = await insertAwaitingOrder(db(), { userId: customer.id, coupon, discountCents: 1000 });
    await ok(await post({ intent: "delete", id: order.id }), ORDER_ADMIN_MESSAGES.deleted);
    expect(await db().selectFrom("orders").select("id").where("id", "=", order.id).executeTakeFirst()).toBeUndefined();
    expect(await db().selectFrom("order_lines").select("id").where("order_id", "=", order.id).execute()).toEqual([]);
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 0, usageOrders: [] });
  });
});

describe("admin orders: inline edit", () => {
  const edit = (order: { id: string; lines: Array<{ id: string }> }, lines: Array<[string, string]>, extra: Record<string, string> = {}) =>
    post({
      intent: "update",
      id: order.id,
      ...TEST_ADDRESS,
      ...Object.fromEntries(lines.flatMap(([quantity, unitPrice], i) => [[`line.${i}.id`, order.lines[i]!.id], [`line.${i}.quantity`, quantity], [`line.${i}.unitPrice`, unitPrice]])),
      ...extra,
    });

  it("recomputes line totals and the total as lines − discount + delivery, and saves address, notes and tracking", async () => {
    const order = await insertOrder(db(), {
      userId: customer.id,
      lines: [{ quantity: 1, unitPriceCents: 30000 }, { quantity: 2, unitPriceCents: 15000 }],
      couponCode: "SAVE50",
      discountCents: 5000,
      shippingCents: 7000,
    });
    await ok(await edit(order, [["3", "250.50"], ["1", "150"]], { city: "Durban", province: "KwaZulu-Natal", notes: "Leave at gate", trackingNumber: "PX123ZA" }), ORDER_ADMIN_MESSAGES.updated);
    const after = await row(order.id);
    expect(after).toMatchObject({
      subtotal_cents: 75150 + 15000,
      discount_amount_cents: 5000,
      shipping_cents: 7000,
      total_amount_cents: 90150 - 5000 + 7000,
      original_total_cents: 90150 + 7000,
      notes: "Leave at gate",
      tracking_number: "PX123ZA",
    });
    expect(after.shipping_address).toMatchObject({ city: "Durban", province: "KwaZulu-Natal", name: TEST_ADDRESS.name });
    const lines = await db().selectFrom("order_lines").select(["id", "quantity", "unit_price_cents", "total_price_cents"]).where("order_id", "=", order.id).orderBy("position").execute();
    expect(lines.map((l) => [l.quantity, l.unit_price_cents, l.total_price_cents])).toEqual([
      [3, 25050, 75150],
      [1, 15000, 15000],
    ]);
  });

  it.each([
    [[["0", "100"]], "Quantity must be a whole number of at least 1"],
    [[["1.5", "100"]], "Quantity must be a whole number of at least 1"],
    [[["1", "-1"]], "Unit price must be R0.00 or more, with at most 2 decimals"],
    [[["1", "1.005"]], "Unit price must be R0.00 or more, with at most 2 decimals"],
  ] as Array<[Array<[string, string]>, string]>)("refuses lines %j with %j and changes nothing", async (lines, message) => {
    const order = await insertOrder(db(), { userId: customer.id, notes: "keep me" });
    const result = await edit(order, lines, { notes: "changed" });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).error).toBe(message);
    expect(await row(order.id)).toMatchObject({ notes: "keep me", total_amount_cents: order.totalAmountCents });
  });

  it("refuses lines of another order", async () => {
    const order = await insertOrder(db(), { userId: customer.id });
    const other = await insertOrder(db(), { userId: customer.id });
    const result = await edit({ id: order.id, lines: other.lines }, [["5", "1"]]);
    expect(statusOf(result)).toBe(409);
    expect((await db().selectFrom("order_lines").select("quantity").where("id", "=", other.lines[0]!.id).executeTakeFirstOrThrow()).quantity).toBe(1);
  });

  it("a tracking number on a shipped order reaches the customer by e-mail, once", async () => {
    const shopper = await createUser(db());
    const order = await insertOrder(db(), { userId: shopper.id, status: "processing", paymentStatus: "completed" });
    await post({ intent: "status", id: order.id, status: "shipped" });
    expect(await outboxFor(db(), shopper.email)).toHaveLength(0); // shipped without tracking: nothing to tell yet
    await edit(order, [["1", "349.99"]], { trackingNumber: "TCG0001ZA" });
    await edit(order, [["1", "349.99"]], { trackingNumber: "TCG0001ZA", notes: "again" });
    const mail = await outboxFor(db(), shopper.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain("on its way");
    expect(mail[0]!.text_body).toContain("Tracking number: TCG0001ZA");
  });

  it("moving an order with a tracking number to shipped e-mails the customer", async () => {
    const shopper = await createUser(db());
    const order = await insertOrder(db(), { userId: shopper.id, status: "processing", paymentStatus: "completed", trackingNumber: "DSV777" });
    await post({ intent: "status", id: order.id, status: "shipped" });
    const mail = await outboxFor(db(), shopper.email);
    expect(mail.map((m) => m.text_body).join()).toContain("Tracking number: DSV777");
  });
});

describe("admin orders: send status e-mail", () => {
  it("sends the order's current status; without a mail server the owner is told it waits in the outbox", async () => {
    const shopper = await createUser(db());
    const order = await insertOrder(db(), { userId: shopper.id, status: "delivered", paymentStatus: "completed" });
    const result = await post({ intent: "email", id: order.id });
    const mail = await outboxFor(db(), shopper.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain("has been delivered");
    // The integration tests run without SMTP_URL (the SMTP path is tested in modules/mail/smtp.int.test.ts).
    expect(statusOf(result)).toBe(409);
    expect((await dataOf(result)).error).toMatch(/^Failed to send email: no mail server is configured/);
  });

  it("an order whose customer was deleted: 'Failed to send email: …' and nothing sent", async () => {
    const order = await insertOrder(db(), { userId: null });
    const result = await post({ intent: "email", id: order.id });
    expect((await dataOf(result)).error).toBe(ORDER_ADMIN_MESSAGES.emailFailed("the customer has no e-mail address on record"));
  });
});
