/**
 * Returns (issue 21 point 8, docs/decisions/041) as pure rules: which kind of return a reason is, the windows the two
 * Acts give, what an order still has to return, what the refund comes to, when it is due, and the course a return
 * takes. Browser-safe: the shopper's page and the admin page use the same words and sums as the server.
 *
 * - ECTA s44(1)(a): the shopper may cancel, without reason or penalty, within 7 days after receiving the goods; the shop
 *   may give longer (RETURN_WINDOW_DAYS, never less than 7). s44(3): the refund within 30 days of the cancellation.
 * - CPA s56(2): within six months after delivery, goods that are faulty (not of good quality, unsafe, not as they
 *   should be) may be returned, at the supplier's risk and expense. The owner's exclusions never apply to them.
 */
import type { ReturnKind, ReturnStatus } from "~/db/schema";
import { formatIssueDate } from "~/modules/invoices/invoice.logic";
import { formatRand } from "~/utils/money";

/** ECTA s44(1)(a): the cooling-off period is at least 7 days after the goods are received. */
export const ECTA_MIN_WINDOW_DAYS = 7;
/** ECTA s44(3): a refund within 30 days of the date of cancellation. */
export const REFUND_DUE_DAYS = 30;
/** CPA s56(2): faulty goods may be returned within six months after delivery. */
export const CPA_FAULTY_MONTHS = 6;

export const NOTE_MAX = 1000;
export const OWNER_MESSAGE_MAX = 1000;

/** What the shopper picks. The kind follows from it: the shop's mistakes are CPA s56 returns, never excluded. */
export const RETURN_REASONS = [
  { id: "changed_mind", label: "I changed my mind", kind: "cooling_off" },
  { id: "not_for_me", label: "The scent isn't for me", kind: "cooling_off" },
  { id: "faulty", label: "Faulty: leaking, broken spray or cap, spoilt scent", kind: "faulty" },
  { id: "damaged", label: "Damaged when it arrived", kind: "faulty" },
  { id: "wrong_item", label: "Not what I ordered", kind: "faulty" },
] as const satisfies ReadonlyArray<{ id: string; label: string; kind: ReturnKind }>;
export type ReturnReason = (typeof RETURN_REASONS)[number]["id"];
export const RETURN_REASON_IDS = RETURN_REASONS.map((r) => r.id) as [ReturnReason, ...ReturnReason[]];

/** The shopper's return page of an order (app/routes/orders.return.tsx). */
export function returnPath(orderId: string): string {
  return `/orders/${encodeURIComponent(orderId)}/return`;
}

export function reasonLabel(id: string): string {
  return RETURN_REASONS.find((r) => r.id === id)?.label ?? id;
}

export function kindOfReason(id: ReturnReason): ReturnKind {
  return RETURN_REASONS.find((r) => r.id === id)!.kind;
}

export const KIND_LABELS: Record<ReturnKind, string> = {
  cooling_off: "Cooling-off (ECTA s44)",
  faulty: "Faulty goods (CPA s56)",
};

export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: "Requested",
  approved: "Approved",
  declined: "Declined",
  received: "Received",
  refunded: "Refunded",
};
export const RETURN_STATUSES = ["requested", "approved", "received", "refunded", "declined"] as const satisfies readonly ReturnStatus[];
/** The admin list's tabs: what needs the owner (open, the refund due soonest first), what is overdue, and each status. */
export const RETURN_TABS = ["open", "overdue", "requested", "approved", "received", "refunded", "declined"] as const;
export type ReturnTab = (typeof RETURN_TABS)[number];
/** Still waiting on the shop: at most one of these per order (a partial unique index, migration 0026). */
export const OPEN_STATUSES = ["requested", "approved", "received"] as const satisfies readonly ReturnStatus[];

export function isOpen(status: ReturnStatus): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}

