import type { Queryable } from "~/db/db.server";
import { logger } from "~/utils/logger.server";
import { isTemporaryRefusal, MAIL_RETRY_DELAYS_MS, nextMailRetryAt, smtpSend, smtpTransport } from "./mailer.server";

/**
 * E-mail that the mail server refused, tried again (migration 0055): an order confirmation sent while the mail server
 * was down arrives once it is back, instead of waiting in the outbox for ever. The server's "deliver-mail" job runs
 * this every minute (server/jobs.ts). Only rows sendMail marked with a retry_at are tried, so nothing old, nothing
 * never tried, and nothing whose stored copy lacks what was sent (a single-use link, attachments) goes out again.
 */

/** Messages tried in one run; a backlog drains over the next runs. */
export const MAIL_RETRIES_PER_RUN = 50;

export interface MailRetryRun {
  sent: number;
  /** refused again, with another try due */
  failed: number;
  /** refused on its last try, or for good (a 5xx): the error stays, nothing more is tried */
  gaveUp: number;
}

export async function retryDueMail(db: Queryable, now: Date = new Date(), limit = MAIL_RETRIES_PER_RUN): Promise<MailRetryRun> {
  const run: MailRetryRun = { sent: 0, failed: 0, gaveUp: 0 };
  const transport = await smtpTransport();
  if (!transport) return run;
  const due = await db
    .selectFrom("mail_outbox")
    .select(["id", "to_address", "subject", "text_body", "html_body", "reply_to", "list_unsubscribe", "attempts", "retry_at"])
    .where("retry_at", "<=", now.toISOString())
    .orderBy("retry_at")
    .limit(limit)
    .execute();
  for (const row of due) {
    const attempts = Number(row.attempts) + 1;
    // Claimed first (its retry_at taken while unchanged): a row is tried once per due time, even by two runners.
    const claimed = await db
      .updateTable("mail_outbox")
      .set({ retry_at: null, attempts })
      .where("id", "=", row.id)
      .where("retry_at", "=", row.retry_at)
      .where("sent_at", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    try {
      await smtpSend(transport, { to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body, replyTo: row.reply_to, unsubscribe: row.list_unsubscribe });
      await db.updateTable("mail_outbox").set({ sent_at: new Date().toISOString(), error: null }).where("id", "=", row.id).execute();
      run.sent += 1;
    } catch (error) {
      const temporary = isTemporaryRefusal(error);
      const retryAt = temporary ? nextMailRetryAt(attempts, now) : null;
      const reason = String((error as Error).message ?? error).slice(0, 500);
      // out of tries (not refused for good): the owner reads that it was given up
      const shown = temporary && !retryAt ? `${reason} (given up after ${MAIL_RETRY_DELAYS_MS.length + 1} tries)`.slice(0, 500) : reason;
      await db
        .updateTable("mail_outbox")
        .set({ error: shown, retry_at: retryAt })
        .where("id", "=", row.id)
        .execute();
      if (retryAt) run.failed += 1;
      else run.gaveUp += 1;
      logger.warn({ outboxId: row.id, attempts, retryAt }, retryAt ? "e-mail refused again; tried later" : "e-mail refused on its last try: given up");
    }
  }
  return run;
}
