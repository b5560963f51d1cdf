/**
 * Admin → Marketing → Rewards (issue 40, docs/decisions/062): the programme's figures (what the shop owes in points:
 * its liability), a member's points changed by hand with a reason, and the latest such changes.
 *
 * The figures are two aggregate queries: the ledger's deltas summed by kind (what every point did since the programme
 * began), and the accounts' balances summed (what is outstanding now). The latest changes by hand are read through
 * reward_ledger_kind_idx (kind, created_at).
 */
import { sql } from "kysely";
import type { Queryable } from "~/db/db.server";
import { inTransaction } from "~/db/in-transaction.server";
import type { RewardEntryKind } from "~/db/schema";
import { DomainError } from "~/utils/errors";
import { changeBalances, credit, type Balances } from "./reward-ledger.server";
import { REWARDS_ADMIN_MESSAGES as M, type AdjustInput } from "./rewards-admin.schema";
import { pointsWorthCents } from "./rewards.logic";
import { takeFromLots } from "./reward-orders.server";

export interface RewardFigures {
  /** shoppers who have joined (and not left) */
  members: number;
  /** points earned on paid orders, all told (pending first) */
  earned: number;
  /** pending points that became available once their return window ended */
  madeAvailable: number;
  /** points spent at checkout, less those released by orders that closed unpaid */
  spent: number;
  /** points that refunds gave back to their members */
  givenBack: number;
  /** points taken back because what earned them was refunded or cancelled */
  reversed: number;
  expired: number;
  /** points added and taken away by hand */
  adjustedAdded: number;
  adjustedRemoved: number;
  /** outstanding now: the members' balances summed */
  available: number;
  pending: number;
  owed: number;
}

type Sums = { available: number; pending: number; owed: number; credited: number };

