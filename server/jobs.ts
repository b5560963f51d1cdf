/**
 * Work the app server does on a schedule, in-process: the expiry of unpaid orders (docs/decisions/014), the review
 * request e-mails some days after delivery, tracking shipments and refreshing the couriers' lockers and points
 * (docs/decisions/031), the nightly backup (docs/decisions/033), sending announcements (docs/decisions/039), unpaid-order
 * and cart reminders (docs/decisions/056), WhatsApp order updates (docs/decisions/055), e-mail the mail server refused
 * (migration 0055), and the daily retention job that erases personal information past its time (docs/decisions/040).
 *
 * Each job runs soon after start and then every interval, measured from the end of the previous run, so a run never
 * overlaps itself; its timer is unref'd (it never keeps the process alive); a failure is logged and the next run
 * comes as usual. stop() (on shutdown, before the database closes) cancels the next run and waits for the running one.
 *
 * Every app process (each worker of each server) schedules the jobs, but a run happens only in the process that holds
 * the job's lease (a `job_leases` row, docs/decisions/027): one runner at a time across processes and machines. The
 * holder renews it at every run; when it stops it hands the lease back, when it dies the lease lapses after
 * JOB_LEASE_MS and another process takes over at its next tick. The jobs themselves stay safe to run concurrently
 * (see order-expiry.server.ts): the lease saves the duplicate work, it is not what keeps the data right.
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { DB } from "~/db/db.server";
import { configuredHoldPolicy, expireUnpaidOrders } from "~/modules/flows/order-expired.server";
import { expireGiftCards } from "~/modules/gift-cards/gift-cards.server";
import { sendDueGiftCardEmails } from "~/modules/gift-cards/gift-card-sales.server";
import { sendDueReviewRequests } from "~/modules/reviews/review-requests.server";
import { pollTracking } from "~/modules/flows/shipment-tracked.server";
import { purgeExpiredQuotes, refreshPoints } from "~/modules/couriers/delivery.server";
import { BackupRunning, backupDirectory, mediaSource, runNightlyBackup } from "~/modules/backups/backup-files.server";
import { NIGHTLY_BACKUP_EVERY_MS } from "~/modules/backups/backups.logic";
import { retryDueMail } from "~/modules/mail/mail-retries.server";
import { deliverDueReactions } from "~/modules/flows/reactions.server";
import { matureRewards } from "~/modules/flows/rewards-matured.server";
import { pruneDoneReactions } from "~/modules/reactions/reaction-queue.server";
import { ANNOUNCEMENTS_EVERY_MS, announcementsPerRun, sendAnnouncementBatch } from "~/modules/marketing/announcement-sender.server";
import { RETENTION_CHECK_EVERY_MS } from "~/modules/privacy/retention.logic";
import { sendDueReminders } from "~/modules/reminders/reminders.server";
import { sendBackInStock } from "~/modules/stock-alerts/stock-alerts.server";
import { sendWishlistAlerts } from "~/modules/wishlist/wishlist.server";
import { retentionPolicy, runRetentionIfDue } from "~/modules/privacy/retention.server";
import { afterOrdersWritten, sumSettledOrderDays } from "~/modules/order-days/order-days.server";
import { onWhatsappQueued, sendDueWhatsappMessages } from "~/modules/whatsapp/outbox.server";
import { whatsappMode } from "~/modules/whatsapp/whatsapp.server";
import { parseDatabaseUrl } from "~/utils/database-url.server";
import type { Env } from "~/utils/env.server";
import { logger as rootLogger, type Logger } from "~/utils/logger.server";

/** The right to run one job, for a while, in one process. */
export interface JobLease {
  /** Takes the lease (free, lapsed, or already this holder's) until now + ttl; false while another holder has it. */
  take(now?: number): Promise<boolean>;
  /** Hands it back, if this holder has it, so another process can take it at once. */
  release(): Promise<void>;
}

/**
 * A lease in the job_leases table: one conditional upsert takes it (inserted, or updated only where the row lapsed or
 * is already ours), so of any number of processes asking at once exactly one gets it. Times are epoch ms from each
 * process's clock: servers must keep their clocks within seconds of each other (NTP), far below the lease length.
 */
