import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { refundReturn } from "~/modules/flows/return-refunded.server";
import { approveReturn, getAdminReturn, receiveReturn } from "~/modules/returns/returns-admin.server";
import { requestReturn } from "~/modules/returns/returns.server";
import { DEFAULT_REWARD_SETTINGS, type RewardSettings } from "~/modules/rewards/rewards.logic";
import { joinRewards, leaveRewards, rewardHistory, saveRewardSettings } from "~/modules/rewards/rewards.server";
import { balancesOf } from "~/modules/rewards/reward-ledger.server";
import { insertProduct } from "../../../tests/factories/catalog";
import { TEST_ADDRESS } from "../../../tests/factories/orders";
import { createUser } from "../../../tests/factories/users";
import { expireUnpaidOrders, configuredHoldPolicy } from "./order-expired.server";
import { setOrderStatus } from "./order-changed-by-owner.server";
import { markOrderPaid } from "./order-paid.server";
import { placeOrder } from "./order-placed.server";
import { matureRewards } from "./rewards-matured.server";
import { collectPersonalData } from "~/modules/privacy/export.server";
import { startMailServer } from "../../../tests/factories/mail-server";
import { deleteAccount } from "./account-deleted.server";
import { renderSummaryHtml } from "~/modules/privacy/export.logic";
import { getInvoiceForViewer } from "~/modules/invoices/invoice.server";
import { resetEnvForTests } from "~/utils/env.server";
import { formatRand } from "~/utils/money";
import { vatInInclusiveTotal } from "~/modules/invoices/invoice.logic";

/**
 * Reward points through the order flows (issue 40 point 1, docs/decisions/062), on SQLite and PostgreSQL: earned on
 * a paid order, pending until its return window ends (the clock is the test's), spent at checkout like a coupon,
 * released when the order closes unpaid, exact under twenty checkouts at once, taken back and given back by refunds,
 * and expired after the owner's months.
 */
const db = () => getDb();
const DAY = 86_400_000;
const WINDOW = 7;
const RULES: RewardSettings = { ...DEFAULT_REWARD_SETTINGS, pointsOn: true, earnCentsPerPoint: 1000, pointValueCents: 10, minRedeemPoints: 100, pointsMonths: 12 };

beforeEach(async () => {
  await saveRewardSettings(db(), RULES);
});

async function member(options: { emailMarketing?: boolean } = {}) {
  const user = await createUser(db(), options);
  await joinRewards(db(), user, "I join Scentara Rewards.");
  return user;
}

/** The order's first line (a return names its lines). */
const firstLineOf = async (orderId: string) => (await db().selectFrom("order_lines").select("id").where("order_id", "=", orderId).orderBy("position").executeTakeFirstOrThrow()).id;

/** A bottle at `priceCents`, stocked. */
const bottle = (priceCents: number) => insertProduct(db(), { price_cents: priceCents, stock: 1000 });

async function buy(user: { id: string }, productId: string, options: { quantity?: number; rewardPoints?: number; now?: Date } = {}) {
  return placeOrder(db(), user, { lines: [{ productId, quantity: options.quantity ?? 1 }], shippingAddress: TEST_ADDRESS, rewardPoints: options.rewardPoints }, options.now);
}

async function pay(orderId: string, now = new Date()) {
  await db().transaction().execute((trx) => markOrderPaid(trx, orderId, now));
}

/** Paid and delivered at `at`. */
async function delivered(user: { id: string }, productId: string, at: Date, quantity = 1) {
  const order = await buy(user, productId, { quantity, now: at });
  await pay(order.id, at);
  await setOrderStatus(db(), order.id, "delivered", at);
  return order;
}

/** The member's points as their ledger adds up, beside the balances kept: the two always agree. */
async function points(userId: string) {
  const b = (await balancesOf(db(), userId))!;
  const sums = await db()
    .selectFrom("reward_ledger")
    .select((eb) => [eb.fn.sum<number>("available_delta").as("a"), eb.fn.sum<number>("pending_delta").as("p"), eb.fn.sum<number>("owed_delta").as("o")])
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  expect({ available: Number(sums.a ?? 0), pending: Number(sums.p ?? 0), owed: Number(sums.o ?? 0) }).toEqual({ available: b.available, pending: b.pending, owed: b.owed });
  return { available: b.available, pending: b.pending, owed: b.owed };
}

