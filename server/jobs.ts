/**
 * Work the app server does on a schedule, in-process: today the expiry of unpaid orders (docs/decisions/014).
 *
 * Each job runs soon after start and then every interval, measured from the end of the previous run, so a run never
 * overlaps itself; its timer is unref'd (it never keeps the process alive); a failure is logged and the next run
 * comes as usual. stop() (on shutdown, before the database closes) cancels the next run and waits for the running one.
 * Several servers may run the same job at once: the jobs themselves are safe for that (see order-expiry.server.ts).
 */
import type { DB } from "~/db/db.server";
import { configuredHoldPolicy, expireUnpaidOrders } from "~/modules/orders/order-expiry.server";
import type { Env } from "~/utils/env.server";
import { logger as rootLogger, type Logger } from "~/utils/logger.server";

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
  logger?: Pick<Logger, "error">;
}

export function scheduleRepeating(options: RepeatingJobOptions): RepeatingJob {
  const log = options.logger ?? rootLogger;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const arm = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref?.();
  };
  function tick() {
    timer = undefined;
    running = (async () => {
      try {
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
    },
  };
}

export const UNPAID_EXPIRY_EVERY_MS = 60_000;
export const FIRST_RUN_AFTER_MS = 5_000;

/** The app server's jobs, from its configuration. stopAll() before closing the database. */
export function startJobs(config: Pick<Env, "UNPAID_ORDER_TTL_MINUTES" | "EFT_HOLD_DAYS">, db: () => DB, logger: Logger = rootLogger) {
  const jobs: RepeatingJob[] = [];
  if (config.UNPAID_ORDER_TTL_MINUTES > 0) {
    const policy = configuredHoldPolicy(config.UNPAID_ORDER_TTL_MINUTES, config.EFT_HOLD_DAYS);
    jobs.push(
      scheduleRepeating({
        name: "expire-unpaid-orders",
        everyMs: UNPAID_EXPIRY_EVERY_MS,
        firstAfterMs: FIRST_RUN_AFTER_MS,
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
  return {
    jobs,
    async stopAll() {
      await Promise.all(jobs.map((j) => j.stop()));
    },
  };
}
