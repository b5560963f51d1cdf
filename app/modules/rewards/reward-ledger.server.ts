/**
 * A member's balances and their ledger (docs/decisions/062). The three balances (available, pending, owed) are the
 * sums of the ledger and change only here: the account is read, the change computed, and written by one UPDATE
 * conditional on the entry count read (the next entry's position), then the ledger row with the balances it left.
 * Under concurrency the UPDATE is the authority, as for gift cards: on PostgreSQL a second writer waits for the first
 * and finds the count moved, reads again and recomputes (so twenty checkouts on one balance spend it exactly once);
 * SQLite has one writer at a time. A balance never goes below zero (CHECK constraints back it). The same UPDATE adds
 * the entry's share to the member's running totals (migration 0059), which Admin → Rewards sums.
 */
import type { Queryable } from "~/db/db.server";
import type { RewardEntryKind } from "~/db/schema";
import { newId } from "~/utils/ids";
import { totalsOfEntry, type RewardTotal } from "./rewards.logic";

export interface Balances {
  available: number;
  pending: number;
  owed: number;
}

export interface RewardActor {
  kind: "user" | "admin" | "system";
  id: string | null;
}

export const REWARDS_SYSTEM: RewardActor = { kind: "system", id: null };

export interface EntryContext {
  actor: RewardActor;
  orderId?: string | null;
  note?: string | null;
  now?: Date;
}

/** A change refused by the rule given (not enough points): nothing was written. */
export const REFUSED = null;

/** How many times a change is computed again after another writer moved the account first. */
const ATTEMPTS = 20;

/** The member's balances, or null when they never joined. */
export async function balancesOf(db: Queryable, userId: string): Promise<(Balances & { joinedAt: string | null }) | null> {
  const row = await db.selectFrom("reward_accounts").select(["available_points", "pending_points", "owed_points", "joined_at"]).where("user_id", "=", userId).executeTakeFirst();
  return row ? { available: Number(row.available_points), pending: Number(row.pending_points), owed: Number(row.owed_points), joinedAt: row.joined_at } : null;
}

/**
 * Applies `change` to the account's balances as they are now, with a ledger entry of `kind`. Answers the balances it
 * left, or null when the account doesn't exist or `change` refused (it answers null), writing nothing then.
 */
export async function changeBalances(trx: Queryable, userId: string, kind: RewardEntryKind, change: (now: Balances) => Balances | null, context: EntryContext): Promise<Balances | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const row = await trx.selectFrom("reward_accounts").select(["available_points", "pending_points", "owed_points", "entry_count"]).where("user_id", "=", userId).executeTakeFirst();
    if (!row) return null;
    const before: Balances = { available: Number(row.available_points), pending: Number(row.pending_points), owed: Number(row.owed_points) };
    const after = change(before);
    if (!after) return null;
    if (after.available < 0 || after.pending < 0 || after.owed < 0) throw new RangeError(`A reward balance can't go below zero (${kind}: ${JSON.stringify(after)})`);
    const position = Number(row.entry_count) + 1;
    const delta: Balances = { available: after.available - before.available, pending: after.pending - before.pending, owed: after.owed - before.owed };
    const totals = Object.entries(totalsOfEntry(kind, delta)) as Array<[RewardTotal, number]>;
    const written = await trx
      .updateTable("reward_accounts")
      .set((eb) => ({
        available_points: after.available,
        pending_points: after.pending,
        owed_points: after.owed,
        entry_count: position,
        // the member's running totals (migration 0059), in the same UPDATE: the row is theirs and already changing
        ...Object.fromEntries(totals.map(([column, points]) => [column, eb(column, "+", points)])),
      }))
      .where("user_id", "=", userId)
      .where("entry_count", "=", Number(row.entry_count))
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) === 0) continue;
    await trx
      .insertInto("reward_ledger")
      .values({
        id: newId(),
        user_id: userId,
        position,
        kind,
        available_delta: delta.available,
        pending_delta: delta.pending,
        owed_delta: delta.owed,
        available_after: after.available,
        pending_after: after.pending,
        owed_after: after.owed,
        order_id: context.orderId ?? null,
        actor_kind: context.actor.kind,
        actor_id: context.actor.id,
        note: context.note ?? null,
        created_at: (context.now ?? new Date()).toISOString(),
      })
      .execute();
    return after;
  }
  throw new Error(`The rewards account of ${userId} kept changing under ${ATTEMPTS} attempts`);
}

/** `points` credited: what is owed is paid first, the rest becomes available. Answers how many became available. */
export function credit(points: number): (b: Balances) => Balances {
  return (b) => {
    const toOwed = Math.min(b.owed, points);
    return { ...b, owed: b.owed - toOwed, available: b.available + points - toOwed };
  };
}

/** `points` taken back: from what is available, and what was already spent is owed (paid from the next points). */
export function takeBack(points: number): (b: Balances) => Balances {
  return (b) => {
    const fromAvailable = Math.min(b.available, points);
    return { ...b, available: b.available - fromAvailable, owed: b.owed + points - fromAvailable };
  };
}

/** `points` spent: only from what is available (null, refused, when there aren't enough). */
export function spend(points: number): (b: Balances) => Balances | null {
  return (b) => (b.available >= points ? { ...b, available: b.available - points } : null);
}
