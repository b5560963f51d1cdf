import type { Queryable } from "~/db/db.server";
import { lineNameSql } from "~/modules/catalog/sizes.server";
import type { OrderStatus, PaymentStatus, ShippingAddress } from "~/db/schema";
import type { Order } from "./order.types";
import { shortOrderId } from "~/utils/ids";

/** One order as its owner (or an admin) reads it on the confirmation and payment-status pages. */
export interface OrderView extends Omit<Order, "userId"> {
  shortId: string;
  /** the part of discountCents that is sample credit, and what it is on ("Sample credit (Velvet Rose)", decision 054) */
  sampleCreditCents: number;
  sampleCreditLabel: string | null;
  /** reward points spent and their worth: the part of discountCents they paid (docs/decisions/062) */
  pointsUsed: number;
  pointsCents: number;
  /** a friend's reward on their first order: the part of discountCents it is (docs/decisions/063) */
  referralCents: number;
  /** The invoice's number once the payment is confirmed (docs/decisions/019); null before. */
  invoiceNumber: number | null;
}

export interface Viewer {
  id: string;
  isAdmin: boolean;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Could this be an order id? (Anything else — a NUL, a path — is not looked up at all.) */
export function isOrderId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/** The order row, whoever owns it (server-side use only: payments, e-mails). */
export async function findOrder(db: Queryable, id: string) {
  if (!ID_PATTERN.test(id)) return undefined;
  return db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
}

export type OrderLineView = OrderView["lines"][number];

/** An order's lines in the order the customer put them in the cart. */
export async function listOrderLines(db: Queryable, orderId: string): Promise<OrderLineView[]> {
  const rows = await db
    .selectFrom("order_lines")
    .select(["product_id", "size_id", "size_label", "quantity", "unit_price_cents", "total_price_cents", "gift_card"])
    .select(lineNameSql("order_lines").as("name"))
    .where("order_id", "=", orderId)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map((l) => ({
    productId: l.product_id,
    sizeId: l.size_id,
    sizeLabel: l.size_label,
    name: l.name,
    quantity: l.quantity,
    unitPriceCents: l.unit_price_cents,
    totalPriceCents: l.total_price_cents,
    ...(Number(l.gift_card) === 1 ? { isGiftCard: true } : {}),
  }));
}

/**
 * The sample credits an order used, by name (samples/sample-orders.server.ts creditsOnOrder), and the words of its bill
 * for them ("Sample credit (Velvet Rose)"): orders doesn't know sample credits, so whoever reads the order view passes
 * them in — samples/order-view.server.ts readOrder and getOrderForViewer do.
 */
export interface SampleCreditWords {
  creditsOnOrder(db: Queryable, orderId: string): Promise<Array<{ name: string }>>;
  creditLabel(names: string[]): string;
}

/**
 * The order if this viewer may read it: its owner or an admin. Anyone else gets null, exactly as for an order that
 * does not exist, so an order's existence never leaks.
 */
export async function getOrderForViewerWith(db: Queryable, id: string, viewer: Viewer, credits: SampleCreditWords): Promise<OrderView | null> {
  const order = await readOrderWith(db, id, credits);
  if (!order) return null;
  if (!viewer.isAdmin && order.userId !== viewer.id) return null;
  const { userId: _owner, ...view } = order;
  return view;
}

/** The order in its one shape, whoever owns it (server-side use: the e-mails, the pages above after their check). */
export async function readOrderWith(db: Queryable, id: string, { creditsOnOrder, creditLabel }: SampleCreditWords): Promise<(OrderView & { userId: string | null }) | null> {
  const order = await findOrder(db, id);
  if (!order) return null;
  const lines = await listOrderLines(db, order.id);
  const sampleCreditCents = Number(order.sample_credit_cents ?? 0);
  const credits = sampleCreditCents > 0 ? await creditsOnOrder(db, order.id) : [];
  return {
    id: order.id,
    userId: order.user_id,
    shortId: shortOrderId(order.id),
    status: order.status,
    paymentStatus: order.payment_status,
    createdAt: order.created_at,
    lines,
    subtotalCents: order.subtotal_cents,
    discountCents: order.discount_amount_cents,
    shippingCents: order.shipping_cents,
    totalAmountCents: order.total_amount_cents,
    originalTotalCents: order.original_total_cents,
    couponCode: order.coupon_code,
    sampleCreditCents,
    // the credits name it while they exist; after an account deletion took them, the words kept on the order do
    sampleCreditLabel: sampleCreditCents > 0 ? (credits.length ? creditLabel(credits.map((c) => c.name)) : (order.sample_credit_label ?? creditLabel([]))) : null,
    pointsUsed: Number(order.points_used ?? 0),
    pointsCents: Number(order.points_cents ?? 0),
    referralCents: Number(order.referral_cents ?? 0),
    shippingAddress: order.shipping_address,
    invoiceNumber: order.invoice_number === null ? null : Number(order.invoice_number),
  };
}

/** A line of the customer's order history (profile, Orders tab). */
export interface OwnOrder {
  id: string;
  createdAt: string;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  totalCents: number;
  /** allocated when the payment was confirmed (docs/decisions/019) */
  invoiceNumber: number | null;
}

/**
 * The user's own orders, newest first: real orders (`kind: "orders"`), or the payment attempts that didn't go through
 * (`kind: "attempts"`): orders closed (cancelled) without their payment ever completing — the buyer cancelled, the
 * payment failed, it expired unpaid, or a newer attempt replaced it. A cancelled order that was paid stays a real order.
 */
export async function listOwnOrders(db: Queryable, userId: string, limit = 100, kind: "orders" | "attempts" = "orders"): Promise<OwnOrder[]> {
  const rows = await db
    .selectFrom("orders")
    .select(["id", "created_at", "status", "payment_status", "total_amount_cents", "invoice_number"])
    .where("user_id", "=", userId)
    .where((eb) =>
      kind === "orders"
        ? eb.or([eb("status", "!=", "cancelled"), eb("payment_status", "=", "completed")])
        : eb.and([eb("status", "=", "cancelled"), eb("payment_status", "!=", "completed")]),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    status: r.status,
    paymentStatus: r.payment_status,
    totalCents: Number(r.total_amount_cents),
    invoiceNumber: r.invoice_number === null ? null : Number(r.invoice_number),
  }));
}

