import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { databaseLease, scheduleRepeating, type JobLease } from "./jobs";

/** One runner at a time across processes: the job lease on this database (SQLite, PostgreSQL). */
const quiet = { error: () => {} };
const HOUR = 3_600_000;

describe("a job lease", () => {
  it("is held by one process at a time; renewed by its holder, handed back on stop, taken over when it lapses", async () => {
    const a = databaseLease(getDb, "lease-test", "server-a", HOUR);
    const b = databaseLease(getDb, "lease-test", "server-b", HOUR);
    const t0 = 1_000_000;
    expect(await a.take(t0)).toBe(true);
    expect(await b.take(t0 + 1)).toBe(false);
    expect(await a.take(t0 + 60_000)).toBe(true); // renewed: now until t0 + 60 000 + an hour
    expect(await b.take(t0 + HOUR + 1)).toBe(false);
    await b.release(); // not b's to hand back: nothing changes
    expect(await b.take(t0 + HOUR + 2)).toBe(false);
    await a.release();
    expect(await b.take(t0 + HOUR + 3)).toBe(true);
    expect(await a.take(t0 + HOUR + 4)).toBe(false);
    // b dies without handing it back: it lapses after its length, and a takes over
    expect(await a.take(t0 + 2 * HOUR + 2)).toBe(false);
    expect(await a.take(t0 + 2 * HOUR + 3)).toBe(true);
  });

  it("of many processes asking at the same moment, exactly one gets it", async () => {
    const leases = Array.from({ length: 8 }, (_, i) => databaseLease(getDb, "lease-race", `server-${i}`, HOUR));
    const taken = await Promise.all(leases.map((l) => l.take(5_000_000)));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });
});

describe("a scheduled job on several processes", () => {
  it("runs only in the lease holder; when the holder stops, another process takes over", async () => {
    const runs: string[] = [];
    const ticks = new Map<string, number>();
    const counted = (name: string, lease: JobLease): JobLease => ({
      take: async (now) => {
        ticks.set(name, (ticks.get(name) ?? 0) + 1);
        return lease.take(now);
      },
      release: () => lease.release(),
    });
    const job = (name: string) =>
      scheduleRepeating({
        name: "expire-test",
        everyMs: 5,
        firstAfterMs: 0,
        lease: counted(name, databaseLease(getDb, "expire-test", name, HOUR)),
        logger: quiet,
        run: async () => {
          runs.push(name);
        },
      });
    const a = job("a");
    const b = job("b");
    await expect.poll(() => Math.min(ticks.get("a") ?? 0, ticks.get("b") ?? 0)).toBeGreaterThanOrEqual(3);
    const first = runs[0]!;
    expect(runs.every((r) => r === first)).toBe(true);
    const [holder, other] = first === "a" ? [a, b] : [b, a];
    await holder.stop(); // hands the lease back
    await expect.poll(() => runs.at(-1)).not.toBe(first);
    await other.stop();
    expect(new Set(runs).size).toBe(2);
  });
});
