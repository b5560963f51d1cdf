/**
 * A person's reward points for "Download my data" (POPIA s23, docs/decisions/040 and 062): their membership, balances
 * and every change to them. Account deletion needs nothing here: the account's row goes with the person's (the
 * database cascades its ledger, earnings and redemptions), so their points are forfeited with it.
 */
import type { Queryable } from "~/db/db.server";
import type { RewardEntryKind } from "~/db/schema";
import { referralsOfReferrer } from "./referrals.server";

export interface PersonRewards {
  joinedAt: string | null;
  availablePoints: number;
  pendingPoints: number;
  owedPoints: number;
  entries: Array<{ kind: RewardEntryKind; availableDelta: number; pendingDelta: number; owedDelta: number; orderId: string | null; note: string | null; at: string }>;
  /** how the person came, if by a member's link (the member is only "a friend": their data is theirs) */
  referredBy: { status: string; reason: string | null; at: string } | null;
  /** the friends who came by their link, by how it went (none named) */
  friends: { waiting: number; pending: number; rewarded: number; refused: number };
}

export async function rewardsOfPerson(db: Queryable, userId: string): Promise<PersonRewards | null> {
  const [account, referral] = await Promise.all([
    db.selectFrom("reward_accounts").select(["joined_at", "available_points", "pending_points", "owed_points"]).where("user_id", "=", userId).executeTakeFirst(),
    db.selectFrom("referrals").select(["status", "reason", "created_at"]).where("friend_user_id", "=", userId).executeTakeFirst(),
  ]);
  const referredBy = referral ? { status: referral.status, reason: referral.reason, at: referral.created_at } : null;
  if (!account) return referredBy ? { joinedAt: null, availablePoints: 0, pendingPoints: 0, owedPoints: 0, entries: [], referredBy, friends: { waiting: 0, pending: 0, rewarded: 0, refused: 0 } } : null;
  const entries = await db
    .selectFrom("reward_ledger")
    .select(["kind", "available_delta", "pending_delta", "owed_delta", "order_id", "note", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("position", "desc")
    .execute();
  return {
    joinedAt: account.joined_at,
    availablePoints: Number(account.available_points),
    pendingPoints: Number(account.pending_points),
    owedPoints: Number(account.owed_points),
    entries: entries.map((x) => ({
      kind: x.kind,
      availableDelta: Number(x.available_delta),
      pendingDelta: Number(x.pending_delta),
      owedDelta: Number(x.owed_delta),
      orderId: x.order_id,
      note: x.note,
      at: x.created_at,
    })),
    referredBy,
    friends: await referralsOfReferrer(db, userId),
  };
}

/** Each ledger entry's kind in the person's words (the data download, the profile). */
export const REWARD_ENTRY_WORDS: Record<RewardEntryKind, string> = {
  earned: "Earned (pending until the return window ends)",
  available: "Became yours to spend",
  redeemed: "Spent on an order",
  released: "Back from an order that closed unpaid",
  reversed: "Taken back by a refund",
  given_back: "Given back by a refund",
  expired: "Expired",
  adjusted: "Adjusted by the shop",
};
