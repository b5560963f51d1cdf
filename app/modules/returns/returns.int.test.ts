/**
 * Returns through their routes (issue 21 point 8, docs/decisions/041), on SQLite and PostgreSQL: the shopper's request,
 * the owner's steps, stock, the refund with its credit note (its PDF's text, as written and as a PDF reader extracts
 * it), the e-mails, the accountant's export and the sales totals; and every refusal the issue names, with nothing
 * changed.
 */
import { parse } from "csv-parse/sync";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { setOrderStatus } from "~/modules/flows/order-changed-by-owner.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { salesTotals } from "~/modules/reports/sales-totals.server";
import { action as adminReturnAction, loader as adminReturnLoader } from "~/routes/admin.returns.$id";
import { loader as adminReturnsLoader } from "~/routes/admin.returns";
import { loader as exportLoader } from "~/routes/admin.orders.export[.]csv";
import { action as requestAction, loader as returnPageLoader } from "~/routes/orders.return";
import { loader as creditNoteLoader } from "~/routes/returns.credit-note[.]pdf";
import { resetEnvForTests } from "~/utils/env.server";
import { formatRand } from "~/utils/money";
import { snapshotDatabase } from "../../../tests/authz/matrix";
import { insertCategory, insertProduct } from "../../../tests/factories/catalog";
import { insertCoupon } from "../../../tests/factories/orders";
import { insertAwaitingOrder, outboxFor } from "../../../tests/factories/payments";
import { pdfReaderLines, pdfTextRuns } from "../../../tests/factories/pdf-text";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { formatInvoiceNumber, vatInInclusiveTotal } from "../invoices/invoice.logic";
import { RETURN_MESSAGES } from "./returns.logic";

const db = () => getDb();
const VAT_SHOP = { SHOP_VAT_NUMBER: "4123456789", SHOP_ADDRESS: "Unit 4, The Old Biscuit Mill | 373 Albert Road, Woodstock | Cape Town 7925", SHOP_LEGAL_NAME: "Scentara Fragrances (Pty) Ltd" };
const DAY = 24 * 60 * 60 * 1000;

function configure(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
}
afterEach(() => configure({ SHOP_VAT_NUMBER: undefined, SHOP_ADDRESS: undefined, SHOP_LEGAL_NAME: undefined, RETURN_EXCLUDE_OPENED: undefined, RETURN_EXCLUSION_REASON: undefined, RETURN_WINDOW_DAYS: undefined }));

let shopper: TestUser;
let other: TestUser;
let admin: TestUser;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  shopper = await createUser(db());
  other = await createUser(db());
  admin = await createUser(db(), { isAdmin: true });
  for (const u of [shopper, other, admin]) cookies[u.id] = await sessionCookieFor(db(), u.id);
});
const as = (user: TestUser) => ({ headers: { cookie: cookies[user.id]! } });

/** A paid order (its invoice numbered), delivered `daysAgo` days ago: two bottles of a tracked product and one tester. */
async function deliveredOrder(options: { daysAgo?: number; user?: TestUser; coupon?: boolean } = {}) {
  const tracked = await insertProduct(db(), { name: "Oud Noir 100 ml", price_cents: 34999, stock: 10 } as never);
  const testers = await insertCategory(db(), { name: "Testers", slug: `testers-${Math.random().toString(36).slice(2, 8)}` });
  const tester = await insertProduct(db(), { name: "Rose Tester", price_cents: 9900, category_id: testers.id });
  const coupon = options.coupon ? await insertCoupon(db(), { code: `RET${Math.floor(Math.random() * 1e6)}` }) : undefined;
  const order = await insertAwaitingOrder(db(), {
    userId: (options.user ?? shopper).id,
    coupon,
    discountCents: coupon ? 7990 : 0,
    shippingCents: 7000,
    lines: [
      { productId: tracked.id, name: tracked.name, quantity: 2, unitPriceCents: 34999 },
      { productId: tester.id, name: tester.name, quantity: 1, unitPriceCents: 9900 },
    ],
  });
  await db().transaction().execute((trx) => markOrderPaid(trx, order.id));
  await setOrderStatus(db(), order.id, "delivered", new Date(Date.now() - (options.daysAgo ?? 2) * DAY));
  const row = await db().selectFrom("orders").select(["invoice_number", "total_amount_cents"]).where("id", "=", order.id).executeTakeFirstOrThrow();
  return { ...order, tracked, tester, testersSlug: testers.slug, invoiceNumber: Number(row.invoice_number) };
}

