/**
 * What an admin page's intents change, for the activity log (docs/decisions/060): each adminAction names its record
 * (`record:` beside `failure:`), and the dispatcher logs every intent in the same transaction as its change.
 */
import { requestInfoContext } from "~/context";
import type { Queryable } from "~/db/db.server";
import { recordActivity, type ActivityEntry } from "~/modules/activity/activity.server";
import { ownerOf } from "~/modules/activity/activity-records.server";
import type { RecordType } from "~/modules/activity/activity.logic";

export interface RecordOf<I> {
  type: RecordType;
  /** the record's id: by default the input's `id`; a string names another input field; "tier"/"rule" a part's owner */
  id?: string | ((input: I) => string | null | undefined);
  /** the part the input's `id` names, whose owner is the record (a tier price → its product, a rule → its zone) */
  partOf?: "tier" | "rule";
  /** a record the intent creates is found afterwards by this input field (a new coupon by its code) */
  find?: string;
  /**
   * the intent calls an outside service (a courier, a payment provider, a mail server): it runs outside a transaction,
   * its use case's own transaction carries the entry (or it is written right after when the use case opens none)
   */
  outside?: boolean;
}

/** A page's record: one for all its intents, or one per intent (null: the intent changes no one record). */
export type RecordDeclaration<I> = RecordType | RecordOf<I> | null;

export interface ResolvedTarget {
  type: RecordType | null;
  id: string | null;
  find: string | null;
  outside: boolean;
}

function isRecordOf(value: unknown): value is RecordOf<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/** The intent's record as declared, its id read from the input (or from the database for a part's owner). */
export async function resolveRecord(declared: unknown, intent: string, input: Record<string, unknown>, db: Queryable): Promise<ResolvedTarget> {
  const picked = typeof declared === "string" || isRecordOf(declared) || declared == null ? declared : (declared as Record<string, unknown>)[intent];
  const spec: RecordOf<Record<string, unknown>> | null = typeof picked === "string" ? { type: picked as RecordType } : isRecordOf(picked) ? (picked as RecordOf<Record<string, unknown>>) : null;
  if (!spec) return { type: null, id: null, find: null, outside: false };
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : null);
  let id = typeof spec.id === "function" ? text(spec.id(input)) : text(input[spec.id ?? "id"]);
  if (spec.partOf && id) id = await ownerOf(db, spec.partOf, id);
  return { type: spec.type, id, find: spec.find ? text(input[spec.find]) : null, outside: spec.outside === true };
}

/** "cancelBooking" → "cancel booking" */
export function intentWords(intent: string): string {
  return intent.replace(/([a-z])([A-Z])/g, "$1 $2").replaceAll("-", " ").toLowerCase();
}

/** A loader's or action's `context`, as much as the activity log reads of it: the client's address. */
export interface RequestContextLike {
  get: (c: typeof requestInfoContext) => { ip: string };
}

export function clientIp(context: RequestContextLike | undefined): string | null {
  try {
    return context?.get(requestInfoContext).ip ?? null;
  } catch {
    return null;
  }
}

/**
 * What an admin did outside the dispatcher, logged (an export or a backup downloaded, an import applied, a data request
 * answered): by whom, from where. Pass the transaction when there is a change to log with.
 */
export function recordAdminEvent(
  db: Queryable,
  who: { admin: { id: string; email: string }; context: RequestContextLike | undefined },
  entry: Omit<ActivityEntry, "actor" | "ip">,
): Promise<void> {
  return recordActivity(db, { ...entry, actor: { id: who.admin.id, email: who.admin.email }, ip: clientIp(who.context) });
}
