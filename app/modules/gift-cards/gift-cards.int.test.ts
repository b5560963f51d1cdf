import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { checkout } from "~/modules/flows/checkout.server";
import { checkoutSchema } from "~/modules/orders/orders.schema";
import { placeOrder } from "~/modules/flows/order-placed.server";
import { expireUnpaidOrders } from "~/modules/flows/order-expired.server";
import { holdPolicy } from "~/modules/orders/order-expiry.logic";
import { setOrderStatus } from "~/modules/flows/order-changed-by-owner.server";
import { getInvoiceForViewer } from "~/modules/invoices/invoice.server";
import { newId } from "~/utils/ids";
import { insertProduct } from "../../../tests/factories/catalog";
import { TEST_ADDRESS } from "../../../tests/factories/orders";
import { postWebhook, simulatedWebhook } from "../../../tests/factories/payments";
import { setTestEnv } from "../../../tests/factories/env";
import { normalizeGiftCardCode } from "./gift-card-code.logic";
import { GIFT_CARD_MESSAGES } from "./gift-card-payments.logic";
import { GiftCardChangedError, giftCardPaymentsOf, lookUpGiftCard, resolveGiftCardCodes } from "./gift-card-orders.server";
import { cancelGiftCard, expireGiftCards, expiryFor, findGiftCard, giftCardLedger, issueGiftCard, ledgerSum, listGiftCards, SYSTEM, type Actor } from "./gift-cards.server";

const db = () => getDb();
const ADMIN: Actor = { kind: "admin", id: null };

async function newBuyer() {
  const buyer = { id: newId(), email: `gift-${newId().slice(0, 8)}@example.test` };
  await db().insertInto("users").values({ id: buyer.id, email: buyer.email, is_admin: false, email_verified: false, email_notifications: true, email_marketing: false }).execute();
  return buyer;
}

/** The checkout form as the page posts it, for one product at `priceCents`, paid partly with `codes`. */
async function checkoutFields(priceCents: number, codes: string[], extra: Record<string, string> = {}) {
  const product = await insertProduct(db(), { price_cents: priceCents });
  return checkoutSchema.parse({ ...TEST_ADDRESS, lines: JSON.stringify([{ productId: product.id, quantity: 1 }]), checkoutToken: crypto.randomUUID(), giftCardCodes: codes.join(","), ...extra });
}

async function orderOf(token: string) {
  return db().selectFrom("orders").selectAll().where("checkout_token", "=", token).executeTakeFirstOrThrow();
}

async function balanceOf(id: string) {
  const card = (await findGiftCard(db(), id))!;
  // The balance is the ledger's sum, always.
  expect(await ledgerSum(db(), id)).toBe(card.balanceCents);
  return card.balanceCents;
}

let buyer: { id: string; email: string };
beforeAll(async () => {
  buyer = await newBuyer();
});

