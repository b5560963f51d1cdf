/**
 * Returns, the shopper's side (issue 21 point 8, docs/decisions/041): what an order of theirs still has to return and
 * under which rules, and the request itself. The request is one transaction: the order is read (locked on
 * PostgreSQL), its lines' returned quantities counted, the rules of returns.logic checked, the return written; the
 * partial unique index on open returns refuses a second one however the requests race. E-mails go out after the commit.
 */
import type { RefundTo } from "./returns.logic";
import { lineNameSql } from "~/modules/catalog/sizes.server";
import { isPostgres, isUniqueViolation, type Queryable, type Trx } from "~/db/db.server";
import type { ReturnKind, ReturnStatus } from "~/db/schema";
import { formatCreditNoteNumber, creditNotePath } from "~/modules/invoices/credit-note.logic";
import { inTransaction } from "~/db/in-transaction.server";
import { isOrderId, type Viewer } from "~/modules/orders/order-read.server";
import { env, type Env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId, shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import {
  checkReturnRequest,
  formatDay,
  isOpen,
  OPEN_STATUSES,
  refundDueAt,
  RETURN_MESSAGES,
  returnDeadline,
  type RequestedLine,
  type ReturnableLine,
  type ReturnPolicy,
  type ReturnReason,
} from "./returns.logic";
import { sendReturnEmails } from "./return-emails.server";

/** The owner's return settings (docs/decisions/041). */
export function returnPolicy(config: Env = env()): ReturnPolicy {
  return {
    windowDays: config.RETURN_WINDOW_DAYS,
    excludeOpened: config.RETURN_EXCLUDE_OPENED,
    excludedCategories: config.RETURN_EXCLUDED_CATEGORIES,
    exclusionReason: config.RETURN_EXCLUSION_REASON ?? null,
  };
}

/** The order's lines with what is left to return, and each product's category (for the owner's exclusions). */
export async function returnableLines(db: Queryable, orderId: string): Promise<ReturnableLine[]> {
  const [lines, returned] = await Promise.all([
    db
      .selectFrom("order_lines as l")
      .leftJoin("products as p", "p.id", "l.product_id")
      .leftJoin("categories as c", "c.id", "p.category_id")
      .select(["l.id", "l.quantity", "l.unit_price_cents", "c.slug as category_slug", "c.name as category_name"])
      .select(lineNameSql("l").as("name"))
      .where("l.order_id", "=", orderId)
      // a gift card sold is not returned: the owner cancels the order and its unspent card (docs/decisions/053)
      .where("l.gift_card", "=", 0)
      .orderBy("l.position")
      .orderBy("l.id")
      .execute(),
    db
      .selectFrom("return_lines as rl")
      .innerJoin("returns as r", "r.id", "rl.return_id")
      .select((eb) => ["rl.order_line_id", eb.fn.sum<number>("rl.quantity").as("returned")])
      .where("r.order_id", "=", orderId)
      .where("r.status", "<>", "declined")
      .groupBy("rl.order_line_id")
      .execute(),
  ]);
  const byLine = new Map(returned.map((r) => [r.order_line_id, Number(r.returned)]));
  return lines.map((l) => ({
    id: l.id,
    name: l.name,
    quantity: Number(l.quantity),
    unitPriceCents: Number(l.unit_price_cents),
    returned: byLine.get(l.id) ?? 0,
    categorySlug: l.category_slug ?? null,
    categoryName: l.category_name ?? null,
  }));
}

export interface ReturnSummary {
  id: string;
  status: ReturnStatus;
  kind: ReturnKind;
  reason: string;
  note: string;
  opened: boolean;
  ownerMessage: string | null;
  requestedAt: string;
  refundDueAt: string;
  decidedAt: string | null;
  receivedAt: string | null;
  refundedAt: string | null;
  refundCents: number | null;
  refundMethod: "provider" | "eft" | null;
  refundProvider: string | null;
  refundReference: string | null;
  payoutStatus: "pending" | "paid" | "failed" | null;
  creditNote: { number: string; href: string; issuedAt: string } | null;
  lines: Array<{ id: string; orderLineId: string; name: string; quantity: number; unitPriceCents: number; restocked: number }>;
}

/** The returns of an order (or one return), newest first, with their lines. */
export async function listReturns(db: Queryable, where: { orderId: string } | { returnId: string }, config: Env = env()): Promise<ReturnSummary[]> {
  let query = db.selectFrom("returns").selectAll();
  query = "orderId" in where ? query.where("order_id", "=", where.orderId) : query.where("id", "=", where.returnId);
  const rows = await query.orderBy("requested_at", "desc").orderBy("id", "desc").execute();
  if (rows.length === 0) return [];
  const lines = await db
    .selectFrom("return_lines")
    .selectAll()
    .where(
      "return_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    kind: r.kind,
    reason: r.reason,
    note: r.note,
    opened: Boolean(r.opened),
    ownerMessage: r.owner_message,
    requestedAt: r.requested_at,
    refundDueAt: r.refund_due_at,
    decidedAt: r.decided_at,
    receivedAt: r.received_at,
    refundedAt: r.refunded_at,
    refundCents: r.refund_cents === null ? null : Number(r.refund_cents),
    refundMethod: r.refund_method,
    refundProvider: r.refund_provider,
    refundReference: r.refund_reference,
    payoutStatus: r.payout_status,
    creditNote:
      r.credit_note_number === null || !r.credit_note_issued_at
        ? null
        : { number: formatCreditNoteNumber(Number(r.credit_note_number), config.CREDIT_NOTE_PREFIX), href: creditNotePath(r.id), issuedAt: r.credit_note_issued_at },
    lines: lines
      .filter((l) => l.return_id === r.id)
      .map((l) => ({ id: l.id, orderLineId: l.order_line_id, name: l.name, quantity: Number(l.quantity), unitPriceCents: Number(l.unit_price_cents), restocked: Number(l.restocked) })),
  }));
}