export function databaseLease(db: () => DB, name: string, holder: string, ttlMs: number): JobLease {
  return {
    async take(now = Date.now()) {
      const row = await db()
        .insertInto("job_leases")
        .values({ name, holder, expires_at: now + ttlMs })
        .onConflict((oc) =>
          oc
            .column("name")
            .doUpdateSet((eb) => ({ holder: eb.ref("excluded.holder"), expires_at: eb.ref("excluded.expires_at") }))
            .where((eb) => eb.or([eb("job_leases.expires_at", "<=", now), eb("job_leases.holder", "=", holder)])),
        )
        .returning("holder")
        .executeTakeFirst();
      return row?.holder === holder;
    },
    async release() {
      await db().updateTable("job_leases").set({ expires_at: 0 }).where("name", "=", name).where("holder", "=", holder).execute();
    },
  };
}

/** This process's name as a lease holder: host, pid and a random part (a pid is reused after a restart). */
export function leaseHolder(): string {
  return `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
}

export interface RepeatingJob {
  readonly name: string;
  /** No further runs; resolves once a run in progress has finished. */
  stop(): Promise<void>;
}

export interface RepeatingJobOptions {
  name: string;
  /** pause between the end of one run and the start of the next */
  everyMs: number;
  /** delay before the first run */
  firstAfterMs: number;
  run: () => Promise<void>;
  /** When given, a run happens only while this process holds the lease (taken or renewed before each run). */
  lease?: JobLease;
  logger?: Pick<Logger, "error">;
}

export function scheduleRepeating(options: RepeatingJobOptions): RepeatingJob {
  const log = options.logger ?? rootLogger;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let held = false;

  const arm = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref?.();
  };
  function tick() {
    timer = undefined;
    running = (async () => {
      try {
        if (options.lease) {
          held = false;
          held = await options.lease.take();
          if (!held) return; // another process runs it
        }
        await options.run();
      } catch (error) {
        log.error({ err: error, job: options.name }, "job failed; it runs again at its next time");
      }
    })().finally(() => {
      running = undefined;
      arm(options.everyMs);
    });
  }

  arm(options.firstAfterMs);
  return {
    name: options.name,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
      if (held && options.lease) {
        held = false;
        await options.lease.release().catch((error: unknown) => log.error({ err: error, job: options.name }, "job lease not handed back; it lapses by itself"));
      }
    },
  };
}

export const UNPAID_EXPIRY_EVERY_MS = 60_000;
export const FIRST_RUN_AFTER_MS = 5_000;
/** How often the day sums' job looks for past days to sum (two indexed reads when there are none). */
export const ORDER_DAYS_EVERY_MS = 60_000;
/** A holder renews its lease every run (every minute): it lapses only when the holder has missed three runs. */
export const JOB_LEASE_MS = 3 * UNPAID_EXPIRY_EVERY_MS;
/** Reminders are looked for every minute: an unpaid order's reminder has minutes, not hours, to go out in. */
export const REMINDERS_EVERY_MS = 60_000;

/**
 * Review requests are due by the day, not the minute: every 10 minutes is prompt enough, and cheap. The first run
 * waits a minute so it stays out of the way of a starting server.
 */
export const REVIEW_REQUESTS_EVERY_MS = 10 * 60_000;
export const REVIEW_REQUESTS_FIRST_AFTER_MS = 60_000;
/** As for the expiry: the holder renews at every run, and the lease lapses only after three missed runs. */
export const REVIEW_REQUESTS_LEASE_MS = 3 * REVIEW_REQUESTS_EVERY_MS;

/** The WhatsApp outbox is looked at this often for retries due (a new message is sent at once, without waiting). */
export const WHATSAPP_EVERY_MS = 15_000;
/** A gift card's expiry is a matter of days: looked for every hour. */
export const GIFT_CARD_EXPIRY_EVERY_MS = 60 * 60_000;
/** Sold gift cards dated for a day: looked for every 5 minutes, so a card dated today goes early that morning. */
export const GIFT_CARD_EMAILS_EVERY_MS = 5 * 60_000;

/** Shipments are asked about every 5 minutes, each at most every 10 (the courier's API is not ours to hammer). */
export const TRACKING_POLL_EVERY_MS = 5 * 60_000;
export const TRACKING_STALE_MS = 10 * 60_000;
export const POINTS_REFRESH_EVERY_MS = 24 * 60 * 60_000;

/**
 * The nightly backup: every 24 hours, the first 10 minutes after start (out of the way of a starting server; a
 * restart makes no second archive that day: runScheduledBackup skips while the newest is under 20 hours old). Its lease
 * outlives the interval, so one process keeps the job; when that process goes, another takes over after a day.
 */
export const BACKUP_FIRST_AFTER_MS = 10 * 60_000;
export const BACKUP_LEASE_MS = NIGHTLY_BACKUP_EVERY_MS + 60 * 60_000;

type BackupConfig = Pick<Env, "BACKUP_KEEP" | "BACKUP_DIR" | "DATABASE_URL" | "MEDIA_STORAGE" | "S3_BUCKET">;

/**
 * The retention job (docs/decisions/040): due once a day (the last run's start, recorded in retention_runs, decides),
 * looked for every hour; the first look 5 minutes after start, out of the way of a starting server. The holder renews
 * its lease at every look; it lapses after three missed looks and another process takes over.
 */
export const RETENTION_FIRST_AFTER_MS = 5 * 60_000;
export const RETENTION_LEASE_MS = 3 * RETENTION_CHECK_EVERY_MS;
type RetentionConfig = Pick<Env, "RETENTION_CONTACT_MONTHS" | "RETENTION_MAIL_BODY_DAYS" | "RETENTION_UNPAID_ORDER_MONTHS" | "RETENTION_INVOICE_YEARS" | "RETENTION_SAVED_CART_DAYS">;

/** Refused e-mail is looked for every minute (its tries are a minute apart at the soonest). */
export const MAIL_RETRIES_EVERY_MS = 60_000;

/**
 * The flows' queued reactions (docs/decisions/061) are looked for every minute: one indexed read when nothing is due
 * (a flow delivers its own right after its commit; the job takes what a stopped process left, and failed tries).
 * Done ones older than 30 days are deleted once an hour.
 */
export const REACTIONS_EVERY_MS = 60_000;
const REACTIONS_PRUNE_EVERY_RUNS = 60;

/** Reward points past their order's return window become available, and lots past their months expire (062). */
export const REWARDS_EVERY_MS = 10 * 60_000;

/** Back-in-stock and wishlist e-mails are looked for every minute (one indexed read each when nobody waits). */
export const SHOPPER_ALERTS_EVERY_MS = 60_000;

/** The app server's jobs, from its configuration. stopAll() before closing the database. */
export function startJobs(
  config: Pick<Env, "UNPAID_ORDER_TTL_MINUTES" | "EFT_HOLD_DAYS" | "REVIEW_REQUEST_AFTER_DAYS"> &
    Partial<Pick<Env, "DELIVERY_KINDS" | "JOBS_EVERY_SECONDS" | "MARKETING_EMAILS_PER_MINUTE" | "CART_REMINDER_AFTER_MINUTES" | "ORDER_REMINDER_AFTER_MINUTES" | "GIFT_CARD_EXPIRY_MONTHS">> &
    Partial<Pick<Env, "WHATSAPP_UPDATES" | "WHATSAPP_ACCESS_TOKEN" | "ALLOW_TEST_WHATSAPP" | "PUBLIC_BASE_URL" | "SMTP_URL" | "RETURN_WINDOW_DAYS">> &
    Partial<BackupConfig> &
    Partial<RetentionConfig>,
  db: () => DB,
  logger: Logger = rootLogger,
  holder: string = leaseHolder(),
) {
  const jobs: RepeatingJob[] = [];
  // JOBS_EVERY_SECONDS (tests and demos only): every job looks for work that often, and starts after a second.
  const fast = config.JOBS_EVERY_SECONDS ? config.JOBS_EVERY_SECONDS * 1000 : null;
  if (config.UNPAID_ORDER_TTL_MINUTES > 0) {
    const policy = configuredHoldPolicy(config.UNPAID_ORDER_TTL_MINUTES, config.EFT_HOLD_DAYS);
    jobs.push(
      scheduleRepeating({
        name: "expire-unpaid-orders",
        everyMs: fast ?? UNPAID_EXPIRY_EVERY_MS,
        firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
        lease: databaseLease(db, "expire-unpaid-orders", holder, JOB_LEASE_MS),
        logger,
        run: async () => {
          const { expired, more } = await expireUnpaidOrders(db(), { policy });
          if (expired.length || more) logger.info({ expired: expired.length, more }, "orders: unpaid order expiry run");
        },
      }),
    );
    logger.info({ holdMinutes: policy.defaultMinutes, byProvider: policy.byProvider }, "orders: unpaid orders expire after their hold");
  } else {
    logger.warn("UNPAID_ORDER_TTL_MINUTES=0: unpaid orders never expire and keep their coupon reservations until cancelled");
  }
  let reactionRuns = 0;
  jobs.push(
    scheduleRepeating({
      name: "deliver-reactions",
      everyMs: fast ?? REACTIONS_EVERY_MS,
      firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
      lease: databaseLease(db, "deliver-reactions", holder, 3 * REACTIONS_EVERY_MS),
      logger,
      run: async () => {
        const { done, failed, gaveUp } = await deliverDueReactions(db());
        if (done || failed || gaveUp) logger.info({ done, failed, gaveUp }, "reactions: delivered by the job");
        if (reactionRuns++ % REACTIONS_PRUNE_EVERY_RUNS === 0) await pruneDoneReactions(db());
      },
    }),
  );
  // Reward points (docs/decisions/062): pending → available after the return window, and expiry. Run whether the
  // programme is on or not: points already earned keep their course when the owner turns it off.
  if (config.RETURN_WINDOW_DAYS) {
    const windowDays = config.RETURN_WINDOW_DAYS;
    jobs.push(
      scheduleRepeating({
        name: "mature-rewards",
        everyMs: fast ?? REWARDS_EVERY_MS,
        firstAfterMs: fast ? 1000 : REVIEW_REQUESTS_FIRST_AFTER_MS,
        lease: databaseLease(db, "mature-rewards", holder, 3 * REWARDS_EVERY_MS),
        logger,
        run: async () => {
          const { earnings, points, expired, notices } = await matureRewards(db(), { windowDays });
          if (earnings || expired || notices) logger.info({ earnings, points, expired, notices }, "rewards: points made available, expired, and told of");
        },
      }),
    );
  }
  if (config.REVIEW_REQUEST_AFTER_DAYS > 0) {
    const afterDays = config.REVIEW_REQUEST_AFTER_DAYS;
    jobs.push(
      scheduleRepeating({
        name: "send-review-requests",
        everyMs: fast ?? REVIEW_REQUESTS_EVERY_MS,
        firstAfterMs: fast ? 1000 : REVIEW_REQUESTS_FIRST_AFTER_MS,
        lease: databaseLease(db, "send-review-requests", holder, REVIEW_REQUESTS_LEASE_MS),
        logger,
        // One bounded batch per run; a backlog drains over the next runs.
        run: async () => {
          const { sent, skipped, more } = await sendDueReviewRequests(db(), { afterDays });
          if (sent.length || more) logger.info({ sent: sent.length, skipped, more }, "reviews: review request run");
        },
      }),
    );
  }
  // Gift card balances past their expiry (docs/decisions/053): an expiry entry in each card's ledger, looked for hourly.
  // (The server's configuration always has the expiry: the setting's default.)
  if (config.GIFT_CARD_EXPIRY_MONTHS) jobs.push(
    scheduleRepeating({
      name: "expire-gift-cards",
      everyMs: fast ?? GIFT_CARD_EXPIRY_EVERY_MS,
      firstAfterMs: fast ? 1000 : REVIEW_REQUESTS_FIRST_AFTER_MS,
      lease: databaseLease(db, "expire-gift-cards", holder, 3 * GIFT_CARD_EXPIRY_EVERY_MS),
      logger,
      run: async () => {
        const expired = await expireGiftCards(db());
        if (expired) logger.info({ expired }, "gift cards: balances past their expiry expired");
      },
    }),
  );
  // Sold gift cards whose day has come (docs/decisions/053 "Selling gift cards"), each e-mailed once; with the
  // expiry, the gift card jobs.
  if (config.GIFT_CARD_EXPIRY_MONTHS) jobs.push(
    scheduleRepeating({
      name: "send-gift-cards",
      everyMs: fast ?? GIFT_CARD_EMAILS_EVERY_MS,
      firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
      lease: databaseLease(db, "send-gift-cards", holder, 3 * GIFT_CARD_EMAILS_EVERY_MS),
      logger,
      run: async () => {
        const sent = await sendDueGiftCardEmails(db());
        if (sent) logger.info({ sent }, "gift cards: dated gift cards e-mailed");
      },
    }),
  );
  const kinds = config.DELIVERY_KINDS ?? [];
  if (kinds.length) {
    // Parcels on their way: ask the couriers about those not heard of for a while (webhooks usually come first).
    jobs.push(
      scheduleRepeating({
        name: "track-shipments",
        everyMs: fast ?? TRACKING_POLL_EVERY_MS,
        firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
        lease: databaseLease(db, "track-shipments", holder, 3 * TRACKING_POLL_EVERY_MS),
        logger,
        run: async () => {
          const { polled, applied } = await pollTracking(db(), { staleMs: fast ? 0 : TRACKING_STALE_MS });
          if (applied) {
            logger.info({ polled, applied }, "couriers: tracking poll run");
            await afterOrdersWritten(db(), "tracking poll");
          }
          // the same lease keeps the quote cache tidy: expired quotes are never read again
          await purgeExpiredQuotes(db());
        },
      }),
    );
    const pointKinds = kinds.filter((k): k is "locker" | "point" => k !== "door");
    if (pointKinds.length) {
      // The lockers and pick-up points, fresh each day (a checkout also refreshes a kind that has none).
      jobs.push(
        scheduleRepeating({
          name: "refresh-courier-points",
          everyMs: POINTS_REFRESH_EVERY_MS,
          firstAfterMs: fast ? 1000 : 30_000,
          lease: databaseLease(db, "refresh-courier-points", holder, POINTS_REFRESH_EVERY_MS),
          logger,
          run: async () => {
            for (const kind of pointKinds) await refreshPoints(db(), kind);
          },
        }),
      );
    }
  }
  // E-mail the mail server refused, tried again when due (migration 0055): looked for every minute, one indexed read
  // when nothing waits. Without a mail server there is nothing to try.
  if (config.SMTP_URL) {
    jobs.push(
      scheduleRepeating({
        name: "retry-mail",
        everyMs: fast ?? MAIL_RETRIES_EVERY_MS,
        firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
        lease: databaseLease(db, "retry-mail", holder, 3 * MAIL_RETRIES_EVERY_MS),
        logger,
        run: async () => {
          const { sent, failed, gaveUp } = await retryDueMail(db());
          if (sent || failed || gaveUp) logger.info({ sent, failed, gaveUp }, "mail: refused e-mail tried again");
        },
      }),
    );
  }
  // Announcements being sent (Admin → Marketing, docs/decisions/039): the next few e-mails every few seconds, at most
  // MARKETING_EMAILS_PER_MINUTE; a restart resumes where the last run stopped (the recipients are rows).
  // (The server's configuration always has a rate: the setting's default.)
  if (config.MARKETING_EMAILS_PER_MINUTE) {
    const announcementsEvery = fast ?? ANNOUNCEMENTS_EVERY_MS;
    const perRun = announcementsPerRun(config.MARKETING_EMAILS_PER_MINUTE, announcementsEvery);
    jobs.push(
      scheduleRepeating({
        name: "send-announcements",
        everyMs: announcementsEvery,
        firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
        lease: databaseLease(db, "send-announcements", holder, 3 * announcementsEvery),
        logger,
        run: async () => {
          const { sent, failed, skipped, recovered, finished } = await sendAnnouncementBatch(db(), { limit: perRun });
          if (sent || failed || skipped || recovered) logger.info({ sent, failed, skipped, recovered, finished: finished.length }, "marketing: announcement run");
        },
      }),
    );
  }
  // Unpaid-order and cart reminders (docs/decisions/056): every minute, one e-mail per cart or order that is due, only
  // to people opted in to marketing. The orders' holds decide how late an order may still be reminded.
  const reminders = { cartAfterMinutes: config.CART_REMINDER_AFTER_MINUTES ?? 0, orderAfterMinutes: config.ORDER_REMINDER_AFTER_MINUTES ?? 0 };
  if (reminders.cartAfterMinutes > 0 || reminders.orderAfterMinutes > 0) {
    const holdPolicy = config.UNPAID_ORDER_TTL_MINUTES > 0 ? configuredHoldPolicy(config.UNPAID_ORDER_TTL_MINUTES, config.EFT_HOLD_DAYS) : null;
    jobs.push(
      scheduleRepeating({
        name: "send-reminders",
        everyMs: fast ?? REMINDERS_EVERY_MS,
        firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
        lease: databaseLease(db, "send-reminders", holder, 3 * REMINDERS_EVERY_MS),
        logger,
        run: async () => {
          const { sent, skipped, recovered, more } = await sendDueReminders(db(), { settings: reminders, holdPolicy });
          if (sent.length || skipped || recovered) logger.info({ sent: sent.length, skipped, recovered, more }, "reminders: reminder run");
        },
      }),
    );
  }
  // Back in stock and wishlist e-mails (docs/decisions/057): every minute, whatever brought the stock back (the jobs
  // compare, nobody has to tell them), at most the shop's mail rate; the back-in-stock run also deletes the requests
  // past their time (POPIA s14).
  if (config.MARKETING_EMAILS_PER_MINUTE) {
    const every = fast ?? SHOPPER_ALERTS_EVERY_MS;
    const limit = announcementsPerRun(config.MARKETING_EMAILS_PER_MINUTE, every);
    jobs.push(
      scheduleRepeating({
        name: "back-in-stock",
        everyMs: every,
        firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
        lease: databaseLease(db, "back-in-stock", holder, 3 * every),
        logger,
        run: async () => {
          const back = await sendBackInStock(db(), { limit });
          if (back.sent || back.expired) logger.info(back, "stock alerts: back-in-stock run");
          const wishlist = await sendWishlistAlerts(db(), { limit });
          if (wishlist.sent) logger.info(wishlist, "wishlist: alerts run");
        },
      }),
    );
  }
  // The retention job (POPIA s14, docs/decisions/040): looks every hour, runs when the last recorded run started a day
  // ago, in the one process holding its lease. (The server's configuration always has the periods: their defaults.)
  if (config.RETENTION_CONTACT_MONTHS && config.RETENTION_MAIL_BODY_DAYS && config.RETENTION_UNPAID_ORDER_MONTHS && config.RETENTION_INVOICE_YEARS && config.RETENTION_SAVED_CART_DAYS) {
    const policy = retentionPolicy(config as RetentionConfig);
    jobs.push(
      scheduleRepeating({
        name: "retention",
        everyMs: fast ?? RETENTION_CHECK_EVERY_MS,
        firstAfterMs: fast ? 1000 : RETENTION_FIRST_AFTER_MS,
        lease: databaseLease(db, "retention", holder, RETENTION_LEASE_MS),
        logger,
        run: async () => {
          const run = await runRetentionIfDue(db(), { policy, holder });
          if (run) logger.info({ run: run.id, ...run.counts }, "privacy: retention run");
        },
      }),
    );
  }
  // WhatsApp order updates (docs/decisions/055): a queued message is sent at once by the process that queued it (the
  // nudge), and the job, in the lease holder, sends what is due again (retries after their backoff) and settles
  // claims whose process died. Both claim each message first, so none goes twice.
  // (Scheduled by the server, whose configuration says whether WhatsApp updates are on; the other jobs' tests pass none.)
  let nudging: Promise<unknown> | undefined;
  let nudgeAgain = false;
  if (config.WHATSAPP_UPDATES && config.PUBLIC_BASE_URL && whatsappMode({ WHATSAPP_UPDATES: true, WHATSAPP_ACCESS_TOKEN: config.WHATSAPP_ACCESS_TOKEN, ALLOW_TEST_WHATSAPP: config.ALLOW_TEST_WHATSAPP ?? false, PUBLIC_BASE_URL: config.PUBLIC_BASE_URL }) !== "off") {
    const sendDue = () => sendDueWhatsappMessages(db()).then((r) => {
      if (r.sent || r.retried || r.failed || r.skipped || r.lapsed) logger.info(r, "whatsapp: sender run");
    });
    jobs.push(
      scheduleRepeating({
        name: "send-whatsapp",
        everyMs: fast ?? WHATSAPP_EVERY_MS,
        firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
        lease: databaseLease(db, "send-whatsapp", holder, 3 * WHATSAPP_EVERY_MS),
        logger,
        run: sendDue,
      }),
    );
    // One nudge at a time; a message queued while one runs gets another run right after it (the running one may have
    // looked before the message was there).
    const nudge = () => {
      if (nudging) return void (nudgeAgain = true);
      nudging = sendDue()
        .catch((error: unknown) => logger.error({ err: error }, "whatsapp: sending at once failed; the job tries again"))
        .finally(() => {
          nudging = undefined;
          if (nudgeAgain) {
            nudgeAgain = false;
            nudge();
          }
        });
    };
    onWhatsappQueued(nudge);
  }
  // The admin's day sums of orders (docs/decisions/034): the past days not summed yet (after an upgrade, a restore, an
  // import) or changed since, summed in the background a week at a time, so no admin page has to sum them first.
  // (Scheduled by the server, whose configuration names its database; the unit tests of the other jobs pass none.)
  if (config.DATABASE_URL) {
    jobs.push(
      scheduleRepeating({
        name: "sum-order-days",
        everyMs: fast ?? ORDER_DAYS_EVERY_MS,
        firstAfterMs: fast ? 1000 : FIRST_RUN_AFTER_MS,
        lease: databaseLease(db, "sum-order-days", holder, 3 * ORDER_DAYS_EVERY_MS),
        logger,
        run: async () => {
          const { summed, more } = await sumSettledOrderDays(db());
          if (summed) logger.info({ summed, more }, "reports: order days summed");
        },
      }),
    );
  }
  // The nightly backup (BACKUP_KEEP archives kept; 0 or unset: off). Not with an in-memory database (nothing to read).
  const keep = config.BACKUP_KEEP ?? 0;
  const databaseUrl = config.DATABASE_URL ?? "";
  if (keep > 0 && databaseUrl && parseDatabaseUrl(databaseUrl).kind !== "sqlite-memory") {
    const backupConfig = { ...config, BACKUP_KEEP: keep, DATABASE_URL: databaseUrl } as BackupConfig;
    const dir = backupDirectory(backupConfig);
    jobs.push(
      scheduleRepeating({
        name: "nightly-backup",
        everyMs: NIGHTLY_BACKUP_EVERY_MS,
        firstAfterMs: BACKUP_FIRST_AFTER_MS,
        lease: databaseLease(db, "nightly-backup", holder, BACKUP_LEASE_MS),
        logger,
        // One backup at a time across processes: an owner's "Back up now" in progress makes this run wait a day.
        run: async () => {
          try {
            // a failure is also kept for Admin → Data (runNightlyBackup), not only logged
            const result = await runNightlyBackup(db(), { databaseUrl, media: mediaSource(backupConfig), dir, keep });
            if (result?.made) logger.info({ archive: result.made.path, bytes: result.made.bytes, ms: result.made.ms, deleted: result.deleted }, "backups: nightly backup made");
            else if (result?.deleted.length) logger.info({ deleted: result.deleted }, "backups: old archives deleted");
          } catch (error) {
            if (!(error instanceof BackupRunning)) throw error;
            logger.info("backups: a backup is already running; the nightly run skips today");
          }
        },
      }),
    );
  } else if (config.BACKUP_KEEP === 0) {
    logger.warn("BACKUP_KEEP=0: no nightly backup; run `npm run backup` yourself");
  }
  return {
    jobs,
    async stopAll() {
      onWhatsappQueued(null);
      await Promise.all([...jobs.map((j) => j.stop()), nudging]);
    },
  };
}
