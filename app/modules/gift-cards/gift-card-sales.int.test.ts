import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { placeOrder } from "~/modules/flows/order-placed.server";
import { quoteCart } from "~/modules/cart/cart-quote.server";
import { setOrderStatus } from "~/modules/flows/order-changed-by-owner.server";
import { getInvoiceForViewer } from "~/modules/invoices/invoice.server";
import { vatInInclusiveTotal } from "~/modules/invoices/invoice.logic";
import { loader as pdfLoader } from "~/routes/orders.gift-card[.]pdf";
import { resetEnvForTests } from "~/utils/env.server";
import { addDays, saDay } from "~/utils/sa-days";
import { insertProduct } from "../../../tests/factories/catalog";
import { insertCoupon, TEST_ADDRESS } from "../../../tests/factories/orders";
import { postWebhook, simulatedWebhook } from "../../../tests/factories/payments";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";
import { pdfText } from "../../../tests/factories/pdf-text";
import { callLoader, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { normalizeGiftCardCode } from "./gift-card-code.logic";
import { resolveGiftCardCodes } from "./gift-card-orders.server";
import { GIFT_CARD_PRODUCT_ID, giftCardToken, type GiftCardRequest } from "./gift-card-sales.logic";
import { GIFT_CARD_SALE_MESSAGES, giftCardPdfPath, saveGiftCardSaleSettings, sendDueGiftCardEmails, soldGiftCardsOfOrder } from "./gift-card-sales.server";
import { appendEntry, findGiftCardByCode, giftCardLedger } from "./gift-cards.server";
import { syncSavedCart } from "~/modules/cart/saved-cart.server";

/**
 * Gift cards sold (docs/decisions/053 "Selling gift cards") on the real database (both engines) and a real SMTP
 * server: priced by the server from the owner's settings, no VAT or delivery on them, issued once when the verified
 * payment arrives (a replayed webhook issues nothing), e-mailed once now or on their day, cancelled with their order.
 */
const db = () => getDb();
const VAT_SHOP = { SHOP_VAT_NUMBER: "4123456789", SHOP_ADDRESS: "Unit 4, The Old Biscuit Mill | 373 Albert Road, Woodstock | Cape Town 7925" };
let mail: MailServer;
let buyer: TestUser;

beforeAll(async () => {
  mail = await startMailServer();
  Object.assign(process.env, VAT_SHOP, { SMTP_URL: mail.url });
  resetEnvForTests();
  await saveGiftCardSaleSettings(db(), { enabled: true, amountsCents: [25000, 50000, 100000], minCents: 10000, maxCents: 500000 });
  buyer = await createUser(db(), { email: "sipho.buyer@example.co.za" });
});
afterAll(async () => {
  for (const k of [...Object.keys(VAT_SHOP), "SMTP_URL"]) delete process.env[k];
  resetEnvForTests();
  await mail.close();
});
beforeEach(() => mail.clear());

const today = () => saDay(new Date());
const card = (r: Partial<GiftCardRequest> = {}, quantity = 1) => ({
  productId: GIFT_CARD_PRODUCT_ID,
  sizeId: giftCardToken({ amountCents: 50000, recipientName: "Thandi", recipientEmail: `thandi.${Math.random().toString(36).slice(2, 8)}@example.co.za`, senderName: "Sipho", message: "Happy birthday!\nLove, S", sendOn: today(), ...r }),
  quantity,
});

/** Places the order and pays it through the verified simulated webhook, as the provider would. */
async function buyAndPay(lines: Array<{ productId: string; sizeId?: string; quantity: number }>, user: TestUser = buyer) {
  const order = await placeOrder(db(), user, { lines, shippingAddress: TEST_ADDRESS });
  const checkoutId = `sim_${order.id}`;
  await db().updateTable("orders").set({ payment_provider: "simulated", payment_id: checkoutId }).where("id", "=", order.id).execute();
  const webhook = simulatedWebhook(checkoutId, order.totalAmountCents);
  expect((await postWebhook("simulated", webhook)).status).toBe(200);
  return { order, webhook };
}

function codeIn(text: string | undefined): string {
  const m = /Your gift card code: ([A-Z0-9-]{19})/.exec(text ?? "");
  if (!m) throw new Error(`no code in: ${text}`);
  return m[1]!;
}

describe("quote", () => {
  it("prices a card at its amount from the settings, with no delivery and no VAT on it", async () => {
    const q = await quoteCart(db(), { lines: [card()] });
    expect(q.missingProductIds).toEqual([]);
    expect(q.lines[0]).toMatchObject({ name: "Gift card for Thandi", sizeLabel: "R500.00", unitPriceCents: 50000, isGiftCard: true });
    expect(q.totals).toMatchObject({ subtotalCents: 50000, shippingCents: 0, totalCents: 50000, vatIncludedCents: 0 });
  });

  it("refuses an amount the owner doesn't sell and a token it can't read, as items no longer available", async () => {
    const odd = card({ amountCents: 12345 });
    const tiny = card({ amountCents: 5000 });
    const q = await quoteCart(db(), { lines: [odd, tiny, { productId: GIFT_CARD_PRODUCT_ID, sizeId: "gift:{nope", quantity: 1 }] });
    expect(q.lines).toHaveLength(0);
    expect(q.missingProductIds).toHaveLength(3);
    // any whole rand in the range is sold
    expect((await quoteCart(db(), { lines: [card({ amountCents: 73000 })] })).lines[0]?.unitPriceCents).toBe(73000);
  });

  it("a coupon discounts the goods only; delivery and the VAT are those of the goods", async () => {
    const p = await insertProduct(db(), { name: "Amber Lantern", price_cents: 89900 });
    const coupon = await insertCoupon(db(), { code: `TEN${Math.floor(Math.random() * 1e6)}`, discount_type: "percentage", discount_value: 10 });
    const q = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }, card()], couponCode: coupon.code });
    expect(q.totals.discountCents).toBe(8990);
    const goods = 89900 - 8990 + q.totals.shippingCents;
    expect(q.totals.totalCents).toBe(goods + 50000);
    expect(q.totals.vatIncludedCents).toBe(vatInInclusiveTotal(goods));
  });
});

