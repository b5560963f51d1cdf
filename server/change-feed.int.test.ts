import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { cachedSession, detachRevocationFeed, forgetUserSessions, rememberSession } from "~/modules/accounts/session-cache.server";
import { onStorefrontChange, storefrontChanged, type StorefrontChangeOrigin } from "~/utils/storefront-changes.server";
import { createOrResetAdmin } from "~/modules/accounts/accounts.server";
import { createUser } from "../tests/factories/users";
import { feedReader, KEEP_EVENTS, publishChange, publishRevocationsOf, startChangeFeed, type ChangeEvent } from "./change-feed";

/**
 * The change feed on this database (SQLite, PostgreSQL): what one app process writes, every other one reads, in order,
 * once. Each "process" here is a reader or writer of its own on the same database.
 */
const quiet = { warn: () => {}, error: () => {}, debug: () => {} };

function listeningProcess() {
  const heard: ChangeEvent[] = [];
  let missed = 0;
  const reader = feedReader(getDb(), { onEvent: (e) => heard.push(e), onMissed: () => missed++ });
  return { reader, heard, missed: () => missed };
}

afterEach(async () => {
  detachRevocationFeed();
});

describe("the change feed", () => {
  it("hands every process the changes written since its last read, in order, each once", async () => {
    const b = listeningProcess();
    await b.reader.poll(); // the first read only notes where the feed is
    await publishChange(getDb(), { kind: "storefront", reason: "price of Amber Oud" });
    await publishChange(getDb(), { kind: "sessions", userId: "user-1" });
    await publishChange(getDb(), { kind: "sessions", userId: null });
    await b.reader.poll();
    expect(b.heard).toEqual([
      { kind: "storefront", reason: "price of Amber Oud" },
      { kind: "sessions", userId: "user-1" },
      { kind: "sessions", userId: null },
    ]);
    await b.reader.poll();
    expect(b.heard).toHaveLength(3);
    expect(b.missed()).toBe(0);
  });

  it("numbers events written at the same time by many connections without gaps or duplicates", async () => {
    const b = listeningProcess();
    await b.reader.poll();
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => publishChange(getDb(), { kind: "storefront", reason: `change ${i}` })));
    expect(new Set(ids).size).toBe(20);
    expect(Math.max(...ids) - Math.min(...ids)).toBe(19);
    await b.reader.poll();
    expect(b.heard.map((e) => (e.kind === "storefront" ? e.reason : "")).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `change ${i}`).sort());
  });

  it("a process that missed events (deleted before it read them) is told, so it drops everything", async () => {
    const b = listeningProcess();
    await b.reader.poll();
    await publishChange(getDb(), { kind: "storefront", reason: "one" });
    const second = await publishChange(getDb(), { kind: "storefront", reason: "two" });
    await getDb().deleteFrom("change_events").where("id", "=", second).execute();
    await b.reader.poll();
    expect(b.missed()).toBe(1);
    await publishChange(getDb(), { kind: "storefront", reason: "three" });
    await b.reader.poll();
    expect(b.heard).toEqual([{ kind: "storefront", reason: "three" }]);
  });

  it("keeps only the recent events", async () => {
    const head = await getDb().selectFrom("change_feed_head").select("last_event_id").executeTakeFirstOrThrow();
    const base = Math.ceil((Number(head.last_event_id) + KEEP_EVENTS + 1) / 100) * 100; // the next write is a multiple of 100
    await getDb().updateTable("change_feed_head").set({ last_event_id: base - 1 }).execute();
    await getDb().insertInto("change_events").values({ id: base - KEEP_EVENTS - 1, kind: "storefront", subject: "old" }).execute();
    await getDb().insertInto("change_events").values({ id: base - KEEP_EVENTS + 1, kind: "storefront", subject: "recent" }).execute();
    expect(await publishChange(getDb(), { kind: "storefront", reason: "new" })).toBe(base);
    const subjects = (await getDb().selectFrom("change_events").select("subject").where("id", ">=", base - KEEP_EVENTS - 1).execute()).map((r) => r.subject);
    expect(subjects).toEqual(["recent", "new"]);
  });
});

describe("a command beside the servers (npm run create-admin)", () => {
  it("writes the sessions it ended to the feed, so every server forgets them", async () => {
    const server = listeningProcess();
    await server.reader.poll();
    const customer = await createUser(getDb());
    const result = await publishRevocationsOf(getDb(), () => createOrResetAdmin(getDb(), customer.email));
    expect(result).toMatchObject({ created: false, userId: customer.id });
    await server.reader.poll();
    expect(server.heard).toEqual([{ kind: "sessions", userId: customer.id }]);
  });
});

describe("the server's feed", () => {
  it("writes this process's changes, and raises the other processes' changes here", async () => {
    const heard: Array<[string, StorefrontChangeOrigin]> = [];
    const off = onStorefrontChange((reason, origin) => heard.push([reason, origin]));
    const feed = await startChangeFeed(getDb, { logger: quiet, pollEveryMs: 5 });
    try {
      // a change made here: its listeners hear it at once, and it is written down for the others
      storefrontChanged("here: shipping zones");
      expect(heard).toEqual([["here: shipping zones", "here"]]);
      await expect.poll(async () => (await getDb().selectFrom("change_events").select("subject").where("subject", "=", "here: shipping zones").execute()).length).toBe(1);

      // a change another process wrote reaches this process's listeners, marked as such (so nobody writes it again)
      await publishChange(getDb(), { kind: "storefront", reason: "elsewhere: a price" });
      await expect.poll(() => heard.some(([r, o]) => r === "elsewhere: a price" && o === "elsewhere")).toBe(true);
      expect(await getDb().selectFrom("change_events").select("id").where("subject", "=", "elsewhere: a price").execute()).toHaveLength(1);

      // a session revoked elsewhere is forgotten here
      const now = Date.now();
      rememberSession("tok.sig", { id: "user-9", email: "a@b.co", isAdmin: true }, now + 3_600_000, now);
      expect(cachedSession("tok.sig")).toBeDefined();
      await publishChange(getDb(), { kind: "sessions", userId: "user-9" });
      await expect.poll(() => cachedSession("tok.sig")).toBeUndefined();

      // a revocation made here is written down for the others
      forgetUserSessions("user-10");
      await expect.poll(async () => (await getDb().selectFrom("change_events").select("id").where("kind", "=", "sessions").where("subject", "=", "user-10").execute()).length).toBe(1);
    } finally {
      off();
      await feed.stop();
    }
    // stopped: it writes nothing more
    storefrontChanged("after stop");
    expect(await getDb().selectFrom("change_events").select("id").where("subject", "=", "after stop").execute()).toHaveLength(0);
  });
});
