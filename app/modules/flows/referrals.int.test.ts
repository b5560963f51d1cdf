import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { quoteCart } from "~/modules/cart/cart-quote.server";
import { approveReturn, getAdminReturn, receiveReturn } from "~/modules/returns/returns-admin.server";
import { requestReturn } from "~/modules/returns/returns.server";
import { balancesOf } from "~/modules/rewards/reward-ledger.server";
import { attributeReferral, referralCodeOf } from "~/modules/rewards/referrals.server";
import { DEFAULT_REWARD_SETTINGS, type RewardSettings } from "~/modules/rewards/rewards.logic";
import { joinRewards, saveRewardSettings } from "~/modules/rewards/rewards.server";
import { insertProduct } from "../../../tests/factories/catalog";
import { TEST_ADDRESS } from "../../../tests/factories/orders";
import { createUser, uniqueEmail } from "../../../tests/factories/users";
import { deleteAccount } from "./account-deleted.server";
import { deleteOrder, setOrderStatus } from "./order-changed-by-owner.server";
import { configuredHoldPolicy, expireUnpaidOrders } from "./order-expired.server";
import { markOrderPaid } from "./order-paid.server";
import { placeOrder } from "./order-placed.server";
import { refundReturn } from "./return-refunded.server";
import { matureRewards } from "./rewards-matured.server";
import { collectPersonalData } from "~/modules/privacy/export.server";

/**
 * "Give R50, get R50" through the order flows (issue 40 point 2, docs/decisions/063), on SQLite and PostgreSQL: a
 * friend attributed to a member gets R50 off their first paid order (reserved like a coupon, back when it closes
 * unpaid); the member's 500 points (R50 at 10 cents) wait on that order's return window; a refund inside it cancels
 * both. Every abuse check refuses with its reason. The clock is the test's.
 */
