import { afterAll, describe, expect, it } from "vitest";
import { getDb, isPostgres, openDatabase, type DB } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { insertCoupon, insertOrder } from "../../../tests/factories/orders";
import { insertAwaitingOrder, postWebhook, simulatedWebhook } from "../../../tests/factories/payments";
import { countEventLoopTurns } from "../../../tests/setup/event-loop-turns";
import { holdPolicy } from "~/modules/orders/order-expiry.logic";
import { expireUnpaidOrders, findExpiredUnpaidOrders } from "~/modules/flows/order-expired.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";

const db = () => getDb();
const now = new Date();
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();
const policy = holdPolicy(60, {});

async function insertCustomer(database: DB = db()) {
  const id = newId();
  await database
    .insertInto("users")
    .values({ id, email: `expiry-${id.slice(0, 10)}@example.test`, is_admin: false, email_verified: false, email_notifications: true, email_marketing: false })
    .execute();
  return id;
}

async function orderRow(id: string) {
  return db().selectFrom("orders").select(["status", "payment_status", "updated_at"]).where("id", "=", id).executeTakeFirstOrThrow();
}

async function couponState(couponId: string) {
  const { times_redeemed } = await db().selectFrom("coupons").select("times_redeemed").where("id", "=", couponId).executeTakeFirstOrThrow();
  const usage = await db().selectFrom("coupon_usage").select("order_id").where("coupon_id", "=", couponId).execute();
  return { timesRedeemed: Number(times_redeemed), usage: usage.map((u) => u.order_id).sort() };
}

/** Closes every order of this file's earlier tests, so each test's expiry run sees only its own orders. */
async function quietBacklog() {
  await db().updateTable("orders").set({ status: "cancelled", payment_status: "cancelled" }).where("status", "=", "pending").execute();
}