export async function rewardFigures(db: Queryable): Promise<RewardFigures> {
  const [byKind, accounts] = await Promise.all([
    db
      .selectFrom("reward_ledger")
      .select((eb) => [
        "kind",
        eb.fn.sum<number | string>("available_delta").as("available"),
        eb.fn.sum<number | string>("pending_delta").as("pending"),
        eb.fn.sum<number | string>("owed_delta").as("owed"),
        // what the entries added to a balance (credit() pays what is owed first): an adjustment's additions
        sql<number | string>`sum(case when available_delta - owed_delta > 0 then available_delta - owed_delta else 0 end)`.as("credited"),
      ])
      .groupBy("kind")
      .execute(),
    db
      .selectFrom("reward_accounts")
      .select((eb) => [
        eb.fn.count<number | string>("joined_at").as("members"),
        eb.fn.sum<number | string>("available_points").as("available"),
        eb.fn.sum<number | string>("pending_points").as("pending"),
        eb.fn.sum<number | string>("owed_points").as("owed"),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  const sums = new Map<RewardEntryKind, Sums>(
    byKind.map((r) => [r.kind, { available: Number(r.available ?? 0), pending: Number(r.pending ?? 0), owed: Number(r.owed ?? 0), credited: Number(r.credited ?? 0) }]),
  );
  const of = (kind: RewardEntryKind): Sums => sums.get(kind) ?? { available: 0, pending: 0, owed: 0, credited: 0 };
  // A credit (released, given back, an addition by hand) pays what is owed first: its points are available − owed.
  const credited = (s: Sums) => s.available - s.owed;
  const adjusted = of("adjusted");
  return {
    members: Number(accounts.members ?? 0),
    earned: of("earned").pending,
    madeAvailable: -of("available").pending,
    spent: -of("redeemed").available - credited(of("released")),
    givenBack: credited(of("given_back")),
    // from pending, from available, and what was already spent: owed
    reversed: -of("reversed").pending - of("reversed").available + of("reversed").owed,
    expired: -of("expired").available,
    adjustedAdded: adjusted.credited,
    adjustedRemoved: adjusted.credited - credited(adjusted),
    available: Number(accounts.available ?? 0),
    pending: Number(accounts.pending ?? 0),
    owed: Number(accounts.owed ?? 0),
  };
}

/** The liability in cents: what the outstanding points are worth at today's point value. */
export function liabilityOf(f: Pick<RewardFigures, "available" | "pending">, pointValueCents: number): { availableCents: number; pendingCents: number } {
  return { availableCents: pointsWorthCents(f.available, pointValueCents), pendingCents: pointsWorthCents(f.pending, pointValueCents) };
}

/**
 * A member's points changed by hand, with the admin and the reason on the ledger row. Adding pays what they owe first
 * (credit); taking away takes only from what is available (refused otherwise, nothing written), from the lots that
 * expire first, as spending does. Refused for an address nobody has and for someone who never joined.
 */
export async function adjustPoints(db: Queryable, input: Pick<AdjustInput, "email" | "points" | "reason"> & { adminId: string; now?: Date }): Promise<{ userId: string; balances: Balances; message: string }> {
  const email = input.email.trim().toLowerCase();
  return inTransaction(db, async (trx) => {
    const person = await trx
      .selectFrom("users")
      .leftJoin("reward_accounts", "reward_accounts.user_id", "users.id")
      .select(["users.id", "reward_accounts.user_id as account"])
      .where("users.email", "=", email)
      .executeTakeFirst();
    if (!person) throw new DomainError(M.noCustomer, 404, "email");
    // someone who left keeps an account (and the points they may still spend): their balance may be corrected
    if (!person.account) throw new DomainError(M.notMember, 400, "email");
    const context = { actor: { kind: "admin" as const, id: input.adminId }, note: input.reason, now: input.now };
    if (input.points > 0) {
      const balances = await changeBalances(trx, person.id, "adjusted", credit(input.points), context);
      if (!balances) throw new DomainError(M.notMember, 400, "email");
      return { userId: person.id, balances, message: M.added(input.points, email, input.reason) };
    }
    const taking = -input.points;
    let had = 0;
    const balances = await changeBalances(
      trx,
      person.id,
      "adjusted",
      (b) => {
        had = b.available;
        return b.available >= taking ? { ...b, available: b.available - taking } : null;
      },
      context,
    );
    if (!balances) throw new DomainError(M.notEnough(had), 409, "points");
    // out of the lots that expire first, as spent points are, so a lot never expires points the member no longer has
    await takeFromLots(trx, person.id, taking);
    return { userId: person.id, balances, message: M.removed(taking, email, input.reason) };
  });
}

export interface Adjustment {
  id: string;
  createdAt: string;
  /** null: the customer's account was deleted meanwhile (the row goes with it; kept for the type) */
  customerEmail: string | null;
  /** + added, − taken away */
  points: number;
  reason: string | null;
  /** null: the member of staff's account is gone */
  byEmail: string | null;
}

/** The latest changes by hand, newest first (reward_ledger_kind_idx). */
export async function recentAdjustments(db: Queryable, limit = 20): Promise<Adjustment[]> {
  const rows = await db
    .selectFrom("reward_ledger")
    .leftJoin("users as customer", "customer.id", "reward_ledger.user_id")
    .leftJoin("users as staff", "staff.id", "reward_ledger.actor_id")
    .select([
      "reward_ledger.id",
      "reward_ledger.created_at",
      "reward_ledger.available_delta",
      "reward_ledger.owed_delta",
      "reward_ledger.note",
      "customer.email as customer_email",
      "staff.email as staff_email",
    ])
    .where("reward_ledger.kind", "=", "adjusted")
    .orderBy("reward_ledger.created_at", "desc")
    .orderBy("reward_ledger.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    customerEmail: r.customer_email,
    points: Number(r.available_delta) - Number(r.owed_delta),
    reason: r.note,
    byEmail: r.staff_email,
  }));
}
