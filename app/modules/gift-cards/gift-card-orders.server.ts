/**
 * Gift cards as a payment for orders (docs/decisions/053). Like a coupon's redemption (docs/decisions/016), an order
 * holds what it took from its cards while it is not cancelled:
 *   RESERVED when the order is placed (a redemption entry per card, conditional on the balance, in the placement's
 *   transaction), RELEASED when the order closes unpaid (expired, cancelled, failed, superseded), REFUNDED back to the
 *   cards when a paid order is cancelled, and taken again if the owner reopens it.
 * What an order holds of a card is minus the sum of that card's entries for the order; what it was paid with is its
 * first redemption of each card.
 */
import type { Queryable, Trx } from "~/db/db.server";
import { addressKey, consume, refund, tooManyAttemptsMessage, type RateRule } from "~/modules/accounts/rate-limit.server";
import { DomainError } from "~/utils/errors";
import { formatRand } from "~/utils/money";
import { normalizeGiftCardCode } from "./gift-card-code.logic";
import { GIFT_CARD_MESSAGES, MAX_GIFT_CARDS_PER_ORDER, remainderTooSmall, splitGiftCardPayment, type GiftCardSplit } from "./gift-card-payments.logic";
import { appendEntry, findGiftCardByCode, isUsable, SYSTEM, type Actor, type GiftCardRecord } from "./gift-cards.server";
import { setOrderGiftCardCents } from "~/modules/orders/order-writes.server";

const MINUTE = 60_000;

/**
 * Looking codes up is throttled like signing in (docs/decisions/005): attempts are counted per address and per
 * account before the code is looked up, and a code that exists gives its attempts back, so only wrong guesses count.
 * Ten wrong codes per account and thirty per address in 15 minutes: at that pace, finding one of even a million live
 * 80-bit codes takes longer than the universe has existed.
 */
export const GIFT_CARD_RATE_RULES = {
  lookupIp: { max: 30, windowMs: 15 * MINUTE },
  lookupUser: { max: 10, windowMs: 15 * MINUTE },
} satisfies Record<string, RateRule>;

export const giftCardRateKey = {
  ip: (ip: string) => `giftcard:ip:${addressKey(ip)}`,
  user: (userId: string) => `giftcard:user:${userId}`,
};

export interface Looker {
  userId: string;
  ip: string;
}

export type GiftCardLookup = { ok: true; code: string; card: GiftCardRecord } | { ok: false; error: string; status: number };

/** One code as the shopper typed it: the card if it exists and can pay, or why not. Throttled (see above). */
export async function lookUpGiftCard(db: Queryable, typed: string, who: Looker, now: Date = new Date()): Promise<GiftCardLookup> {
  const code = normalizeGiftCardCode(typed);
  if (!code) return { ok: false, error: GIFT_CARD_MESSAGES.malformed, status: 400 };
  const keys = [
    { key: giftCardRateKey.ip(who.ip), rule: GIFT_CARD_RATE_RULES.lookupIp },
    { key: giftCardRateKey.user(who.userId), rule: GIFT_CARD_RATE_RULES.lookupUser },
  ];
  let refusedFor = 0;
  for (const { key, rule } of keys) {
    const result = await consume(db, key, rule, now.getTime());
    if (!result.allowed) refusedFor = Math.max(refusedFor, result.retryAfterMs || 1);
  }
  if (refusedFor) return { ok: false, error: tooManyAttemptsMessage(refusedFor), status: 429 };
  const card = await findGiftCardByCode(db, code);
  if (!card) return { ok: false, error: GIFT_CARD_MESSAGES.notFound, status: 404 };
  for (const { key } of keys) await refund(db, key);
  if (card.status !== "active") return { ok: false, error: GIFT_CARD_MESSAGES.cancelled, status: 409 };
  if (!isUsable(card, now)) return { ok: false, error: GIFT_CARD_MESSAGES.expired, status: 409 };
  if (card.balanceCents <= 0) return { ok: false, error: GIFT_CARD_MESSAGES.empty, status: 409 };
  return { ok: true, code, card };
}