describe("earning", () => {
  it("a member earns a point per R10 paid for goods (not delivery), pending until the return window ends, then available", async () => {
    const user = await member();
    const p = await bottle(45_050); // R450.50 → 45 points
    const at = new Date(Date.UTC(2026, 10, 2, 9));
    const order = await delivered(user, p.id, at);
    expect(Number((await db().selectFrom("orders").select("reward_base_cents").where("id", "=", order.id).executeTakeFirstOrThrow()).reward_base_cents)).toBe(45_050);
    expect(await points(user.id)).toEqual({ available: 0, pending: 45, owed: 0 });

    // the window: 7 days after delivery, to the end of that South African day
    await matureRewards(db(), { windowDays: WINDOW, now: new Date(at.getTime() + WINDOW * DAY) });
    expect(await points(user.id)).toEqual({ available: 0, pending: 45, owed: 0 });
    await matureRewards(db(), { windowDays: WINDOW, now: new Date(at.getTime() + (WINDOW + 1) * DAY) });
    expect(await points(user.id)).toEqual({ available: 45, pending: 0, owed: 0 });
    // once
    await matureRewards(db(), { windowDays: WINDOW, now: new Date(at.getTime() + (WINDOW + 2) * DAY) });
    expect(await points(user.id)).toEqual({ available: 45, pending: 0, owed: 0 });
    expect((await rewardHistory(db(), user.id)).map((e) => e.kind)).toEqual(["available", "earned"]);
  });

  it("a shopper who hasn't joined earns nothing; nor does anyone with the programme off; a second confirmation earns nothing more", async () => {
    const stranger = await createUser(db());
    const p = await bottle(50_000);
    const theirs = await buy(stranger, p.id);
    await pay(theirs.id);
    expect(await balancesOf(db(), stranger.id)).toBeNull();

    const user = await member();
    await saveRewardSettings(db(), { ...RULES, pointsOn: false });
    const off = await buy(user, p.id);
    await pay(off.id);
    expect(await points(user.id)).toEqual({ available: 0, pending: 0, owed: 0 });

    await saveRewardSettings(db(), RULES);
    const on = await buy(user, p.id);
    await pay(on.id);
    await pay(on.id);
    expect(await points(user.id)).toEqual({ available: 0, pending: 50, owed: 0 });
  });

  it("an open return holds the points pending past the window; an order never delivered keeps them pending", async () => {
    const user = await member();
    const p = await bottle(30_000);
    const at = new Date(Date.now() - 3 * DAY);
    const order = await delivered(user, p.id, at);
    await requestReturn(db(), { id: user.id, isAdmin: false }, { orderId: order.id, reason: "changed_mind", note: "", opened: false, lines: [{ lineId: await firstLineOf(order.id), quantity: 1 }] }, at);
    const paidOnly = await buy(user, p.id);
    await pay(paidOnly.id);
    await matureRewards(db(), { windowDays: WINDOW, now: new Date(at.getTime() + 30 * DAY) });
    expect(await points(user.id)).toEqual({ available: 0, pending: 60, owed: 0 });
  });
});

/** A member with `n` points available (earned on an order delivered long ago, its window over). */
async function memberWith(n: number, options: { emailMarketing?: boolean } = {}) {
  const user = await member(options);
  const p = await bottle(n * 1000);
  await delivered(user, p.id, new Date(Date.now() - 30 * DAY));
  await matureRewards(db(), { windowDays: WINDOW });
  expect(await points(user.id)).toEqual({ available: n, pending: 0, owed: 0 });
  return user;
}

