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

type Recipient = { name: string | null; email: string | null; sendOn: string | null };

const who = (r: Recipient) => (r.name ? `${r.name} <${r.email ?? "no address"}>` : (r.email ?? "no address"));

/** How one of the owner's changes to a sold card's e-mail reads on the card's page: what it was, what it became. */
export function describeGiftCardChange(change: { kind: "recipient" | "sent_now" | "resent"; before: Recipient; after: Recipient }): { what: string; detail: string | null } {
  const { kind, before, after } = change;
  if (kind === "sent_now") return { what: "Sent now", detail: `To ${who(after)}` };
  if (kind === "resent") return { what: "E-mailed again", detail: `To ${who(after)}${after.email !== before.email ? ` (was ${before.email ?? "no address"})` : ""}` };
  const parts = [
    ...(before.name !== after.name || before.email !== after.email ? [`${who(before)} → ${who(after)}`] : []),
    ...(before.sendOn !== after.sendOn ? [`Day ${before.sendOn ?? "none"} → ${after.sendOn ?? "none"}`] : []),
  ];
  return { what: "Recipient or day changed", detail: parts.join("; ") || null };
}
