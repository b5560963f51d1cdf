/**
 * All cores (docs/decisions/026): in production the first process (the primary) prepares the shop once — checks the
 * configuration, makes or reads the session secret, migrates, loads the demo catalogue — and then forks
 * WEB_CONCURRENCY workers (default: one per core) with node:cluster. Each worker runs the whole app server on the same
 * PORT (the primary hands out the connections, round-robin). The primary serves no request and holds no database
 * connection: it only keeps the workers running.
 *
 * - A worker that dies unexpectedly is replaced: at once the first time, then after a pause that doubles with each
 *   further crash within a minute (1 s, 2 s, 4 s … at most 30 s), so a worker that can't start doesn't spin the CPU.
 * - A worker that cannot listen (the port is taken) says why and exits with EXIT_CANNOT_LISTEN: a replacement would
 *   fail the same way, so the primary stops the other workers and exits 1 instead of retrying for ever.
 * - SIGTERM or SIGINT to the primary is passed to every worker: each finishes its open requests, stops its jobs and
 *   its change feed and closes the database; the primary exits 0 once all of them have (1 if one had to be forced).
 * - WEB_CONCURRENCY=1 runs no primary at all: one process, as before (what a process manager that runs one process
 *   per container, or a test that needs one process, wants).
 */
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import type { Logger } from "~/utils/logger.server";

/** The number of worker processes: WEB_CONCURRENCY, or one per core when it is unset or empty. */
export function webConcurrency(value: string | undefined = process.env.WEB_CONCURRENCY, cores: number = availableParallelism()): number {
  const text = value?.trim() ?? "";
  if (text === "") return cores;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 1024) {
    throw new Error(`Invalid configuration:\n  WEB_CONCURRENCY: the number of worker processes, 1 or more (unset: one per core, ${cores} here)`);
  }
  return n;
}

/**
 * The environment a serving process runs with unless the operator has set it (README "Configure for production": the
 * server's memory). glibc's malloc gives threads their own arenas, up to eight per core, and memory freed in one stays
 * there; Node's threads (libuv's pool: zlib, scrypt, file reads; V8's compiler and collector) each take one. With two
 * arenas a server on the scale data held 265–270 MB after ~300 admin pages instead of 285–289, and its peak during the
 * export of a million orders was 288–293 MB instead of 315–317 (the same heap). It must be in the environment when the
 * process starts (glibc reads it once): the primary gives it to the workers it forks; a single process
 * (WEB_CONCURRENCY=1) gets it from its process manager (the systemd unit sets it).
 */
export const SERVER_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };

/** A worker's environment on top of the primary's: SERVER_PROCESS_ENV where the primary's has no value, then `extra`. */
export function workerEnvironment(extra: Record<string, string> = {}, own: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const defaults = Object.entries(SERVER_PROCESS_ENV).filter(([name]) => own[name] === undefined);
  return { ...Object.fromEntries(defaults), ...extra };
}

/** A worker's exit code when it cannot listen on PORT (EX_CONFIG): not a crash to retry, a start that failed. */
export const EXIT_CANNOT_LISTEN = 78;

export const CRASH_WINDOW_MS = 60_000;
export const MAX_RESTART_DELAY_MS = 30_000;

/**
 * How long to wait before replacing a crashed worker, given when the workers crashed (this one included, newest
 * last): nothing for the first crash in a minute, then 1 s, 2 s, 4 s … up to 30 s.
 */
export function restartDelayMs(crashTimes: readonly number[], now: number): number {
  const recent = crashTimes.filter((t) => now - t < CRASH_WINDOW_MS).length;
  if (recent <= 1) return 0;
  return Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (recent - 2));
}

export interface PrimaryOptions {
  workers: number;
  logger: Pick<Logger, "info" | "warn" | "error">;
  /** Extra environment for the workers (the session secret the primary made). */
  workerEnv?: Record<string, string>;
  /** The line to log once every worker listens, given the port they listen on. */
  listening(port: number): { message: string; fields: Record<string, unknown> };
  /** Workers still running this long after SIGTERM are killed (each already gives itself 10 s). */
  forceAfterMs?: number;
}

/** Runs the primary: forks the workers, replaces the ones that die, drains them all on SIGTERM/SIGINT. */
export function runPrimary(options: PrimaryOptions) {
  const { logger } = options;
  const forceAfterMs = options.forceAfterMs ?? 15_000;
  const crashTimes: number[] = [];
  const listening = new Set<number>();
  const pendingRestarts = new Set<ReturnType<typeof setTimeout>>();
  let announced = false;
  let stopping = false;
  let forced = false;
  let failed = false;

  const fork = () => {
    const worker = cluster.fork(workerEnvironment(options.workerEnv));
    logger.info({ worker: worker.id, pid: worker.process.pid }, "worker started");
    return worker;
  };

  cluster.on("listening", (worker: Worker, address) => {
    listening.add(worker.id);
    if (!announced && listening.size >= options.workers) {
      announced = true;
      const line = options.listening(address.port);
      logger.info({ ...line.fields, workers: options.workers }, line.message);
    }
  });

  cluster.on("exit", (worker: Worker, code: number | null, signal: string | null) => {
    listening.delete(worker.id);
    if (stopping) {
      // A worker still starting (no handler yet) ends by the signal itself: stopped as asked, not forced.
      if (code !== 0 && signal !== "SIGTERM") forced = true;
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info({ forced }, "stopped");
        process.exit(forced || failed ? 1 : 0);
      }
      return;
    }
    if (code === EXIT_CANNOT_LISTEN) {
      // The worker has said why (the port is taken); every replacement would fail the same way.
      logger.error({ worker: worker.id, pid: worker.process.pid }, "a worker cannot listen: stopping the shop");
      failed = true;
      stop("cannot listen");
      return;
    }
    const now = Date.now();
    crashTimes.push(now);
    while (crashTimes.length && now - crashTimes[0]! >= CRASH_WINDOW_MS) crashTimes.shift();
    const delay = restartDelayMs(crashTimes, now);
    logger.error({ worker: worker.id, pid: worker.process.pid, code, signal, restartInMs: delay }, "worker died unexpectedly: replacing it");
    const timer = setTimeout(() => {
      pendingRestarts.delete(timer);
      if (!stopping) fork();
    }, delay);
    pendingRestarts.add(timer);
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    for (const timer of pendingRestarts) clearTimeout(timer);
    pendingRestarts.clear();
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    logger.info({ signal, workers: workers.length }, "shutting down: every worker finishes its open requests");
    if (workers.length === 0) process.exit(failed ? 1 : 0);
    for (const worker of workers) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      logger.error("workers did not stop in time: killed");
      process.exit(1);
    }, forceAfterMs).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  logger.info({ workers: options.workers }, `starting ${options.workers} worker processes (WEB_CONCURRENCY; one per core unless set)`);
  for (let i = 0; i < options.workers; i++) fork();
}
