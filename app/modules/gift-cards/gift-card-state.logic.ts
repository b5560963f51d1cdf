/** A card as the owner and the shopper read it (browser-safe). */
export type GiftCardState = "Active" | "Spent" | "Expired" | "Cancelled";

export function giftCardState(card: { status: "active" | "cancelled"; balanceCents: number; expiresAt: string }, now: Date): GiftCardState {
  if (card.status === "cancelled") return "Cancelled";
  if (Date.parse(card.expiresAt) <= now.getTime()) return "Expired";
  return card.balanceCents > 0 ? "Active" : "Spent";
}

export const GIFT_CARD_STATE_STYLE: Record<GiftCardState, string> = {
  Active: "bg-success/10 text-success",
  Spent: "bg-sand text-ink-soft",
  Expired: "bg-line text-muted",
  Cancelled: "bg-line text-muted",
};

/** How each kind of ledger entry reads on the card's page. */
export const LEDGER_KIND_LABELS = {
  issue: "Issued",
  redemption: "Paid an order",
  release: "Order not paid: given back",
  refund: "Order cancelled: refunded to the card",
  expiry: "Expired",
  cancel: "Cancelled",
} as const;