describe("spending at checkout", () => {
  it("the points chosen are a discount on the goods, reserved when placed, kept when paid; the order earns on what was paid", async () => {
    const user = await memberWith(500);
    const p = await bottle(40_000);
    const order = await buy(user, p.id, { rewardPoints: 300 });
    const row = await db().selectFrom("orders").select(["discount_amount_cents", "points_used", "points_cents", "reward_base_cents", "total_amount_cents", "shipping_cents"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ points_used: 300, points_cents: 3000, discount_amount_cents: 3000, reward_base_cents: 37_000 });
    expect(Number(row.total_amount_cents)).toBe(40_000 - 3000 + Number(row.shipping_cents));
    expect(await points(user.id)).toEqual({ available: 200, pending: 0, owed: 0 });
    await pay(order.id);
    expect(await points(user.id)).toEqual({ available: 200, pending: 37, owed: 0 });

    // The tax invoice: a discount row of their own; the VAT on what was paid (a discount, not a payment: decision 062)
    const vatShop = { SHOP_VAT_NUMBER: "4123456789", SHOP_ADDRESS: "373 Albert Road, Woodstock, Cape Town 7925", SHOP_LEGAL_NAME: "Scentara Fragrances (Pty) Ltd" };
    Object.assign(process.env, vatShop);
    resetEnvForTests();
    try {
      const lookup = await getInvoiceForViewer(db(), order.id, { id: user.id, isAdmin: false });
      if (lookup.state !== "found") throw new Error(`no invoice: ${lookup.state}`);
      const total = Number(row.total_amount_cents);
      expect(lookup.invoice.totals.find((t) => t.label.startsWith("Reward points"))).toEqual({ label: "Reward points (300 points)", amount: formatRand(-3000) });
      expect(lookup.invoice.totals.some((t) => t.label.startsWith("Discount"))).toBe(false);
      expect(lookup.invoice.amounts).toEqual({ totalCents: total, vatCents: vatInInclusiveTotal(total) });
    } finally {
      for (const k of Object.keys(vatShop)) delete process.env[k];
      resetEnvForTests();
    }
  });

  it("a member who left still spends what they have (and earns nothing on it)", async () => {
    const user = await memberWith(300);
    await leaveRewards(db(), user);
    const p = await bottle(40_000);
    const order = await buy(user, p.id, { rewardPoints: 200 });
    await pay(order.id);
    expect(await points(user.id)).toEqual({ available: 100, pending: 0, owed: 0 });
  });

  it("fewer than the minimum, more than they have or more than the goods: refused with why, nothing placed", async () => {
    const user = await memberWith(500);
    const p = await bottle(2000); // R20 of goods: at most 200 points' worth (less what keeps R2 to pay)
    await expect(buy(user, p.id, { rewardPoints: 50 })).rejects.toThrow("Spend at least 100 points, or none.");
    await expect(buy(user, p.id, { rewardPoints: 600 })).rejects.toThrow(/You can spend at most 200 points on this order/);
    expect(await db().selectFrom("orders").select("id").where("user_id", "=", user.id).where("status", "=", "pending").execute()).toEqual([]);
    expect(await points(user.id)).toEqual({ available: 500, pending: 0, owed: 0 });
  });

  it("an order that expires unpaid gives its points back", async () => {
    const user = await memberWith(400);
    const p = await bottle(50_000);
    const placedAt = new Date(Date.now() - 3 * 60 * 60_000);
    const order = await buy(user, p.id, { rewardPoints: 400, now: placedAt });
    expect(await points(user.id)).toEqual({ available: 0, pending: 0, owed: 0 });
    const run = await expireUnpaidOrders(db(), { policy: configuredHoldPolicy(60, 3) });
    expect(run.expired.map((o) => o.id)).toContain(order.id);
    expect(await points(user.id)).toEqual({ available: 400, pending: 0, owed: 0 });
    expect((await rewardHistory(db(), user.id))[0]).toMatchObject({ kind: "released", availableDelta: 400, orderId: order.id });
  });

  it("twenty checkouts at once on a balance of 1 000 points, 300 each: three are placed, the others refused, the balance exact", async () => {
    const user = await memberWith(1000);
    const p = await bottle(50_000);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => buy(user, p.id, { rewardPoints: 300 })));
    const placed = results.filter((r) => r.status === "fulfilled");
    expect(placed).toHaveLength(3);
    for (const r of results) if (r.status === "rejected") expect(String(r.reason)).toMatch(/points changed while you were checking out|You can spend at most|from 100 points/);
    expect(await points(user.id)).toEqual({ available: 100, pending: 0, owed: 0 });
    const held = await db().selectFrom("reward_redemptions").select((eb) => eb.fn.sum<number>("points").as("n")).where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(Number(held.n)).toBe(900);
  });
});

