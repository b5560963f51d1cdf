/**
 * The change feed: how app processes on one database (the workers of one server, and other servers) tell each other
 * what their in-memory copies must drop (docs/decisions/026):
 * - "storefront": an admin change committed (storefrontChanged): every process empties its visitor page cache;
 * - "sessions": a user's sessions (or everyone's) were revoked (forgetUserSessions / forgetAllSessions): every process
 *   forgets its remembered copies (docs/decisions/027).
 *
 * A change raised in this process acts here at once (its listeners run synchronously) and is written to the feed;
 * every process reads the feed every POLL_EVERY_MS: one single-row read of `change_feed_head`, and the new events only
 * when its number moved. The same code on SQLite (several workers on one file) and PostgreSQL (several machines).
 * A process that fell so far behind that events it missed were pruned treats it as "everything changed".
 */
import { sql } from "kysely";
import type { DB } from "~/db/db.server";
import { FEED_MAX_SILENCE_MS, onSessionsRevoked, revocationFeedHeard, sessionsRevokedElsewhere } from "~/modules/accounts/session-cache.server";
import { onStorefrontChange, storefrontChangedElsewhere } from "~/utils/storefront-changes.server";
import type { Logger } from "~/utils/logger.server";

export const POLL_EVERY_MS = 250;
/** The feed keeps about this many recent events; older ones are deleted as new ones come. */
export const KEEP_EVENTS = 1_000;

export type ChangeEvent = { kind: "storefront"; reason: string } | { kind: "sessions"; userId: string | null };

export interface ChangeFeedHandlers {
  /** An event from the feed (this process's own events come back too; acting on them twice is harmless). */
  onEvent(event: ChangeEvent): void;
  /** Events were missed (pruned before this process read them): act as if everything changed. */
  onMissed(): void;
  /** A complete read of the feed that started at `at` has been applied. */
  onHeard?(at: number): void;
}

/** Writes one event: the next number from the head row and the event, in one transaction (see migration 0012). */
export async function publishChange(db: DB, event: ChangeEvent): Promise<number> {
  const subject = event.kind === "storefront" ? event.reason.slice(0, 500) : event.userId;
  return db.transaction().execute(async (trx) => {
    const head = await trx
      .updateTable("change_feed_head")
      .set({ last_event_id: sql<number>`last_event_id + 1` })
      .where("id", "=", 1)
      .returning("last_event_id")
      .executeTakeFirstOrThrow();
    const id = Number(head.last_event_id);
    await trx.insertInto("change_events").values({ id, kind: event.kind, subject }).execute();
    if (id % 100 === 0) await trx.deleteFrom("change_events").where("id", "<=", id - KEEP_EVENTS).execute();
    return id;
  });
}

/**
 * For a command run beside the servers (npm run create-admin), which reads no feed of its own: runs `work` and writes
 * every session revocation it made to the feed, so the running servers forget those sessions within a poll instead
 * of trusting their copies for up to SESSION_CACHE_TTL_MS.
 */
export async function publishRevocationsOf<T>(db: DB, work: () => Promise<T>): Promise<T> {
  const revoked: Array<string | null> = [];
  const stop = onSessionsRevoked((userId) => revoked.push(userId));
  try {
    return await work();
  } finally {
    stop();
    // each person once, however many steps of the work forgot them (a reset ends sessions and removes second factors)
    for (const userId of new Set(revoked)) await publishChange(db, { kind: "sessions", userId });
  }
}

function toEvent(row: { kind: string; subject: string | null }): ChangeEvent | null {
  if (row.kind === "storefront") return { kind: "storefront", reason: row.subject ?? "" };
  if (row.kind === "sessions") return { kind: "sessions", userId: row.subject };
  return null; // a kind a newer version wrote: not ours to act on
}

