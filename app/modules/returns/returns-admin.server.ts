/**
 * Returns, the owner's side (issue 21 point 8, docs/decisions/041): the list with its tabs and overdue flags, one
 * return's detail, and the steps — approve, decline, mark received (stock given back), and the return's own part of
 * the refund (recordReturnRefunded: marked refunded with its credit note). The refund itself, across payments, gift
 * cards and returns, is the flow app/modules/flows/return-refunded.server.ts.
 *
 * Each step is one transaction whose update is conditional on the status it starts from, so two admins, or a double
 * click, can't apply it twice: the second changes nothing and is told so. E-mails go out after the commit.
 */
import { refreshProductSummaries } from "~/modules/catalog/sizes.server";
import { giveBackToSize } from "~/modules/catalog/size-stock.server";
import { isPostgres, type Queryable, type Trx } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import type { ReturnStatus } from "~/db/schema";
import { takeNextNumber } from "~/modules/invoices/invoice-number.server";
import { inTransaction } from "~/db/in-transaction.server";
import { enabledProviders, getPaymentProvider, isProviderName } from "~/modules/payments/payments.server";
import { type ProviderName } from "~/modules/payments/provider";
import { env, type Env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { sendReturnEmails } from "./return-emails.server";
import { isOverdue, OPEN_STATUSES, RETURN_MESSAGES, STEP_FROM, suggestRefund, checkRefundAmount, splitRefund, type RefundSplit, type ReturnStep, type ReturnTab, RETURN_TABS } from "./returns.logic";
import { sendMail } from "~/modules/mail/mailer.server";
import { formatRand } from "~/utils/money";
import { listReturns, refundedOnOrder, returnableLines, type ReturnSummary } from "./returns.server";
import { returnsWithOrder } from "./return-row.server";
import { giveBackLineStockTaken } from "~/modules/orders/order-writes.server";

export const RETURNS_PAGE_SIZE = 20;


export interface AdminReturnRow {
  id: string;
  orderId: string;
  shortOrderId: string;
  customerEmail: string | null;
  customerName: string;
  status: ReturnStatus;
  kind: "cooling_off" | "faulty";
  reason: string;
  items: number;
  requestedAt: string;
  refundDueAt: string;
  overdue: boolean;
  refundCents: number | null;
  payoutStatus: "pending" | "paid" | "failed" | null;
}

function tabQuery(db: Queryable, tab: ReturnTab, now: Date) {
  let query = db.selectFrom("returns as r");
  if (tab === "open") query = query.where("r.status", "in", [...OPEN_STATUSES]);
  else if (tab === "overdue") query = query.where("r.status", "in", [...OPEN_STATUSES]).where("r.refund_due_at", "<", now.toISOString());
  else query = query.where("r.status", "=", tab);
  return query;
}

export async function listAdminReturns(db: Queryable, input: { tab: ReturnTab; page: number }, now: Date = new Date()): Promise<Page<AdminReturnRow>> {
  const open = input.tab === "open" || input.tab === "overdue" || input.tab === "requested" || input.tab === "approved" || input.tab === "received";
  // The page's ids first, from the returns table and its (status, refund_due_at) index alone; then only those rows'
  // orders, customers and item counts (as the orders list does): the count never joins.
  const ids = tabQuery(db, input.tab, now).select("r.id");
  // What waits on the owner: the refund due soonest first; what is done: the newest first.
  const ordered = open ? ids.orderBy("r.refund_due_at", "asc").orderBy("r.id") : ids.orderBy("r.requested_at", "desc").orderBy("r.id", "desc");
  const page = await paginate(ordered, { page: input.page, pageSize: RETURNS_PAGE_SIZE });
  if (page.rows.length === 0) return { ...page, rows: [] };
  const rows = await returnsWithOrder(db)
    .select([
      "r.id",
      "r.order_id",
      "r.status",
      "r.kind",
      "r.reason",
      "r.requested_at",
      "r.refund_due_at",
      "r.refund_cents",
      "r.payout_status",
      "u.email",
      "o.shipping_address",
      (eb) => eb.selectFrom("return_lines as rl").select((e) => e.fn.sum<number>("rl.quantity").as("n")).whereRef("rl.return_id", "=", "r.id").as("items"),
    ])
    .where(
      "r.id",
      "in",
      page.rows.map((r) => r.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    ...page,
    rows: page.rows.flatMap(({ id }) => byId.get(id) ?? []).map((r) => ({
      id: r.id,
      orderId: r.order_id,
      shortOrderId: shortOrderId(r.order_id),
      customerEmail: r.email ?? null,
      customerName: r.shipping_address.name,
      status: r.status,
      kind: r.kind,
      reason: r.reason,
      items: Number(r.items ?? 0),
      requestedAt: r.requested_at,
      refundDueAt: r.refund_due_at,
      overdue: isOverdue({ status: r.status, refundDueAt: r.refund_due_at }, now),
      refundCents: r.refund_cents === null ? null : Number(r.refund_cents),
      payoutStatus: r.payout_status,
    })),
  };
}

/** How many returns each tab holds (one grouped count, and the overdue ones). */
export async function returnTabCounts(db: Queryable, now: Date = new Date()): Promise<Record<ReturnTab, number>> {
  const [byStatus, overdue] = await Promise.all([
    db
      .selectFrom("returns")
      .select((eb) => ["status", eb.fn.countAll<number>().as("n")])
      .groupBy("status")
      .execute(),
    tabQuery(db, "overdue", now)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst(),
  ]);
  const counts = Object.fromEntries(RETURN_TABS.map((t) => [t, 0])) as Record<ReturnTab, number>;
  for (const r of byStatus) counts[r.status as ReturnTab] = Number(r.n);
  counts.open = counts.requested + counts.approved + counts.received;
  counts.overdue = Number(overdue?.n ?? 0);
  return counts;
}

/** Open returns whose refund is overdue: the dashboard's and the nav's flag. */
export async function overdueReturns(db: Queryable, now: Date = new Date()): Promise<number> {
  const row = await tabQuery(db, "overdue", now)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------- refunds through the provider

const PROVIDER_LABELS: Record<ProviderName, string> = { simulated: "Test payments", yoco: "Yoco", payfast: "PayFast", ozow: "Ozow" };

export interface RefundCapability {
  /** the provider that can pay this refund back from here, or null: the owner pays it by EFT */
  provider: ProviderName | null;
  label: string;
  /** why the provider can't, when it can't */
  why: string | null;
}

/** Can the order's payment be refunded through its provider, from here, now? */
export function refundCapability(order: { payment_method: string; payment_provider: string | null; payment_id: string | null }): RefundCapability {
  if (order.payment_method === "eft" || !order.payment_provider || order.payment_provider === "eft") {
    return { provider: null, label: "Bank transfer", why: "This order was paid by bank transfer: pay the refund by EFT and record it here." };
  }
  const name = order.payment_provider;
  if (!isProviderName(name)) return { provider: null, label: name, why: `${name} is not a payment provider this shop knows: pay the refund by EFT.` };
  const label = PROVIDER_LABELS[name];
  if (!order.payment_id) return { provider: null, label, why: `The order has no ${label} payment reference: pay the refund by EFT.` };
  if (!enabledProviders().has(name)) return { provider: null, label, why: `${label} is no longer set up in this shop: pay the refund by EFT.` };
  let refundable = false;
  try {
    refundable = typeof getPaymentProvider(name).refund === "function";
  } catch {
    refundable = false;
  }
  if (!refundable) return { provider: null, label, why: NO_REFUND_API[name] ?? RETURN_MESSAGES.providerUnavailable(label) };
  return { provider: name, label, why: null };
}

/** Why a provider's refunds are not made from the shop (docs/decisions/041). */
const NO_REFUND_API: Partial<Record<ProviderName, string>> = {
  ozow: "Ozow pays refunds from a float loaded in its merchant admin, not from this shop: refund there, or by EFT, and record it here.",
  payfast: "PayFast's refund API works only on a live account (not its sandbox): refund by EFT and record it here.",
};

/** PayFast refunds name PayFast's own payment id (pf_payment_id), kept in the paid event's id ("<pf_payment_id>:COMPLETE"). */
async function providerPaymentIdOf(db: Queryable, orderId: string, provider: ProviderName): Promise<string | null> {
  if (provider !== "payfast") return null;
  const row = await db
    .selectFrom("payment_events")
    .select("provider_event_id")
    .where("order_id", "=", orderId)
    .where("provider", "=", provider)
    .where("outcome", "=", "paid")
    .executeTakeFirst();
  return row ? (row.provider_event_id.split(":")[0] ?? null) : null;
}

// ---------------------------------------------------------------- one return

async function orderOf(db: Queryable, orderId: string) {
  return db
    .selectFrom("orders as o")
    .leftJoin("users as u", "u.id", "o.user_id")
    .select([
      "o.id",
      "o.gift_card_cents",
      "o.status",
      "o.payment_status",
      "o.payment_method",
      "o.payment_provider",
      "o.payment_id",
      "o.subtotal_cents",
      "o.discount_amount_cents",
      "o.shipping_cents",
      "o.total_amount_cents",
      "o.coupon_code",
      "o.invoice_number",
      "o.actual_delivery_date",
      "o.shipping_address",
      "u.email",
    ])
    .where("o.id", "=", orderId)
    .executeTakeFirst();
}

/** The refund a return comes to, from the database (returns.logic suggestRefund). */
async function refundFor(db: Queryable, ret: ReturnSummary, order: NonNullable<Awaited<ReturnType<typeof orderOf>>>) {
  const [lines, refunded] = await Promise.all([returnableLines(db, order.id), refundedOnOrder(db, order.id)]);
  return suggestRefund({
    order: {
      subtotalCents: Number(order.subtotal_cents),
      discountCents: Number(order.discount_amount_cents),
      shippingCents: Number(order.shipping_cents),
      totalAmountCents: Number(order.total_amount_cents),
    },
    returnLines: ret.lines,
    // every unit of the order is in a return not declined (this one included): the customer keeps nothing
    completesOrder: lines.every((l) => l.returned >= l.quantity),
    refundedCents: refunded,
  });
}

export async function getAdminReturn(db: Queryable, id: string, now: Date = new Date(), config: Env = env()) {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  const [ret] = await listReturns(db, { returnId: id }, config);
  if (!ret) return null;
  const order = await orderOf(db, (await db.selectFrom("returns").select("order_id").where("id", "=", id).executeTakeFirstOrThrow()).order_id);
  if (!order) return null;
  const refund = await refundFor(db, ret, order);
  // where a refund of the suggested amount goes (docs/decisions/053): the shopper's choice and the gift cards that paid
  const split = await refundSplitFor(db, id, order.id, refund.maxCents);
  const refundTo = (await db.selectFrom("returns").select("refund_to").where("id", "=", id).executeTakeFirstOrThrow()).refund_to;
  return {
    giftCards: { refundTo, providerLeftCents: split.providerCents, paidByCards: Number(order.gift_card_cents) > 0 },
    ret,
    order: {
      id: order.id,
      shortId: shortOrderId(order.id),
      status: order.status,
      paymentMethod: order.payment_method,
      customerEmail: order.email ?? null,
      address: order.shipping_address,
      totalCents: Number(order.total_amount_cents),
      discountCents: Number(order.discount_amount_cents),
      couponCode: order.coupon_code,
      invoiceNumber: order.invoice_number === null ? null : Number(order.invoice_number),
      deliveredAt: order.actual_delivery_date,
    },
    refund,
    capability: refundCapability(order),
    overdue: isOverdue(ret, now),
  };
}

// ---------------------------------------------------------------- the steps

async function lockReturn(trx: Trx, id: string) {
  let query = trx.selectFrom("returns").selectAll().where("id", "=", id);
  if (isPostgres(trx)) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new DomainError(RETURN_MESSAGES.returnNotFound, 404);
  return row;
}

const NOT_FROM: Record<ReturnStep, string> = {
  approve: RETURN_MESSAGES.notRequested,
  decline: RETURN_MESSAGES.notDecidable,
  receive: RETURN_MESSAGES.notApproved,
  refund: RETURN_MESSAGES.notReceived,
};

function assertFrom(step: ReturnStep, status: ReturnStatus) {
  if (!STEP_FROM[step].includes(status)) throw new DomainError(NOT_FROM[step], 409);
}

/** Moves a return on, conditional on the status it starts from (a second click changes nothing, and says so). */
async function move(trx: Trx, id: string, step: ReturnStep, values: Record<string, unknown>) {
  const updated = await trx
    .updateTable("returns")
    .set(values)
    .where("id", "=", id)
    .where("status", "in", STEP_FROM[step])
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new DomainError(RETURN_MESSAGES.concurrent, 409);
}

export async function approveReturn(db: Queryable, id: string, message: string, now: Date = new Date()): Promise<string> {
  await inTransaction(db, async (trx) => {
    const row = await lockReturn(trx, id);
    assertFrom("approve", row.status);
    const at = now.toISOString();
    await move(trx, id, "approve", { status: "approved", owner_message: message || null, decided_at: at, updated_at: at });
  });
  logger.info({ returnId: id }, "returns: approved");
  await sendReturnEmails(db, id, "approved");
  return RETURN_MESSAGES.approved;
}

export async function declineReturn(db: Queryable, id: string, message: string, now: Date = new Date()): Promise<string> {
  if (!message.trim()) throw new DomainError(RETURN_MESSAGES.declineNeedsMessage, 400, "message");
  await inTransaction(db, async (trx) => {
    const row = await lockReturn(trx, id);
    assertFrom("decline", row.status);
    const at = now.toISOString();
    await move(trx, id, "decline", { status: "declined", owner_message: message, decided_at: at, updated_at: at });
  });
  logger.info({ returnId: id }, "returns: declined");
  await sendReturnEmails(db, id, "declined");
  return RETURN_MESSAGES.declined;
}

/**
 * The parcel has arrived: the return is received, and the units the owner puts back on the shelf go back into their
 * products' stock (tracked products only). The order's lines give up that much of what their payment took
 * (docs/decisions/020), so cancelling the order later gives back only the rest: a bottle is never counted back twice.
 */
export async function receiveReturn(db: Queryable, id: string, restock: Record<string, number>, now: Date = new Date()): Promise<string> {
  const { restocked } = await inTransaction(db, async (trx) => {
    const row = await lockReturn(trx, id);
    assertFrom("receive", row.status);
    const at = now.toISOString();
    await move(trx, id, "receive", { status: "received", received_at: at, updated_at: at });
    const lines = await trx
      .selectFrom("return_lines as rl")
      .innerJoin("order_lines as ol", "ol.id", "rl.order_line_id")
      .select(["rl.id", "rl.quantity", "ol.id as order_line_id", "ol.product_id", "ol.size_id"])
      .where("rl.return_id", "=", id)
      .orderBy("ol.product_id")
      .orderBy("ol.size_id")
      .orderBy("rl.id")
      .execute();
    let restocked = 0;
    const touched: string[] = [];
    for (const line of lines) {
      const wanted = Math.min(Math.max(0, Math.floor(restock[line.id] ?? 0)), Number(line.quantity));
      if (wanted === 0 || !line.product_id || !line.size_id) continue;
      if (!(await giveBackToSize(trx, line.size_id, wanted))) continue;
      touched.push(line.product_id);
      await trx.updateTable("return_lines").set({ restocked: wanted }).where("id", "=", line.id).execute();
      await giveBackLineStockTaken(trx, line.order_line_id, wanted);
      restocked += wanted;
    }
    await refreshProductSummaries(trx, touched);
    return { restocked };
  });
  if (restocked > 0) storefrontChanged(`stock: return ${id} received`);
  logger.info({ returnId: id, restocked }, "returns: received");
  await sendReturnEmails(db, id, "received");
  return RETURN_MESSAGES.received(restocked);
}

export interface RefundInput {
  amountCents: number;
  /** provider: through the order's payment provider; eft: the owner has paid it by bank transfer */
  method: "provider" | "eft";
  /** the owner's EFT reference (optional) */
  reference: string;
}

/**
 * The refund's own step on the return, in the refund flow's transaction (flows/return-refunded.server.ts): the return
 * locked and still received, the amount checked again against what is left of the order's payment under the lock, the
 * credit note's number taken (its own series, docs/decisions/041) and the return marked refunded with it. Refused
 * (409): nothing changed. Undone by the transaction's rollback.
 */
export async function recordReturnRefunded(
  trx: Trx,
  id: string,
  refund: {
    amountCents: number;
    method: "provider" | "eft" | null;
    provider: ProviderName | null;
    reference: string | null;
    payout: "paid" | "pending";
    credit: { goodsCents: number; discountCents: number; deliveryCents: number };
  },
  now: Date,
): Promise<{ orderId: string; creditNote: number }> {
  const row = await lockReturn(trx, id);
  assertFrom("refund", row.status);
  // Earlier refunds of the order are final (refunded returns), and only one return per order is open at a time,
  // so the cap read before still holds; read it again under the lock all the same.
  const left = Number((await trx.selectFrom("orders").select("total_amount_cents").where("id", "=", row.order_id).executeTakeFirstOrThrow()).total_amount_cents) - (await refundedOnOrder(trx, row.order_id));
  const again = checkRefundAmount(refund.amountCents, left);
  if (!again.ok) throw new DomainError(again.message, 409, "amount");
  const at = now.toISOString();
  const creditNote = await takeNextNumber(trx, "credit_note_counter");
  await move(trx, id, "refund", {
    status: "refunded",
    refunded_at: at,
    refund_cents: refund.amountCents,
    refund_method: refund.method,
    refund_provider: refund.provider,
    refund_reference: refund.reference,
    payout_status: refund.payout,
    credit_note_number: creditNote,
    credit_note_issued_at: at,
    credit_goods_cents: refund.credit.goodsCents,
    credit_discount_cents: refund.credit.discountCents,
    credit_delivery_cents: refund.credit.deliveryCents,
    updated_at: at,
  });
  return { orderId: row.order_id, creditNote };
}

/** What of the return's refund went to gift cards (the order's own, and the new card when there is one). */
export async function recordReturnGiftCardRefund(trx: Trx, id: string, cents: number, giftCardId: string | null): Promise<void> {
  await trx.updateTable("returns").set({ refund_gift_card_cents: cents, refund_gift_card_id: giftCardId }).where("id", "=", id).execute();
}

/** The refund's checks before anything moves: the return may be refunded now, and the amount is within what is left. */
export function assertRefundable(status: ReturnStatus, amountCents: number, maxCents: number): void {
  assertFrom("refund", status);
  const amount = checkRefundAmount(amountCents, maxCents);
  if (!amount.ok) throw new DomainError(amount.message, 400, "amount");
}

/** The order's provider checkout id and, for PayFast, its own payment id: what a provider refund names. */
export async function providerRefundTarget(db: Queryable, orderId: string, provider: ProviderName): Promise<{ checkoutId: string; providerPaymentId: string | null }> {
  const order = await orderOf(db, orderId);
  return { checkoutId: order!.payment_id!, providerPaymentId: await providerPaymentIdOf(db, orderId, provider) };
}

/** The split of this refund: the shopper's choice, what the provider took and has paid back already. */
export async function refundSplitFor(db: Queryable, returnId: string, orderId: string, amountCents: number): Promise<RefundSplit> {
  const [ret, order, earlier] = await Promise.all([
    db.selectFrom("returns").select("refund_to").where("id", "=", returnId).executeTakeFirstOrThrow(),
    db.selectFrom("orders").select(["total_amount_cents", "gift_card_cents"]).where("id", "=", orderId).executeTakeFirstOrThrow(),
    db
      .selectFrom("returns")
      .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>("refund_cents"), eb.lit(0)).as("all"), eb.fn.coalesce(eb.fn.sum<number>("refund_gift_card_cents"), eb.lit(0)).as("cards")])
      .where("order_id", "=", orderId)
      .where("status", "=", "refunded")
      .executeTakeFirstOrThrow(),
  ]);
  return splitRefund({
    amountCents,
    refundTo: ret.refund_to,
    providerTookCents: Number(order.total_amount_cents) - Number(order.gift_card_cents),
    providerRefundedCents: Number(earlier.all) - Number(earlier.cards),
  });
}