describe("issuing", () => {
  it("a card gets a readable code shown once, stored only as a hash and its last four, with an issue entry and a 3-year expiry", async () => {
    const now = new Date("2026-03-05T10:00:00Z");
    const issued = await issueGiftCard(db(), { amountCents: 50000, recipientEmail: " Thandi@Example.test ", note: "Sorry about the late parcel", actor: ADMIN, now });
    expect(issued.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(issued.last4).toBe(issued.code.slice(-4));
    expect(issued.expiresAt).toBe("2029-03-05T10:00:00.000Z");
    const row = await db().selectFrom("gift_cards").selectAll().where("id", "=", issued.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(normalizeGiftCardCode(issued.code));
    expect(row.recipient_email).toBe("thandi@example.test");
    const ledger = await giftCardLedger(db(), issued.id);
    expect(ledger).toMatchObject([{ kind: "issue", amountCents: 50000, balanceAfterCents: 50000, actorKind: "admin", note: "Sorry about the late parcel" }]);
    expect(await balanceOf(issued.id)).toBe(50000);
  });

  it("expiry keeps the day of the month, or the month's last day; nothing under 36 months is accepted as the setting", () => {
    expect(expiryFor(new Date("2028-02-29T08:00:00Z"), 36)).toBe("2031-02-28T08:00:00.000Z");
    const restore = setTestEnv({ GIFT_CARD_EXPIRY_MONTHS: "24" });
    try {
      expect(() => expiryFor(new Date())).toThrow();
    } finally {
      restore();
    }
  });

  it("the owner's list finds a card by its last four or its recipient's e-mail", async () => {
    const card = await issueGiftCard(db(), { amountCents: 25000, recipientEmail: "list-me@example.test", actor: ADMIN });
    expect((await listGiftCards(db(), { q: card.last4.toLowerCase(), page: 1 })).rows.map((r) => r.id)).toContain(card.id);
    expect((await listGiftCards(db(), { q: "list-me@", page: 1 })).rows.map((r) => r.id)).toEqual([card.id]);
  });
});

describe("paying at checkout", () => {
  it("a card that covers the order pays it at once: no provider, processing, invoiced, shown as a payment on the invoice", async () => {
    const card = await issueGiftCard(db(), { amountCents: 100000, actor: ADMIN });
    const input = await checkoutFields(34999, [card.code.toLowerCase()]);
    const { redirectTo } = await checkout(db(), buyer, input, { ip: "10.0.0.1" });
    const order = await orderOf(input.checkoutToken!);
    expect(redirectTo).toBe(`/payment-status?orderId=${order.id}&status=success`);
    expect(order).toMatchObject({ status: "processing", payment_status: "completed", payment_provider: "gift_card", checkout_url: null });
    expect(order.gift_card_cents).toBe(order.total_amount_cents);
    expect(order.invoice_number).not.toBeNull();
    expect(await balanceOf(card.id)).toBe(100000 - order.total_amount_cents);
    const invoice = await getInvoiceForViewer(db(), order.id, { id: buyer.id, isAdmin: false });
    if (invoice.state !== "found") throw new Error("no invoice");
    const rows = invoice.invoice.totals.map((t) => `${t.label}: ${t.amount}`);
    // The total (and its VAT) is the goods and delivery; the card is a payment received below it, never a discount.
    expect(rows.findIndex((r) => r.startsWith(`Paid by gift card ending ${card.last4}`))).toBeGreaterThan(rows.findIndex((r) => r.startsWith("Total")));
    expect(rows.some((r) => r.startsWith("Discount"))).toBe(false);
    expect(invoice.invoice.amounts.totalCents).toBe(order.total_amount_cents);
  });

  it("a card that covers part: the provider is asked for the rest, and only that amount pays the order", async () => {
    const card = await issueGiftCard(db(), { amountCents: 10000, actor: ADMIN });
    const input = await checkoutFields(34999, [card.code]);
    const { redirectTo } = await checkout(db(), buyer, input, { ip: "10.0.0.1" });
    expect(redirectTo).toMatch(/^\/pay\/simulated\/sim_/);
    const order = await orderOf(input.checkoutToken!);
    expect(order).toMatchObject({ status: "pending", payment_status: "pending", gift_card_cents: 10000 });
    expect(await balanceOf(card.id)).toBe(0);
    const full = await postWebhook("simulated", simulatedWebhook(order.payment_id!, order.total_amount_cents));
    expect((await full.json()).outcome).toBe("amount_mismatch");
    const rest = await postWebhook("simulated", simulatedWebhook(order.payment_id!, order.total_amount_cents - 10000));
    expect((await rest.json()).outcome).toBe("paid");
    expect(await giftCardPaymentsOf(db(), order.id)).toEqual([{ cardId: card.id, last4: card.last4, amountCents: 10000 }]);
  });

  it("several cards pay in the order entered; the card not needed keeps its balance", async () => {
    const [a, b, c] = await Promise.all([15000, 50000, 20000].map((amountCents) => issueGiftCard(db(), { amountCents, actor: ADMIN })));
    const input = await checkoutFields(40000, [a!.code, b!.code, c!.code]);
    await checkout(db(), buyer, input, { ip: "10.0.0.1" });
    const order = await orderOf(input.checkoutToken!);
    expect(order.payment_status).toBe("completed");
    expect(await balanceOf(a!.id)).toBe(0);
    expect(await balanceOf(b!.id)).toBe(50000 - (order.total_amount_cents - 15000));
    expect(await balanceOf(c!.id)).toBe(20000);
  });

  it("a remainder under R2.00 is refused with the reason, and nothing is taken or placed", async () => {
    const product = await insertProduct(db(), { price_cents: 30000 });
    const probe = await placeOrder(db(), buyer, { lines: [{ productId: product.id, quantity: 1 }], shippingAddress: TEST_ADDRESS });
    const card = await issueGiftCard(db(), { amountCents: probe.totalAmountCents - 150, actor: ADMIN });
    const input = checkoutSchema.parse({ ...TEST_ADDRESS, lines: JSON.stringify([{ productId: product.id, quantity: 1 }]), checkoutToken: crypto.randomUUID(), giftCardCodes: card.code });
    await expect(checkout(db(), buyer, input, { ip: "10.0.0.1" })).rejects.toThrow(GIFT_CARD_MESSAGES.remainderTooSmall(150));
    expect(await db().selectFrom("orders").select("id").where("checkout_token", "=", input.checkoutToken!).execute()).toEqual([]);
    expect(await balanceOf(card.id)).toBe(probe.totalAmountCents - 150);
  });

  it("an expired or cancelled card is refused by name", async () => {
    const old = await issueGiftCard(db(), { amountCents: 5000, actor: ADMIN, now: new Date(Date.now() - 37 * 30 * 86_400_000) });
    const cancelled = await issueGiftCard(db(), { amountCents: 5000, actor: ADMIN });
    await cancelGiftCard(db(), cancelled.id, { actor: ADMIN });
    const who = { userId: buyer.id, ip: "10.0.0.2" };
    expect(await lookUpGiftCard(db(), old.code, who)).toMatchObject({ ok: false, error: GIFT_CARD_MESSAGES.expired });
    expect(await lookUpGiftCard(db(), cancelled.code, who)).toMatchObject({ ok: false, error: GIFT_CARD_MESSAGES.cancelled });
    expect((await giftCardLedger(db(), cancelled.id)).map((e) => [e.kind, e.amountCents])).toEqual([
      ["issue", 5000],
      ["cancel", -5000],
    ]);
  });
});

describe("giving back", () => {
  it("an order that expires unpaid releases what it took from the card (a system entry)", async () => {
    const placedAt = new Date(Date.now() - 2 * 60 * 60_000);
    const card = await issueGiftCard(db(), { amountCents: 10000, actor: ADMIN, now: new Date(placedAt.getTime() - 60_000) });
    const product = await insertProduct(db(), { price_cents: 34999 });
    const order = await placeOrder(db(), buyer, { lines: [{ productId: product.id, quantity: 1 }], shippingAddress: TEST_ADDRESS, giftCardIds: [card.id] }, placedAt);
    expect(await balanceOf(card.id)).toBe(0);
    const run = await expireUnpaidOrders(db(), { policy: holdPolicy(60), now: new Date() });
    expect(run.expired.map((e) => e.id)).toContain(order.id);
    expect(await balanceOf(card.id)).toBe(10000);
    expect((await giftCardLedger(db(), card.id)).map((e) => [e.kind, e.amountCents, e.actorKind])).toEqual([
      ["issue", 10000, "admin"],
      ["redemption", -10000, "user"],
      ["release", 10000, "system"],
    ]);
  });

  it("a paid order the owner cancels is refunded to the card; reopening it takes it again", async () => {
    const card = await issueGiftCard(db(), { amountCents: 100000, actor: ADMIN });
    const input = await checkoutFields(34999, [card.code]);
    await checkout(db(), buyer, input, { ip: "10.0.0.1" });
    const order = await orderOf(input.checkoutToken!);
    await setOrderStatus(db(), order.id, "cancelled");
    expect(await balanceOf(card.id)).toBe(100000);
    await setOrderStatus(db(), order.id, "processing");
    expect(await balanceOf(card.id)).toBe(100000 - order.total_amount_cents);
    expect((await giftCardLedger(db(), card.id)).map((e) => e.kind)).toEqual(["issue", "redemption", "refund", "redemption"]);
  });

  it("what an order gives back to a card cancelled meanwhile is void with the rest of it", async () => {
    const card = await issueGiftCard(db(), { amountCents: 10000, actor: ADMIN });
    const product = await insertProduct(db(), { price_cents: 34999 });
    const order = await placeOrder(db(), buyer, { lines: [{ productId: product.id, quantity: 1 }], shippingAddress: TEST_ADDRESS, giftCardIds: [card.id] });
    await cancelGiftCard(db(), card.id, { actor: ADMIN });
    await setOrderStatus(db(), order.id, "cancelled");
    expect(await balanceOf(card.id)).toBe(0);
    expect((await giftCardLedger(db(), card.id)).map((e) => [e.kind, e.amountCents])).toEqual([
      ["issue", 10000],
      ["redemption", -10000],
      ["release", 10000],
      ["cancel", -10000],
    ]);
  });

  it("the balance left after expiry is taken by the expiry run, once", async () => {
    const card = await issueGiftCard(db(), { amountCents: 7000, actor: ADMIN, now: new Date("2020-01-01T00:00:00Z") });
    expect(await expireGiftCards(db(), new Date())).toBeGreaterThanOrEqual(1);
    expect(await expireGiftCards(db(), new Date())).toBe(0);
    expect(await balanceOf(card.id)).toBe(0);
    expect((await giftCardLedger(db(), card.id)).map((e) => [e.kind, e.amountCents, e.actorKind])).toEqual([
      ["issue", 7000, "admin"],
      ["expiry", -7000, "system"],
    ]);
  });
});

describe("guessing", () => {
  it("wrong codes are throttled like sign-in: after 10 in 15 minutes even a right code waits; right codes don't count", async () => {
    const shopper = await newBuyer();
    const card = await issueGiftCard(db(), { amountCents: 5000, actor: ADMIN });
    const who = { userId: shopper.id, ip: "10.9.9.9" };
    for (let i = 0; i < 12; i++) expect(await lookUpGiftCard(db(), card.code, who)).toMatchObject({ ok: true });
    for (let i = 0; i < 10; i++) expect(await lookUpGiftCard(db(), "AAAA-BBBB-CCCC-DDDD", who)).toMatchObject({ ok: false, status: 404 });
    const blocked = await lookUpGiftCard(db(), card.code, who);
    expect(blocked).toMatchObject({ ok: false, status: 429 });
    if (!blocked.ok) expect(blocked.error).toMatch(/^Too many attempts, try again in \d+ minutes?$/);
    // The checkout's own look-up is the same counter: posting codes to /checkout is no way around it.
    await expect(resolveGiftCardCodes(db(), [card.code], who)).rejects.toThrow(/Too many attempts/);
    // 15 minutes later the window has passed.
    expect(await lookUpGiftCard(db(), card.code, who, new Date(Date.now() + 16 * 60_000))).toMatchObject({ ok: true });
  });
});

describe("concurrency", () => {
  it("20 checkouts spending one R500 card at once take at most R500 in total, and the ledger adds up", async () => {
    const card = await issueGiftCard(db(), { amountCents: 50000, actor: SYSTEM });
    const product = await insertProduct(db(), { price_cents: 15000 });
    const buyers = await Promise.all(Array.from({ length: 20 }, newBuyer));
    const results = await Promise.allSettled(
      buyers.map((b) => placeOrder(db(), b, { lines: [{ productId: product.id, quantity: 1 }], shippingAddress: TEST_ADDRESS, giftCardIds: [card.id] })),
    );
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(GiftCardChangedError);
    const placed = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(placed.length).toBeGreaterThan(0);
    const orders = await db().selectFrom("orders").select(["id", "gift_card_cents"]).where("id", "in", placed.map((o) => o.id)).execute();
    const taken = orders.reduce((s, o) => s + Number(o.gift_card_cents), 0);
    expect(taken).toBeLessThanOrEqual(50000);
    expect(await balanceOf(card.id)).toBe(50000 - taken);
    const redemptions = (await giftCardLedger(db(), card.id)).filter((e) => e.kind === "redemption");
    expect(redemptions.reduce((s, e) => s - e.amountCents, 0)).toBe(taken);
    expect(new Set(redemptions.map((e) => e.orderId))).toEqual(new Set(orders.filter((o) => Number(o.gift_card_cents) > 0).map((o) => o.id)));
    expect(redemptions.every((e) => e.balanceAfterCents >= 0)).toBe(true);
  });
});
