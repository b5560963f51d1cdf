/**
 * Who changed what (issue 38, docs/decisions/058): the activity log's one writer. An area below the others (it imports
 * only the database), so every area and flow may record what it did in the same transaction as the change: pass the
 * transaction as `db`, and the entry commits or rolls back with the change it describes.
 *
 * Entries are append-only: the table's triggers (migration 0049) refuse every update, and every delete of an entry
 * younger than the 5 years the Tax Administration Act (s29) keeps records for.
 */
import type { Queryable } from "~/db/db.server";

export interface ActivityActor {
  id: string;
  email: string;
}

export interface ActivityEntry {
  /** who did it; null for the shop itself (a job) */
  actor: ActivityActor | null;
  /** the address the request came from */
  ip?: string | null;
  /** what was done, "<record>.<verb>" e.g. "product.save", "order.refund", "staff.invite", "backup.download" */
  kind: string;
  /** the record it concerns (links the entry to its page) */
  record?: { type: string; id: string } | null;
  /** one readable line: "Saved product Amber Lantern" */
  summary: string;
  /** the record's values before and after the change (only what changed, where the writer knows) */
  before?: unknown;
  after?: unknown;
  at?: Date;
}

/** Writes one entry. Inside a transaction it is part of that transaction. */
export async function recordActivity(db: Queryable, entry: ActivityEntry): Promise<void> {
  await db
    .insertInto("activity_log")
    .values({
      at: (entry.at ?? new Date()).toISOString(),
      actor_id: entry.actor?.id ?? null,
      actor_email: entry.actor?.email ?? null,
      ip: entry.ip ?? null,
      kind: entry.kind,
      record_type: entry.record?.type ?? null,
      record_id: entry.record?.id ?? null,
      summary: entry.summary.slice(0, 500),
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
    })
    .execute();
}