/** The cards behind the codes posted with an order, in the order given; the first problem refuses the checkout. */
export async function resolveGiftCardCodes(db: Queryable, codes: string[], who: Looker, now: Date = new Date()): Promise<string[]> {
  const distinct = [...new Set(codes.map((c) => normalizeGiftCardCode(c) ?? c))];
  if (distinct.length > MAX_GIFT_CARDS_PER_ORDER) throw new DomainError(GIFT_CARD_MESSAGES.tooMany, 400, "giftCardCodes");
  const ids: string[] = [];
  for (const typed of distinct) {
    const found = await lookUpGiftCard(db, typed, who, now);
    if (!found.ok) throw new DomainError(found.error, found.status === 404 || found.status === 400 ? 400 : found.status, "giftCardCodes");
    ids.push(found.card.id);
  }
  return ids;
}

/** A card's balance changed between the quote and the placement (spent by another checkout): nothing was placed. */
export class GiftCardChangedError extends DomainError {
  constructor() {
    super(GIFT_CARD_MESSAGES.changed, 409, "giftCardCodes");
    this.name = "GiftCardChangedError";
  }
}

/**
 * Takes what the cards pay of the order's total, inside the placement's transaction: each card's redemption is a
 * conditional debit (the balance must still hold it, the card still be usable), so however many checkouts spend one
 * card at once, together they take at most its balance; the losers' placements roll back (GiftCardChangedError).
 * Cards are debited in id order, so two orders sharing cards lock them in the same order (no deadlock). A remainder
 * the provider can't take (below R2.00) refuses the order with a message saying so. Writes orders.gift_card_cents.
 */
export async function reserveGiftCardsForOrder(
  trx: Trx,
  input: { orderId: string; cardIds: string[]; totalCents: number; actor: Actor; now?: Date },
): Promise<GiftCardSplit> {
  const none: GiftCardSplit = { applied: [], giftCardCents: 0, remainderCents: input.totalCents };
  if (input.cardIds.length === 0) return none;
  const now = input.now ?? new Date();
  const rows = await trx.selectFrom("gift_cards").select(["id", "balance_cents", "status", "expires_at"]).where("id", "in", input.cardIds).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const cards = input.cardIds.map((id) => {
    const r = byId.get(id);
    return { key: id, balanceCents: r && isUsable({ status: r.status, expiresAt: r.expires_at }, now) ? Number(r.balance_cents) : 0 };
  });
  const split = splitGiftCardPayment(input.totalCents, cards);
  if (remainderTooSmall(split.remainderCents)) throw new DomainError(GIFT_CARD_MESSAGES.remainderTooSmall(split.remainderCents), 400, "giftCardCodes");
  if (split.applied.length < input.cardIds.length && cards.some((c) => c.balanceCents === 0)) throw new GiftCardChangedError();
  for (const { key, amountCents } of [...split.applied].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    const after = await appendEntry(trx, key, "redemption", -amountCents, { actor: input.actor, orderId: input.orderId, now, onlyUsable: true });
    if (after === null) throw new GiftCardChangedError();
  }
  await setOrderGiftCardCents(trx, input.orderId, split.giftCardCents);
  return split;
}

/** What the order holds of each card now (cards it holds nothing of are left out), in card-id order. */
export async function heldByOrder(db: Queryable, orderId: string): Promise<Array<{ cardId: string; heldCents: number }>> {
  const rows = await db
    .selectFrom("gift_card_ledger")
    .select((eb) => ["gift_card_id", eb.fn.sum<number>("amount_cents").as("sum")])
    .where("order_id", "=", orderId)
    .groupBy("gift_card_id")
    .orderBy("gift_card_id")
    .execute();
  return rows.map((r) => ({ cardId: r.gift_card_id, heldCents: -Number(r.sum) })).filter((r) => r.heldCents > 0);
}

/**
 * Gives back what the order holds of its cards: `release` for an order closed unpaid, `refund` for a paid one
 * cancelled. In the caller's transaction, beside the status change that decides it (only the closer that wins the
 * order's conditional update calls this, so nothing is given back twice). Returns the cents given back.
 */