describe("unpaid orders expire", () => {
  it("an unpaid order older than the hold is cancelled and its coupon released; a younger one and a paid one are untouched", async () => {
    await quietBacklog();
    const userId = await insertCustomer();
    const coupon = await insertCoupon(db(), { max_redemptions: 3 });
    const old = await insertAwaitingOrder(db(), { userId, coupon, discountCents: 3500, createdAt: minutesAgo(61) });
    const young = await insertAwaitingOrder(db(), { userId, coupon, discountCents: 3500, createdAt: minutesAgo(59) });
    const paid = await insertAwaitingOrder(db(), { userId, coupon, discountCents: 3500, createdAt: minutesAgo(120) });
    await db().transaction().execute((trx) => markOrderPaid(trx, paid.id));
    const noCheckoutYet = await insertAwaitingOrder(db(), { userId, checkoutId: null, createdAt: minutesAgo(90) });
    expect(await couponState(coupon.id)).toEqual({ timesRedeemed: 3, usage: [old.id, young.id, paid.id].sort() });

    const run = await expireUnpaidOrders(db(), { policy, now });

    expect(run.expired.map((o) => o.id).sort()).toEqual([old.id, noCheckoutYet.id].sort());
    expect(run.expired.find((o) => o.id === old.id)).toMatchObject({ userId, paymentProvider: "simulated", couponReleased: true });
    expect(run.expired.find((o) => o.id === noCheckoutYet.id)).toMatchObject({ paymentProvider: null, couponReleased: false });
    expect(run.more).toBe(false);
    expect(await orderRow(old.id)).toMatchObject({ status: "cancelled", payment_status: "cancelled", updated_at: now.toISOString() });
    expect(await orderRow(noCheckoutYet.id)).toMatchObject({ status: "cancelled", payment_status: "cancelled" });
    expect(await orderRow(young.id)).toMatchObject({ status: "pending", payment_status: "pending" });
    expect(await orderRow(paid.id)).toMatchObject({ status: "processing", payment_status: "completed" });
    // times_redeemed went down by one and the expired order's usage row is gone; the other two still hold theirs
    expect(await couponState(coupon.id)).toEqual({ timesRedeemed: 2, usage: [young.id, paid.id].sort() });

    // a second run finds nothing more; an hour later the young one goes too
    expect((await expireUnpaidOrders(db(), { policy, now })).expired).toEqual([]);
    const later = await expireUnpaidOrders(db(), { policy, now: new Date(now.getTime() + 2 * 60_000) });
    expect(later.expired.map((o) => o.id)).toEqual([young.id]);
    expect(await couponState(coupon.id)).toEqual({ timesRedeemed: 1, usage: [paid.id] });
  });

  it("leaves orders that are no longer pending/pending alone, whatever their age", async () => {
    await quietBacklog();
    const userId = await insertCustomer();
    const shipped = await insertOrder(db(), { userId, status: "shipped", paymentStatus: "completed", createdAt: minutesAgo(5000) });
    const failed = await insertOrder(db(), { userId, status: "cancelled", paymentStatus: "failed", createdAt: minutesAgo(5000) });
    // an admin took the order out of pending while its payment is still open (manual handling)
    const processingUnpaid = await insertOrder(db(), { userId, status: "processing", paymentStatus: "pending", createdAt: minutesAgo(5000) });
    expect((await expireUnpaidOrders(db(), { policy, now })).expired).toEqual([]);
    expect(await orderRow(shipped.id)).toMatchObject({ status: "shipped" });
    expect(await orderRow(failed.id)).toMatchObject({ payment_status: "failed" });
    expect(await orderRow(processingUnpaid.id)).toMatchObject({ status: "processing", payment_status: "pending" });
  });

  it("a payment provider may have its own, longer hold (the seam for manual EFT)", async () => {
    await quietBacklog();
    const userId = await insertCustomer();
    const card = await insertAwaitingOrder(db(), { userId, createdAt: minutesAgo(120) });
    const eft = await insertAwaitingOrder(db(), { userId, createdAt: minutesAgo(120) });
    const oldEft = await insertAwaitingOrder(db(), { userId, createdAt: minutesAgo(4 * 24 * 60) });
    await db().updateTable("orders").set({ payment_provider: "eft" }).where("id", "in", [eft.id, oldEft.id]).execute();
    const withEft = holdPolicy(60, { eft: 3 * 24 * 60 });
    expect((await findExpiredUnpaidOrders(db(), withEft, now, 10)).map((o) => o.id)).toEqual([oldEft.id, card.id]);
    const run = await expireUnpaidOrders(db(), { policy: withEft, now });
    expect(run.expired.map((o) => o.id).sort()).toEqual([card.id, oldEft.id].sort());
    expect(await orderRow(eft.id)).toMatchObject({ status: "pending", payment_status: "pending" });
  });

  it("works in bounded batches: a backlog larger than a run is finished by the next runs", async () => {
    await quietBacklog();
    const userId = await insertCustomer();
    const ids = [];
    for (let i = 0; i < 7; i++) ids.push((await insertAwaitingOrder(db(), { userId, createdAt: minutesAgo(100 + i) })).id);
    const first = await expireUnpaidOrders(db(), { policy, now, batchSize: 2, maxBatches: 2 });
    expect(first.expired).toHaveLength(4);
    expect(first.more).toBe(true);
    // oldest first
    expect(first.expired.map((o) => o.id)).toEqual(ids.slice(3).reverse());
    const second = await expireUnpaidOrders(db(), { policy, now, batchSize: 2, maxBatches: 2 });
    expect(second.expired).toHaveLength(3);
    expect(second.more).toBe(false);
  });

  it("lets the process answer between two orders: a backlog doesn't hold a shopper's page for the whole run", async () => {
    await quietBacklog();
    const userId = await insertCustomer();
    for (let i = 0; i < 6; i++) await insertAwaitingOrder(db(), { userId, createdAt: minutesAgo(100 + i) });
    // the turns of the event loop while the run goes on: on SQLite a run that never yields gives none
    const turns = countEventLoopTurns();
    const run = await expireUnpaidOrders(db(), { policy, now });
    expect(turns.stop()).toBeGreaterThanOrEqual(5);
    expect(run.expired).toHaveLength(6);
  });
});