/** A delivered order of `quantity` bottles paid partly with `spend` points, and its return of `back` of them refunded. */
async function refundOf(user: { id: string }, orderId: string, back: number, at: Date) {
  const lineId = await firstLineOf(orderId);
  const { id } = await requestReturn(db(), { id: user.id, isAdmin: false }, { orderId, reason: "changed_mind", note: "", opened: false, lines: [{ lineId, quantity: back }] }, at);
  await approveReturn(db(), id, "");
  await receiveReturn(db(), id, {});
  const detail = await getAdminReturn(db(), id);
  await refundReturn(db(), id, { amountCents: detail!.refund.goodsCents - detail!.refund.discountCents, method: "eft", reference: "" });
}

describe("refunds", () => {
  it("a partial return takes back what its goods earned and gives back what they spent; the rest of the order in a second return, exactly all", async () => {
    const user = await memberWith(600);
    const p = await bottle(20_000);
    const at = new Date(Date.now() - 2 * DAY);
    // 4 × R200 = R800, 600 points (R60) off: R740 paid for goods → 74 points pending
    const order = await buy(user, p.id, { quantity: 4, rewardPoints: 600, now: at });
    await pay(order.id, at);
    await setOrderStatus(db(), order.id, "delivered", at);
    expect(await points(user.id)).toEqual({ available: 0, pending: 74, owed: 0 });

    await refundOf(user, order.id, 1, at);
    // a quarter: 74 / 4 = 18.5 → 19 taken back (rounded on the running sum), 600 / 4 = 150 given back
    expect(await points(user.id)).toEqual({ available: 150, pending: 55, owed: 0 });
    await refundOf(user, order.id, 3, at);
    expect(await points(user.id)).toEqual({ available: 600, pending: 0, owed: 0 });
    expect((await db().selectFrom("reward_earnings").select(["status", "reversed_points"]).where("order_id", "=", order.id).executeTakeFirstOrThrow())).toEqual({ status: "cancelled", reversed_points: 74 });
  });

  it("points already spent when their order is refunded are owed, and taken from the next points earned; the balance never goes below zero", async () => {
    const user = await member();
    const p = await bottle(50_000);
    const at = new Date(Date.now() - 30 * DAY);
    const first = await delivered(user, p.id, at);
    await matureRewards(db(), { windowDays: WINDOW });
    expect(await points(user.id)).toEqual({ available: 50, pending: 0, owed: 0 });
    // a shop whose minimum lets 40 points be spent
    await saveRewardSettings(db(), { ...RULES, minRedeemPoints: 10 });
    const spent = await buy(user, p.id, { rewardPoints: 40 });
    await pay(spent.id);
    expect((await points(user.id)).available).toBe(10);
    // the first order refunded in full (a faulty bottle, after the window): its 50 points go, 40 of them already spent
    await refundOf(user, first.id, 1, at);
    expect(await points(user.id)).toEqual({ available: 0, pending: 49, owed: 40 });
    // the next points pay what is owed first
    const later = await delivered(user, p.id, new Date(Date.now() - 20 * DAY));
    void later;
    await matureRewards(db(), { windowDays: WINDOW });
    // the spent order, never marked delivered, keeps its 49 pending
    expect(await points(user.id)).toEqual({ available: 50 - 40, pending: 49, owed: 0 });
  });
});

