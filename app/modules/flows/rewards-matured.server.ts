/**
 * Flow: reward points earned on an order become the member's to spend once its return window has ended (issue 40,
 * docs/decisions/062). Until then they are pending: a return within the window (ECTA s44, the returns' own deadline)
 * takes them back before they could be spent. The `mature-rewards` job (server/jobs.ts) runs this; each earning in a
 * transaction of its own, conditional on still being pending, so two servers make it available once.
 *
 *   1. orders (read): delivered, and its return window (returns.logic returnDeadline, cooling-off) over;
 *   2. returns (read): no return of it still open (a refund decides what is left first);
 *   3. rewards: pending → available, what is owed paid first, the rest a lot that lasts the owner's months.
 * Then, each run: lots past their months expire; a month before, their members who agreed to marketing hear once.
 * An order never marked delivered keeps its points pending.
 */
import type { Queryable } from "~/db/db.server";
import { inTransaction } from "~/db/in-transaction.server";
import { returnDeadline } from "~/modules/returns/returns.logic";
import { hasOpenReturn } from "~/modules/returns/returns.server";
import { expireLots, makeAvailable, pendingDelivered } from "~/modules/rewards/reward-orders.server";
import { loadRewardSettings } from "~/modules/rewards/rewards.server";
import { sendPointsExpiryNotices } from "~/modules/rewards/reward-expiry-notices.server";
import { forgetReferralAddresses } from "~/modules/rewards/referrals.server";

export interface MaturedRun {
  /** earnings made available */
  earnings: number;
  points: number;
  /** points of lots that expired */
  expired: number;
  /** "your points expire soon" e-mails sent */
  notices: number;
}

export async function matureRewards(db: Queryable, options: { windowDays: number; now?: Date; limit?: number }): Promise<MaturedRun> {
  const now = options.now ?? new Date();
  const settings = await loadRewardSettings(db);
  // every delivery before this may be past its window (the exact end of day is checked per order below)
  const deliveredBefore = new Date(now.getTime() - options.windowDays * 86_400_000).toISOString();
  const run: MaturedRun = { earnings: 0, points: 0, expired: 0, notices: 0 };
  for (const candidate of await pendingDelivered(db, deliveredBefore, options.limit ?? 200)) {
    if (!candidate.actual_delivery_date || returnDeadline("cooling_off", candidate.actual_delivery_date, options.windowDays).getTime() >= now.getTime()) continue;
    if (await hasOpenReturn(db, candidate.order_id)) continue;
    const points = await inTransaction(db, (trx) => makeAvailable(trx, candidate.id, settings, now));
    if (points > 0) {
      run.earnings += 1;
      run.points += points;
    }
  }
  run.expired = await expireLots(db, now);
  // a month ahead, once a lot, to members who agreed to marketing
  run.notices = await sendPointsExpiryNotices(db, settings, now);
  // the referral check's week past: the friends' addresses (keyed hashes) forgotten
  await forgetReferralAddresses(db, now);
  return run;
}