const db = () => getDb();
const DAY = 86_400_000;
const RULES: RewardSettings = { ...DEFAULT_REWARD_SETTINGS, pointsOn: true, referralsOn: true, friendRewardCents: 5000, referrerRewardCents: 5000, referralMinOrderCents: 30_000, referralsPerWeek: 5, friendsPerAddressPerWeek: 3 };
let ipCount = 0;
/** each friend from an address of their own, unless a test says otherwise */
const nextIp = () => `196.25.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeEach(async () => {
  await saveRewardSettings(db(), RULES);
});

async function referrer() {
  const user = await createUser(db());
  await joinRewards(db(), user, "I join Scentara Rewards.");
  const code = (await referralCodeOf(db(), user.id))!;
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  return { ...user, code };
}

async function friendOf(code: string, options: { email?: string; ip?: string } = {}) {
  const friend = await createUser(db(), options.email ? { email: options.email } : {});
  const outcome = await attributeReferral(db(), { friend, code, ip: options.ip ?? nextIp(), now: new Date() }, RULES);
  return { friend, outcome };
}

const bottle = (cents: number) => insertProduct(db(), { price_cents: cents, stock: 1000 });
const FRIEND_ADDRESS = { ...TEST_ADDRESS, name: "Lerato Dube", telephone: "0831112222", street: "8 Bree Street", postalCode: "8001", city: "Cape Town", province: "Western Cape" };

async function buy(user: { id: string }, productId: string, options: { address?: typeof TEST_ADDRESS; now?: Date } = {}) {
  return placeOrder(db(), user, { lines: [{ productId, quantity: 1 }], shippingAddress: options.address ?? FRIEND_ADDRESS }, options.now);
}
const pay = (orderId: string, now = new Date()) => db().transaction().execute((trx) => markOrderPaid(trx, orderId, now));
const referralOf = (friendId: string) => db().selectFrom("referrals").selectAll().where("friend_user_id", "=", friendId).executeTakeFirst();
const pointsOf = async (userId: string) => {
  const b = await balancesOf(db(), userId);
  return b ? { available: b.available, pending: b.pending, owed: b.owed } : null;
};

/** A member, a friend who came by their link, and the friend's first order (R400), placed and paid `daysAgo` days ago. */
async function paidFirstOrder(daysAgo: number) {
  const member = await referrer();
  const { friend } = await friendOf(member.code);
  const p = await bottle(40_000);
  const at = new Date(Date.now() - daysAgo * DAY);
  const order = await buy(friend, p.id, { now: at });
  await pay(order.id, at);
  return { member, friend, order, at };
}

describe("the friend's reward", () => {
  it("shows in the cart from R300 of goods, comes off the first order, and waits again when that order closes unpaid", async () => {
    const member = await referrer();
    const { friend, outcome } = await friendOf(member.code);
    expect(outcome).toEqual({ status: "attributed" });
    const small = await bottle(25_000);
    const quoteSmall = await quoteCart(db(), { lines: [{ productId: small.id, quantity: 1 }], userId: friend.id });
    expect(quoteSmall.totals.referralCents).toBe(0);
    expect(quoteSmall.friendReward).toEqual({ refusal: expect.stringMatching(/applies to a first order of R300\.00 or more/) });

    const p = await bottle(40_000);
    const placedAt = new Date(Date.now() - 3 * 60 * 60_000);
    const order = await buy(friend, p.id, { now: placedAt });
    const row = await db().selectFrom("orders").select(["referral_cents", "discount_amount_cents", "reward_base_cents"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ referral_cents: 5000, discount_amount_cents: 5000, reward_base_cents: 35_000 });
    expect(await referralOf(friend.id)).toMatchObject({ status: "reserved", friend_order_id: order.id });
    // a second order meanwhile doesn't get it too
    const other = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }], userId: friend.id });
    expect(other.totals.referralCents).toBe(0);

    await expireUnpaidOrders(db(), { policy: configuredHoldPolicy(60, 3) });
    expect(await referralOf(friend.id)).toMatchObject({ status: "attributed", friend_order_id: null });
    const again = await buy(friend, p.id);
    await pay(again.id);
    expect(await referralOf(friend.id)).toMatchObject({ status: "paid", friend_order_id: again.id, friend_reward_cents: 5000, referrer_reward_points: 500 });
    // the referrer's R50 as 500 points, pending on the friend's order
    expect(await pointsOf(member.id)).toEqual({ available: 0, pending: 500, owed: 0 });
    // a first order only
    const third = await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }], userId: friend.id });
    expect(third.friendReward).toBeNull();
  });

  it("five tabs placing at once: exactly one order has the reward; each other one is refused, or priced without it", async () => {
    const member = await referrer();
    const { friend } = await friendOf(member.code);
    const p = await bottle(40_000);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => buy(friend, p.id)));
    for (const r of results) if (r.status === "rejected") expect(String(r.reason)).toMatch(/friend's reward was just used by another of your orders/);
    const orders = await db().selectFrom("orders").select(["referral_cents", "discount_amount_cents"]).where("user_id", "=", friend.id).execute();
    expect(orders).toHaveLength(results.filter((r) => r.status === "fulfilled").length);
    expect(orders.filter((o) => Number(o.referral_cents) === 5000)).toHaveLength(1);
    expect(orders.filter((o) => Number(o.referral_cents) === 0).map((o) => Number(o.discount_amount_cents))).toEqual(Array(orders.length - 1).fill(0));
    expect(await referralOf(friend.id)).toMatchObject({ status: "reserved" });
  });

  it("the referrer's points become available after the friend's order's return window, and the referral is rewarded", async () => {
    const { member, friend, order, at } = await paidFirstOrder(20);
    await setOrderStatus(db(), order.id, "delivered", at);
    await matureRewards(db(), { windowDays: 7, now: new Date(at.getTime() + 3 * DAY) });
    expect(await pointsOf(member.id)).toEqual({ available: 0, pending: 500, owed: 0 });
    await matureRewards(db(), { windowDays: 7 });
    expect(await pointsOf(member.id)).toEqual({ available: 500, pending: 0, owed: 0 });
    expect(await referralOf(friend.id)).toMatchObject({ status: "rewarded" });
  });

  it("a refund of the friend's order inside its return window cancels both; the referrer's points are taken back", async () => {
    const { member, friend, order, at } = await paidFirstOrder(2);
    await setOrderStatus(db(), order.id, "delivered", at);
    const lineId = (await db().selectFrom("order_lines").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow()).id;
    const { id } = await requestReturn(db(), { id: friend.id, isAdmin: false }, { orderId: order.id, reason: "changed_mind", note: "", opened: false, lines: [{ lineId, quantity: 1 }] }, at);
    await approveReturn(db(), id, "");
    await receiveReturn(db(), id, {});
    const detail = await getAdminReturn(db(), id);
    await refundReturn(db(), id, { amountCents: detail!.refund.goodsCents - detail!.refund.discountCents, method: "eft", reference: "" });
    expect(await referralOf(friend.id)).toMatchObject({ status: "cancelled", reason: "refunded" });
    expect(await pointsOf(member.id)).toEqual({ available: 0, pending: 0, owed: 0 });
  });
});

describe("the owner deletes the friend's order", () => {
  it("unpaid: the reward waits for their next order; paid: the referral is cancelled and the referrer's pending points go", async () => {
    const member = await referrer();
    const { friend } = await friendOf(member.code);
    const p = await bottle(40_000);
    const unpaid = await buy(friend, p.id);
    await deleteOrder(db(), unpaid.id);
    expect(await referralOf(friend.id)).toMatchObject({ status: "attributed", friend_order_id: null });
    const paid = await buy(friend, p.id);
    await pay(paid.id);
    expect(await pointsOf(member.id)).toEqual({ available: 0, pending: 500, owed: 0 });
    await deleteOrder(db(), paid.id);
    expect(await referralOf(friend.id)).toMatchObject({ status: "cancelled", reason: "cancelled" });
    expect(await pointsOf(member.id)).toEqual({ available: 0, pending: 0, owed: 0 });
  });
});

describe("the owner cancels the friend's paid order, then reopens it", () => {
  it("the referral is paid again and the referrer's points are pending on it again, then available after its window", async () => {
    const { member, friend, order, at } = await paidFirstOrder(20);
    expect(await pointsOf(member.id)).toEqual({ available: 0, pending: 500, owed: 0 });
    await setOrderStatus(db(), order.id, "cancelled", new Date(at.getTime() + DAY));
    expect(await referralOf(friend.id)).toMatchObject({ status: "cancelled", reason: "cancelled" });
    expect(await pointsOf(member.id)).toEqual({ available: 0, pending: 0, owed: 0 });

    await setOrderStatus(db(), order.id, "processing", new Date(at.getTime() + DAY));
    expect(await referralOf(friend.id)).toMatchObject({ status: "paid", reason: null, friend_order_id: order.id, referrer_reward_points: 500 });
    expect(await pointsOf(member.id)).toEqual({ available: 0, pending: 500, owed: 0 });
    // as if it had never been cancelled: once its return window is over, the points are available
    await setOrderStatus(db(), order.id, "delivered", new Date(at.getTime() + 2 * DAY));
    await matureRewards(db(), { windowDays: 7 });
    expect(await pointsOf(member.id)).toEqual({ available: 500, pending: 0, owed: 0 });
    expect(await referralOf(friend.id)).toMatchObject({ status: "rewarded" });
  });
});

describe("the abuse checks, each refused with its reason", () => {
  it("referring yourself: the same account, or your address with dots and a +tag", async () => {
    const member = await referrer();
    expect(await attributeReferral(db(), { friend: member, code: member.code, ip: nextIp(), now: new Date() }, RULES)).toMatchObject({ status: "refused", reason: "same_person" });

    const gmail = await createUser(db(), { email: `thandi.nkosi.${Date.now()}@gmail.com` });
    await joinRewards(db(), gmail, "I join.");
    const code = (await referralCodeOf(db(), gmail.id))!;
    const [local] = gmail.email.split("@");
    const { outcome } = await friendOf(code, { email: `${local!.replaceAll(".", "")}+second@googlemail.com` });
    expect(outcome).toMatchObject({ status: "refused", reason: "same_person", words: "A shopper can't refer themselves (the same account or e-mail address)." });
  });

  it("a friend who has ordered before", async () => {
    const member = await referrer();
    const shopper = await createUser(db());
    const p = await bottle(40_000);
    await pay((await buy(shopper, p.id)).id);
    expect(await attributeReferral(db(), { friend: shopper, code: member.code, ip: nextIp(), now: new Date() }, RULES)).toMatchObject({ status: "refused", reason: "ordered_before" });
    expect((await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }], userId: shopper.id })).friendReward).toBeNull();
  });

  it("more than three new friends a week from one internet address", async () => {
    const member = await referrer();
    const ip = "105.233.4.17";
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push((await friendOf(member.code, { ip })).outcome?.status);
    expect(outcomes).toEqual(["attributed", "attributed", "attributed", "refused"]);
  });

  it("an order to the referrer's telephone or address: refused, nothing placed, and the next quote leaves the reward out", async () => {
    const member = await referrer();
    const p = await bottle(40_000);
    await buy(member, p.id, { address: TEST_ADDRESS }); // the member's own order: their address on record
    const { friend } = await friendOf(member.code);
    await expect(buy(friend, p.id, { address: { ...FRIEND_ADDRESS, street: TEST_ADDRESS.street, postalCode: TEST_ADDRESS.postalCode } })).rejects.toThrow(/Your friend's reward can't be used: the order goes to the referrer's delivery address/);
    expect(await db().selectFrom("orders").select("id").where("user_id", "=", friend.id).execute()).toEqual([]);
    expect(await referralOf(friend.id)).toMatchObject({ status: "refused", reason: "same_address" });
    expect((await quoteCart(db(), { lines: [{ productId: p.id, quantity: 1 }], userId: friend.id })).totals.referralCents).toBe(0);
  });

  it("more rewards a week than the owner allows: the friend keeps theirs, the referrer earns none for it", async () => {
    await saveRewardSettings(db(), { ...RULES, referralsPerWeek: 1 });
    const member = await referrer();
    const p = await bottle(40_000);
    const first = await friendOf(member.code);
    const second = await friendOf(member.code);
    await pay((await buy(first.friend, p.id)).id);
    const theirs = await buy(second.friend, p.id);
    await pay(theirs.id);
    expect(Number((await db().selectFrom("orders").select("referral_cents").where("id", "=", theirs.id).executeTakeFirstOrThrow()).referral_cents)).toBe(5000);
    expect(await referralOf(second.friend.id)).toMatchObject({ status: "refused", reason: "weekly_limit", referrer_reward_points: 0 });
    expect(await pointsOf(member.id)).toEqual({ available: 0, pending: 500, owed: 0 });
  });
});

describe("the people's data", () => {
  it("Download my data: the friend sees they came by a link, the member how many friends came, neither the other's name; addresses forgotten after a week", async () => {
    const member = await referrer();
    const { friend } = await friendOf(member.code, { ip: "41.13.200.7" });
    const theirs = await collectPersonalData(db(), friend.id);
    expect(theirs.rewards).toMatchObject({ member: false, referredBy: { status: "attributed", reason: null } });
    expect(JSON.stringify(theirs)).not.toContain(member.email);
    const mine = await collectPersonalData(db(), member.id);
    expect(mine.rewards).toMatchObject({ member: true, friends: { waiting: 1, pending: 0, rewarded: 0, refused: 0 } });
    expect(JSON.stringify(mine)).not.toContain(friend.email);

    const ipKeyOf = async () => (await db().selectFrom("referrals").select("ip_key").where("friend_user_id", "=", friend.id).executeTakeFirstOrThrow()).ip_key;
    expect(await ipKeyOf()).toMatch(/^[\w-]{32}$/);
    expect(await ipKeyOf()).not.toContain("41.13");
    await matureRewards(db(), { windowDays: 7, now: new Date(Date.now() + 6 * DAY) });
    expect(await ipKeyOf()).not.toBeNull();
    await matureRewards(db(), { windowDays: 7, now: new Date(Date.now() + 8 * DAY) });
    expect(await ipKeyOf()).toBeNull();
  });
});

describe("accounts deleted", () => {
  it("a deleted referrer: the friend's reward still stands; a deleted friend: the referrer's points still come", async () => {
    const gone = await referrer();
    const { friend } = await friendOf(gone.code);
    await deleteAccount(db(), gone.id, { kind: "self" });
    const p = await bottle(40_000);
    const order = await buy(friend, p.id);
    expect(Number((await db().selectFrom("orders").select("referral_cents").where("id", "=", order.id).executeTakeFirstOrThrow()).referral_cents)).toBe(5000);
    await pay(order.id);
    expect(await referralOf(friend.id)).toMatchObject({ status: "refused", reason: "referrer_left", referrer_user_id: null });

    const member = await referrer();
    const other = await friendOf(member.code, { email: uniqueEmail("leaving") });
    const at = new Date(Date.now() - 20 * DAY);
    const theirs = await buy(other.friend, p.id, { now: at });
    await pay(theirs.id, at);
    await setOrderStatus(db(), theirs.id, "delivered", at);
    await deleteAccount(db(), other.friend.id, { kind: "self" });
    await matureRewards(db(), { windowDays: 7 });
    expect(await pointsOf(member.id)).toEqual({ available: 500, pending: 0, owed: 0 });
    const row = await db().selectFrom("referrals").select(["status", "friend_user_id"]).where("referrer_user_id", "=", member.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "rewarded", friend_user_id: null });
  });
});
