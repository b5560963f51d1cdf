/**
 * The owner's order rules (SPEC §4 order status, payment status, inline edit; §9 metrics), as pure functions the
 * admin orders use case applies inside its transaction and the page uses for its labels. Browser-safe.
 *
 * One invariant ties orders to coupons: an order holds its coupon redemption while its status is not cancelled
 * (docs/decisions/016). Another ties them to stock: an order holds its stock while its payment is completed and it is
 * not cancelled (docs/decisions/020). Every transition says what it does to both.
 */
import type { OrderStatus, PaymentStatus } from "~/db/schema";
import { formatCountUnbroken } from "~/utils/counts";

export const ORDER_STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled"] as const satisfies readonly OrderStatus[];
export const PAYMENT_STATUSES = ["pending", "completed", "failed", "cancelled"] as const satisfies readonly PaymentStatus[];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  processing: "Processing",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled: "Cancelled",
};

/** SPEC §4: pending, completed, failed, cancelled; anything else displays as Unknown. */
export function paymentStatusLabel(status: string): string {
  switch (status) {
    case "pending":
      return "Pending";
    case "completed":
      return "Completed";
    case "failed":
      return "Failed";
    case "cancelled":
      return "Cancelled";
    default:
      return "Unknown";
  }
}

/** SPEC §8, admin orders. */
export const ORDER_ADMIN_MESSAGES = {
  failedFetch: "Failed to fetch orders",
  failedStatus: "Failed to update order status",
  failedPayment: "Failed to update payment status",
  failedDelete: "Failed to delete order",
  failedUpdate: "Failed to update order",
  statusUpdated: (status: OrderStatus) => `Order status updated to ${status}`,
  paymentUpdated: (status: PaymentStatus) => `Payment status updated to ${status}`,
  deleted: "Order deleted successfully",
  updated: "Order updated successfully",
  emailSent: "Status email sent successfully!",
  emailFailed: (reason: string) => `Failed to send email: ${reason}`,
  none: (status: OrderStatus) => `No ${status} orders found`,
  /** a broad search (a common name): its tabs count up to a bound, and the newest orders are listed */
  manyMatches: (bound: string) => `More than ${bound} orders in this tab match your search: the newest ${bound} are listed. Type more of the e-mail address or the order number to narrow it down.`,
  notFound: "That order no longer exists",
  eftHint: "For EFT payments, manually set payment to Completed once payment is received.",
  shortHint: "Short of stock: the product had run out when this order was paid. Restock it, or contact the customer about a refund.",
  stockShort: (lines: Array<{ name: string; quantity: number }>) =>
    `Not enough stock for ${lines.map((l) => `${l.quantity} × ${l.name}`).join(", ")}: the order is flagged "short of stock". Restock the product, or contact the customer about a refund.`,
  couponFull: (code: string) =>
    `Coupon ${code} has no redemptions left, so this order can't be reopened with its discount. Nothing was changed: raise the coupon's limit first, or leave the order cancelled.`,
  friendRewardGone:
    "The friend's reward this order had has gone to another of the customer's orders, so it can't be reopened with it. Nothing was changed: the order stays cancelled.",
  pointsGone:
    "The customer no longer has the reward points this order spent (they went on another order or expired), so it can't be reopened with them. Nothing was changed: the order stays cancelled.",
} as const;

/** The columns a transition writes (ISO timestamps). */
export interface OrderStamps {
  processing_started_at?: string;
  shipped_at?: string;
  actual_delivery_date?: string;
}

export interface OrderState {
  status: OrderStatus;
  paymentStatus: PaymentStatus;
}

/** What a transition does to the order's coupon redemption (see the invariant above). */
export type CouponEffect = "release" | "reclaim" | "none";

/** What a transition does to the stock its lines took (see the invariant above). */
export type StockEffect = "take" | "give_back" | "none";

export interface Transition {
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  stamps: OrderStamps;
  coupon: CouponEffect;
  stock: StockEffect;
}

/** Does an order in this state hold stock? Paid and not cancelled. */
export function holdsStock(state: OrderState): boolean {
  return state.paymentStatus === "completed" && state.status !== "cancelled";
}

/** Moving into a stock-holding state takes stock; moving out of one gives it back. */
export function stockEffect(from: OrderState, to: OrderState): StockEffect {
  const before = holdsStock(from);
  const after = holdsStock(to);
  if (!before && after) return "take";
  if (before && !after) return "give_back";
  return "none";
}

function couponEffect(from: OrderStatus, to: OrderStatus): CouponEffect {
  if (from !== "cancelled" && to === "cancelled") return "release";
  if (from === "cancelled" && to !== "cancelled") return "reclaim";
  return "none";
}

/** The stamp a status sets (SPEC §4): processing, shipped and delivered stamp their moment; the others nothing. */
function stampFor(status: OrderStatus, now: string): OrderStamps {
  if (status === "processing") return { processing_started_at: now };
  if (status === "shipped") return { shipped_at: now };
  if (status === "delivered") return { actual_delivery_date: now };
  return {};
}

