/**
 * The owner's orders (SPEC §2 Orders, §4, §7 orders / order_metrics): the list by status tab, its figures, and every
 * change the owner makes. Each change runs in one transaction with the order row locked (PostgreSQL) so two admins or
 * an admin and a payment webhook can't interleave; the rules themselves are the pure functions of order-admin.logic.
 * E-mails go out after the commit, and a failed e-mail never undoes a change.
 */
import { sql } from "kysely";
import type { Queryable, Trx } from "~/db/db.server";
import { containsInsensitive, isPostgres } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import type { OrderStatus, PaymentStatus, ShippingAddress } from "~/db/schema";
import { reclaimCouponRedemption, releaseCouponRedemption } from "~/modules/coupons/coupons.server";
import { allocateInvoiceNumber } from "~/modules/invoices/invoice-number.server";
import { DomainError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import {
  changePayment,
  changeStatus,
  confirmsPayment,
  editedTotals,
  metricsOf,
  ORDER_ADMIN_MESSAGES,
  ORDER_STATUSES,
  orderIdPrefix,
  summarizeMetrics,
  type MetricsSummary,
  type Transition,
} from "./order-admin.logic";
import type { OrderEditInput } from "./order-admin.schema";
import { sendOrderPaidEmails, sendOrderStatusEmail } from "./order-emails.server";
import { inTransaction } from "./order-payment.server";
import { giveBackOrderStock, takeOrderStock, type StockOutcome } from "./order-stock.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";

export const ADMIN_ORDERS_PAGE_SIZE = 20;

export interface AdminOrderLine {
  id: string;
  productId: string | null;
  name: string;
  quantity: number;
  unitPriceCents: number;
  totalPriceCents: number;
  /** units the payment could not take from stock (docs/decisions/020): the owner's flag */
  stockShort: number;
}

export interface AdminOrder {
  id: string;
  customerEmail: string | null;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalAmountCents: number;
  originalTotalCents: number | null;
  couponCode: string | null;
  shippingAddress: ShippingAddress;
  paymentProvider: string | null;
  paymentMethod: string;
  paymentId: string | null;
  notes: string | null;
  trackingNumber: string | null;
  createdAt: string;
  updatedAt: string;
  processingStartedAt: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
  /** allocated when the payment was confirmed (docs/decisions/019) */
  invoiceNumber: number | null;
  lines: AdminOrderLine[];
}

/**
 * Orders matching the search box: an id prefix (as shown, 8 characters or more) or part of the customer's e-mail.
 * The customers are looked up first (a short list of ids), so both halves of the search use an index on orders.
 */
async function searched(db: Queryable, q: string) {
  const query = db.selectFrom("orders");
  if (!q) return query;
  const customers = await db.selectFrom("users").select("id").where(containsInsensitive("email", q)).limit(MAX_SEARCHED_CUSTOMERS + 1).execute();
  const byEmail =
    customers.length > MAX_SEARCHED_CUSTOMERS
      ? db.selectFrom("users").select("id").where(containsInsensitive("email", q)) // a very broad search: let the database join
      : customers.map((c) => c.id);
  const prefix = orderIdPrefix(q);
  const noCustomer = Array.isArray(byEmail) && byEmail.length === 0;
  if (!prefix) return noCustomer ? query.where(sql<boolean>`1 = 0`) : query.where("orders.user_id", "in", byEmail);
  // The range on the id's hex head lets the primary key find the prefix on both databases (whatever their collation);
  // LIKE then checks the whole prefix.
  const head = prefix.split("-")[0]!;
  return query.where((eb) => {
    const byId = eb.and([eb("orders.id", ">=", head), eb("orders.id", "<", `${head}g`), eb("orders.id", "like", `${prefix}%`)]);
    return noCustomer ? byId : eb.or([byId, eb("orders.user_id", "in", byEmail)]);
  });
}
const MAX_SEARCHED_CUSTOMERS = 500;

/** One status tab, newest first, with each order's lines and customer (two queries for the page). */
export async function listAdminOrders(db: Queryable, input: { status: OrderStatus; q: string; page: number }): Promise<Page<AdminOrder>> {
  // The page's ids first, from the (status, created_at, id) index alone however deep the page (migration 0006);
  // then only those orders' rows, customers and lines.
  const page = await paginate(
    (await searched(db, input.q)).where("orders.status", "=", input.status).select("orders.id").orderBy("orders.created_at", "desc").orderBy("orders.id", "desc"),
    { page: input.page, pageSize: ADMIN_ORDERS_PAGE_SIZE },
  );
  const ids = page.rows.map((o) => o.id);
  if (ids.length === 0) return { ...page, rows: [] };
  const [orders, lines] = await Promise.all([
    db.selectFrom("orders").leftJoin("users", "users.id", "orders.user_id").selectAll("orders").select("users.email as customer_email").where("orders.id", "in", ids).execute(),
    db
      .selectFrom("order_lines")
      .select(["id", "order_id", "product_id", "name", "quantity", "unit_price_cents", "total_price_cents", "stock_short"])
      .where("order_id", "in", ids)
      .orderBy("position")
      .orderBy("id")
      .execute(),
  ]);
  const byId = new Map(orders.map((o) => [o.id, o]));
  return {
    ...page,
    rows: ids.flatMap((id) => byId.get(id) ?? []).map((o) => ({
      id: o.id,
      customerEmail: o.customer_email,
      status: o.status,
      paymentStatus: o.payment_status,
      subtotalCents: Number(o.subtotal_cents),
      discountCents: Number(o.discount_amount_cents),
      shippingCents: Number(o.shipping_cents),
      totalAmountCents: Number(o.total_amount_cents),
      originalTotalCents: o.original_total_cents === null ? null : Number(o.original_total_cents),
      couponCode: o.coupon_code,
      shippingAddress: o.shipping_address,
      paymentProvider: o.payment_provider,
      paymentMethod: o.payment_method,
      paymentId: o.payment_id,
      notes: o.notes,
      trackingNumber: o.tracking_number,
      createdAt: o.created_at,
      updatedAt: o.updated_at,
      processingStartedAt: o.processing_started_at,
      shippedAt: o.shipped_at,
      deliveredAt: o.actual_delivery_date,
      invoiceNumber: o.invoice_number === null ? null : Number(o.invoice_number),
      lines: lines
        .filter((l) => l.order_id === o.id)
        .map((l) => ({
          id: l.id,
          productId: l.product_id,
          name: l.name,
          quantity: Number(l.quantity),
          unitPriceCents: Number(l.unit_price_cents),
          totalPriceCents: Number(l.total_price_cents),
          stockShort: Number(l.stock_short),
        })),
    })),
  };
}

/** How many orders each tab holds (matching the search, when there is one): one grouped count. */
export async function orderTabCounts(db: Queryable, q: string): Promise<Record<OrderStatus, number>> {
  const rows = await (await searched(db, q))
    .select((eb) => ["orders.status", eb.fn.countAll<number>().as("n")])
    .groupBy("orders.status")
    .execute();
  const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

/** SPEC §9's three figures over order_metrics, aggregated in the database. */
export async function orderMetrics(db: Queryable): Promise<MetricsSummary> {
  const row = await db
    .selectFrom("order_metrics")
    .select((eb) => [
      eb.fn.countAll<number>().as("rows"),
      eb.fn.count<number>("delivery_time").as("with_delivery"),
      eb.fn.avg<number>("processing_time").as("avg_processing"),
      eb.fn.avg<number>("delivery_time").as("avg_delivery"),
    ])
    .executeTakeFirstOrThrow();
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return summarizeMetrics({ rows: Number(row.rows), withDelivery: Number(row.with_delivery), avgProcessingSeconds: num(row.avg_processing), avgDeliverySeconds: num(row.avg_delivery) });
}

// ---------------------------------------------------------------- changes

async function lockOrder(trx: Trx, id: string) {
  let query = trx.selectFrom("orders").selectAll().where("id", "=", id);
  // SQLite runs one writer at a time (and has no FOR UPDATE); PostgreSQL locks the row until the commit.
  if (isPostgres(trx)) query = query.forUpdate();
  const order = await query.executeTakeFirst();
  if (!order) throw new DomainError(ORDER_ADMIN_MESSAGES.notFound, 404);
  return order;
}

/** Writes an order's order_metrics row from its stamps: a row once it has shipped (SPEC §9 counts those rows). */
async function recordMetrics(trx: Trx, orderId: string) {
  const o = await trx.selectFrom("orders").select(["processing_started_at", "shipped_at", "actual_delivery_date"]).where("id", "=", orderId).executeTakeFirstOrThrow();
  const m = metricsOf({ processingStartedAt: o.processing_started_at, shippedAt: o.shipped_at, deliveredAt: o.actual_delivery_date });
  if (m.processingTime === null && m.deliveryTime === null) {
    await trx.deleteFrom("order_metrics").where("order_id", "=", orderId).execute();
    return;
  }
  await trx
    .insertInto("order_metrics")
    .values({ order_id: orderId, processing_time: m.processingTime, delivery_time: m.deliveryTime })
    .onConflict((oc) => oc.column("order_id").doUpdateSet({ processing_time: m.processingTime, delivery_time: m.deliveryTime }))
    .execute();
}

type OrderRow = Awaited<ReturnType<typeof lockOrder>>;

/**
 * Applies a transition: the row, its stamps, its coupon redemption, its metrics, its stock and — when it newly
 * confirms the payment — the order's invoice number (kept if it had one: docs/decisions/019), all or nothing.
 */
async function apply(trx: Trx, order: OrderRow, next: Transition, now: Date): Promise<StockOutcome> {
  if (next.coupon === "release") await releaseCouponRedemption(trx, order.id);
  if (next.coupon === "reclaim") {
    const outcome = await reclaimCouponRedemption(trx, { id: order.id, userId: order.user_id, couponCode: order.coupon_code, discountCents: Number(order.discount_amount_cents) });
    if (outcome === "full") throw new DomainError(ORDER_ADMIN_MESSAGES.couponFull(order.coupon_code ?? ""), 409);
  }
  await trx
    .updateTable("orders")
    .set({ status: next.status, payment_status: next.paymentStatus, ...next.stamps, updated_at: now.toISOString() })
    .where("id", "=", order.id)
    .execute();
  if (Object.keys(next.stamps).length > 0) await recordMetrics(trx, order.id);
  // Lock order as everywhere: the order row (locked above), its coupon, its products by id, the invoice counter last
  // (held until the commit: docs/decisions/019, 020).
  const stock: StockOutcome =
    next.stock === "take" ? await takeOrderStock(trx, order.id) : next.stock === "give_back" ? await giveBackOrderStock(trx, order.id) : { changed: false, short: [] };
  if (confirmsPayment({ status: order.status, paymentStatus: order.payment_status }, next)) await allocateInvoiceNumber(trx, order.id, now);
  return stock;
}

/** After the commit: visitors see the new stock at once. */
function announceStock(orderId: string, stock: StockOutcome) {
  if (stock.changed) storefrontChanged(`stock: order ${orderId} changed by the owner`);
}

/** What the owner's change did that they should hear about: products it found out of stock. */
export interface OrderChangeResult {
  short: StockOutcome["short"];
}

export async function setOrderStatus(db: Queryable, id: string, status: OrderStatus, now = new Date()): Promise<OrderChangeResult> {
  const { before, stock } = await inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, id);
    const stock = await apply(trx, order, changeStatus({ status: order.status, paymentStatus: order.payment_status }, status, now), now);
    return { before: order, stock };
  });
  announceStock(id, stock);
  logger.info({ orderId: id, from: before.status, to: status }, "admin: order status changed");
  // Shipped with a tracking number: the customer hears where their parcel is.
  if (status === "shipped" && before.status !== "shipped" && before.tracking_number) await notify(db, id, before.status);
  return { short: stock.short };
}