describe("the signed-in shopper's saved cart", () => {
  it("keeps a gift card line, named and priced from its token, so signing in never drops it", async () => {
    const line = card();
    const synced = await syncSavedCart(db(), buyer.id, { lines: [line], baseVersion: null, owner: null });
    expect(synced.lines).toEqual([{ id: GIFT_CARD_PRODUCT_ID, size: line.sizeId, sizeLabel: "R500.00", name: "Gift card for Thandi", price: 50000, quantity: 1 }]);
  });
});

describe("bought and paid", () => {
  it("issues one card when the payment is confirmed and a replayed webhook issues nothing more; the recipient gets its code at once, once, and it pays", async () => {
    const line = card();
    const { order, webhook } = await buyAndPay([line]);
    expect((await postWebhook("simulated", webhook)).status).toBe(200);
    await sendDueGiftCardEmails(db());

    const sold = await soldGiftCardsOfOrder(db(), order.id);
    expect(sold).toHaveLength(1);
    expect(sold[0]).toMatchObject({ amountCents: 50000, balanceCents: 50000, status: "active", recipientName: "Thandi" });
    const ledger = await giftCardLedger(db(), sold[0]!.id);
    expect(ledger.map((e) => [e.kind, e.amountCents, e.actorKind, e.orderId])).toEqual([["issue", 50000, "system", order.id]]);

    const recipient = JSON.parse(line.sizeId.slice(5)).email as string;
    const toRecipient = mail.received.filter((m) => (m.to && !Array.isArray(m.to) ? m.to.text : "") === recipient);
    expect(toRecipient).toHaveLength(1);
    expect(toRecipient[0]!.subject).toBe("Sipho sent you a Scentara gift card");
    expect(toRecipient[0]!.text).toContain("Happy birthday!");
    const attachment = toRecipient[0]!.attachments[0]!;
    expect(attachment.contentType).toBe("application/pdf");
    const code = codeIn(toRecipient[0]!.text);
    expect(code.endsWith(sold[0]!.last4)).toBe(true);
    expect(pdfText(attachment.content)).toContain("R500.00");

    // the code is a real card: it pays an order
    const found = await findGiftCardByCode(db(), normalizeGiftCardCode(code)!);
    expect(found?.id).toBe(sold[0]!.id);
    const spender = await createUser(db());
    const p = await insertProduct(db(), { price_cents: 30000 });
    const ids = await resolveGiftCardCodes(db(), [code], { userId: spender.id, ip: "203.0.113.9" });
    const spent = await placeOrder(db(), spender, { lines: [{ productId: p.id, quantity: 1 }], shippingAddress: TEST_ADDRESS, giftCardIds: ids });
    expect(spent.giftCardCents).toBe(spent.totalAmountCents);
  });

  it("a card dated later is e-mailed on its day (South African calendar), once", async () => {
    const later = addDays(today(), 3);
    const { order } = await buyAndPay([card({ sendOn: later })]);
    expect(mail.received.filter((m) => m.subject?.includes("gift card"))).toHaveLength(0);
    expect(await sendDueGiftCardEmails(db(), { now: new Date(Date.now() + 2 * 86_400_000) })).toBe(0);
    const onTheDay = new Date(Date.parse(`${later}T06:00:00.000Z`));
    expect(await sendDueGiftCardEmails(db(), { now: onTheDay })).toBe(1);
    expect(await sendDueGiftCardEmails(db(), { now: onTheDay })).toBe(0);
    expect((await soldGiftCardsOfOrder(db(), order.id))[0]!.emailedAt).not.toBeNull();
    expect(mail.received.filter((m) => m.subject === "Sipho sent you a Scentara gift card")).toHaveLength(1);
  });

  it("a card for the buyer goes to the buyer's own address; two of a line are two cards", async () => {
    const { order } = await buyAndPay([card({ recipientName: null, recipientEmail: null, senderName: null, message: null, amountCents: 25000 }, 2)]);
    const sold = await soldGiftCardsOfOrder(db(), order.id);
    expect(sold.map((c) => c.amountCents)).toEqual([25000, 25000]);
    const mine = mail.received.filter((m) => m.subject === "Your Scentara gift card of R250.00");
    expect(mine).toHaveLength(2);
    expect(new Set(mine.map((m) => codeIn(m.text))).size).toBe(2);
    expect(mine.every((m) => (m.to && !Array.isArray(m.to) ? m.to.text : "") === "sipho.buyer@example.co.za")).toBe(true);
  });

  it("the tax invoice of a mixed order shows the card as not subject to VAT, the VAT exact on the goods and delivery", async () => {
    const p = await insertProduct(db(), { name: "Velvet Rose", price_cents: 89900 });
    const { order } = await buyAndPay([{ productId: p.id, quantity: 1 }, card({ amountCents: 100000 })]);
    const found = await getInvoiceForViewer(db(), order.id, { id: buyer.id, isAdmin: false });
    if (found.state !== "found") throw new Error(found.state);
    const goods = order.totalAmountCents - 100000;
    expect(found.invoice.amounts.vatCents).toBe(vatInInclusiveTotal(goods));
    expect(found.invoice.lines.map((l) => l.description)).toContain("Gift card for Thandi (R1 000.00) - not subject to VAT");
    expect(found.invoice.vatNote).toContain("VAT Act s10(18)");
  });

  it("a gift card can't be paid for with another gift card", async () => {
    const first = await buyAndPay([card({ recipientName: null, recipientEmail: null })]);
    const [own] = await soldGiftCardsOfOrder(db(), first.order.id);
    await expect(placeOrder(db(), buyer, { lines: [card()], shippingAddress: TEST_ADDRESS, giftCardIds: [own!.id] })).rejects.toThrow(GIFT_CARD_SALE_MESSAGES.notWithGiftCard);
  });

  it("a card the buyer spent before its day (printed and used) is not e-mailed to its recipient empty", async () => {
    const later = addDays(today(), 4);
    const { order } = await buyAndPay([card({ sendOn: later }), card({ sendOn: later, amountCents: 25000 })]);
    const [spent, kept] = await soldGiftCardsOfOrder(db(), order.id);
    await db()
      .transaction()
      .execute((trx) => appendEntry(trx, spent!.id, "redemption", -spent!.balanceCents, { actor: { kind: "user", id: buyer.id } }));
    const onTheDay = new Date(Date.parse(`${later}T06:00:00.000Z`));
    expect(await sendDueGiftCardEmails(db(), { now: onTheDay })).toBe(1);
    const after = await soldGiftCardsOfOrder(db(), order.id);
    expect(after.find((c) => c.id === spent!.id)).toMatchObject({ balanceCents: 0, emailedAt: null });
    expect(after.find((c) => c.id === kept!.id)!.emailedAt).not.toBeNull();
    expect(mail.received.filter((m) => m.subject === "Sipho sent you a Scentara gift card")).toHaveLength(1);
  });

  it("the owner cancelling the paid order cancels its unspent card and its e-mail never goes", async () => {
    const { order } = await buyAndPay([card({ sendOn: addDays(today(), 5) })]);
    await setOrderStatus(db(), order.id, "cancelled");
    const [cancelled] = await soldGiftCardsOfOrder(db(), order.id);
    expect(cancelled).toMatchObject({ status: "cancelled", balanceCents: 0 });
    expect((await giftCardLedger(db(), cancelled!.id)).map((e) => e.kind)).toEqual(["issue", "cancel"]);
    expect(await sendDueGiftCardEmails(db(), { now: new Date(Date.now() + 6 * 86_400_000) })).toBe(0);
  });

  it("the buyer downloads the printable card; anyone else gets 404", async () => {
    const { order } = await buyAndPay([card()]);
    const [sold] = await soldGiftCardsOfOrder(db(), order.id);
    const path = giftCardPdfPath(order.id, sold!.id);
    const params = { id: order.id, cardId: sold!.id };
    const res = (await callLoader(pdfLoader, path, { headers: { cookie: await sessionCookieFor(db(), buyer.id) }, params })) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    const text = pdfText(bytes);
    expect(text).toContain("R500.00");
    expect(text).toContain(sold!.last4);
    const stranger = await createUser(db());
    expect(statusOf(await callLoader(pdfLoader, path, { headers: { cookie: await sessionCookieFor(db(), stranger.id) }, params }))).toBe(404);
  });
});