/** The owner picks a status: any status from any status (SPEC §4); the payment status is left as it is. */
export function changeStatus(order: OrderState, to: OrderStatus, now: Date): Transition {
  return {
    status: to,
    paymentStatus: order.paymentStatus,
    stamps: stampFor(to, now.toISOString()),
    coupon: couponEffect(order.status, to),
    stock: stockEffect(order, { status: to, paymentStatus: order.paymentStatus }),
  };
}

/**
 * The owner picks a payment status. Completed on a pending order also moves it to processing and stamps it (SPEC §4).
 * Beyond the spec, completed on a cancelled order does the same: the money of an expired order (a late EFT) arrived,
 * and the order is live again (decision 016); it reclaims its coupon only if the coupon still has room.
 */
export function changePayment(order: OrderState, to: PaymentStatus, now: Date): Transition {
  const reopens = to === "completed" && (order.status === "pending" || order.status === "cancelled");
  const status: OrderStatus = reopens ? "processing" : order.status;
  return {
    status,
    paymentStatus: to,
    stamps: reopens ? stampFor("processing", now.toISOString()) : {},
    coupon: couponEffect(order.status, status),
    stock: stockEffect(order, { status, paymentStatus: to }),
  };
}

/** Does this transition newly confirm a payment (the customer's confirmation e-mail goes out)? */
export function confirmsPayment(order: OrderState, next: Transition): boolean {
  return order.paymentStatus !== "completed" && next.paymentStatus === "completed";
}

// ---------------------------------------------------------------- metrics (SPEC §9)

export interface StampedOrder {
  processingStartedAt: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
}

const seconds = (from: string | null, to: string | null): number | null => {
  if (!from || !to) return null;
  const value = Math.round((Date.parse(to) - Date.parse(from)) / 1000);
  return Number.isFinite(value) && value >= 0 ? value : null;
};

/** An order's order_metrics row (SPEC §3): processing = start → shipped, delivery = shipped → delivered, in seconds. */
export function metricsOf(order: StampedOrder): { processingTime: number | null; deliveryTime: number | null } {
  return { processingTime: seconds(order.processingStartedAt, order.shippedAt), deliveryTime: seconds(order.shippedAt, order.deliveredAt) };
}

/** A broad search's tab counts stop at this many orders: the tab then shows "1 000+" and lists the newest of them. */
export const SEARCH_COUNT_BOUND = 1000;

/**
 * A tab's count as its badge shows it: thousands grouped with a no-break space (by hand: the server and the browser
 * must render the very same text); `more` when a broad search stopped counting there ("1 000+").
 */
export function tabCountLabel(n: number, more = false): string {
  const shown = formatCountUnbroken(n);
  return more ? `${shown}+` : shown;
}

export interface MetricsSummary {
  /** mean processing_time / 3600, rounded; null without data */
  avgProcessingHours: number | null;
  /** mean delivery_time / 86400, rounded */
  avgDeliveryDays: number | null;
  /** share of metric rows with a delivery_time, in %, rounded */
  completionRate: number | null;
}

/** SPEC §9 from the aggregates the database computes (averages over non-null values, counts). */
export function summarizeMetrics(input: { rows: number; withDelivery: number; avgProcessingSeconds: number | null; avgDeliverySeconds: number | null }): MetricsSummary {
  return {
    avgProcessingHours: input.avgProcessingSeconds === null ? null : Math.round(input.avgProcessingSeconds / 3600),
    avgDeliveryDays: input.avgDeliverySeconds === null ? null : Math.round(input.avgDeliverySeconds / 86400),
    completionRate: input.rows === 0 ? null : Math.round((input.withDelivery / input.rows) * 100),
  };
}

// ---------------------------------------------------------------- inline edit

export interface EditedLine {
  quantity: number;
  unitPriceCents: number;
}

/**
 * The totals after the owner edits lines (decision 016): each line total follows quantity × unit price, the
 * subtotal is their sum, and the total keeps the order's discount and shipping: lines − discount + shipping, never
 * below 0 (SPEC §9). The spec's "sum of lines" would silently drop the delivery the customer paid for.
 */
export function editedTotals(lines: EditedLine[], money: { discountCents: number; shippingCents: number; hadCoupon: boolean }) {
  const lineTotals = lines.map((l) => l.quantity * l.unitPriceCents);
  const subtotalCents = lineTotals.reduce((sum, t) => sum + t, 0);
  const discountCents = Math.min(money.discountCents, subtotalCents + money.shippingCents);
  const totalAmountCents = Math.max(0, subtotalCents - discountCents + money.shippingCents);
  return {
    lineTotals,
    subtotalCents,
    discountCents,
    totalAmountCents,
    originalTotalCents: money.hadCoupon ? subtotalCents + money.shippingCents : null,
  };
}

// ---------------------------------------------------------------- search

/** The search box takes an order id prefix (as shown: 8 characters, or more) or part of a customer's e-mail. */
export function orderIdPrefix(q: string): string | null {
  const value = q.trim().toLowerCase().replace(/^#/, "");
  return /^[0-9a-f][0-9a-f-]{0,35}$/.test(value) ? value : null;
}
