import { sql, type Kysely } from "kysely";

/**
 * What each member's points did since they joined, kept on their account (app/modules/rewards/reward-ledger.server.ts
 * adds each ledger entry's share in the UPDATE that already writes the balances): Admin → Marketing → Rewards sums
 * these over the members instead of the whole ledger by kind. The ledger grows with every order (earned, available,
 * spent…); at a million entries the sum took 0.7 s on SQLite, against the admin's 100 ms. The member's row is
 * already locked by the balance change, so the totals add no lock of their own, and an account deleted with its
 * person takes its totals with it, as the ledger's rows went before.
 *
 * The columns, per entry of the ledger (available, pending and owed deltas a, p, o; as rewardFigures read them):
 * - `earned_total`: p of "earned"; `made_available_total`: −p of "available";
 * - `spent_total`: −a of "redeemed", less a − o of "released" (a credit pays what is owed first);
 * - `given_back_total`: a − o of "given_back"; `reversed_total`: −p − a + o of "reversed"; `expired_total`: −a of
 *   "expired";
 * - `added_by_hand_total` and `removed_by_hand_total`: a − o of "adjusted", above and below zero.
 * Filled here from the ledger so far.
 */
const TOTALS = ["earned_total", "made_available_total", "spent_total", "given_back_total", "reversed_total", "expired_total", "added_by_hand_total", "removed_by_hand_total"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of TOTALS) {
    await db.schema
      .alterTable("reward_accounts")
      .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await sql`
    update reward_accounts set
      earned_total = s.earned,
      made_available_total = s.made_available,
      spent_total = s.spent,
      given_back_total = s.given_back,
      reversed_total = s.reversed,
      expired_total = s.expired,
      added_by_hand_total = s.added,
      removed_by_hand_total = s.removed
    from (
      select user_id,
        sum(case when kind = 'earned' then pending_delta else 0 end) as earned,
        sum(case when kind = 'available' then -pending_delta else 0 end) as made_available,
        sum(case when kind = 'redeemed' then -available_delta when kind = 'released' then owed_delta - available_delta else 0 end) as spent,
        sum(case when kind = 'given_back' then available_delta - owed_delta else 0 end) as given_back,
        sum(case when kind = 'reversed' then owed_delta - pending_delta - available_delta else 0 end) as reversed,
        sum(case when kind = 'expired' then -available_delta else 0 end) as expired,
        sum(case when kind = 'adjusted' and available_delta > owed_delta then available_delta - owed_delta else 0 end) as added,
        sum(case when kind = 'adjusted' and owed_delta > available_delta then owed_delta - available_delta else 0 end) as removed
      from reward_ledger
      group by user_id
    ) s
    where s.user_id = reward_accounts.user_id
  `.execute(db);
  // Admin → Marketing → Rewards lists the latest referrals: newest first, without sorting them all
  await db.schema.createIndex("referrals_created_idx").on("referrals").column("created_at").execute();
}