export const RETURN_MESSAGES = {
  notFound: "Order not found",
  returnNotFound: "That return no longer exists",
  notDelivered: "Items can be returned once the order has been delivered.",
  notPaid: "This order was not paid, so there is nothing to return.",
  openReturn: "This order already has a return in progress: we'll e-mail you as it moves on.",
  nothingLeft: "Every item of this order has already been returned.",
  noItems: "Choose at least one item to return.",
  tooMany: (name: string, left: number) => `You can return at most ${left} of ${name}.`,
  unknownLine: "One of the items is not part of this order: reload the page and try again.",
  outsideWindow: (days: number, last: string) =>
    `The ${days}-day cooling-off period for this order ended on ${last}. If an item is faulty, choose a faulty reason: faulty goods can be returned within six months of delivery (CPA s56).`,
  outsideFaultyWindow: (last: string) => `Faulty goods can be returned within six months of delivery (CPA s56); for this order that was until ${last}.`,
  excludedOpened: (reason: string) => `Opened items can't be returned in the cooling-off period: ${reason} A faulty item can still be returned.`,
  excludedCategory: (names: string, reason: string) => `${names} can't be returned in the cooling-off period: ${reason} A faulty item can still be returned.`,
  requested: "Your return request has been sent. We'll e-mail you our answer.",
  // the owner's side
  notRequested: "Only a requested return can be approved.",
  notDecidable: "Only a requested or approved return can be declined.",
  notApproved: "Only an approved return can be marked received.",
  notReceived: "Only a received return can be refunded.",
  notPendingPayout: "Only a refund the payment provider could not pay can be marked paid out by EFT.",
  declineNeedsMessage: "Say why the return is declined: the customer reads this message.",
  approved: "Return approved: the customer has been e-mailed.",
  declined: "Return declined: the customer has been e-mailed.",
  received: (restocked: number) => `Marked received${restocked ? `: ${restocked} ${restocked === 1 ? "bottle" : "bottles"} back in stock` : ""}. The customer has been e-mailed.`,
  refundTooLarge: (max: number) => `The refund can't be more than ${formatRand(max)}: what the customer paid for this order, less earlier refunds.`,
  refundZero: "Nothing is left to refund on this order: it has been refunded in full.",
  refundAmount: "Enter the refund in rand, more than R0.00, with at most 2 decimals.",
  providerUnavailable: (provider: string) => `${provider} can't refund this payment from here: pay the customer back by EFT and record it.`,
  refunded: (amount: number, how: string, note: string) => `Refunded ${formatRand(amount)} ${how}; credit note ${note} issued. The customer has been e-mailed.`,
  paidByEft: "Recorded as paid out by EFT.",
  concurrent: "This return changed while you were looking at it: reload the page.",
  failedFetch: "Failed to load returns",
  failed: "Failed to update the return",
  failedRefund: "Failed to refund the return",
} as const;

// ---------------------------------------------------------------- days and windows

/** "5 March 2026": the South African calendar day, as the invoices write it. */
export const formatDay = (d: Date) => formatIssueDate(d.toISOString());

const DAY_MS = 24 * 60 * 60 * 1000;
/** South African Standard Time: UTC+2 all year. */
const SAST_MS = 2 * 60 * 60 * 1000;

/** The last moment (23:59:59.999 SAST) of the South African day `days` after the one `iso` falls on. */
export function endOfSaDayAfter(iso: string, days: number): Date {
  const local = new Date(Date.parse(iso) + SAST_MS);
  const dayStart = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  return new Date(dayStart + (days + 1) * DAY_MS - 1 - SAST_MS);
}

/** The last moment of the South African day `months` calendar months after `iso`'s (31 August + 6 → 28/29 February). */
export function endOfSaDayMonthsAfter(iso: string, months: number): Date {
  const local = new Date(Date.parse(iso) + SAST_MS);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth() + months;
  const lastOfMonth = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), lastOfMonth);
  return new Date(Date.UTC(y, m, day) + DAY_MS - 1 - SAST_MS);
}

/** The last moment a return of this kind may be asked for, for goods delivered at `deliveredAt`. */
export function returnDeadline(kind: ReturnKind, deliveredAt: string, windowDays: number): Date {
  return kind === "cooling_off" ? endOfSaDayAfter(deliveredAt, windowDays) : endOfSaDayMonthsAfter(deliveredAt, CPA_FAULTY_MONTHS);
}

/** When the refund of a return asked for at `requestedAt` is due (ECTA s44(3)). */
export function refundDueAt(requestedAt: string): string {
  return new Date(Date.parse(requestedAt) + REFUND_DUE_DAYS * DAY_MS).toISOString();
}

/** A return still waiting on the shop after its refund fell due. */
export function isOverdue(r: { status: ReturnStatus; refundDueAt: string }, now: Date): boolean {
  return isOpen(r.status) && Date.parse(r.refundDueAt) < now.getTime();
}

