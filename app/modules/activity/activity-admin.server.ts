/**
 * Admin → Activity (docs/decisions/060): the log read back, filtered by person, kind, record and dates, a page at a
 * time newest first by id (keyset: "older" continues below the page's last id, "newer" above its first), its CSV, and
 * one record's history for the order, product and gift card pages. Each filter walks an index that ends in id
 * (migrations 0049, 0054), and dates become an id range through the `at` index, so a page costs the same at a million
 * entries as at a hundred.
 */
import { stringify } from "csv-stringify/sync";
import { sql, type Selectable, type SelectQueryBuilder } from "kysely";
import type { Queryable } from "~/db/db.server";
import type { Database } from "~/db/schema";
import { neutraliseCell } from "~/utils/csv-cell";
import { logger } from "~/utils/logger.server";
import { keysetBatches } from "~/db/keyset-batches.server";
import { formatDateTimeZA } from "~/utils/dates";
import { changeRows, recordHref, recordLabel, type ChangeRow } from "./activity.logic";

export const ACTIVITY_PAGE_SIZE = 50;

export interface ActivityFilters {
  /** the person's user id */
  person: string;
  kind: string;
  /** a record type */
  type: string;
  /** a record's id (with its type) */
  record: string;
  /** YYYY-MM-DD, the first day (UTC) */
  from: string;
  /** YYYY-MM-DD, the last day included (UTC) */
  to: string;
}

export interface ActivityCursor {
  /** entries older than this id (the next page down) */
  before?: number;
  /** entries newer than this id (the page above) */
  after?: number;
}

export interface ActivityEntryView {
  id: number;
  at: string;
  actorId: string | null;
  actorEmail: string | null;
  ip: string | null;
  kind: string;
  recordType: string | null;
  recordId: string | null;
  summary: string;
  changes: ChangeRow[];
}

type Row = Omit<Selectable<Database["activity_log"]>, "summary"> & { text: string };

/**
 * The columns read back. The summary is read as `text`: on SQLite a column named `summary` is read as JSON (another
 * table's summary is), and an entry's summary is a line of words.
 */
const COLUMNS = ["id", "at", "actor_id", "actor_email", "ip", "kind", "record_type", "record_id", "summary as text", "before", "after"] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
function dayStart(day: string, plusDays = 0): string | null {
  if (!DAY.test(day)) return null;
  const t = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isNaN(t) ? null : new Date(t + plusDays * 86_400_000).toISOString();
}

/**
 * The ids the date range covers, read through the `at` index (entries are numbered as they are written, so ids follow
 * time; the `at` condition is kept too, for an entry restored or written with an earlier time).
 */
