/**
 * /profile/rewards (issue 40): a visitor is sent to sign in; 404 while the programme is off (and no tab); a member
 * sees what they can spend and its worth, what is pending, owed and expiring within a month, and the history in
 * words with each change's order. Points are given through the real functions: the order flows and the ledger.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { placeOrder } from "~/modules/flows/order-placed.server";
import { changeBalances, credit, spend } from "~/modules/rewards/reward-ledger.server";
import { makeAvailable, reverseEarned } from "~/modules/rewards/reward-orders.server";
import { DEFAULT_REWARD_SETTINGS, type RewardSettings } from "~/modules/rewards/rewards.logic";
import { joinRewards, leaveRewards, saveRewardSettings } from "~/modules/rewards/rewards.server";
import { shortOrderId } from "~/utils/ids";
import { insertProduct } from "../../tests/factories/catalog";
import { TEST_ADDRESS } from "../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { callLoader, dataOf, statusOf } from "../../tests/setup/route";
import * as frame from "./profile";
import * as tab from "./profile.rewards";

const db = () => getDb();
const ON: RewardSettings = { ...DEFAULT_REWARD_SETTINGS, pointsOn: true, earnCentsPerPoint: 1000, pointValueCents: 10, minRedeemPoints: 100, pointsMonths: 12 };
const ADMIN = { actor: { kind: "admin" as const, id: null }, note: "test" };

async function shopper(join = true) {
  const user = await createUser(db());
  if (join) await joinRewards(db(), user, "I join Scentara Rewards.");
  return { user, headers: { cookie: await sessionCookieFor(db(), user.id) } };
}

/** A paid order of `priceCents` of goods (it earns, pending, through the payment flow). */
async function paidOrder(userId: string, priceCents: number) {
  const product = await insertProduct(db(), { price_cents: priceCents, stock: 100 });
  const order = await placeOrder(db(), { id: userId }, { lines: [{ productId: product.id, quantity: 1 }], shippingAddress: TEST_ADDRESS });
  await db().transaction().execute((trx) => markOrderPaid(trx, order.id));
  return order.id;
}

/** The order's points become available now, lasting `months`. */
async function matured(orderId: string, months: number) {
  const earning = await db().selectFrom("reward_earnings").select("id").where("order_id", "=", orderId).executeTakeFirstOrThrow();
  await db().transaction().execute((trx) => makeAvailable(trx, earning.id, { ...ON, pointsMonths: months }, new Date()));
}

describe("/profile/rewards while the programme is off", () => {
  beforeEach(() => saveRewardSettings(db(), DEFAULT_REWARD_SETTINGS));

  it("answers 404, and the profile frame shows no Rewards tab", async () => {
    const { headers } = await shopper();
    expect(statusOf(await callLoader(tab.loader, "/profile/rewards", { headers }))).toBe(404);
    expect(statusOf(await callLoader(tab.loader, "/profile/rewards"))).toBe(404);
    expect((await dataOf(await callLoader(frame.loader, "/profile/rewards", { headers }))).rewards).toBeUndefined();
  });
});

describe("/profile/rewards while the programme is on", () => {
  beforeEach(() => saveRewardSettings(db(), ON));

  it("sends a visitor to sign in and come back; the frame shows the tab", async () => {
    const result = await callLoader(tab.loader, "/profile/rewards");
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/auth/login?redirect=%2Fprofile%2Frewards");
    const { headers } = await shopper(false);
    expect((await dataOf(await callLoader(frame.loader, "/profile/rewards", { headers }))).rewards).toBe(true);
  });

  it("someone who never joined is sent to join", async () => {
    const { headers } = await shopper(false);
    expect(await dataOf(await callLoader(tab.loader, "/profile/rewards", { headers }))).toEqual({ member: false, account: null });
  });

  it("a member sees their balances in points and rand, what expires soon, and the history with its orders", async () => {
    const { user, headers } = await shopper();
    const first = await paidOrder(user.id, 50000); // 50 points, pending
    await matured(first, 1); // available, expiring within a month
    await changeBalances(db(), user.id, "adjusted", credit(120), ADMIN);
    const second = await paidOrder(user.id, 30000); // 30 points, pending

    const page = await dataOf(await callLoader(tab.loader, "/profile/rewards", { headers }));
    expect(page.member).toBe(true);
    expect(page.account).toMatchObject({
      available: { points: "170", worth: "R17.00" },
      pending: { points: "30", worth: "R3.00" },
      owed: null,
      expiring: { points: "50 points (R5.00)", first: expect.any(String) },
      minRedeem: "100 points (R10.00)",
    });
    const link = (id: string) => ({ href: `/order-confirmation?id=${id}`, shortId: shortOrderId(id) });
    expect(page.account.history.map((l: any) => [l.words, l.points, l.pending, l.order])).toEqual([
      ["Earned on an order: pending until its return window ends", "+30", true, link(second)],
      ["Adjusted by the shop", "+120", false, null],
      ["Became yours to spend", "+50", false, link(first)],
      ["Earned on an order: pending until its return window ends", "+50", true, link(first)],
    ]);
    expect(page.account.history[0].date).toMatch(/\d{4}/);
  });

  it("points taken back after they were spent are owed, and the next points pay them first", async () => {
    const { user, headers } = await shopper();
    const order = await paidOrder(user.id, 100000); // 100 points
    await matured(order, 12);
    await changeBalances(db(), user.id, "redeemed", spend(80), ADMIN); // 20 left
    await db().transaction().execute((trx) => reverseEarned(trx, order, Number.MAX_SAFE_INTEGER, ADMIN.actor, new Date()));

    const owing = await dataOf(await callLoader(tab.loader, "/profile/rewards", { headers }));
    expect(owing.account).toMatchObject({ available: { points: "0", worth: "R0.00" }, owed: "80 points (R8.00)", expiring: null });
    expect(owing.account.history[0]).toMatchObject({ words: "Taken back: what earned them was refunded", points: "−100", tone: "loss", notes: ["80 owed: already spent"] });

    await changeBalances(db(), user.id, "adjusted", credit(100), ADMIN);
    const paid = await dataOf(await callLoader(tab.loader, "/profile/rewards", { headers }));
    expect(paid.account).toMatchObject({ available: { points: "20", worth: "R2.00" }, owed: null });
    expect(paid.account.history[0]).toMatchObject({ points: "+100", tone: "gain", notes: ["80 paid what was owed"] });
  });

  it("a member who left keeps seeing the points they still have", async () => {
    const { user, headers } = await shopper();
    await changeBalances(db(), user.id, "adjusted", credit(120), ADMIN);
    await leaveRewards(db(), user);
    const page = await dataOf(await callLoader(tab.loader, "/profile/rewards", { headers }));
    expect(page.member).toBe(false);
    expect(page.account.available).toEqual({ points: "120", worth: "R12.00" });
  });
});