/** Whole days until (positive) or since (negative) the due date, on South African days. */
export function daysUntil(dueIso: string, now: Date): number {
  const day = (ms: number) => Math.floor((ms + SAST_MS) / DAY_MS);
  return day(Date.parse(dueIso)) - day(now.getTime());
}

// ---------------------------------------------------------------- what an order has left to return

export interface ReturnableLine {
  id: string;
  name: string;
  quantity: number;
  unitPriceCents: number;
  /** units already in a return that was not declined */
  returned: number;
  /** the product's category slug (for the owner's excluded categories); null when unknown */
  categorySlug: string | null;
  categoryName: string | null;
}

export function leftToReturn(line: Pick<ReturnableLine, "quantity" | "returned">): number {
  return Math.max(0, line.quantity - line.returned);
}

// ---------------------------------------------------------------- the owner's exclusions (a setting, docs/decisions/041)

export interface ReturnPolicy {
  windowDays: number;
  excludeOpened: boolean;
  excludedCategories: string[];
  /** the owner's reasoning, shown with every refusal it causes */
  exclusionReason: string | null;
}

export interface RequestedLine {
  lineId: string;
  quantity: number;
}

export type RequestCheck = { ok: true; kind: ReturnKind } | { ok: false; message: string };

/**
 * Whether this request may be made now: the order's state, the window for the reason's kind, the quantities, and
 * for cooling-off returns the owner's exclusions. The first refusal is the answer.
 */
export function checkReturnRequest(input: {
  order: { paid: boolean; delivered: boolean; deliveredAt: string | null; hasOpenReturn: boolean };
  lines: ReturnableLine[];
  requested: RequestedLine[];
  reason: ReturnReason;
  opened: boolean;
  policy: ReturnPolicy;
  now: Date;
  formatDay: (d: Date) => string;
}): RequestCheck {
  const { order, policy } = input;
  if (!order.paid) return { ok: false, message: RETURN_MESSAGES.notPaid };
  if (!order.delivered || !order.deliveredAt) return { ok: false, message: RETURN_MESSAGES.notDelivered };
  if (order.hasOpenReturn) return { ok: false, message: RETURN_MESSAGES.openReturn };
  const kind = kindOfReason(input.reason);
  const deadline = returnDeadline(kind, order.deliveredAt, policy.windowDays);
  if (input.now.getTime() > deadline.getTime()) {
    return { ok: false, message: kind === "cooling_off" ? RETURN_MESSAGES.outsideWindow(policy.windowDays, input.formatDay(deadline)) : RETURN_MESSAGES.outsideFaultyWindow(input.formatDay(deadline)) };
  }
  if (input.lines.every((l) => leftToReturn(l) === 0)) return { ok: false, message: RETURN_MESSAGES.nothingLeft };
  const chosen = input.requested.filter((r) => r.quantity > 0);
  if (chosen.length === 0) return { ok: false, message: RETURN_MESSAGES.noItems };
  const byId = new Map(input.lines.map((l) => [l.id, l]));
  if (new Set(chosen.map((c) => c.lineId)).size !== chosen.length) return { ok: false, message: RETURN_MESSAGES.unknownLine };
  for (const c of chosen) {
    const line = byId.get(c.lineId);
    if (!line) return { ok: false, message: RETURN_MESSAGES.unknownLine };
    if (c.quantity > leftToReturn(line)) return { ok: false, message: RETURN_MESSAGES.tooMany(line.name, leftToReturn(line)) };
  }
  if (kind === "cooling_off") {
    const reason = policy.exclusionReason ?? "";
    if (input.opened && policy.excludeOpened) return { ok: false, message: RETURN_MESSAGES.excludedOpened(reason) };
    const excluded = chosen.map((c) => byId.get(c.lineId)!).filter((l) => l.categorySlug !== null && policy.excludedCategories.includes(l.categorySlug));
    if (excluded.length) return { ok: false, message: RETURN_MESSAGES.excludedCategory(excluded.map((l) => l.name).join(", "), reason) };
  }
  return { ok: true, kind };
}

// ---------------------------------------------------------------- the refund

export interface RefundSuggestion {
  goodsCents: number;
  /** the returned goods' share of the order's discount (subtracted) */
  discountCents: number;
  /** the delivery charge, refunded when this return completes the return of the whole order */
  deliveryCents: number;
  /** goods − discount + delivery, never more than what is left to refund */
  amountCents: number;
  /** what the customer paid less the refunds already made: the most any refund may be */
  maxCents: number;
}