const stockOf = async (productId: string) => (await db().selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirstOrThrow()).stock;
const path = (orderId: string) => `/orders/${orderId}/return`;

async function request(orderId: string, form: Record<string, string>, user: TestUser = shopper) {
  return callAction(requestAction, path(orderId), form, { ...as(user), params: { id: orderId } });
}
async function step(returnId: string, form: Record<string, string>, user: TestUser = admin) {
  return callAction(adminReturnAction, `/admin/returns/${returnId}`, { id: returnId, ...form }, { ...as(user), params: { id: returnId } });
}
async function returnOf(orderId: string) {
  return db().selectFrom("returns").selectAll().where("order_id", "=", orderId).orderBy("requested_at", "desc").executeTakeFirstOrThrow();
}

describe("a full return, from the order history to the credit note", () => {
  it("request → approve → receive (stock back) → refund: credit note, e-mails, order and invoice unchanged, reports", async () => {
    configure(VAT_SHOP);
    const order = await deliveredOrder({ coupon: true });
    expect(await stockOf(order.tracked.id)).toBe(8); // the payment took two

    // the shopper's page: what is left and until when
    const page = await dataOf(await callLoader(returnPageLoader, path(order.id), { ...as(shopper), params: { id: order.id } }));
    expect(page.blocked).toBeNull();
    expect(page.lines.map((l: { name: string; quantity: number; returned: number }) => [l.name, l.quantity, l.returned])).toEqual([
      ["Oud Noir 100 ml", 2, 0],
      ["Rose Tester", 1, 0],
    ]);
    const [bottles] = order.lines;

    // the request
    const asked = await request(order.id, { reason: "not_for_me", [`qty.${bottles!.id}`]: "2", note: "Too sweet for me." });
    expect(statusOf(asked)).toBe(303);
    expect((asked as Response).headers.get("Location")).toBe(`${path(order.id)}?requested=1`);
    let ret = await returnOf(order.id);
    expect(ret).toMatchObject({ status: "requested", kind: "cooling_off", reason: "not_for_me", note: "Too sweet for me." });
    expect(Date.parse(ret.refund_due_at) - Date.parse(ret.requested_at)).toBe(30 * DAY);
    const mails = async () => (await outboxFor(db())).filter((m) => m.text_body.includes(order.id.slice(0, 8)));
    expect((await mails()).map((m) => [m.to_address, m.subject])).toEqual([
      ["hello@scentara.co.za", `Return requested for order ${order.id.slice(0, 8)}`],
      [shopper.email, `Scentara: we have your return request for order ${order.id.slice(0, 8)}`],
    ]);

    // the admin list shows it, due in 30 days
    const list = await dataOf(await callLoader(adminReturnsLoader, "/admin/returns", as(admin)));
    expect(list.list.rows.find((r: { id: string }) => r.id === ret.id)).toMatchObject({ status: "requested", overdue: false, dueText: "in 30 days" });

    // approve, with a message; then the parcel arrives and both bottles go back on the shelf
    expect(await dataOf(await step(ret.id, { intent: "approve", message: "Please post them to our studio." }))).toMatchObject({ ok: true, message: RETURN_MESSAGES.approved });
    const lines = await db().selectFrom("return_lines").selectAll().where("return_id", "=", ret.id).execute();
    expect(await dataOf(await step(ret.id, { intent: "receive", [`restock.${lines[0]!.id}`]: "2" }))).toMatchObject({ ok: true, message: RETURN_MESSAGES.received(2) });
    expect(await stockOf(order.tracked.id)).toBe(10);

    // the suggested refund: the bottles less their share of the coupon's R79.90 (79 898 × … pro rata)
    const detail = await dataOf(await callLoader(adminReturnLoader, `/admin/returns/${ret.id}`, { ...as(admin), params: { id: ret.id } }));
    const goods = 69998;
    const share = Math.round((7990 * goods) / order.subtotalCents);
    expect(detail.refund).toMatchObject({ goodsCents: goods, discountCents: share, deliveryCents: 0, amountCents: goods - share, maxCents: order.totalAmountCents });
    expect(detail.capability).toMatchObject({ provider: "simulated" });

    // refund it through the (simulated) provider
    const amount = goods - share;
    const refunded = await dataOf(await step(ret.id, { intent: "refund", amount: (amount / 100).toFixed(2), method: "provider", reference: "" }));
    expect(refunded.ok).toBe(true);
    ret = await returnOf(order.id);
    expect(ret).toMatchObject({ status: "refunded", refund_cents: amount, refund_method: "provider", refund_provider: "simulated", payout_status: "paid" });
    expect(ret.refund_reference).toMatch(/^rfd_sim_/);
    expect(refunded.message).toBe(`Refunded ${formatRand(amount)} to the card or account you paid with, through the shop's test payments; credit note CN-${String(ret.credit_note_number).padStart(6, "0")} issued. The customer has been e-mailed.`);

    // every step told the shopper
    expect((await mails()).filter((m) => m.to_address === shopper.email).map((m) => m.subject)).toEqual([
      `Scentara: we have your return request for order ${order.id.slice(0, 8)}`,
      `Scentara: your return for order ${order.id.slice(0, 8)} is approved`,
      `Scentara: we have received your return for order ${order.id.slice(0, 8)}`,
      `Scentara: your refund for order ${order.id.slice(0, 8)}`,
    ]);
    const approvedMail = (await mails()).find((m) => m.subject.endsWith("is approved"))!;
    expect(approvedMail.text_body).toContain("Please post them to our studio.");
    expect(approvedMail.text_body).toContain("  373 Albert Road, Woodstock");
    const refundMail = (await mails()).find((m) => m.subject.endsWith(`refund for order ${order.id.slice(0, 8)}`))!;
    expect(refundMail.text_body).toContain(`We have refunded ${formatRand(amount)}`);
    expect(refundMail.text_body).toContain(`/returns/${ret.id}/credit-note.pdf`);

    // the credit note: "Credit Note", its own number, the tax invoice it corrects, VAT at 15 %
    const res = (await callLoader(creditNoteLoader, `/returns/${ret.id}/credit-note.pdf`, { ...as(shopper), params: { id: ret.id } })) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    const number = `CN-${String(ret.credit_note_number).padStart(6, "0")}`;
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="Scentara-${number}.pdf"`);
    const pdf = new Uint8Array(await res.arrayBuffer());
    const runs = pdfTextRuns(pdf);
    const after = (label: string) => runs[runs.indexOf(label) + 1];
    expect(runs).toContain("CREDIT NOTE");
    expect(runs).toContain(number);
    expect(after("CORRECTS TAX INVOICE")).toBe(formatInvoiceNumber(order.invoiceNumber));
    for (const s of ["Scentara Fragrances (Pty) Ltd", "VAT registration number 4123456789", "373 Albert Road, Woodstock", shopper.email]) expect(runs).toContain(s);
    const at = runs.indexOf("Oud Noir 100 ml");
    expect(runs.slice(at + 1, at + 4)).toEqual(["2", "R349.99", "R699.98"]);
    expect(after("Goods returned")).toBe("R699.98");
    expect(after("Total credited (including VAT)")).toBe(formatRand(amount));
    expect(after("VAT at 15% credited")).toBe(formatRand(vatInInclusiveTotal(amount)));
    // … and as a PDF reader extracts it: words, not letters
    const read = (await pdfReaderLines(pdf)).join("\n");
    expect(read).toContain("CREDIT NOTE");
    expect(read).toContain(`CORRECTS TAX INVOICE ${formatInvoiceNumber(order.invoiceNumber)}`);
    expect(read).toContain(`includes VAT of ${formatRand(vatInInclusiveTotal(amount))} at 15%`);
    expect(read).not.toMatch(/\b[A-Z] [A-Z] [A-Z]\b/);

    // the order and its invoice stand as they were; the refund stands beside them
    const after2 = await db().selectFrom("orders").select(["total_amount_cents", "invoice_number", "status", "payment_status"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(after2).toMatchObject({ total_amount_cents: order.totalAmountCents, invoice_number: order.invoiceNumber, status: "delivered", payment_status: "completed" });
    const today = new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const csv = (await callLoader(exportLoader, `/admin/orders/export.csv?from=${today}&to=${today}&status=paid`, as(admin))) as Response;
    const [header, ...rows] = parse(new TextDecoder().decode(new Uint8Array(await csv.arrayBuffer()))) as string[][];
    const row = rows.find((r) => r[header!.indexOf("Order ID")] === order.id)!;
    expect(row[header!.indexOf("Total (ZAR)")]).toBe((order.totalAmountCents / 100).toFixed(2));
    expect(row[header!.indexOf("Refunds (ZAR)")]).toBe((amount / 100).toFixed(2));
    const totals = await salesTotals(db(), { from: today, to: today });
    const csvRefunds = rows.reduce((s, r) => s + Math.round(Number(r[header!.indexOf("Refunds (ZAR)")]) * 100), 0);
    expect(totals.refundedCents).toBe(csvRefunds);

    // the shopper's page now shows the refund and its credit note
    const done = await dataOf(await callLoader(returnPageLoader, path(order.id), { ...as(shopper), params: { id: order.id } }));
    expect(done.returns[0]).toMatchObject({ status: "refunded", refundCents: amount, creditNote: { number, href: `/returns/${ret.id}/credit-note.pdf` } });
    // the tester is still theirs to return
    expect(done.blocked).toBeNull();
  });

  it("the last item back brings the delivery with it, and the two refunds add up to what was paid", async () => {
    const order = await deliveredOrder();
    const [bottles, tester] = order.lines;
    const refundAll = async (lineId: string, qty: number) => {
      await request(order.id, { reason: "changed_mind", [`qty.${lineId}`]: String(qty) });
      const ret = await returnOf(order.id);
      await step(ret.id, { intent: "approve" });
      await step(ret.id, { intent: "receive" });
      const detail = await dataOf(await callLoader(adminReturnLoader, `/admin/returns/${ret.id}`, { ...as(admin), params: { id: ret.id } }));
      expect(await dataOf(await step(ret.id, { intent: "refund", amount: (detail.refund.amountCents / 100).toFixed(2), method: "eft", reference: "FNB 123" }))).toMatchObject({ ok: true });
      return detail.refund;
    };
    const first = await refundAll(bottles!.id, 2);
    expect(first.deliveryCents).toBe(0);
    const second = await refundAll(tester!.id, 1);
    expect(second.deliveryCents).toBe(7000);
    expect(first.amountCents + second.amountCents).toBe(order.totalAmountCents);
    const page = await dataOf(await callLoader(returnPageLoader, path(order.id), { ...as(shopper), params: { id: order.id } }));
    expect(page.blocked).toBe(RETURN_MESSAGES.nothingLeft);
    // nothing is left to refund: a third refund could not be made
    const numbers = (await db().selectFrom("returns").select("credit_note_number").where("order_id", "=", order.id).orderBy("credit_note_number").execute()).map((r) => Number(r.credit_note_number));
    expect(numbers[1]).toBeGreaterThan(numbers[0]!);
  });
});

describe("bad input is refused with a clear message, and nothing changes", () => {
  it("a return outside the cooling-off window (a faulty item may still come back)", async () => {
    const order = await deliveredOrder({ daysAgo: 9 });
    const before = await snapshotDatabase(db());
    const refused = await request(order.id, { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1" });
    expect(statusOf(refused)).toBe(409);
    expect((await dataOf(refused)).error).toMatch(/^The 7-day cooling-off period for this order ended on \d+ \w+ \d{4}\. If an item is faulty/);
    expect(await snapshotDatabase(db())).toEqual(before);
    expect(statusOf(await request(order.id, { reason: "faulty", [`qty.${order.lines[0]!.id}`]: "1", opened: "on" }))).toBe(303);
  });

  it("a longer window set by the owner is honoured", async () => {
    configure({ RETURN_WINDOW_DAYS: "14" });
    const order = await deliveredOrder({ daysAgo: 9 });
    expect(statusOf(await request(order.id, { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1" }))).toBe(303);
  });

  it("someone else's order: not found, exactly like an order that doesn't exist", async () => {
    const order = await deliveredOrder();
    const before = await snapshotDatabase(db());
    const theirs = await request(order.id, { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1" }, other);
    const missing = await request(crypto.randomUUID(), { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1" }, other);
    expect([statusOf(theirs), statusOf(missing)]).toEqual([404, 404]);
    expect((await dataOf(theirs)).error).toBe((await dataOf(missing)).error);
    expect(statusOf(await callLoader(returnPageLoader, path(order.id), { ...as(other), params: { id: order.id } }))).toBe(404);
    expect(await snapshotDatabase(db())).toEqual(before);
  });

  it("a refund larger than what was paid", async () => {
    const order = await deliveredOrder();
    await request(order.id, { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1" });
    const ret = await returnOf(order.id);
    await step(ret.id, { intent: "approve" });
    await step(ret.id, { intent: "receive" });
    const before = await snapshotDatabase(db());
    const tooMuch = await step(ret.id, { intent: "refund", amount: ((order.totalAmountCents + 1) / 100).toFixed(2), method: "eft", reference: "" });
    expect(statusOf(tooMuch)).toBe(400);
    expect((await dataOf(tooMuch)).error).toBe(RETURN_MESSAGES.refundTooLarge(order.totalAmountCents));
    for (const amount of ["0", "-5", "12.345", "lots"]) {
      const bad = await step(ret.id, { intent: "refund", amount, method: "eft", reference: "" });
      expect(statusOf(bad), amount).toBe(400);
    }
    expect(await snapshotDatabase(db())).toEqual(before);
  });

  it("more than is left, an open return already, an undelivered order, a decline without a message, a step out of turn", async () => {
    const order = await deliveredOrder();
    const line = order.lines[0]!.id;
    expect((await dataOf(await request(order.id, { reason: "changed_mind", [`qty.${line}`]: "3" }))).error).toBe(RETURN_MESSAGES.tooMany("Oud Noir 100 ml", 2));
    expect((await dataOf(await request(order.id, { reason: "changed_mind" }))).error).toBe(RETURN_MESSAGES.noItems);
    expect((await dataOf(await request(order.id, { reason: "because", [`qty.${line}`]: "1" }))).error).toBe("Choose why you are returning the items");
    expect(statusOf(await request(order.id, { reason: "changed_mind", [`qty.${line}`]: "1" }))).toBe(303);
    const before = await snapshotDatabase(db());
    expect((await dataOf(await request(order.id, { reason: "changed_mind", [`qty.${order.lines[1]!.id}`]: "1" }))).error).toBe(RETURN_MESSAGES.openReturn);
    const ret = await returnOf(order.id);
    expect((await dataOf(await step(ret.id, { intent: "decline", message: "   " }))).error).toBe(RETURN_MESSAGES.declineNeedsMessage);
    expect((await dataOf(await step(ret.id, { intent: "receive" }))).error).toBe(RETURN_MESSAGES.notApproved);
    expect((await dataOf(await step(ret.id, { intent: "refund", amount: "10.00", method: "eft" }))).error).toBe(RETURN_MESSAGES.notReceived);
    expect(await snapshotDatabase(db())).toEqual(before);

    const pending = await insertAwaitingOrder(db(), { userId: shopper.id });
    await db().transaction().execute((trx) => markOrderPaid(trx, pending.id));
    expect((await dataOf(await request(pending.id, { reason: "changed_mind", [`qty.${pending.lines[0]!.id}`]: "1" }))).error).toBe(RETURN_MESSAGES.notDelivered);
  });

  it("the owner's exclusion refuses an opened bottle in the cooling-off period with the owner's reasoning", async () => {
    configure({ RETURN_EXCLUDE_OPENED: "true", RETURN_EXCLUSION_REASON: "Opened fragrances can't be resold, for hygiene reasons." });
    const order = await deliveredOrder();
    const refused = await request(order.id, { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1", opened: "on" });
    expect((await dataOf(refused)).error).toBe(RETURN_MESSAGES.excludedOpened("Opened fragrances can't be resold, for hygiene reasons."));
    expect(statusOf(await request(order.id, { reason: "faulty", [`qty.${order.lines[0]!.id}`]: "1", opened: "on" }))).toBe(303);
  });

  it("two requests at once: one return, the other told a return is already in progress", async () => {
    const order = await deliveredOrder();
    const form = { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1" };
    const results = await Promise.all([request(order.id, form), request(order.id, form)]);
    expect(results.map(statusOf).sort()).toEqual([303, 409]);
    expect(await dataOf(results.find((r) => statusOf(r) === 409))).toMatchObject({ error: RETURN_MESSAGES.openReturn });
    expect((await db().selectFrom("returns").select("id").where("order_id", "=", order.id).execute()).length).toBe(1);
  });
});

describe("a declined return", () => {
  it("tells the shopper why, changes no stock, and frees its items to be asked for again", async () => {
    const order = await deliveredOrder();
    const line = order.lines[0]!.id;
    await request(order.id, { reason: "changed_mind", [`qty.${line}`]: "2" });
    const ret = await returnOf(order.id);
    expect(await dataOf(await step(ret.id, { intent: "decline", message: "These bottles were sold as a sealed gift set." }))).toMatchObject({ ok: true, message: RETURN_MESSAGES.declined });
    expect(await returnOf(order.id)).toMatchObject({ status: "declined", owner_message: "These bottles were sold as a sealed gift set." });
    const mail = (await outboxFor(db(), shopper.email)).find((m) => m.subject === `Scentara: your return for order ${order.id.slice(0, 8)} was declined`)!;
    expect(mail.text_body).toContain("These bottles were sold as a sealed gift set.");
    expect(await stockOf(order.tracked.id)).toBe(8);
    // declined and final: no step moves it on
    expect((await dataOf(await step(ret.id, { intent: "approve" }))).error).toBe(RETURN_MESSAGES.notRequested);
    expect(statusOf(await request(order.id, { reason: "faulty", [`qty.${line}`]: "2" }))).toBe(303);
  });
});

describe("stock and the order's own bookkeeping", () => {
  it("bottles put back on the shelf are not given back again when the order is cancelled later", async () => {
    const order = await deliveredOrder();
    await request(order.id, { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1" });
    const ret = await returnOf(order.id);
    await step(ret.id, { intent: "approve" });
    const [line] = await db().selectFrom("return_lines").select("id").where("return_id", "=", ret.id).execute();
    await step(ret.id, { intent: "receive", [`restock.${line!.id}`]: "5" }); // more than came back: capped at 1
    expect(await stockOf(order.tracked.id)).toBe(9);
    await setOrderStatus(db(), order.id, "cancelled");
    expect(await stockOf(order.tracked.id)).toBe(10);
  });

  it("an overdue refund is flagged in the admin list", async () => {
    const order = await deliveredOrder();
    await request(order.id, { reason: "changed_mind", [`qty.${order.lines[0]!.id}`]: "1" });
    const ret = await returnOf(order.id);
    await db().updateTable("returns").set({ refund_due_at: new Date(Date.now() - 2 * DAY).toISOString() }).where("id", "=", ret.id).execute();
    const list = await dataOf(await callLoader(adminReturnsLoader, "/admin/returns?tab=overdue", as(admin)));
    expect(list.counts.overdue).toBeGreaterThanOrEqual(1);
    expect(list.list.rows.find((r: { id: string }) => r.id === ret.id)).toMatchObject({ overdue: true, dueText: "2 days overdue" });
  });
});
