import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { inTransaction } from "~/db/in-transaction.server";
import { REACTION_GRACE_MS, REACTION_LEASE_MS } from "~/modules/reactions/reaction-queue.server";
import { deferringEffects } from "~/utils/after-commit.server";
import { resetEnvForTests } from "~/utils/env.server";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";
import { insertOrder } from "../../../tests/factories/orders";
import { createUser } from "../../../tests/factories/users";
import { setOrderStatus } from "./order-changed-by-owner.server";
import { markOrderPaid } from "./order-paid.server";
import { deliverDueReactions, deliverReactions } from "./reactions.server";

/**
 * The flows' after-commit messages go through a transactional outbox (docs/decisions/061): written with the change,
 * delivered after its commit, and by the deliver-reactions job when the process that made the change stopped before
 * sending them. Read back from a real SMTP server started here; the job is given its clock, nothing waits.
 */
let mail: MailServer;
const db = () => getDb();
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

beforeAll(async () => {
  mail = await startMailServer();
  process.env.SMTP_URL = mail.url;
  resetEnvForTests();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  await mail.close();
});

beforeEach(() => mail.clear());

async function pendingOrder() {
  const user = await createUser(db());
  const order = await insertOrder(db(), { userId: user.id, paymentProvider: "simulated", paymentId: `chk_${user.id}` });
  return { user, order };
}

const reactionsOf = (subjectId: string) => db().selectFrom("reactions").select(["kind", "due_at", "done_at", "attempts", "error"]).where("subject_id", "=", subjectId).execute();
const subjects = () => mail.received.map((m) => m.subject);

describe("a payment's messages", () => {
  it("a process that stopped right after the payment's commit: the job sends the confirmation and the shop's notice, once", async () => {
    const { user, order } = await pendingOrder();
    const paidAt = new Date();
    // the payment's transaction commits; the process stops before it delivers what it queued
    await db().transaction().execute((trx) => markOrderPaid(trx, order.id, paidAt));
    expect(await reactionsOf(order.id)).toEqual([expect.objectContaining({ kind: "order_paid", done_at: null, attempts: 0 })]);
    expect(mail.received).toHaveLength(0);

    // within the grace the flow's own delivery had, the job leaves it
    expect(await deliverDueReactions(db(), later(paidAt, REACTION_GRACE_MS - 1000))).toEqual({ done: 0, failed: 0, gaveUp: 0 });
    expect(await deliverDueReactions(db(), later(paidAt, REACTION_GRACE_MS + 1000))).toEqual({ done: 1, failed: 0, gaveUp: 0 });
    const confirmation = mail.received.find((m) => m.to && "text" in m.to && m.to.text === user.email);
    expect(confirmation?.subject).toMatch(/order [0-9a-f]{8} confirmed/);
    expect(confirmation?.text).toContain("We have received your payment");
    expect(subjects().filter((s) => s?.startsWith("New order"))).toHaveLength(1);
    expect(await reactionsOf(order.id)).toEqual([expect.objectContaining({ kind: "order_paid", due_at: null, attempts: 1, error: null })]);

    // done: a later run sends nothing again
    const received = mail.received.length;
    expect(await deliverDueReactions(db(), later(paidAt, REACTION_LEASE_MS * 3))).toEqual({ done: 0, failed: 0, gaveUp: 0 });
    expect(mail.received).toHaveLength(received);
  });

  it("a payment rolled back queues nothing and sends nothing", async () => {
    const { order } = await pendingOrder();
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await markOrderPaid(trx, order.id);
          throw new Error("a later step refused");
        }),
    ).rejects.toThrow("a later step refused");
    expect(await reactionsOf(order.id)).toEqual([]);
    expect(await deliverDueReactions(db(), later(new Date(), REACTION_LEASE_MS))).toMatchObject({ done: 0 });
    expect(mail.received).toHaveLength(0);
  });

  it("the flow's own delivery and the job (or two servers' jobs) racing: the shopper gets one confirmation", async () => {
    const { user, order } = await pendingOrder();
    const paidAt = new Date();
    const paid = await db().transaction().execute((trx) => markOrderPaid(trx, order.id, paidAt));
    await Promise.all([
      deliverReactions(db(), paid!.reactions),
      deliverDueReactions(db(), later(paidAt, REACTION_GRACE_MS + 1000)),
      deliverDueReactions(db(), later(paidAt, REACTION_GRACE_MS + 1000)),
    ]);
    expect(mail.received.filter((m) => m.to && "text" in m.to && m.to.text === user.email)).toHaveLength(1);
    expect(subjects().filter((s) => s?.startsWith("New order"))).toHaveLength(1);
  });
});

describe("the owner's change inside the admin's transaction", () => {
  it("the shipped e-mail waits for the admin's commit, and a change rolled back sends none", async () => {
    const user = await createUser(db());
    const order = await insertOrder(db(), { userId: user.id, status: "processing", paymentStatus: "completed", trackingNumber: "TRK-REACT-1" });
    // The admin's dispatcher: the change and its activity entry in one transaction, effects after it (admin-action).
    await expect(
      deferringEffects(() =>
        inTransaction(db(), async (trx) => {
          await setOrderStatus(trx, order.id, "shipped");
          // before the commit, nothing has gone
          expect(mail.received).toHaveLength(0);
          throw new Error("the activity entry could not be written");
        }),
      ),
    ).rejects.toThrow("the activity entry could not be written");
    expect(await reactionsOf(order.id)).toEqual([]);
    expect(mail.received).toHaveLength(0);
    expect((await db().selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("processing");

    await deferringEffects(() => inTransaction(db(), (trx) => setOrderStatus(trx, order.id, "shipped")));
    expect(subjects()).toEqual([expect.stringMatching(/your order [0-9a-f]{8} is on its way/)]);
    expect(mail.received[0]!.text).toContain("Tracking number: TRK-REACT-1");
    expect(await reactionsOf(order.id)).toEqual([expect.objectContaining({ kind: "order_shipped", due_at: null, attempts: 1 })]);
  });
});
