/**
 * The flows' after-commit work, queued in their own transactions (docs/decisions/061, migration 0056): a transactional
 * outbox. A flow that pays, ships or refunds an order writes what must follow (an e-mail, a WhatsApp update) as a row
 * here in the same transaction as the change, then delivers it right after the commit. A process that stops in
 * between loses nothing: the row is due a little later, and the `deliver-reactions` job (server/jobs.ts) delivers it.
 *
 * Each try is claimed first: `due_at` moves from the value read to the end of a lease by a conditional update, so of
 * the flow's own delivery and the job (or two servers' jobs) exactly one runs it. A try that throws is tried again
 * later; one whose process stopped mid-way is tried again once its lease has passed (at least once: an e-mail may then
 * go twice, never not at all).
 *
 * This area knows nothing of what a kind means: the flows hand it their handlers (flows/reactions.server.ts).
 */
import type { Queryable } from "~/db/db.server";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";

/** How long after the commit the job may take a reaction the flow has not delivered (its process stopped). */
export const REACTION_GRACE_MS = 2 * 60_000;
/** A try in progress holds its reaction this long; one older belonged to a process that stopped. */
export const REACTION_LEASE_MS = 10 * 60_000;
/** The waits after a failed try: 1, 5 and 30 minutes, then 2 hours; the fifth failure gives it up (its error kept). */
export const REACTION_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
/** Done reactions are kept this long (what followed an order, for the owner and the logs), then deleted. */
export const REACTION_KEEP_MS = 30 * 24 * 60 * 60_000;

/** A reaction written in a transaction: what its delivery needs to claim it. */
export interface ReactionTicket {
  id: string;
  dueAt: string;
}

export interface Reaction {
  id: string;
  kind: string;
  subjectId: string;
  details: Record<string, unknown>;
  attempts: number;
}

export type ReactionHandler = (db: Queryable, reaction: Reaction) => Promise<void>;

/** Writes a reaction in the caller's transaction; it is due to the job only after REACTION_GRACE_MS. */
export async function enqueueReaction(trx: Queryable, kind: string, subjectId: string, details: Record<string, unknown> = {}, now: Date = new Date()): Promise<ReactionTicket> {
  const id = newId();
  const dueAt = new Date(now.getTime() + REACTION_GRACE_MS).toISOString();
  await trx.insertInto("reactions").values({ id, kind, subject_id: subjectId, details: JSON.stringify(details), created_at: now.toISOString(), due_at: dueAt }).execute();
  return { id, dueAt };
}

export interface ReactionRun {
  done: number;
  /** failed, with another try due */
  failed: number;
  /** failed on its last try: the error stays */
  gaveUp: number;
}

/**
 * Runs the reactions named (a flow's, right after its commit). One the job (or another server) has taken meanwhile,
 * or that is done, is left alone.
 */
export async function runReactions(db: Queryable, tickets: readonly ReactionTicket[], handler: ReactionHandler, now: Date = new Date()): Promise<ReactionRun> {
  const run: ReactionRun = { done: 0, failed: 0, gaveUp: 0 };
  for (const ticket of tickets) await runOne(db, ticket, handler, now, run);
  return run;
}

/** Runs the reactions due at `now`, soonest first, at most `limit` (the job; a backlog drains over its next runs). */
export async function runDueReactions(db: Queryable, handler: ReactionHandler, now: Date = new Date(), limit = 50): Promise<ReactionRun> {
  const run: ReactionRun = { done: 0, failed: 0, gaveUp: 0 };
  const due = await db.selectFrom("reactions").select(["id", "due_at"]).where("due_at", "<=", now.toISOString()).orderBy("due_at").limit(limit).execute();
  for (const row of due) await runOne(db, { id: row.id, dueAt: row.due_at! }, handler, now, run);
  return run;
}

async function runOne(db: Queryable, ticket: ReactionTicket, handler: ReactionHandler, now: Date, run: ReactionRun): Promise<void> {
  const lease = new Date(now.getTime() + REACTION_LEASE_MS).toISOString();
  const row = await db.selectFrom("reactions").select(["id", "kind", "subject_id", "details", "attempts"]).where("id", "=", ticket.id).executeTakeFirst();
  if (!row) return;
  const attempts = Number(row.attempts) + 1;
  // Claimed while its due time is the one this runner saw: of two runners, one.
  const claimed = await db.updateTable("reactions").set({ due_at: lease, attempts }).where("id", "=", ticket.id).where("due_at", "=", ticket.dueAt).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return;
  const reaction: Reaction = { id: row.id, kind: row.kind, subjectId: row.subject_id, details: row.details, attempts };
  try {
    await handler(db, reaction);
    await db.updateTable("reactions").set({ due_at: null, done_at: new Date().toISOString(), error: null }).where("id", "=", row.id).execute();
    run.done += 1;
  } catch (error) {
    const delay = REACTION_BACKOFF_MS[attempts - 1];
    const retryAt = delay === undefined ? null : new Date(now.getTime() + delay).toISOString();
    const reason = String((error as Error).message ?? error).slice(0, 500);
    await db.updateTable("reactions").set({ due_at: retryAt, error: reason }).where("id", "=", row.id).execute();
    if (retryAt) run.failed += 1;
    else run.gaveUp += 1;
    logger.error({ err: error, reactionId: row.id, kind: row.kind, subjectId: row.subject_id, attempts, retryAt }, retryAt ? "reaction failed; tried again later" : "reaction failed on its last try: given up");
  }
}

/** Deletes done reactions older than REACTION_KEEP_MS (the job, once a run); given-up ones stay for the owner's logs. */
export async function pruneDoneReactions(db: Queryable, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - REACTION_KEEP_MS).toISOString();
  const result = await db.deleteFrom("reactions").where("done_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