describe("several expiry runs at once (several app servers)", () => {
  const others: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(others.map((o) => o.close()));
  });

  /** On PostgreSQL a second server is a second pool (its own connections); SQLite is one file, one writer. */
  function secondServer(): DB {
    if (!isPostgres(db())) return db();
    const handle = openDatabase(env().DATABASE_URL);
    others.push(handle);
    return handle.db;
  }

  it("expire each order once and give each coupon redemption back once", async () => {
    await quietBacklog();
    const coupon = await insertCoupon(db(), { max_redemptions: 40 });
    const orders = [];
    for (let i = 0; i < 30; i++) {
      const userId = await insertCustomer();
      orders.push(await insertAwaitingOrder(db(), { userId, coupon, discountCents: 1000, createdAt: minutesAgo(61 + (i % 5)) }));
    }
    const keep = await insertAwaitingOrder(db(), { userId: await insertCustomer(), coupon, discountCents: 1000, createdAt: minutesAgo(10) });
    expect((await couponState(coupon.id)).timesRedeemed).toBe(31);

    const other = secondServer();
    const runs = await Promise.all([
      expireUnpaidOrders(db(), { policy, now, batchSize: 4 }),
      expireUnpaidOrders(other, { policy, now, batchSize: 4 }),
      expireUnpaidOrders(db(), { policy, now, batchSize: 7 }),
      expireUnpaidOrders(other, { policy, now, batchSize: 7 }),
    ]);

    const expiredIds = runs.flatMap((r) => r.expired.map((o) => o.id));
    // every old order expired by exactly one of the runs
    expect(expiredIds.sort()).toEqual(orders.map((o) => o.id).sort());
    expect(new Set(expiredIds).size).toBe(30);
    expect(runs.flatMap((r) => r.expired).every((o) => o.couponReleased)).toBe(true);
    // released exactly 30 times: never double-decremented
    expect(await couponState(coupon.id)).toEqual({ timesRedeemed: 1, usage: [keep.id] });
    const rows = await db().selectFrom("orders").select(["status", "payment_status"]).where("id", "in", orders.map((o) => o.id)).execute();
    expect(rows.every((r) => r.status === "cancelled" && r.payment_status === "cancelled")).toBe(true);
  });

  it("an expiry racing the payment webhook: exactly one wins, and the coupon stays consistent with the winner", async () => {
    await quietBacklog();
    const coupon = await insertCoupon(db(), { max_redemptions: 50 });
    const orders = [];
    for (let i = 0; i < 12; i++) {
      orders.push(await insertAwaitingOrder(db(), { userId: await insertCustomer(), coupon, discountCents: 1000, createdAt: minutesAgo(61) }));
    }
    const other = secondServer();
    const [run, ...outcomes] = await Promise.all([
      expireUnpaidOrders(other, { policy, now, batchSize: 3 }),
      ...orders.map(async (o) => (await (await postWebhook("simulated", simulatedWebhook(o.checkoutId, o.totalAmountCents))).json()).outcome as string),
    ]);
    const expired = new Set(run.expired.map((o) => o.id));
    for (const [i, order] of orders.entries()) {
      const row = await orderRow(order.id);
      if (expired.has(order.id)) {
        expect(row).toMatchObject({ status: "cancelled", payment_status: "cancelled" });
        // the money arrived for a closed order: recorded for a refund, the order stays closed
        expect(outcomes[i]).toBe("order_not_payable");
      } else {
        expect(row).toMatchObject({ status: "processing", payment_status: "completed" });
        expect(outcomes[i]).toBe("paid");
      }
    }
    const paidIds = orders.filter((o) => !expired.has(o.id)).map((o) => o.id);
    expect(await couponState(coupon.id)).toEqual({ timesRedeemed: paidIds.length, usage: paidIds.sort() });
  });
});
