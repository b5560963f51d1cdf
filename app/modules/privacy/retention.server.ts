/**
 * The daily retention job (POPIA s14; docs/decisions/040): erases what is past its time under the RETENTION_*
 * settings, and records each run in retention_runs (Admin → Privacy shows them).
 *
 * Safe with several app processes and servers on one database:
 * - server/jobs.ts runs it in the one process holding its lease (job_leases, docs/decisions/027), and only when the
 *   last recorded run started a day ago or more (isRetentionDue), so a restart or a second server adds no run;
 * - should two runs still overlap (a lease that lapsed mid-run), every step is idempotent and conditional: a delete
 *   or erase applies to a row once (the second runner's statement finds it gone or already marked), so the data ends
 *   the same and each row is counted once across the two runs' records.
 */
import type { DB, Queryable } from "~/db/db.server";
import type { ShippingAddress } from "~/db/schema";
import type { Env } from "~/utils/env.server";
import { eraseOldCartsAndReminders } from "~/modules/reminders/reminders-privacy.server";
import { deleteExpiredStockAlerts } from "~/modules/stock-alerts/stock-alerts.server";
import { eraseOldWhatsappMessages } from "~/modules/whatsapp/whatsapp-privacy.server";
import { env } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { EMPTY_COUNTS, isRetentionDue, retentionCutoffs, type RetentionCounts, type RetentionPolicy } from "./retention.logic";
import { eraseOrderPersonalData } from "~/modules/orders/order-writes.server";

type RetentionConfig = Pick<Env, "RETENTION_CONTACT_MONTHS" | "RETENTION_MAIL_BODY_DAYS" | "RETENTION_UNPAID_ORDER_MONTHS" | "RETENTION_INVOICE_YEARS" | "RETENTION_SAVED_CART_DAYS">;

/** The policy of a configuration (the process's own by default). */
export function retentionPolicy(config: RetentionConfig = env()): RetentionPolicy {
  return {
    contactMonths: config.RETENTION_CONTACT_MONTHS,
    mailBodyDays: config.RETENTION_MAIL_BODY_DAYS,
    unpaidOrderMonths: config.RETENTION_UNPAID_ORDER_MONTHS,
    invoiceYears: config.RETENTION_INVOICE_YEARS,
    savedCartDays: config.RETENTION_SAVED_CART_DAYS,
  };
}

/**
 * An address with the person taken out: name, telephone, street, suburb, city and postal code erased; the province
 * stays (the accountant's export and the sales reports count orders by province, which names nobody).
 */
export function erasedAddress(address: Partial<ShippingAddress> | null | undefined): ShippingAddress {
  return { name: "", telephone: "", street: "", suburb: "", city: "", postalCode: "", province: address?.province ?? "" };
}

/** Orders erased per batch, and batches per run at most: a backlog (a first run on an old shop) drains over days. */
const ORDER_BATCH = 500;
const MAX_ORDER_BATCHES = 200;

/**
 * Erases the personal details of the orders `select` finds (ids of orders not yet erased), in batches, each order
 * once: the update is conditional on personal_data_erased_at still being null. Answers how many this call erased.
 */
async function eraseOrders(db: DB, select: (db: Queryable, limit: number) => Promise<Array<{ id: string; shipping_address: ShippingAddress }>>, now: Date): Promise<number> {
  let erased = 0;
  for (let batch = 0; batch < MAX_ORDER_BATCHES; batch++) {
    const rows = await select(db, ORDER_BATCH);
    if (rows.length === 0) break;
    erased += await db.transaction().execute(async (trx) => {
      let n = 0;
      for (const row of rows) n += await eraseOrderDetails(trx, row.id, row.shipping_address, now);
      return n;
    });
    if (rows.length < ORDER_BATCH) break;
  }
  return erased;
}

/**
 * One order's personal details: the address (erasedAddress) and the owner's notes about it (free text that may name
 * the person). What was ordered, the amounts, the invoice number and the payment reference stay. 1 if it did it.
 */
export async function eraseOrderDetails(db: Queryable, orderId: string, address: Partial<ShippingAddress> | null, now: Date): Promise<number> {
  return (await eraseOrderPersonalData(db, orderId, erasedAddress(address), now)) ? 1 : 0;
}

