/**
 * How gift cards pay an order (browser-safe: the checkout shows the same split the server places).
 * Cards are used in the order the shopper entered them, each for as much of what is still to pay as it holds; the
 * rest is paid by card or EFT. All amounts are integer cents.
 */
import { MINIMUM_PAYMENT_CENTS } from "~/modules/orders/orders.logic";
import { formatRand } from "~/utils/money";

export interface CardBalance {
  /** the normalised code (browser) or the card's id (server): whatever the caller keys its cards by */
  key: string;
  balanceCents: number;
}

export interface GiftCardSplit {
  /** what each card pays, in the order given (cards that pay nothing are left out) */
  applied: Array<{ key: string; amountCents: number }>;
  giftCardCents: number;
  /** what is left for the card payment or the EFT */
  remainderCents: number;
}

export function splitGiftCardPayment(totalCents: number, cards: CardBalance[]): GiftCardSplit {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0) throw new RangeError(`A total is whole cents, got ${totalCents}`);
  let remainder = totalCents;
  const applied: GiftCardSplit["applied"] = [];
  const seen = new Set<string>();
  for (const card of cards) {
    if (seen.has(card.key)) continue;
    seen.add(card.key);
    const amount = Math.min(Math.max(0, Math.floor(card.balanceCents)), remainder);
    if (amount <= 0) continue;
    applied.push({ key: card.key, amountCents: amount });
    remainder -= amount;
  }
  return { applied, giftCardCents: totalCents - remainder, remainderCents: remainder };
}

/** What the payment provider (or the EFT) is asked for: the total less what gift cards pay. */
export function amountDueCents(order: { totalAmountCents: number; giftCardCents: number }): number {
  return Math.max(0, order.totalAmountCents - order.giftCardCents);
}

/** The same, from an orders row (its columns as read). */
export function amountDueOfRow(row: { total_amount_cents: number; gift_card_cents: number }): number {
  return amountDueCents({ totalAmountCents: Number(row.total_amount_cents), giftCardCents: Number(row.gift_card_cents) });
}

/** A remainder the provider can't take: more than nothing, less than its minimum (SPEC §5: R2.00). */
export function remainderTooSmall(remainderCents: number): boolean {
  return remainderCents > 0 && remainderCents < MINIMUM_PAYMENT_CENTS;
}

/** The checkout's "Apply" answer (POST /api/gift-cards/check). */
export type GiftCardCheck = { ok: true; code: string; last4: string; balanceCents: number; expiresAt: string } | { ok: false; error: string };

/** At most this many cards on one order: enough for a drawer of birthday cards, few enough to bound the work. */
export const MAX_GIFT_CARDS_PER_ORDER = 5;

export const GIFT_CARD_MESSAGES = {
  notFound: "We couldn't find a gift card with that code. Check it and try again.",
  malformed: "A gift card code has 16 letters and digits, e.g. K7QM-2WXE-H9TP-RB4N.",
  expired: "That gift card has expired.",
  cancelled: "That gift card has been cancelled.",
  empty: "That gift card has nothing left on it.",
  tooMany: `At most ${MAX_GIFT_CARDS_PER_ORDER} gift cards can pay one order.`,
  alreadyAdded: "That gift card is already added.",
  changed: "A gift card's balance changed while you were checking out (perhaps used in another order). Nothing was charged: please check your total and place your order again.",
  remainderTooSmall: (remainderCents: number) =>
    `After your gift cards, ${formatRand(remainderCents)} is left to pay: less than the ${formatRand(MINIMUM_PAYMENT_CENTS)} a card or EFT payment can take. Remove a gift card, or add something to your cart.`,
} as const;