/**
 * What a return's refund comes to: the returned items at the prices charged, less their share of the order's
 * discount (pro rata to the subtotal, rounded once), plus the delivery charge when nothing of the order is left with
 * the customer (ECTA s44(3): a full reimbursement of what was paid), never above what is left of the payment.
 */
export function suggestRefund(input: {
  order: { subtotalCents: number; discountCents: number; shippingCents: number; totalAmountCents: number };
  returnLines: Array<{ quantity: number; unitPriceCents: number }>;
  /** after this return: does the customer keep no item of the order (every unit returned in returns not declined)? */
  completesOrder: boolean;
  refundedCents: number;
}): RefundSuggestion {
  const { order } = input;
  const goodsCents = input.returnLines.reduce((sum, l) => sum + l.quantity * l.unitPriceCents, 0);
  const discountCents = order.subtotalCents > 0 ? Math.min(goodsCents, Math.round((order.discountCents * goodsCents) / order.subtotalCents)) : 0;
  const deliveryCents = input.completesOrder ? order.shippingCents : 0;
  const maxCents = Math.max(0, order.totalAmountCents - input.refundedCents);
  const amountCents = Math.max(0, Math.min(maxCents, goodsCents - discountCents + deliveryCents));
  return { goodsCents, discountCents, deliveryCents, amountCents, maxCents };
}

/** A refund the owner enters: more than zero and at most what is left of the payment. */
export function checkRefundAmount(amountCents: number, maxCents: number): { ok: true } | { ok: false; message: string } {
  if (maxCents <= 0) return { ok: false, message: RETURN_MESSAGES.refundZero };
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return { ok: false, message: RETURN_MESSAGES.refundAmount };
  if (amountCents > maxCents) return { ok: false, message: RETURN_MESSAGES.refundTooLarge(maxCents) };
  return { ok: true };
}

// ---------------------------------------------------------------- the course of a return

export type ReturnStep = "approve" | "decline" | "receive" | "refund";

/** The owner's next steps from a status (declined and refunded are final). */
export function nextSteps(status: ReturnStatus): ReturnStep[] {
  switch (status) {
    case "requested":
      return ["approve", "decline"];
    case "approved":
      return ["receive", "decline"];
    case "received":
      return ["refund"];
    default:
      return [];
  }
}

/** The statuses a step starts from (the conditional update's WHERE). */
export const STEP_FROM: Record<ReturnStep, ReturnStatus[]> = {
  approve: ["requested"],
  decline: ["requested", "approved"],
  receive: ["approved"],
  refund: ["received"],
};

/** The shopper's view of where their return stands. */
export function shopperStatusText(r: { status: ReturnStatus; payoutStatus: string | null }): string {
  switch (r.status) {
    case "requested":
      return "We have your request and will answer by e-mail.";
    case "approved":
      return "Approved: please send the items back to us.";
    case "declined":
      return "Declined.";
    case "received":
      return "The items have reached us; your refund follows.";
    case "refunded":
      return r.payoutStatus === "pending" ? "Refund issued; the payment provider is paying it back to you." : "Refunded.";
  }
}

// ---------------------------------------------------------------- where the refund goes (docs/decisions/053)

/** How the shopper wants a refund: the payment they made (the default, ECTA s44), or a new gift card if they choose it. */
export type RefundTo = "original" | "gift_card";

export interface RefundSplit {
  /** paid back through the provider, or by the owner's EFT */
  providerCents: number;
  /** given back to the gift cards that paid the order */
  cardsCents: number;
  /** a new gift card, when the shopper chose one */
  newCardCents: number;
}

/**
 * Splits a refund: to a new gift card when the shopper chose it; otherwise the provider (or the EFT) pays back at most
 * what it took less what it has already paid back, and the rest goes back to the gift cards that paid. An order paid
 * wholly by gift card is refunded wholly to its cards.
 */
export function splitRefund(input: { amountCents: number; refundTo: RefundTo; providerTookCents: number; providerRefundedCents: number }): RefundSplit {
  if (input.refundTo === "gift_card") return { providerCents: 0, cardsCents: 0, newCardCents: input.amountCents };
  const providerLeft = Math.max(0, input.providerTookCents - input.providerRefundedCents);
  const providerCents = Math.min(input.amountCents, providerLeft);
  return { providerCents, cardsCents: input.amountCents - providerCents, newCardCents: 0 };
}