describe("the owner's changes", () => {
  it("cancelling a paid order takes back what it earned and gives back what it spent; reopening spends them again, or is refused when they are gone", async () => {
    const user = await memberWith(300);
    const p = await bottle(30_000);
    const order = await buy(user, p.id, { rewardPoints: 200 });
    await pay(order.id);
    expect(await points(user.id)).toEqual({ available: 100, pending: 28, owed: 0 });
    await setOrderStatus(db(), order.id, "cancelled");
    expect(await points(user.id)).toEqual({ available: 300, pending: 0, owed: 0 });
    await setOrderStatus(db(), order.id, "processing");
    expect(await points(user.id)).toEqual({ available: 100, pending: 28, owed: 0 });

    await setOrderStatus(db(), order.id, "cancelled");
    const other = await buy(user, p.id, { rewardPoints: 250 });
    void other;
    await expect(setOrderStatus(db(), order.id, "processing")).rejects.toThrow(/no longer has the reward points this order spent/);
    expect((await db().selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("cancelled");
    expect(await points(user.id)).toEqual({ available: 50, pending: 0, owed: 0 });
  });
});

describe("expiry", () => {
  it("available points last the owner's months, then what is left of them expires", async () => {
    const user = await memberWith(250);
    const lot = await db().selectFrom("reward_earnings").select("expires_at").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    const expiresAt = Date.parse(lot.expires_at!);
    expect(expiresAt - Date.now()).toBeGreaterThan(360 * DAY);
    await matureRewards(db(), { windowDays: WINDOW, now: new Date(expiresAt - 1000) });
    expect(await points(user.id)).toEqual({ available: 250, pending: 0, owed: 0 });
    expect((await matureRewards(db(), { windowDays: WINDOW, now: new Date(expiresAt + 1000) })).expired).toBeGreaterThanOrEqual(250);
    expect(await points(user.id)).toEqual({ available: 0, pending: 0, owed: 0 });
    expect((await rewardHistory(db(), user.id))[0]).toMatchObject({ kind: "expired", availableDelta: -250 });
  });
});

describe("the e-mail a month before points expire", () => {
  it("goes once, through the mail server, only to members who agreed to marketing, with the points and the day", async () => {
    const mail = await startMailServer();
    process.env.SMTP_URL = mail.url;
    resetEnvForTests();
    try {
      const keen = await memberWith(180, { emailMarketing: true });
      const quiet = await memberWith(90);
      const lotOf = async (userId: string) => Date.parse((await db().selectFrom("reward_earnings").select("expires_at").where("user_id", "=", userId).executeTakeFirstOrThrow()).expires_at!);
      const expiresAt = await lotOf(keen.id);
      // two months ahead: nothing yet
      await matureRewards(db(), { windowDays: WINDOW, now: new Date(expiresAt - 60 * DAY) });
      expect(mail.received.filter((m) => m.subject?.includes("reward points expire"))).toHaveLength(0);
      await matureRewards(db(), { windowDays: WINDOW, now: new Date(expiresAt - 20 * DAY) });
      await matureRewards(db(), { windowDays: WINDOW, now: new Date(expiresAt - 10 * DAY) });
      const told = mail.received.filter((m) => m.subject?.includes("reward points expire"));
      expect(told.map((m) => (m.to && "text" in m.to ? m.to.text : ""))).toEqual([keen.email]);
      expect(told[0]!.subject).toMatch(/^Scentara: 180 reward points expire on \d{1,2} [A-Z][a-z]+ \d{4}$/);
      expect(told[0]!.text).toContain("180 points (R18.00) of yours expire on");
      expect(told[0]!.headerLines.find((h) => h.key === "list-unsubscribe")?.line).toMatch(/unsubscribe\/one-click\?token=/);
      expect(mail.received.some((m) => m.to && "text" in m.to && m.to.text === quiet.email)).toBe(false);
    } finally {
      delete process.env.SMTP_URL;
      resetEnvForTests();
      await mail.close();
    }
  });
});

describe("the member's data", () => {
  it("Download my data has the membership, balances and every change; deleting the account forfeits the points with it", async () => {
    const user = await memberWith(120);
    const data = await collectPersonalData(db(), user.id);
    expect(data.rewards).toMatchObject({ member: true, availablePoints: 120, pendingPoints: 0, owedPoints: 0 });
    expect(data.rewards!.entries.map((x) => x.what)).toEqual(["Became yours to spend", "Earned (pending until the return window ends)"]);
    expect(renderSummaryHtml(data)).toContain("Your reward points");
    const stranger = await createUser(db());
    expect((await collectPersonalData(db(), stranger.id)).rewards).toBeNull();

    // with an unpaid order holding some of them: closed first, then everything goes with the account
    const p = await bottle(50_000);
    await buy(user, p.id, { rewardPoints: 100 });
    await deleteAccount(db(), user.id, { kind: "self" });
    expect(await balancesOf(db(), user.id)).toBeNull();
    expect(await db().selectFrom("reward_ledger").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });
});
