/**
 * The announcement sender (issue 21 point 2; docs/decisions/039): a job (server/jobs.ts) that, every few seconds, in
 * the one process holding its lease, sends the next few e-mails of the announcements being sent. How many per run is
 * the throttle (MARKETING_EMAILS_PER_MINUTE): a shop's mail server and its reputation are not flooded.
 *
 * Never twice to one person, whatever crashes or runs at once:
 * - each person is one row of announcement_recipients (primary key: announcement and person);
 * - a row is claimed before its e-mail is written (pending → sending, conditional, so of two runners one wins), and
 *   the claim chooses the outbox id the e-mail will be written under; a batch's claims are one commit, and so are its
 *   outcomes (sent, failed, skipped): the e-mails' own outbox rows are the only writes per e-mail;
 * - a claim left behind by a process that died is looked at only after ANNOUNCEMENT_CLAIM_STALE_MS: if its outbox row
 *   exists, the e-mail was written (it counts as sent, or failed if the mail server refused it) and is never written
 *   again; if not, nothing went out and the person goes back in the queue.
 * Consent is checked again right before each e-mail: whoever unsubscribed after Send was pressed is skipped.
 */
import type { DB, Queryable } from "~/db/db.server";
import type { RecipientStatus } from "~/db/schema";
import { NO_SMTP_REASON, sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { composeAnnouncement, getAnnouncement } from "./announcements.server";
import { unsubscribeLinks } from "./unsubscribe.server";

/** A claim older than this, still not finished, belonged to a process that stopped (a send takes seconds at most). */
export const ANNOUNCEMENT_CLAIM_STALE_MS = 30 * 60_000;

/** The sender looks for work this often; each run sends the minute's rate scaled to it (see announcementsPerRun). */
export const ANNOUNCEMENTS_EVERY_MS = 10_000;

/** E-mails per run for a rate per minute and a run interval: at least one, so a slow rate still moves. */
export function announcementsPerRun(perMinute: number, everyMs: number): number {
  return Math.max(1, Math.floor((perMinute * everyMs) / 60_000));
}

export interface SenderRun {
  sent: number;
  failed: number;
  skipped: number;
  /** stale claims settled (written: sent or failed) or put back in the queue (never written) */
  recovered: number;
  /** announcements whose last recipient was dealt with in this run */
  finished: string[];
}

/** Settles claims whose process went away (see the file's comment). */
async function recoverStaleClaims(db: DB, announcementIds: string[], now: Date): Promise<number> {
  const staleBefore = new Date(now.getTime() - ANNOUNCEMENT_CLAIM_STALE_MS).toISOString();
  const stale = await db
    .selectFrom("announcement_recipients as r")
    .leftJoin("mail_outbox as m", "m.id", "r.outbox_id")
    .select(["r.announcement_id", "r.user_id", "r.outbox_id", "m.id as written", "m.error"])
    .where("r.announcement_id", "in", announcementIds)
    .where("r.status", "=", "sending")
    .where("r.claimed_at", "<", staleBefore)
    .execute();
  for (const s of stale) {
    const settle = s.written
      ? { status: (s.error ? "failed" : "sent") as RecipientStatus, error: s.error, sent_at: now.toISOString() }
      : { status: "pending" as RecipientStatus, outbox_id: null, claimed_at: null };
    await db
      .updateTable("announcement_recipients")
      .set(settle)
      .where("announcement_id", "=", s.announcement_id)
      .where("user_id", "=", s.user_id)
      .where("status", "=", "sending")
      .where("outbox_id", "=", s.outbox_id)
      .execute();
  }
  return stale.length;
}

/** Takes one person's turn; answers the outbox id to write under, or null when another runner took it. */
async function claim(db: Queryable, announcementId: string, userId: string, now: Date): Promise<string | null> {
  const outboxId = newId();
  const row = await db
    .updateTable("announcement_recipients")
    .set({ status: "sending", claimed_at: now.toISOString(), outbox_id: outboxId })
    .where("announcement_id", "=", announcementId)
    .where("user_id", "=", userId)
    .where("status", "=", "pending")
    .returning("outbox_id")
    .executeTakeFirst();
  return row ? outboxId : null;
}

interface Outcome {
  userId: string;
  status: RecipientStatus;
  error?: string | null;
}

/** Records what became of a batch's claims, in one transaction (one commit, not one per e-mail). */
async function settle(db: DB, announcementId: string, outcomes: Outcome[], now: Date) {
  if (outcomes.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const o of outcomes) {
      await trx
        .updateTable("announcement_recipients")
        .set({ status: o.status, error: o.error ?? null, sent_at: now.toISOString() })
        .where("announcement_id", "=", announcementId)
        .where("user_id", "=", o.userId)
        .where("status", "=", "sending")
        .execute();
    }
  });
}

