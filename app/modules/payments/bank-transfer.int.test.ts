import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { configuredHoldPolicy, expireUnpaidOrders } from "~/modules/flows/order-expired.server";
import { CHECKOUT_MESSAGES } from "~/modules/orders/orders.logic";
import { resetEnvForTests } from "~/utils/env.server";
import * as adminOrders from "~/routes/admin.orders";
import * as checkoutRoute from "~/routes/checkout";
import * as eftPage from "~/routes/payment.eft";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { insertProduct } from "../../../tests/factories/catalog";
import { insertCoupon, TEST_ADDRESS } from "../../../tests/factories/orders";
import { couponState, outboxFor } from "../../../tests/factories/payments";

/**
 * Manual EFT (issue 11): the shopper chooses a bank transfer, sees and is e-mailed the bank details and reference;
 * the owner marks the payment Completed; an unpaid transfer is let go after EFT_HOLD_DAYS with a word to the shopper.
 */
const BANK = { EFT_BANK_NAME: "First National Bank", EFT_ACCOUNT_NAME: "Scentara (Pty) Ltd", EFT_ACCOUNT_NUMBER: "62812345678", EFT_BRANCH_CODE: "250655" };
const db = () => getDb();
let shopper: TestUser;
let cookie = "";
let adminCookie = "";

beforeAll(async () => {
  Object.assign(process.env, BANK, { PAYMENT_METHODS: "card,eft", EFT_HOLD_DAYS: "3" });
  resetEnvForTests();
  shopper = await createUser(db());
  cookie = await sessionCookieFor(db(), shopper.id);
  adminCookie = await sessionCookieFor(db(), (await createUser(db(), { isAdmin: true })).id);
});

afterAll(() => {
  for (const key of [...Object.keys(BANK), "PAYMENT_METHODS", "EFT_HOLD_DAYS"]) delete process.env[key];
  resetEnvForTests();
});

async function placeByTransfer(extra: Record<string, string> = {}) {
  const product = await insertProduct(db(), { price_cents: 45000 });
  const result = await callAction(
    checkoutRoute.action,
    "/checkout",
    { ...TEST_ADDRESS, lines: JSON.stringify([{ productId: product.id, quantity: 1 }]), checkoutToken: crypto.randomUUID(), paymentMethod: "eft", ...extra },
    { headers: { cookie } },
  );
  expect(statusOf(result)).toBe(302);
  const location = (result as Response).headers.get("location")!;
  expect(location).toMatch(/^\/payment\/eft\/[0-9a-f-]{36}$/);
  return location.split("/").pop()!;
}

