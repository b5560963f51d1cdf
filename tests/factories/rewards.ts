/**
 * One rewards story told by two tests: Admin → Rewards' figures after it (app/routes/admin.marketing.rewards.int.test.ts,
 * through the shop's own changes) and migration 0059's totals filled from a ledger holding it
 * (app/db/migrations/0059_reward_account_totals.int.test.ts).
 *
 * - a: earns 300 (pending), 200 become available, spends 120, 20 of them released, 10 given back, 50 expire, and 5 are
 *   taken away by hand;
 * - b: 40 pending taken back by a refund, then 25 more than they have (owed), then 30 added by hand (25 pay what is
 *   owed).
 */
export const TWO_MEMBERS_FIGURES = {
  members: 2,
  earned: 340,
  madeAvailable: 200,
  spent: 100,
  givenBack: 10,
  reversed: 65,
  expired: 50,
  adjustedAdded: 30,
  adjustedRemoved: 5,
  // a: 200 − 120 + 20 + 10 − 50 − 5 = 55; b: 5
  available: 60,
  pending: 100,
  owed: 0,
};