/** A reader of the feed: poll() applies what is new since the last poll (the first poll only notes where it is). */
export function feedReader(db: DB, handlers: ChangeFeedHandlers, now: () => number = Date.now) {
  let lastSeen: number | undefined;
  return {
    get lastSeen() {
      return lastSeen;
    },
    async poll(): Promise<void> {
      const startedAt = now();
      const head = await db.selectFrom("change_feed_head").select("last_event_id").where("id", "=", 1).executeTakeFirstOrThrow();
      const last = Number(head.last_event_id);
      if (lastSeen !== undefined && last !== lastSeen) {
        const expected = last - lastSeen;
        const rows =
          expected > 0 && expected <= KEEP_EVENTS
            ? await db
                .selectFrom("change_events")
                .select(["id", "kind", "subject"])
                .where("id", ">", lastSeen)
                .where("id", "<=", last)
                .orderBy("id")
                .execute()
            : [];
        if (rows.length !== expected) {
          handlers.onMissed(); // pruned before we read them, or the feed went backwards (a restored database)
        } else {
          for (const row of rows) {
            const event = toEvent(row);
            if (event) handlers.onEvent(event);
          }
        }
      }
      lastSeen = last;
      handlers.onHeard?.(startedAt);
    },
  };
}

export interface ChangeFeedOptions {
  logger: Pick<Logger, "warn" | "error" | "debug">;
  pollEveryMs?: number;
}

/**
 * The server's feed: writes this process's storefront changes and session revocations, and reads everybody's.
 * Started before the server listens (its first read finishes first), stopped before the database closes.
 */
export async function startChangeFeed(db: () => DB, options: ChangeFeedOptions) {
  const { logger } = options;
  const every = options.pollEveryMs ?? POLL_EVERY_MS;
  const writes = new Set<Promise<unknown>>();
  const write = (event: ChangeEvent) => {
    const pending = publishChange(db(), event)
      .catch((error: unknown) =>
        // Other processes then see it only when their copies expire (PAGE_CACHE_TTL_SECONDS, SESSION_CACHE_TTL_MS).
        logger.error({ err: error, event }, "change feed: could not tell the other app processes about a change"),
      )
      .finally(() => writes.delete(pending));
    writes.add(pending);
  };
  const unsubscribe = [
    onStorefrontChange((reason, origin) => {
      if (origin === "here") write({ kind: "storefront", reason });
    }),
    onSessionsRevoked((userId) => write({ kind: "sessions", userId })),
  ];

  let previousRead: number | undefined;
  let lateReads = 0;
  let lastLateReport = 0;
  const reader = feedReader(db(), {
    onEvent(event) {
      if (event.kind === "storefront") storefrontChangedElsewhere(event.reason);
      else sessionsRevokedElsewhere(event.userId);
    },
    onMissed() {
      logger.warn("change feed: events were missed; every cached page and remembered session is dropped");
      storefrontChangedElsewhere("change feed: events missed");
      sessionsRevokedElsewhere(null);
    },
    onHeard(at) {
      // Reads further apart than the session memory tolerates (an overloaded event loop, a slow database): said once
      // in a while, since remembered sessions go unused meanwhile (every request asks better-auth).
      if (previousRead !== undefined && at - previousRead > FEED_MAX_SILENCE_MS) {
        lateReads++;
        if (Date.now() - lastLateReport > 30_000) {
          lastLateReport = Date.now();
          logger.warn({ gapMs: at - previousRead, lateReads }, "change feed: read late; remembered sessions were not used meanwhile");
        }
      }
      previousRead = at;
      revocationFeedHeard(at);
    },
  });
  await reader.poll();

  let timer: ReturnType<typeof setTimeout> | undefined;
  let polling: Promise<void> | undefined;
  let stopped = false;
  let lastComplaint = 0;
  const tick = () => {
    timer = undefined;
    polling = reader
      .poll()
      .catch((error: unknown) => {
        // Remembered sessions stop being trusted after FEED_MAX_SILENCE_MS without a read (session-cache.server.ts).
        if (Date.now() - lastComplaint > 30_000) {
          lastComplaint = Date.now();
          logger.error({ err: error }, "change feed: could not read it; retrying");
        }
      })
      .finally(() => {
        polling = undefined;
        if (!stopped) {
          timer = setTimeout(tick, every);
          timer.unref();
        }
      });
  };
  timer = setTimeout(tick, every);
  timer.unref();
  logger.debug({ pollEveryMs: every, lastEventId: reader.lastSeen }, "change feed: reading");

  return {
    /** Stops reading, waits for the running read and for changes still being written. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const off of unsubscribe) off();
      await polling;
      await Promise.all([...writes]);
    },
  };
}
