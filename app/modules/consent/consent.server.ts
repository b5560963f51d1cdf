/**
 * The consent log (issue 21 point 1, POPIA s11 and s69; docs/decisions/039): every consent given or withdrawn is a
 * row of `consents`, written in the same transaction as the change it records and never updated afterwards.
 *
 * - recordConsent: one row, as given.
 * - setMarketingConsent: turns a person's marketing e-mails on or off (users.email_marketing and the time consent was
 *   given) and records the row, only when it really changes: the update is conditional on the current value, so a
 *   double click, a repeated one-click POST or two tabs record one change, not two.
 * - listConsents: a person's rows, oldest first (Admin → Users; the "download my data" export).
 * - consentLogCsvStream: the whole log as a CSV for the owner, streamed in time order a batch at a time.
 */
import { inTransaction } from "~/db/in-transaction.server";
import { stringify } from "csv-stringify/sync";
import { sql } from "kysely";
import type { Queryable, Trx } from "~/db/db.server";
import { keysetBatches, timeKey, timeKeyValue } from "~/db/keyset-batches.server";
import type { ConsentPurpose, ConsentSource } from "~/db/schema";
import { neutraliseCell } from "~/utils/csv-cell";
import { saDay, saTime } from "~/utils/sa-days";
import { newId } from "~/utils/ids";
import { consentVerb, MARKETING_CONSENT, marketingConsentWording, PURPOSE_LABELS, registrationAcknowledgements, SOURCE_LABELS } from "./consent.logic";
import { downloadStream } from "~/utils/download-stream.server";

export interface ConsentRecord {
  id: string;
  userId: string | null;
  /** the address at the time */
  email: string | null;
  purpose: ConsentPurpose;
  version: string;
  /** the exact text shown */
  wording: string;
  /** true: given; false: withdrawn */
  granted: boolean;
  source: ConsentSource;
  /** the admin who made the change (source admin) */
  actorUserId: string | null;
  createdAt: string;
}

export interface ConsentInput {
  userId: string | null;
  email: string | null;
  purpose: ConsentPurpose;
  version: string;
  wording: string;
  granted: boolean;
  source: ConsentSource;
  actorUserId?: string | null;
  now?: Date;
}


/** Writes one row of the log. */
export async function recordConsent(db: Queryable, input: ConsentInput): Promise<ConsentRecord> {
  const record: ConsentRecord = {
    id: newId(),
    userId: input.userId,
    email: input.email,
    purpose: input.purpose,
    version: input.version,
    wording: input.wording,
    granted: input.granted,
    source: input.source,
    actorUserId: input.actorUserId ?? null,
    createdAt: (input.now ?? new Date()).toISOString(),
  };
  await db
    .insertInto("consents")
    .values({
      id: record.id,
      user_id: record.userId,
      email: record.email,
      purpose: record.purpose,
      version: record.version,
      wording: record.wording,
      granted: record.granted,
      source: record.source,
      actor_user_id: record.actorUserId,
      created_at: record.createdAt,
    })
    .execute();
  return record;
}

/** A person's consent history, oldest first. */
export async function listConsents(db: Queryable, userId: string): Promise<ConsentRecord[]> {
  const rows = await db
    .selectFrom("consents")
    .select(["id", "user_id", "email", "purpose", "version", "wording", "granted", "source", "actor_user_id", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    email: r.email,
    purpose: r.purpose,
    version: r.version,
    wording: r.wording,
    granted: r.granted === true,
    source: r.source,
    actorUserId: r.actor_user_id,
    createdAt: r.created_at,
  }));
}

export interface MarketingChange {
  userId: string;
  granted: boolean;
  source: ConsentSource;
  /** the exact text the person (or the admin) saw */
  wording: string;
  version?: string;
  actorUserId?: string | null;
  now?: Date;
}

/**
 * Turns a person's marketing e-mails on or off and records it. Answers the row written, or null when nothing changed
 * (already so, or no such person). Opting in stamps users.marketing_consent_at; opting out clears it.
 */
export async function setMarketingConsent(db: Queryable, change: MarketingChange): Promise<ConsentRecord | null> {
  const now = change.now ?? new Date();
  return inTransaction(db, async (trx) => {
    const changed = await trx
      .updateTable("users")
      .set({ email_marketing: change.granted, marketing_consent_at: change.granted ? now.toISOString() : null, updated_at: now.toISOString() })
      .where("id", "=", change.userId)
      .where("email_marketing", "=", !change.granted)
      .returning(["id", "email"])
      .executeTakeFirst();
    if (!changed) return null;
    return recordConsent(trx, {
      userId: changed.id,
      email: changed.email,
      purpose: "marketing_email",
      version: change.version ?? MARKETING_CONSENT.version,
      wording: change.wording,
      granted: change.granted,
      source: change.source,
      actorUserId: change.actorUserId ?? null,
      now,
    });
  });
}

