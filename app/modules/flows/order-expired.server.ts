/**
 * Flow: unpaid orders expire by themselves (docs/decisions/014). An order still pending / payment pending once its hold
 * has passed (order-expiry.logic.ts) is closed — cancelled / payment cancelled — and its coupon reservation released,
 * through the same closeUnpaidOrder as a cancel or a failed payment, one order per transaction; an unpaid bank
 * transfer's shopper is told, by a message queued in that transaction (flows/reactions.server.ts).
 *
 * Safe with several app servers on one PostgreSQL, each running this every minute (server/jobs.ts):
 * - the close is conditional on pending/pending, so of two servers closing the same order exactly one updates it,
 *   and only that one releases the coupon (times_redeemed is never given back twice);
 * - on PostgreSQL each order is first locked with FOR UPDATE SKIP LOCKED, so a server skips an order another server
 *   (or a payment webhook) is working on instead of waiting for it; SQLite has one writer at a time anyway;
 * - work is done in bounded batches, and a run stops at a batch that closed nothing (only locked or just-paid
 *   orders left), so it never spins.
 */
import { isPostgres, type DB, type Queryable } from "~/db/db.server";
import { yieldToEventLoop } from "~/utils/event-loop";
import { logger } from "~/utils/logger.server";
import { closeUnpaidOrder } from "./order-closed-unpaid.server";
import { BANK_TRANSFER_PROVIDER } from "~/modules/payments/bank-transfer.server";
import { deliverReactions, queueReaction } from "./reactions.server";
import { expiryCutoffs, holdMinutesFor, holdPolicy, PROVIDER_HOLD_MINUTES, type UnpaidHoldPolicy } from "~/modules/orders/order-expiry.logic";

export interface ExpiryOptions {
  now?: Date;
  policy: UnpaidHoldPolicy;
  /** orders read and closed per batch (default 100) */
  batchSize?: number;
  /** batches per run at most (default 10): a backlog is worked off over several runs */
  maxBatches?: number;
}

export interface ExpiredOrder {
  id: string;
  userId: string | null;
  paymentProvider: string | null;
  createdAt: string;
  couponReleased: boolean;
}

export interface ExpiryRun {
  expired: ExpiredOrder[];
  /** the run stopped at maxBatches with more candidates left */
  more: boolean;
}

/**
 * The hold policy of this process: UNPAID_ORDER_TTL_MINUTES for card and instant-EFT payments (finished on the
 * provider's page within minutes), EFT_HOLD_DAYS for a manual bank transfer (it takes days to show on a statement).
 */
export function configuredHoldPolicy(ttlMinutes: number, eftHoldDays: number): UnpaidHoldPolicy {
  return holdPolicy(ttlMinutes, { ...PROVIDER_HOLD_MINUTES, [BANK_TRANSFER_PROVIDER]: eftHoldDays * 24 * 60 });
}

/** Unpaid orders whose hold has passed, oldest first. */
export async function findExpiredUnpaidOrders(db: Queryable, policy: UnpaidHoldPolicy, now: Date, limit: number) {
  const cut = expiryCutoffs(policy, now);
  const ownHold = cut.byProvider.map((c) => c.provider);
  return db
    .selectFrom("orders")
    .select(["id", "user_id", "payment_provider", "created_at"])
    .where("status", "=", "pending")
    .where("payment_status", "=", "pending")
    .where((eb) => {
      const pastDefault = eb("created_at", "<", cut.defaultBefore);
      if (!ownHold.length) return pastDefault;
      return eb.or([
        eb.and([eb.or([eb("payment_provider", "is", null), eb("payment_provider", "not in", ownHold)]), pastDefault]),
        ...cut.byProvider.map((c) => eb.and([eb("payment_provider", "=", c.provider), eb("created_at", "<", c.before)])),
      ]);
    })
    .orderBy("created_at")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Closes every unpaid order whose hold has passed at `now` (bounded: batchSize × maxBatches per run) and logs each.
 * Returns what this call closed; orders another server closed (or that were paid meanwhile) are not in it.
 */
export async function expireUnpaidOrders(db: DB, options: ExpiryOptions): Promise<ExpiryRun> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? 100;
  const maxBatches = options.maxBatches ?? 10;
  const postgres = isPostgres(db);
  const expired: ExpiredOrder[] = [];
  for (let batch = 0; batch < maxBatches; batch++) {
    const candidates = await findExpiredUnpaidOrders(db, options.policy, now, batchSize);
    let closedInBatch = 0;
    for (const [i, candidate] of candidates.entries()) {
      // On SQLite every statement blocks the process: a backlog (after downtime, a restore) closed in one go kept a
      // shopper's page waiting for the whole run (1 000 orders of customers with long histories: 14 s). One order at
      // a time, then whatever is waiting.
      if (i > 0) await yieldToEventLoop();
      const result = await db.transaction().execute(async (trx) => {
        if (postgres) {
          // Another server (or a webhook) holds this order right now: leave it to them rather than queue behind.
          const mine = await trx
            .selectFrom("orders")
            .select("id")
            .where("id", "=", candidate.id)
            .where("status", "=", "pending")
            .where("payment_status", "=", "pending")
            .forUpdate()
            .skipLocked()
            .executeTakeFirst();
          if (!mine) return { closed: false, couponReleased: false, told: null };
        }
        const closed = await closeUnpaidOrder(trx, candidate.id, "expired", { now });
        // A shopper who meant to pay by bank transfer is told their order was let go (card attempts just lapse).
        const told = closed.closed && candidate.payment_provider === BANK_TRANSFER_PROVIDER ? await queueReaction(trx, "bank_transfer_expired", candidate.id, {}, now) : null;
        return { ...closed, told };
      });
      if (!result.closed) continue;
      closedInBatch++;
      const order: ExpiredOrder = {
        id: candidate.id,
        userId: candidate.user_id,
        paymentProvider: candidate.payment_provider,
        createdAt: candidate.created_at,
        couponReleased: result.couponReleased,
      };
      expired.push(order);
      await deliverReactions(db, [result.told]);
      logger.info(
        { orderId: order.id, provider: order.paymentProvider, placedAt: order.createdAt, holdMinutes: holdMinutesFor(options.policy, order.paymentProvider), couponReleased: order.couponReleased },
        "orders: unpaid order expired (cancelled, payment cancelled)",
      );
    }
    if (candidates.length < batchSize || closedInBatch === 0) return { expired, more: false };
  }
  return { expired, more: true };
}
