/**
 * The rewards programme for one shopper (docs/decisions/062): the owner's settings, joining and leaving (each in the
 * consent log, with the words the shopper agreed to), and what their profile shows: balances and history.
 */
import type { Queryable } from "~/db/db.server";
import type { RewardEntryKind } from "~/db/schema";
import { recordConsent } from "~/modules/consent/consent.server";
import { loadSavedSettings, saveSettings } from "~/modules/settings/saved-settings.server";
import { balancesOf, type Balances } from "./reward-ledger.server";
import { DEFAULT_REWARD_SETTINGS, type RewardSettings } from "./rewards.logic";

export const REWARD_SETTINGS_KEY = "rewards";
/** The version of the programme's rules a shopper agrees to when joining (the consent log keeps it with the words). */
export const REWARDS_RULES_VERSION = "2026-12-06";

export function loadRewardSettings(db: Queryable): Promise<RewardSettings> {
  return loadSavedSettings(db, REWARD_SETTINGS_KEY, DEFAULT_REWARD_SETTINGS, "Rewards");
}

export function saveRewardSettings(db: Queryable, settings: RewardSettings, now: Date = new Date()): Promise<void> {
  return saveSettings(db, REWARD_SETTINGS_KEY, settings, now);
}

/** The sentence a shopper agrees to by joining, with the rule of the day (kept in the consent log). */
export function joinWording(shopName: string, s: RewardSettings): string {
  const rand = (s.earnCentsPerPoint / 100).toFixed(2).replace(/\.00$/, "");
  return (
    `I join ${shopName} Rewards: I earn a point for every R${rand} I pay for goods, worth ${s.pointValueCents} cents each when I spend them; ` +
    `points become mine to spend once an order's return window has ended, last ${s.pointsMonths} months, are taken back when what earned them is refunded, ` +
    `and have no cash value. ${shopName} keeps my points and their history while I am a member.`
  );
}

export type Membership = { member: false } | ({ member: true; joinedAt: string } & Balances);

export async function membershipOf(db: Queryable, userId: string): Promise<Membership> {
  const account = await balancesOf(db, userId);
  if (!account?.joinedAt) return { member: false };
  return { member: true, joinedAt: account.joinedAt, available: account.available, pending: account.pending, owed: account.owed };
}

/** Joins (or joins again, keeping the points they had); the consent log records the words agreed to. */
export async function joinRewards(db: Queryable, user: { id: string; email: string }, wording: string, now: Date = new Date()): Promise<void> {
  const stamp = now.toISOString();
  await db
    .insertInto("reward_accounts")
    .values({ user_id: user.id, joined_at: stamp, created_at: stamp })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ joined_at: stamp }))
    .execute();
  await recordConsent(db, { userId: user.id, email: user.email, purpose: "rewards_programme", version: REWARDS_RULES_VERSION, wording, granted: true, source: "rewards_page", now });
}

/** Leaves: no more points earned; what they have stays theirs to spend until it expires. */
export async function leaveRewards(db: Queryable, user: { id: string; email: string }, now: Date = new Date()): Promise<void> {
  await db.updateTable("reward_accounts").set({ joined_at: null }).where("user_id", "=", user.id).execute();
  await recordConsent(db, {
    userId: user.id,
    email: user.email,
    purpose: "rewards_programme",
    version: REWARDS_RULES_VERSION,
    wording: "I leave the rewards programme: I earn no more points; the points I have stay mine to spend until they expire.",
    granted: false,
    source: "rewards_page",
    now,
  });
}

export interface RewardHistoryEntry {
  kind: RewardEntryKind;
  /** + or − on what can be spent */
  availableDelta: number;
  pendingDelta: number;
  owedDelta: number;
  orderId: string | null;
  note: string | null;
  createdAt: string;
}

/** The shopper's history, newest first (the profile shows the latest `limit`). */
export async function rewardHistory(db: Queryable, userId: string, limit = 50): Promise<RewardHistoryEntry[]> {
  const rows = await db
    .selectFrom("reward_ledger")
    .select(["kind", "available_delta", "pending_delta", "owed_delta", "order_id", "note", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("position", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    availableDelta: Number(r.available_delta),
    pendingDelta: Number(r.pending_delta),
    owedDelta: Number(r.owed_delta),
    orderId: r.order_id,
    note: r.note,
    createdAt: r.created_at,
  }));
}

/** Points that expire within `days` (the profile says so), never more than are available. */
export async function pointsExpiringSoon(db: Queryable, userId: string, now: Date, days = 31): Promise<{ points: number; firstAt: string | null }> {
  const until = new Date(now.getTime() + days * 86_400_000).toISOString();
  const rows = await db
    .selectFrom("reward_earnings")
    .select(["remaining_points", "expires_at"])
    .where("user_id", "=", userId)
    .where("remaining_points", ">", 0)
    .where("expires_at", "<=", until)
    .orderBy("expires_at")
    .execute();
  // never more than they have: a refund that took back spent points may have left lots counted that expiry won't take
  const available = (await balancesOf(db, userId))?.available ?? 0;
  const points = Math.min(available, rows.reduce((s, r) => s + Number(r.remaining_points), 0));
  return { points, firstAt: points > 0 ? (rows[0]?.expires_at ?? null) : null };
}