/**
 * One run: settle stale claims, then send up to `limit` e-mails of the announcements being sent (oldest first), then
 * mark those with nobody left as sent. Safe to run in several processes at once.
 */
export async function sendAnnouncementBatch(db: DB, options: { limit: number; now?: Date }): Promise<SenderRun> {
  const now = options.now ?? new Date();
  const run: SenderRun = { sent: 0, failed: 0, skipped: 0, recovered: 0, finished: [] };
  const active = await db.selectFrom("announcements").select("id").where("status", "=", "sending").orderBy("queued_at").orderBy("id").execute();
  if (active.length === 0) return run;
  const ids = active.map((a) => a.id);
  run.recovered = await recoverStaleClaims(db, ids, now);

  let budget = options.limit;
  for (const announcementId of ids) {
    if (budget <= 0) break;
    const pending = await db
      .selectFrom("announcement_recipients")
      .select("user_id")
      .where("announcement_id", "=", announcementId)
      .where("status", "=", "pending")
      .orderBy("user_id")
      .limit(budget)
      .execute();
    if (pending.length === 0) continue;
    const announcement = await getAnnouncement(db, announcementId);
    if (!announcement) continue;
    // The same e-mail for everyone (today's product prices); each person's footer carries their own unsubscribe link.
    const mail = await composeAnnouncement(db, announcement);
    // The batch's turns are taken together (one commit); each claim is still conditional, so a concurrent runner
    // gets only the ones it took first.
    const claimed = await db.transaction().execute(async (trx) => {
      const out: Array<{ userId: string; outboxId: string }> = [];
      for (const { user_id: userId } of pending) {
        const outboxId = await claim(trx, announcementId, userId, now);
        if (outboxId) out.push({ userId, outboxId });
      }
      return out;
    });
    budget -= claimed.length;
    const outcomes: Outcome[] = [];
    try {
      for (const { userId, outboxId } of claimed) {
        // consent, asked again right before this person's e-mail
        const person = await db.selectFrom("users").select(["email", "email_marketing"]).where("id", "=", userId).executeTakeFirst();
        if (!person || person.email_marketing !== true) {
          outcomes.push({ userId, status: "skipped" });
          run.skipped++;
          continue;
        }
        try {
          const result = await sendMail(
            { to: person.email, subject: mail.subject, text: mail.text, html: mail.html, replyTo: env().CONTACT_EMAIL, kind: "marketing", unsubscribe: unsubscribeLinks(userId, now), id: outboxId },
            db,
          );
          // Without a mail server the e-mail waits in the outbox like every other: it counts as sent (handed over).
          const sent = result.delivered || result.error === NO_SMTP_REASON;
          outcomes.push(sent ? { userId, status: "sent" } : { userId, status: "failed", error: result.error ?? "unknown error" });
          if (sent) run.sent++;
          else run.failed++;
        } catch (error) {
          // The outbox could not be written: the claim stays, and is settled once stale (nothing written: queued again).
          logger.error({ err: error, announcementId }, "announcement e-mail could not be written; it is retried later");
        }
      }
    } finally {
      // What was done is recorded even when the run stops early; a process that dies here leaves claims whose outbox
      // rows exist, which the stale-claim check settles as written (never sent again).
      await settle(db, announcementId, outcomes, now);
    }
  }

  const finished = await db
    .updateTable("announcements")
    .set({ status: "sent", finished_at: now.toISOString(), updated_at: now.toISOString() })
    .where("id", "in", ids)
    .where("status", "=", "sending")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("announcement_recipients as r")
            .select("r.user_id")
            .whereRef("r.announcement_id", "=", "announcements.id")
            .where("r.status", "in", ["pending", "sending"]),
        ),
      ),
    )
    .returning("id")
    .execute();
  run.finished = finished.map((f) => f.id);
  return run;
}