const order = (id: string) => db().selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("paying by bank transfer", () => {
  it("the checkout offers the methods in the shop's order, in plain words", async () => {
    const page = await dataOf(await callLoader(checkoutRoute.loader, "/checkout", { headers: { cookie } }));
    expect(page.methods.map((m: { label: string }) => m.label)).toEqual(["Card (test payments, no money is taken)", "Bank transfer (EFT)"]);
  });

  it("places the order pending with its coupon reserved, shows the bank details and reference, and e-mails them", async () => {
    const coupon = await insertCoupon(db(), { max_redemptions: 5 });
    const id = await placeByTransfer({ couponCode: coupon.code });
    expect(await order(id)).toMatchObject({ status: "pending", payment_status: "pending", payment_method: "eft", payment_provider: "eft", payment_id: null });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [id] });

    const page = await dataOf(await callLoader(eftPage.loader, `/payment/eft/${id}`, { headers: { cookie }, params: { orderId: id } }));
    expect(page).toMatchObject({ reference: id.slice(0, 8).toUpperCase(), amountCents: (await order(id)).total_amount_cents, bank: { ...{ bank: BANK.EFT_BANK_NAME, accountNumber: BANK.EFT_ACCOUNT_NUMBER, branchCode: BANK.EFT_BRANCH_CODE } } });

    const [mail] = await outboxFor(db(), shopper.email).then((m) => m.filter((x) => x.subject.includes(id.slice(0, 8))));
    expect(mail!.subject).toBe(`Scentara: pay for order ${id.slice(0, 8)} by bank transfer`);
    for (const text of [BANK.EFT_BANK_NAME, BANK.EFT_ACCOUNT_NUMBER, BANK.EFT_BRANCH_CODE, `Reference: ${id.slice(0, 8).toUpperCase()}`, "We hold your order until"]) {
      expect(mail!.text_body).toContain(text);
    }
  });

  it("only the shopper (or an admin) sees the page; anyone else finds nothing", async () => {
    const id = await placeByTransfer();
    const other = await sessionCookieFor(db(), (await createUser(db())).id);
    const refused = await callLoader(eftPage.loader, `/payment/eft/${id}`, { headers: { cookie: other }, params: { orderId: id } }).catch((r: unknown) => r);
    expect(statusOf(refused)).toBe(404);
    const visitor = await callLoader(eftPage.loader, `/payment/eft/${id}`, { params: { orderId: id } }).catch((r: unknown) => r);
    expect((visitor as Response).headers.get("location")).toMatch(/^\/auth\/login/);
    expect(statusOf(await callLoader(eftPage.loader, `/payment/eft/${id}`, { headers: { cookie: adminCookie }, params: { orderId: id } }))).toBe(200);
  });

  it("a method the shop doesn't offer is refused and stores nothing", async () => {
    const before = await db().selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", shopper.id).executeTakeFirstOrThrow();
    const product = await insertProduct(db());
    const result = await callAction(
      checkoutRoute.action,
      "/checkout",
      { ...TEST_ADDRESS, lines: JSON.stringify([{ productId: product.id, quantity: 1 }]), checkoutToken: crypto.randomUUID(), paymentMethod: "instant_eft" },
      { headers: { cookie } },
    );
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).error).toBe(CHECKOUT_MESSAGES.methodUnavailable);
    const after = await db().selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", shopper.id).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("the owner marks the transfer Completed: processing, and the shopper hears the payment arrived", async () => {
    const id = await placeByTransfer();
    const answer = await callAction(adminOrders.action, "/admin/orders", { intent: "payment", id, paymentStatus: "completed" }, { headers: { cookie: adminCookie } });
    expect(await dataOf(answer)).toMatchObject({ ok: true, message: "Payment status updated to completed" });
    expect(await order(id)).toMatchObject({ status: "processing", payment_status: "completed" });
    const mail = (await outboxFor(db(), shopper.email)).find((m) => m.subject === `Scentara: payment received for order ${id.slice(0, 8)}`);
    expect(mail?.text_body).toContain("Your bank transfer has reached us");
    const page = await dataOf(await callLoader(eftPage.loader, `/payment/eft/${id}`, { headers: { cookie }, params: { orderId: id } }));
    expect(page.paymentStatus).toBe("completed");
  });

  it("an unpaid transfer is held EFT_HOLD_DAYS, not the card's hour; then cancelled, its coupon released, the shopper told", async () => {
    // Only this test's orders are pending from here on.
    await db().updateTable("orders").set({ status: "cancelled", payment_status: "cancelled" }).where("status", "=", "pending").execute();
    const coupon = await insertCoupon(db(), { max_redemptions: 5 });
    const late = await placeByTransfer({ couponCode: coupon.code });
    const recent = await placeByTransfer();
    const daysAgo = (d: number) => new Date(Date.now() - d * 24 * 3600_000).toISOString();
    await db().updateTable("orders").set({ created_at: daysAgo(3.2) }).where("id", "=", late).execute();
    await db().updateTable("orders").set({ created_at: daysAgo(2) }).where("id", "=", recent).execute();

    const run = await expireUnpaidOrders(db(), { policy: configuredHoldPolicy(60, 3) });
    expect(run.expired.map((o) => o.id)).toEqual([late]);
    expect(await order(late)).toMatchObject({ status: "cancelled", payment_status: "cancelled" });
    expect(await order(recent)).toMatchObject({ status: "pending", payment_status: "pending" });
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 0, usageOrders: [] });
    const mail = (await outboxFor(db(), shopper.email)).find((m) => m.subject === `Scentara: order ${late.slice(0, 8)} cancelled (no payment received)`);
    expect(mail?.text_body).toContain("within 3 days");
  });
});