/** Applies every rule once at `now`; answers what this call erased. */
export async function applyRetention(db: DB, policy: RetentionPolicy, now: Date = new Date()): Promise<RetentionCounts> {
  const cut = retentionCutoffs(policy, now);
  const counts: RetentionCounts = { ...EMPTY_COUNTS };
  const deleted = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);

  counts.contactMessages = deleted(await db.deleteFrom("contact_messages").where("created_at", "<", cut.contactBefore).executeTakeFirstOrThrow());
  // The whole record first: a mail past both periods is counted once, as a record.
  counts.mailRecords = deleted(await db.deleteFrom("mail_outbox").where("created_at", "<", cut.mailRecordBefore).executeTakeFirstOrThrow());
  const bodies = await db
    .updateTable("mail_outbox")
    .set({ text_body: "", html_body: null })
    .where("created_at", "<", cut.mailBodyBefore)
    .where((eb) => eb.or([eb("text_body", "<>", ""), eb("html_body", "is not", null)]))
    .executeTakeFirstOrThrow();
  counts.mailBodies = Number(bodies.numUpdatedRows);

  // Orders never paid: no invoice, no completed payment, placed before the cut-off.
  counts.unpaidOrders = await eraseOrders(
    db,
    (q, limit) =>
      q
        .selectFrom("orders")
        .select(["id", "shipping_address"])
        .where("personal_data_erased_at", "is", null)
        .where("invoice_number", "is", null)
        .where("payment_status", "<>", "completed")
        .where("created_at", "<", cut.unpaidOrderBefore)
        .orderBy("created_at")
        .limit(limit)
        .execute(),
    now,
  );
  // Paid orders past the tax period whose account is gone (while it exists they are its owner's order history).
  counts.invoicedOrders = await eraseOrders(
    db,
    (q, limit) =>
      q
        .selectFrom("orders")
        .select(["id", "shipping_address"])
        .where("personal_data_erased_at", "is", null)
        .where("user_id", "is", null)
        .where((eb) =>
          eb.or([
            eb.and([eb("invoice_issued_at", "is not", null), eb("invoice_issued_at", "<", cut.invoiceBefore)]),
            eb.and([eb("invoice_issued_at", "is", null), eb("payment_status", "=", "completed"), eb("created_at", "<", cut.invoiceBefore)]),
          ]),
        )
        .orderBy("created_at")
        .limit(limit)
        .execute(),
    now,
  );

  // WhatsApp messages and reminders are messages like e-mails: their words at the e-mail text's time, their record
  // (or, for a reminder, its account) at the e-mail record's.
  const whatsapp = await eraseOldWhatsappMessages(db, { textBefore: cut.mailBodyBefore, recordBefore: cut.mailRecordBefore });
  counts.whatsappTexts = whatsapp.texts;
  counts.whatsappRecords = whatsapp.records;
  const carts = await eraseOldCartsAndReminders(db, { contentsBefore: cut.mailBodyBefore, linkBefore: cut.mailRecordBefore, cartBefore: cut.savedCartBefore });
  counts.reminderContents = carts.reminderContents;
  counts.reminderLinks = carts.reminderLinks;
  counts.savedCarts = carts.savedCarts;
  // The back-in-stock job deletes these every minute too; here they are also counted and shown (Admin → Privacy).
  counts.stockAlerts = await deleteExpiredStockAlerts(db, now);

  counts.sessions = deleted(await db.deleteFrom("sessions").where("expires_at", "<", cut.expiredBefore).executeTakeFirstOrThrow());
  counts.verifications = deleted(await db.deleteFrom("verifications").where("expires_at", "<", cut.expiredBefore).executeTakeFirstOrThrow());
  counts.rateLimits = deleted(await db.deleteFrom("rate_limits").where("last_request", "<", cut.rateLimitBefore).executeTakeFirstOrThrow());
  // The activity log past its 5 years (and a day: its triggers refuse a younger entry; decision 060).
  counts.activityEntries = deleted(await db.deleteFrom("activity_log").where("at", "<", cut.activityBefore).executeTakeFirstOrThrow());
  // The job's own old records (they name no one; a year is plenty for the admin page).
  await db.deleteFrom("retention_runs").where("started_at", "<", cut.runRecordsBefore).where("outcome", "<>", "running").execute();
  return counts;
}

export interface RetentionRunResult {
  id: string;
  counts: RetentionCounts;
}

/** One recorded run: a retention_runs row (running → done with its counts, or failed with the error). */
export async function runRetention(db: DB, options: { policy: RetentionPolicy; now?: Date; holder?: string }): Promise<RetentionRunResult> {
  const now = options.now ?? new Date();
  const id = newId();
  await db.insertInto("retention_runs").values({ id, started_at: now.toISOString(), holder: options.holder ?? "manual", outcome: "running" }).execute();
  try {
    const counts = await applyRetention(db, options.policy, now);
    await db
      .updateTable("retention_runs")
      .set({ outcome: "done", finished_at: new Date().toISOString(), summary: JSON.stringify(counts) })
      .where("id", "=", id)
      .execute();
    return { id, counts };
  } catch (error) {
    const message = String((error as Error)?.message ?? error).slice(0, 500);
    await db
      .updateTable("retention_runs")
      .set({ outcome: "failed", finished_at: new Date().toISOString(), error: message })
      .where("id", "=", id)
      .execute()
      .catch(() => undefined);
    throw error;
  }
}

/** When the latest run started (any outcome); null before the first. */
export async function lastRunStartedAt(db: Queryable): Promise<string | null> {
  const row = await db.selectFrom("retention_runs").select("started_at").orderBy("started_at", "desc").limit(1).executeTakeFirst();
  return row?.started_at ?? null;
}

/** The job's tick (server/jobs.ts, in the lease holder): a run when one is due, else nothing (null). */
export async function runRetentionIfDue(db: DB, options: { policy: RetentionPolicy; now?: Date; holder?: string }): Promise<RetentionRunResult | null> {
  const now = options.now ?? new Date();
  if (!isRetentionDue(now, await lastRunStartedAt(db))) return null;
  return runRetention(db, { ...options, now });
}

export interface RetentionRunView {
  id: string;
  startedAt: string;
  finishedAt: string | null;
  holder: string;
  outcome: "running" | "done" | "failed";
  counts: RetentionCounts | null;
  error: string | null;
}

/** The latest runs, newest first (Admin → Privacy). */
export async function listRetentionRuns(db: Queryable, limit = 10): Promise<RetentionRunView[]> {
  const rows = await db.selectFrom("retention_runs").selectAll().orderBy("started_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    holder: r.holder,
    outcome: r.outcome,
    counts: r.summary ? { ...EMPTY_COUNTS, ...(r.summary as Partial<RetentionCounts>) } : null,
    error: r.error,
  }));
}