async function idRange(db: Queryable, filters: ActivityFilters): Promise<{ min: number | null; max: number | null; fromAt: string | null; toAt: string | null }> {
  const fromAt = filters.from ? dayStart(filters.from) : null;
  const toAt = filters.to ? dayStart(filters.to, 1) : null;
  const [first, last] = await Promise.all([
    fromAt ? db.selectFrom("activity_log").select("id").where("at", ">=", fromAt).orderBy("at").orderBy("id").limit(1).executeTakeFirst() : undefined,
    toAt ? db.selectFrom("activity_log").select("id").where("at", "<", toAt).orderBy("at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst() : undefined,
  ]);
  return { min: fromAt ? (first ? Number(first.id) : Number.MAX_SAFE_INTEGER) : null, max: toAt ? (last ? Number(last.id) : 0) : null, fromAt, toAt };
}

function filtered(db: Queryable, filters: ActivityFilters, range: Awaited<ReturnType<typeof idRange>>): SelectQueryBuilder<Database, "activity_log", {}> {
  let q = db.selectFrom("activity_log");
  if (filters.person) q = q.where("actor_id", "=", filters.person);
  if (filters.kind) q = q.where("kind", "=", filters.kind);
  if (filters.type) q = q.where("record_type", "=", filters.type);
  if (filters.type && filters.record) q = q.where("record_id", "=", filters.record);
  if (range.min !== null) q = q.where("id", ">=", range.min);
  if (range.max !== null) q = q.where("id", "<=", range.max);
  if (range.fromAt) q = q.where("at", ">=", range.fromAt);
  if (range.toAt) q = q.where("at", "<", range.toAt);
  return q;
}

function view(row: Row): ActivityEntryView {
  return {
    id: Number(row.id),
    at: String(row.at),
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    ip: row.ip,
    kind: row.kind,
    recordType: row.record_type,
    recordId: row.record_id,
    summary: row.text,
    changes: changeRows(parseJson(row.before), parseJson(row.after)),
  };
}

function parseJson(value: unknown): unknown {
  if (typeof value !== "string") return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export interface ActivityPage {
  rows: ActivityEntryView[];
  /** the cursor of the page above (newer entries), null on the first page */
  newer: number | null;
  /** the cursor of the page below (older entries), null on the last */
  older: number | null;
}

/** One page, newest first. `before`: the page below an id; `after`: the page above one (read upwards, then turned). */
export async function listActivity(db: Queryable, filters: ActivityFilters, cursor: ActivityCursor = {}, pageSize = ACTIVITY_PAGE_SIZE): Promise<ActivityPage> {
  const range = await idRange(db, filters);
  const upwards = cursor.after !== undefined && cursor.before === undefined;
  let q = filtered(db, filters, range).select(COLUMNS);
  if (upwards) q = q.where("id", ">", cursor.after!).orderBy("id", "asc");
  else q = (cursor.before !== undefined ? q.where("id", "<", cursor.before) : q).orderBy("id", "desc");
  const found = (await q.limit(pageSize + 1).execute()) as Row[];
  const more = found.length > pageSize;
  const page = found.slice(0, pageSize);
  if (upwards) page.reverse();
  const rows = page.map(view);
  const first = rows[0]?.id ?? null;
  const last = rows[rows.length - 1]?.id ?? null;
  return {
    rows,
    // read downwards: there is a newer page when we came from one (a cursor), read upwards: when more were found above
    newer: upwards ? (more ? first : null) : cursor.before !== undefined ? first : null,
    older: upwards ? last : more ? last : null,
  };
}

/** One record's history, newest first (its own index: record_type, record_id, id). */
export async function recordHistory(db: Queryable, type: string, id: string, limit = 20): Promise<ActivityEntryView[]> {
  const rows = await db.selectFrom("activity_log").select(COLUMNS).where("record_type", "=", type).where("record_id", "=", id).orderBy("id", "desc").limit(limit).execute();
  return (rows as Row[]).map(view);
}

/**
 * The kinds written so far, for the filter's choices: a walk of the kind index from one kind to the next (a loose
 * index scan, one seek per kind), not a read of every entry.
 */
export async function activityKinds(db: Queryable): Promise<string[]> {
  const { rows } = await sql<{ kind: string }>`
    with recursive k(kind) as (
      select min(kind) from activity_log
      union all
      select (select min(kind) from activity_log where kind > k.kind) from k where k.kind is not null
    )
    select kind from k where kind is not null`.execute(db);
  return rows.map((r) => r.kind);
}

/** The people to filter by: the staff (and anyone who was staff: their e-mail stays in the entries). */
export async function activityPeople(db: Queryable): Promise<Array<{ id: string; email: string }>> {
  // The few staff found by their two indexes (a role id is text: `>= ''` is "has one", as a range the index answers).
  // Asked as one `or` and sorted by e-mail, SQLite walked the e-mail index through all 280 000 customers: 282 ms.
  return db
    .selectFrom("users")
    .select(["id", "email"])
    .where("id", "in", (eb) => eb.selectFrom("users").select("id").where("is_admin", "=", true).unionAll(eb.selectFrom("users").select("id").where("staff_role_id", ">=", "")))
    .orderBy("email")
    .limit(500)
    .execute();
}

export const ACTIVITY_CSV_COLUMNS = ["Entry", "When (UTC)", "Who", "Address", "Kind", "Record type", "Record id", "Summary", "Field", "Before", "After"] as const;

function csvLines(entry: ActivityEntryView): string[][] {
  const base = [String(entry.id), entry.at, entry.actorEmail ?? "(the shop)", entry.ip ?? "", entry.kind, entry.recordType ?? "", entry.recordId ?? "", entry.summary];
  const rows = entry.changes.length ? entry.changes.map((c) => [...base, c.field, c.before, c.after]) : [[...base, "", "", ""]];
  return rows.map((r) => r.map(neutraliseCell));
}

/**
 * The filtered log as a CSV, newest first, one line per changed field (an entry without changes: one line), streamed
 * a batch of entries at a time (keyset on id), so a million entries download in constant memory.
 */
export function activityCsvStream(db: Queryable, filters: ActivityFilters, batchSize = 1000): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let batches: AsyncGenerator<ActivityEntryView[]> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!batches) {
          const range = await idRange(db, filters);
          batches = keysetBatches<ActivityEntryView, number>(
            async (before, limit) => {
              const q = filtered(db, filters, range).select(COLUMNS);
              const rows = await (before === null ? q : q.where("id", "<", before)).orderBy("id", "desc").limit(limit).execute();
              return (rows as Row[]).map(view);
            },
            (last) => last.id,
            batchSize,
          );
          controller.enqueue(encoder.encode(`\uFEFF${stringify([[...ACTIVITY_CSV_COLUMNS]])}`));
        }
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(stringify(next.value.flatMap(csvLines))));
      } catch (error) {
        logger.error({ err: error }, "activity log export failed");
        controller.error(error);
      }
    },
    async cancel() {
      await batches?.return(undefined);
    },
  });
}

/** scentara-activity-2026-12-06.csv */
export function activityCsvFilename(shopName: string, now = new Date()): string {
  const shop = shopName.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() || "shop";
  return `${shop}-activity-${now.toISOString().slice(0, 10)}.csv`;
}

/** Entries as the admin pages show them: times in South Africa, who, the record's link. */
export function activityItems(rows: ActivityEntryView[]) {
  return rows.map((e) => ({
    id: e.id,
    when: formatDateTimeZA(e.at),
    who: e.actorEmail ?? "The shop",
    ip: e.ip,
    kind: e.kind,
    summary: e.summary,
    record: e.recordType ? { label: recordLabel(e.recordType, e.recordId), href: recordHref(e.recordType, e.recordId) } : null,
    changes: e.changes,
  }));
}

/** Several records' histories at once (a page of orders): one indexed read each, in parallel. */
export async function recordHistories(db: Queryable, type: string, ids: string[], limit = 10): Promise<Map<string, ReturnType<typeof activityItems>>> {
  const found = await Promise.all(ids.map(async (id) => [id, activityItems(await recordHistory(db, type, id, limit))] as const));
  return new Map(found);
}