/** How many payment attempts of the user's didn't go through (the profile's folded list shows the newest few). */
export async function countOwnClosedAttempts(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("status", "=", "cancelled")
    .where("payment_status", "!=", "completed")
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The order's goods at their price, without the gift cards it sold (what a return's goods are a share of). */
export async function goodsCentsOfOrder(db: Queryable, orderId: string): Promise<number> {
  const [order, cards] = await Promise.all([
    db.selectFrom("orders").select("subtotal_cents").where("id", "=", orderId).executeTakeFirst(),
    db
      .selectFrom("order_lines")
      .select((eb) => eb.fn.sum<number>("total_price_cents").as("cents"))
      .where("order_id", "=", orderId)
      .where("gift_card", "=", 1)
      .executeTakeFirst(),
  ]);
  return Number(order?.subtotal_cents ?? 0) - Number(cards?.cents ?? 0);
}

/** Whether the person has a paid order (a "first order" reward is for people who have none). */
export async function hasPaidOrder(db: Queryable, userId: string, exceptOrderId?: string): Promise<boolean> {
  let q = db.selectFrom("orders").select("id").where("user_id", "=", userId).where("payment_status", "=", "completed");
  if (exceptOrderId) q = q.where("id", "!=", exceptOrderId);
  return !!(await q.limit(1).executeTakeFirst());
}

/** The telephone numbers and delivery addresses of the person's orders (the referral checks compare them). */
export async function orderContactsOf(db: Queryable, userId: string): Promise<ShippingAddress[]> {
  const rows = await db.selectFrom("orders").select("shipping_address").where("user_id", "=", userId).orderBy("created_at", "desc").limit(200).execute();
  return rows.map((r) => r.shipping_address);
}