export async function returnGiftCardsOfOrder(trx: Queryable, orderId: string, kind: "release" | "refund", actor: Actor, now: Date = new Date()): Promise<number> {
  let returned = 0;
  for (const { cardId, heldCents } of await heldByOrder(trx, orderId)) {
    await appendEntry(trx, cardId, kind, heldCents, { actor, orderId, now });
    returned += heldCents;
    // A card the owner cancelled meanwhile: what comes back to it is void with the rest of its balance.
    const card = await trx.selectFrom("gift_cards").select("status").where("id", "=", cardId).executeTakeFirst();
    if (card?.status === "cancelled") await appendEntry(trx, cardId, "cancel", -heldCents, { actor: SYSTEM, orderId, now, note: "Given back to a cancelled card" });
  }
  return returned;
}

/** What paid the order from each card (its first redemption), with the card's last four, in the order taken. */
export async function giftCardPaymentsOf(db: Queryable, orderId: string): Promise<Array<{ cardId: string; last4: string; amountCents: number }>> {
  const rows = await db
    .selectFrom("gift_card_ledger as l")
    .innerJoin("gift_cards as c", "c.id", "l.gift_card_id")
    .select(["l.gift_card_id", "c.last4", "l.amount_cents"])
    .where("l.order_id", "=", orderId)
    .where("l.kind", "=", "redemption")
    .orderBy("l.created_at")
    .orderBy("l.position")
    .execute();
  const seen = new Set<string>();
  const payments: Array<{ cardId: string; last4: string; amountCents: number }> = [];
  for (const r of rows) {
    if (seen.has(r.gift_card_id)) continue;
    seen.add(r.gift_card_id);
    payments.push({ cardId: r.gift_card_id, last4: r.last4, amountCents: -Number(r.amount_cents) });
  }
  return payments;
}

/**
 * A cancelled order comes back to life (the owner reopens it): it takes from its cards again what it was paid with.
 * A card that no longer holds it refuses the change (the caller's transaction rolls back).
 */
export async function reclaimGiftCardsOfOrder(trx: Queryable, orderId: string, actor: Actor, now: Date = new Date()): Promise<void> {
  const held = new Map((await heldByOrder(trx, orderId)).map((h) => [h.cardId, h.heldCents]));
  const paid = (await giftCardPaymentsOf(trx, orderId)).sort((a, b) => (a.cardId < b.cardId ? -1 : 1));
  for (const p of paid) {
    const need = p.amountCents - (held.get(p.cardId) ?? 0);
    if (need <= 0) continue;
    const after = await appendEntry(trx, p.cardId, "redemption", -need, { actor, orderId, now });
    if (after === null) throw new DomainError(`Gift card ending ${p.last4} no longer holds the ${formatRand(need)} this order was paid with, so the order stays cancelled.`, 409);
  }
}

/**
 * A return's refund that goes back to the gift cards that paid the order (docs/decisions/053): at most what the order
 * still holds of each card, in the order they paid. In the refund's transaction. A card the owner cancelled meanwhile
 * gets it and loses it again (void with its balance), as when a paid order is cancelled. Returns what each card got.
 */
export async function refundToCardsOfOrder(trx: Queryable, orderId: string, cents: number, actor: Actor, now: Date = new Date()): Promise<Array<{ cardId: string; last4: string; amountCents: number }>> {
  const held = new Map((await heldByOrder(trx, orderId)).map((h) => [h.cardId, h.heldCents]));
  const given: Array<{ cardId: string; last4: string; amountCents: number }> = [];
  let left = cents;
  for (const paid of await giftCardPaymentsOf(trx, orderId)) {
    const amount = Math.min(left, held.get(paid.cardId) ?? 0);
    if (amount <= 0) continue;
    await appendEntry(trx, paid.cardId, "refund", amount, { actor, orderId, now, note: "Refund of a return" });
    const card = await trx.selectFrom("gift_cards").select("status").where("id", "=", paid.cardId).executeTakeFirst();
    if (card?.status === "cancelled") await appendEntry(trx, paid.cardId, "cancel", -amount, { actor: SYSTEM, orderId, now, note: "Given back to a cancelled card" });
    given.push({ cardId: paid.cardId, last4: paid.last4, amountCents: amount });
    left -= amount;
  }
  if (left > 0) throw new DomainError(`The order's gift cards can take back only ${formatRand(cents - left)} of this refund.`, 409, "amount");
  return given;
}