/** The refund's new gift card: its code to the shopper in an e-mail of its own (after the commit; a failure is logged). */
export async function sendRefundCardEmail(db: Queryable, card: { code: string; last4: string; email: string }, cents: number, shortId: string) {
  const config = env();
  try {
    await sendMail(
      {
        to: card.email,
        subject: `${config.SHOP_NAME}: your refund as a gift card of ${formatRand(cents)}`,
        text: [
          "Hi,",
          "",
          `As you asked, the refund of your return on order ${shortId} is a ${config.SHOP_NAME} gift card of ${formatRand(cents)}.`,
          "",
          `Your gift card code: ${card.code}`,
          "",
          `Enter it at checkout on ${config.PUBLIC_BASE_URL.replace(/\/+$/, "")}. What you don't spend stays on the card.`,
          "",
          config.SHOP_NAME,
        ].join("\n"),
        kind: "transactional",
      },
      db,
    );
  } catch (error) {
    logger.error({ err: error, last4: card.last4 }, "returns: the refund gift card's e-mail failed; the owner can see the card in Admin, Gift cards");
  }
}

/** A provider refund that failed was paid by the owner by bank transfer instead. */
export async function markPaidByEft(db: Queryable, id: string, reference: string, now: Date = new Date()): Promise<string> {
  await inTransaction(db, async (trx) => {
    const row = await lockReturn(trx, id);
    // Only a failed one: a refund the provider has accepted and not yet confirmed may still be paid by it (twice, then).
    if (row.status !== "refunded" || row.payout_status !== "failed") throw new DomainError(RETURN_MESSAGES.notPendingPayout, 409);
    await trx
      .updateTable("returns")
      .set({ refund_method: "eft", payout_status: "paid", refund_reference: reference.trim() || row.refund_reference, updated_at: now.toISOString() })
      .where("id", "=", id)
      .where("status", "=", "refunded")
      .where("payout_status", "=", "failed")
      .execute();
  });
  logger.info({ returnId: id }, "returns: paid out by EFT after the provider's refund failed");
  return RETURN_MESSAGES.paidByEft;
}