/**
 * A new account's rows, in one transaction: the terms accepted and the privacy notice shown by the registration form,
 * and the marketing opt-in when its box was ticked (it never is in advance).
 */
export async function recordRegistrationConsents(
  db: Queryable,
  user: { id: string; email: string },
  options: { marketing: boolean; shopName: string; now?: Date },
): Promise<void> {
  const now = options.now ?? new Date();
  await inTransaction(db, async (trx) => {
    for (const row of registrationAcknowledgements()) {
      await recordConsent(trx, { userId: user.id, email: user.email, ...row, granted: true, source: "register", now });
    }
    if (options.marketing) {
      await setMarketingConsent(trx, { userId: user.id, granted: true, source: "register", wording: marketingConsentWording(options.shopName), now });
    }
  });
}

// ---------------------------------------------------------------- the whole log as a CSV

export const CONSENT_CSV_COLUMNS = [
  "Date",
  "Time (SAST)",
  "Recorded (UTC)",
  "Consent ID",
  "User ID",
  "E-mail",
  "Purpose",
  "Version",
  "Consent",
  "Where",
  "Changed by (admin)",
  "Wording shown",
] as const;

export const CONSENT_CSV_BATCH = 1000;

interface CsvRow {
  id: string;
  user_id: string | null;
  email: string | null;
  purpose: ConsentPurpose;
  version: string;
  wording: string;
  granted: boolean;
  source: ConsentSource;
  actor_email: string | null;
  created_at: string;
  cursor_at: string;
}

/**
 * The log in time order, a batch at a time, each batch starting strictly after the previous one's last
 * (created_at, id) (the consents_created_idx index): no connection is held between batches.
 */
export function consentBatches(db: Queryable, batchSize = CONSENT_CSV_BATCH): AsyncGenerator<CsvRow[]> {
  const read = (after: { at: string; id: string } | null, limit: number) => {
    let query = db
      .selectFrom("consents as c")
      .leftJoin("users as a", "a.id", "c.actor_user_id")
      .select([
        "c.id",
        "c.user_id",
        "c.email",
        "c.purpose",
        "c.version",
        "c.wording",
        "c.granted",
        "c.source",
        "a.email as actor_email",
        "c.created_at",
        timeKey(db, "c.created_at").as("cursor_at"),
      ]);
    if (after) query = query.where(sql<boolean>`(c.created_at, c.id) > (${timeKeyValue(db, after.at)}, ${after.id})`);
    return query.orderBy("c.created_at").orderBy("c.id").limit(limit).execute() as Promise<CsvRow[]>;
  };
  return keysetBatches(read, (last) => ({ at: last.cursor_at, id: last.id }), batchSize);
}

export function consentCsvCells(r: Omit<CsvRow, "cursor_at">): string[] {
  return [
    saDay(r.created_at),
    saTime(r.created_at),
    r.created_at,
    r.id,
    r.user_id ?? "",
    neutraliseCell(r.email ?? ""),
    PURPOSE_LABELS[r.purpose] ?? r.purpose,
    r.version,
    consentVerb(r.purpose, r.granted === true),
    SOURCE_LABELS[r.source] ?? r.source,
    neutraliseCell(r.actor_email ?? ""),
    neutraliseCell(r.wording),
  ];
}

function toCsv(records: string[][]): string {
  return stringify(records, { record_delimiter: "\r\n" });
}

/** The whole file: a byte-order mark (Excel reads UTF-8 then), the header, the rows as they are read (downloadStream). */
export function consentLogCsvStream(db: Queryable, batchSize = CONSENT_CSV_BATCH): ReadableStream<Uint8Array> {
  return downloadStream(async function* () {
    yield `\uFEFF${toCsv([[...CONSENT_CSV_COLUMNS]])}`;
    for await (const batch of consentBatches(db, batchSize)) yield toCsv(batch.map(consentCsvCells));
  }, { name: "consent log export" });
}

/** scentara-consent-log-2026-11-26.csv (the day in South Africa). */
export function consentLogFilename(shopName: string, now = new Date()): string {
  const shop = shopName.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() || "shop";
  return `${shop}-consent-log-${saDay(now)}.csv`;
}