export async function setPaymentStatus(db: Queryable, id: string, paymentStatus: PaymentStatus, now = new Date()): Promise<OrderChangeResult> {
  const { before, next, stock } = await inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, id);
    const state = { status: order.status, paymentStatus: order.payment_status };
    const transition = changePayment(state, paymentStatus, now);
    const stock = await apply(trx, order, transition, now);
    return { before: state, next: transition, stock };
  });
  announceStock(id, stock);
  logger.info({ orderId: id, from: before.paymentStatus, to: paymentStatus, status: next.status }, "admin: payment status changed");
  // A payment the owner confirmed (an EFT that arrived) gets the same confirmation as a card payment.
  if (confirmsPayment(before, next)) await sendOrderPaidEmails(db, id);
  return { short: stock.short };
}

/** The inline edit (SPEC §4): lines' quantity and unit price, address, notes, tracking; totals recomputed here. */
export async function updateOrder(db: Queryable, input: OrderEditInput, now = new Date()): Promise<void> {
  const { before, tracking } = await inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, input.id);
    const stored = await trx.selectFrom("order_lines").select("id").where("order_id", "=", order.id).execute();
    const known = new Set(stored.map((l) => l.id));
    const edited = new Map(input.lines.map((l) => [l.id, l]));
    if (edited.size !== input.lines.length || stored.length !== edited.size || [...edited.keys()].some((lineId) => !known.has(lineId))) {
      throw new DomainError("The order's lines changed while you were editing: reload the page and try again", 409);
    }
    const totals = editedTotals(input.lines, {
      discountCents: Number(order.discount_amount_cents),
      shippingCents: Number(order.shipping_cents),
      hadCoupon: order.coupon_code !== null,
    });
    for (const [index, line] of input.lines.entries()) {
      await trx
        .updateTable("order_lines")
        .set({ quantity: line.quantity, unit_price_cents: line.unitPriceCents, total_price_cents: totals.lineTotals[index]! })
        .where("id", "=", line.id)
        .where("order_id", "=", order.id)
        .execute();
    }
    const { id: _id, intent: _intent, lines: _lines, notes, trackingNumber, ...address } = input;
    await trx
      .updateTable("orders")
      .set({
        subtotal_cents: totals.subtotalCents,
        discount_amount_cents: totals.discountCents,
        total_amount_cents: totals.totalAmountCents,
        original_total_cents: totals.originalTotalCents,
        shipping_address: JSON.stringify(address satisfies ShippingAddress),
        notes,
        tracking_number: trackingNumber,
        updated_at: now.toISOString(),
      })
      .where("id", "=", order.id)
      .execute();
    return { before: order, tracking: trackingNumber };
  });
  // A tracking number added to (or changed on) a shipped order reaches the customer.
  if (before.status === "shipped" && tracking && tracking !== before.tracking_number) await notify(db, before.id, "shipped");
}

/** Deletes the order and everything hanging off it; a redemption it still held goes back to its coupon. */
export async function deleteOrder(db: Queryable, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await lockOrder(trx, id);
    await releaseCouponRedemption(trx, id);
    await trx.deleteFrom("orders").where("id", "=", id).execute();
  });
  logger.info({ orderId: id }, "admin: order deleted");
}

/** The button: the order's current status to its customer, old status 'manual'. Throws the spec's failure message. */
export async function sendStatusEmailNow(db: Queryable, id: string): Promise<void> {
  const result = await sendOrderStatusEmail(db, id, { oldStatus: "manual" });
  if (!result.sent) throw new DomainError(ORDER_ADMIN_MESSAGES.emailFailed(result.reason), result.status);
}

async function notify(db: Queryable, id: string, oldStatus: OrderStatus) {
  try {
    const result = await sendOrderStatusEmail(db, id, { oldStatus });
    if (!result.sent) logger.warn({ orderId: id, reason: result.reason }, "shipped e-mail not delivered");
  } catch (error) {
    logger.error({ err: error, orderId: id }, "shipped e-mail failed");
  }
}
