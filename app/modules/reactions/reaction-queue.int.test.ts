import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { enqueueReaction, pruneDoneReactions, REACTION_BACKOFF_MS, REACTION_GRACE_MS, REACTION_KEEP_MS, REACTION_LEASE_MS, runDueReactions, runReactions } from "./reaction-queue.server";

/**
 * The reactions' queue on its own (its handlers here are the test's; the flows' real ones, with a real SMTP server,
 * are tried in flows/reactions.int.test.ts). The clock is the test's.
 */
const db = () => getDb();
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);
const reactionsOf = (subjectId: string) => db().selectFrom("reactions").select(["kind", "due_at", "done_at", "attempts", "error"]).where("subject_id", "=", subjectId).execute();

describe("a reaction that fails", () => {
  it("is tried again after 1, 5 and 30 minutes and 2 hours, then given up with its error kept", async () => {
    const subject = `order-${Date.now()}`;
    const start = new Date();
    const ticket = await enqueueReaction(db(), "test_failing", subject, { n: 1 }, start);
    let tries = 0;
    const failing = async () => {
      tries += 1;
      throw new Error("the WhatsApp API answered 503");
    };
    let now = later(start, REACTION_GRACE_MS);
    expect(Date.parse(ticket.dueAt)).toBe(now.getTime());
    for (const wait of REACTION_BACKOFF_MS) {
      // not due a second before
      expect(await runDueReactions(db(), failing, later(now, -1000))).toMatchObject({ failed: 0, gaveUp: 0 });
      expect(await runDueReactions(db(), failing, now)).toMatchObject({ failed: 1, gaveUp: 0 });
      now = later(now, wait);
    }
    expect(await runDueReactions(db(), failing, now)).toMatchObject({ failed: 0, gaveUp: 1 });
    expect(tries).toBe(REACTION_BACKOFF_MS.length + 1);
    expect(await reactionsOf(subject)).toEqual([expect.objectContaining({ due_at: null, done_at: null, attempts: 5, error: "the WhatsApp API answered 503" })]);
    expect(await runDueReactions(db(), failing, later(now, 24 * 3600_000))).toMatchObject({ failed: 0, gaveUp: 0 });
  });

  it("a try whose process stopped mid-way is taken again once its lease has passed", async () => {
    const subject = `order-${Date.now()}-lease`;
    const start = new Date();
    await enqueueReaction(db(), "test_stopping", subject, {}, start);
    const due = later(start, REACTION_GRACE_MS);
    // the first runner claims it and never finishes (its process stopped)
    const stopped = runDueReactions(db(), () => new Promise<void>(() => {}), due);
    void stopped;
    await expect.poll(async () => (await reactionsOf(subject))[0]?.attempts).toBe(1);
    let ran = 0;
    const handler = async () => void (ran += 1);
    expect(await runDueReactions(db(), handler, later(due, REACTION_LEASE_MS - 1000))).toMatchObject({ done: 0 });
    expect(await runDueReactions(db(), handler, later(due, REACTION_LEASE_MS + 1000))).toMatchObject({ done: 1 });
    expect(ran).toBe(1);
  });
});

describe("done reactions", () => {
  it("are kept 30 days, then deleted; a given-up one stays", async () => {
    const subject = `order-${Date.now()}-prune`;
    const start = new Date();
    const done = await enqueueReaction(db(), "test_done", subject, {}, start);
    await enqueueReaction(db(), "test_given_up", subject, {}, start);
    await runReactions(db(), [done], async () => {}, start);
    await db().updateTable("reactions").set({ due_at: null, error: "given up" }).where("subject_id", "=", subject).where("kind", "=", "test_given_up").execute();
    await pruneDoneReactions(db(), later(start, REACTION_KEEP_MS - 60_000));
    expect(await reactionsOf(subject)).toHaveLength(2);
    await pruneDoneReactions(db(), later(start, REACTION_KEEP_MS + 60_000));
    expect(await reactionsOf(subject)).toEqual([expect.objectContaining({ kind: "test_given_up", error: "given up" })]);
  });
});
