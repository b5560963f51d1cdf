/**
 * An admin change and its activity-log entry, together (docs/decisions/060). The admin dispatcher runs every intent
 * through `runAudited`:
 * - ordinarily the handler runs in one transaction with its entry: the record's snapshot before, the change, the
 *   snapshot after, the entry of the fields that differ; a failure anywhere leaves neither;
 * - an intent that calls an outside service (`outside`: a courier, a payment provider, a mail server) must not hold the
 *   database's write lock across the network: it runs outside a transaction, and its use case's own transaction (the
 *   first it opens through inTransaction) carries the entry; a handler that opened none is recorded right after it.
 */
import { inTransaction, withFirstTransaction } from "~/db/in-transaction.server";
import type { DB, Queryable } from "~/db/db.server";
import { changeBetween, changeRows, RECORD_LABELS, type RecordType } from "./activity.logic";
import { recordActivity, type ActivityActor } from "./activity.server";
import { findRecordId, snapshotRecord, type RecordSnapshot } from "./activity-records.server";

export interface AuditWho {
  actor: ActivityActor | null;
  ip: string | null;
}

export interface AuditTarget<R> {
  /** "<record>.<intent>", e.g. "order.status" */
  kind: string;
  type: RecordType | null;
  /** the record's id when the input names it; null for a record the handler creates (its id comes from `describe`) */
  id: string | null;
  outside?: boolean;
  /** a record the handler creates, found afterwards by this natural key (a new coupon's code) */
  find?: string | null;
  /** the handler's answer in words and the id of what it created */
  describe: (result: R) => { message: string; id?: string | null };
  /** the intent in words, for an entry written before the handler's answer is known (an outside intent's) */
  doing: string;
}

async function snapshot(db: Queryable, type: RecordType | null, id: string | null): Promise<RecordSnapshot | null> {
  return type && id ? snapshotRecord(db, type, id) : null;
}

async function write(db: Queryable, who: AuditWho, target: { kind: string; type: RecordType | null; id: string | null }, before: RecordSnapshot | null, after: RecordSnapshot | null, words: string) {
  const change = changeBetween(before?.values ?? null, after?.values ?? null);
  const label = after?.label ?? before?.label;
  const what = target.type ? `${RECORD_LABELS[target.type]}${label ? ` ${label}` : ""}: ` : "";
  await recordActivity(db, {
    actor: who.actor,
    ip: who.ip,
    kind: target.kind,
    record: target.type && target.id ? { type: target.type, id: target.id } : null,
    summary: `${what}${words}`,
    before: change.before ?? undefined,
    after: change.after ?? undefined,
  });
}

/** " — status: pending → shipped; tracking number: (empty) → TCG123": the first few changes, for a summary */
function changedWords(before: RecordSnapshot | null, after: RecordSnapshot | null): string {
  if (!before || !after) return before ? " (deleted)" : after ? " (created)" : "";
  const change = changeBetween(before.values, after.values);
  const rows = changeRows(change.before, change.after);
  if (rows.length === 0) return "";
  // a short value is said (a status, a price); a long one (a description) only named: the entry's table has it
  const shown = rows.slice(0, 3).map((r) => (r.before.length + r.after.length <= 48 ? `${r.field}: ${r.before} → ${r.after}` : r.field));
  return ` — ${shown.join("; ")}${rows.length > 3 ? ` and ${rows.length - 3} more` : ""}`;
}

export async function runAudited<R>(db: DB, who: AuditWho, target: AuditTarget<R>, run: (db: DB) => Promise<R>): Promise<R> {
  if (!target.outside) {
    return inTransaction(db, async (trx) => {
      const before = await snapshot(trx, target.type, target.id);
      const result = await run(trx);
      const { message, id } = target.describe(result);
      const recordId = target.id ?? id ?? (target.type && target.find ? await findRecordId(trx, target.type, target.find) : null);
      await write(trx, who, { ...target, id: recordId }, before, await snapshot(trx, target.type, recordId), message);
      return result;
    });
  }
  const first = await snapshot(db, target.type, target.id);
  const { result, wrapped } = await withFirstTransaction(
    async (trx, body) => {
      const before = await snapshot(trx, target.type, target.id);
      const out = await body();
      const recordId = target.id ?? (target.type && target.find ? await findRecordId(trx, target.type, target.find) : null);
      const after = await snapshot(trx, target.type, recordId);
      await write(trx, who, { ...target, id: recordId }, before, after, `${target.doing}${changedWords(before, after)}`);
      return out;
    },
    () => run(db),
  );
  if (!wrapped) {
    // No transaction of its own (it only sent a message, or asked a service): recorded right after.
    const { message, id } = target.describe(result);
    const recordId = target.id ?? id ?? null;
    await write(db, who, { ...target, id: recordId }, first, await snapshot(db, target.type, recordId), message);
  }
  return result;
}