/** What the shopper's return page shows: the order, its lines with what is left, its returns, and the windows. */
export async function returnPageFor(db: Queryable, orderId: string, viewer: Viewer, now: Date = new Date(), config: Env = env()) {
  if (!isOrderId(orderId)) return null;
  const order = await db
    .selectFrom("orders")
    .select(["id", "user_id", "status", "payment_status", "actual_delivery_date", "created_at"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  // Anyone else's order is "not found", exactly like a missing one (as the invoice is).
  if (!order || (!viewer.isAdmin && order.user_id !== viewer.id)) return null;
  const [lines, returns] = await Promise.all([returnableLines(db, order.id), listReturns(db, { orderId: order.id }, config)]);
  const policy = returnPolicy(config);
  const delivered = order.status === "delivered" && order.actual_delivery_date !== null;
  const deadline = (kind: ReturnKind) => (delivered ? returnDeadline(kind, order.actual_delivery_date!, policy.windowDays) : null);
  const coolingOff = deadline("cooling_off");
  const faulty = deadline("faulty");
  const blocked =
    order.payment_status !== "completed"
      ? RETURN_MESSAGES.notPaid
      : !delivered
        ? RETURN_MESSAGES.notDelivered
        : returns.some((r) => isOpen(r.status))
          ? RETURN_MESSAGES.openReturn
          : lines.every((l) => l.quantity - l.returned <= 0)
            ? RETURN_MESSAGES.nothingLeft
            : faulty && now > faulty
              ? RETURN_MESSAGES.outsideFaultyWindow(formatDay(faulty))
              : null;
  return {
    order: { id: order.id, shortId: shortOrderId(order.id), deliveredAt: order.actual_delivery_date, placedAt: order.created_at },
    lines,
    returns,
    policy,
    windows: {
      coolingOffUntil: coolingOff ? formatDay(coolingOff) : null,
      coolingOffOpen: coolingOff ? now <= coolingOff : false,
      faultyUntil: faulty ? formatDay(faulty) : null,
    },
    blocked,
  };
}

export interface ReturnRequestInput {
  orderId: string;
  reason: ReturnReason;
  note: string;
  opened: boolean;
  lines: RequestedLine[];
  /** absent: the original payment (ECTA s44's default); "gift_card" only when the shopper chose it */
  refundTo?: RefundTo;
}

/** Locks the order's row on PostgreSQL (SQLite has one writer): requests for one order are taken one at a time. */
async function lockedOrder(trx: Trx, orderId: string) {
  let query = trx.selectFrom("orders").select(["id", "user_id", "status", "payment_status", "actual_delivery_date"]).where("id", "=", orderId);
  if (isPostgres(trx)) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * The shopper asks to return items of their order. Refused with the rule's message, changing nothing, when the order
 * isn't theirs (as "not found"), isn't delivered and paid, already has an open return, is outside the window for the
 * reason's kind, when a quantity is more than is left, or when an exclusion of the owner's applies.
 */
export async function requestReturn(db: Queryable, user: Viewer, input: ReturnRequestInput, now: Date = new Date(), config: Env = env()): Promise<{ id: string }> {
  if (!isOrderId(input.orderId)) throw new DomainError(RETURN_MESSAGES.notFound, 404);
  let created: { id: string };
  try {
    created = await inTransaction(db, async (trx) => {
      const order = await lockedOrder(trx, input.orderId);
      if (!order || order.user_id !== user.id) throw new DomainError(RETURN_MESSAGES.notFound, 404);
      const lines = await returnableLines(trx, order.id);
      const open = await trx
        .selectFrom("returns")
        .select("id")
        .where("order_id", "=", order.id)
        .where("status", "in", ["requested", "approved", "received"])
        .executeTakeFirst();
      const check = checkReturnRequest({
        order: { paid: order.payment_status === "completed", delivered: order.status === "delivered", deliveredAt: order.actual_delivery_date, hasOpenReturn: !!open },
        lines,
        requested: input.lines,
        reason: input.reason,
        opened: input.opened,
        policy: returnPolicy(config),
        now,
        formatDay,
      });
      if (!check.ok) throw new DomainError(check.message, 409);
      const id = newId();
      const at = now.toISOString();
      await trx
        .insertInto("returns")
        .values({
          id,
          order_id: order.id,
          user_id: user.id,
          status: "requested",
          kind: check.kind,
          reason: input.reason,
          note: input.note,
          opened: input.opened,
          refund_to: input.refundTo ?? "original",
          requested_at: at,
          refund_due_at: refundDueAt(at),
          created_at: at,
          updated_at: at,
        })
        .execute();
      const byId = new Map(lines.map((l) => [l.id, l]));
      await trx
        .insertInto("return_lines")
        .values(
          input.lines
            .filter((l) => l.quantity > 0)
            .map((l) => {
              const line = byId.get(l.lineId)!;
              return { id: newId(), return_id: id, order_line_id: line.id, name: line.name, quantity: l.quantity, unit_price_cents: line.unitPriceCents };
            }),
        )
        .execute();
      return { id };
    });
  } catch (error) {
    // Two requests at once: the partial unique index let one through.
    if (isUniqueViolation(error)) throw new DomainError(RETURN_MESSAGES.openReturn, 409);
    throw error;
  }
  logger.info({ orderId: input.orderId, returnId: created.id, reason: input.reason }, "returns: requested");
  await sendReturnEmails(db, created.id, "requested");
  return created;
}

/** Every refund made on an order so far, in cents (what the reports' refunds column and the refund cap read). */
export async function refundedOnOrder(db: Queryable, orderId: string): Promise<number> {
  const row = await db
    .selectFrom("returns")
    .select((eb) => eb.fn.sum<number>("refund_cents").as("refunded"))
    .where("order_id", "=", orderId)
    .where("status", "=", "refunded")
    .executeTakeFirst();
  return Number(row?.refunded ?? 0);
}

/** Whether the order has a return still open (requested, approved or received): its reward points wait for it. */
export async function hasOpenReturn(db: Queryable, orderId: string): Promise<boolean> {
  const row = await db.selectFrom("returns").select("id").where("order_id", "=", orderId).where("status", "in", [...OPEN_STATUSES]).executeTakeFirst();
  return !!row;
}

/**
 * The goods the order's refunded returns took back, at their price (`goods`) and after their share of the order's
 * discount (`paid`): cumulative, for the reward points a refund takes back and gives back (docs/decisions/062).
 */
export async function refundedGoodsOfOrder(db: Queryable, orderId: string): Promise<{ goodsCents: number; paidCents: number }> {
  const row = await db
    .selectFrom("returns")
    .select((eb) => [eb.fn.sum<number>("credit_goods_cents").as("goods"), eb.fn.sum<number>("credit_discount_cents").as("discount")])
    .where("order_id", "=", orderId)
    .where("status", "=", "refunded")
    .executeTakeFirst();
  const goods = Number(row?.goods ?? 0);
  return { goodsCents: goods, paidCents: goods - Number(row?.discount ?? 0) };
}

/** The refunds of many orders at once (the accountant's export, a batch of orders). */
export async function refundsByOrder(db: Queryable, orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("returns")
    .select((eb) => ["order_id", eb.fn.sum<number>("refund_cents").as("refunded")])
    .where("order_id", "in", orderIds)
    .where("status", "=", "refunded")
    .groupBy("order_id")
    .execute();
  return new Map(rows.map((r) => [r.order_id, Number(r.refunded ?? 0)]));
}
