import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { ACCESS_DENIED_MESSAGE } from "~/modules/accounts/session.server";
import { changeBalances, credit, REWARDS_SYSTEM, spend, takeBack } from "~/modules/rewards/reward-ledger.server";
import { REWARDS_ADMIN_MESSAGES as M } from "~/modules/rewards/rewards-admin.schema";
import { DEFAULT_REWARD_SETTINGS } from "~/modules/rewards/rewards.logic";
import { joinRewards, loadRewardSettings } from "~/modules/rewards/rewards.server";
import { ADMIN_ACCESS_REQUIRED } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { insertOrder } from "../../tests/factories/orders";
import { TWO_MEMBERS_FIGURES } from "../../tests/factories/rewards";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createActors, createUser } from "../../tests/factories/users";
import * as route from "./admin.marketing.rewards";

/** Admin → Marketing → Rewards (issue 40, docs/decisions/062) on SQLite and PostgreSQL. */
const db = () => getDb();
const PATH = "/admin/marketing/rewards";
let actors: Awaited<ReturnType<typeof createActors>>;

beforeAll(async () => {
  actors = await createActors(db());
});

const load = (cookie?: string) => callLoader(route.loader, PATH, { headers: cookie ? { cookie } : {} });
const post = (form: Record<string, string>, cookie = actors.admin.cookie) => callAction(route.action, PATH, form, { headers: cookie ? { cookie } : {} });
const VALID = {
  intent: "settings",
  pointsOn: "on",
  earnRand: "20",
  pointValueCents: "5",
  minRedeemPoints: "200",
  pointsMonths: "18",
  friendRewardRand: "50",
  referrerRewardRand: "50",
  referralMinOrderRand: "300",
  referralsPerWeek: "5",
  friendsPerAddressPerWeek: "3",
};

async function member() {
  const user = await createUser(db());
  await joinRewards(db(), user, "I join Scentara Rewards.");
  return user;
}
const accountOf = (userId: string) => db().selectFrom("reward_accounts").select(["available_points", "pending_points", "owed_points"]).where("user_id", "=", userId).executeTakeFirstOrThrow();
const ledgerOf = (userId: string) => db().selectFrom("reward_ledger").selectAll().where("user_id", "=", userId).orderBy("position").execute();
const ledgerCount = async () => Number((await db().selectFrom("reward_ledger").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow()).n);

describe("who may open and use the page", () => {
  it("sends a visitor to sign in and refuses their posts", async () => {
    const page = await load();
    expect(statusOf(page)).toBe(302);
    expect((page as Response).headers.get("location")).toMatch(/^\/auth\/login\?redirect=/);
    const posted = await post(VALID, "");
    expect(statusOf(posted)).toBe(403);
    expect(await loadRewardSettings(db())).toEqual(DEFAULT_REWARD_SETTINGS);
  });

  it("refuses a customer: the page, the settings and a change to their own points", async () => {
    await joinRewards(db(), actors.customer, "I join Scentara Rewards.");
    const page = await load(actors.customer.cookie);
    expect(statusOf(page)).toBe(403);
    expect((await dataOf(page)).error).toBe(ACCESS_DENIED_MESSAGE);
    for (const form of [VALID, { intent: "adjust", email: actors.customer.email, points: "500", reason: "Just because" }]) {
      const refused = await post(form, actors.customer.cookie);
      expect(statusOf(refused)).toBe(403);
      expect((await dataOf(refused)).error).toBe(ADMIN_ACCESS_REQUIRED);
    }
    expect(await loadRewardSettings(db())).toEqual(DEFAULT_REWARD_SETTINGS);
    expect(await accountOf(actors.customer.id)).toMatchObject({ available_points: 0, owed_points: 0 });
  });
});

describe("the settings", () => {
  it("shows the defaults (the programme off) before anything is saved", async () => {
    const d = await dataOf(await load(actors.admin.cookie));
    expect(d.settings).toEqual(DEFAULT_REWARD_SETTINGS);
    expect(d.settings.pointsOn).toBe(false);
  });

  it("saves valid settings (rand in, cents stored) and tells the storefront", async () => {
    const heard: string[] = [];
    const stop = onStorefrontChange((reason) => heard.push(reason));
    try {
      expect(await dataOf(await post(VALID))).toMatchObject({ ok: true, intent: "settings", message: M.saved });
    } finally {
      stop();
    }
    const saved = {
      pointsOn: true,
      earnCentsPerPoint: 2000,
      pointValueCents: 5,
      minRedeemPoints: 200,
      pointsMonths: 18,
      referralsOn: false,
      friendRewardCents: 5000,
      referrerRewardCents: 5000,
      referralMinOrderCents: 30_000,
      referralsPerWeek: 5,
      friendsPerAddressPerWeek: 3,
    };
    expect(await loadRewardSettings(db())).toEqual(saved);
    expect((await dataOf(await load(actors.admin.cookie))).settings).toEqual(saved);
    expect(heard).toEqual([`${PATH} settings`]);
    // an unticked box turns the programme off
    const { pointsOn: _on, ...off } = VALID;
    expect(await dataOf(await post(off))).toMatchObject({ ok: true });
    expect((await loadRewardSettings(db())).pointsOn).toBe(false);
    expect(await dataOf(await post(VALID))).toMatchObject({ ok: true });
  });

  it.each([
    [{ earnRand: "0.5" }, "earnRand", "Rand per point must be at least R1"],
    [{ earnRand: "ten" }, "earnRand", "Rand per point must be a number"],
    [{ pointValueCents: "2.5" }, "pointValueCents", "A point's worth in cents must be a whole number"],
    [{ minRedeemPoints: "0" }, "minRedeemPoints", "The fewest points to spend must be at least 1"],
    [{ pointsMonths: "121" }, "pointsMonths", "Months a point lasts must be at most 120"],
  ])("refuses %j with the field's message and saves nothing", async (change, field, message) => {
    const before = await loadRewardSettings(db());
    const refused = await post({ ...VALID, pointsMonths: "24", ...change });
    expect(statusOf(refused)).toBe(400);
    const body = await dataOf(refused);
    expect(body.error).toBe(message);
    expect(body.fieldErrors[field]).toBe(message);
    expect(await loadRewardSettings(db())).toEqual(before);
  });
});

describe("a member's points changed by hand", () => {
  it("adds 50 and takes away 20: the balances move, each ledger row names the admin and the reason, the activity log has it", async () => {
    const m = await member();
    const added = await post({ intent: "adjust", email: `  ${m.email.toUpperCase()} `, points: "+50", reason: "  Parcel arrived late " });
    expect(await dataOf(added)).toMatchObject({ ok: true, intent: "adjust", message: M.added(50, m.email, "Parcel arrived late") });
    expect(await accountOf(m.id)).toMatchObject({ available_points: 50, pending_points: 0, owed_points: 0 });
    const taken = await post({ intent: "adjust", email: m.email, points: "-20", reason: "Added twice by mistake" });
    expect(await dataOf(taken)).toMatchObject({ ok: true, message: M.removed(20, m.email, "Added twice by mistake") });
    expect(await accountOf(m.id)).toMatchObject({ available_points: 30, owed_points: 0 });

    const rows = await ledgerOf(m.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ kind: "adjusted", available_delta: 50, available_after: 50, actor_kind: "admin", actor_id: actors.admin.id, note: "Parcel arrived late", order_id: null });
    expect(rows[1]).toMatchObject({ kind: "adjusted", available_delta: -20, available_after: 30, actor_kind: "admin", actor_id: actors.admin.id, note: "Added twice by mistake" });
    for (const r of rows) expect(Date.now() - new Date(r.created_at).getTime()).toBeLessThan(60_000);

    // (the summary read under another name: SQLite's driver reads a column named "summary" as JSON)
    const logged = await db().selectFrom("activity_log").select(["actor_id", "kind", "summary as words"]).where("kind", "like", "%.adjust").where("summary", "like", `%${m.email}%`).orderBy("id").execute();
    expect(logged).toEqual([
      { actor_id: actors.admin.id, kind: "marketing-rewards.adjust", words: M.added(50, m.email, "Parcel arrived late") },
      { actor_id: actors.admin.id, kind: "marketing-rewards.adjust", words: M.removed(20, m.email, "Added twice by mistake") },
    ]);

    // the page lists them, newest first, with the customer, the points, the reason and who
    const recent = (await dataOf(await load(actors.admin.cookie))).adjustments.filter((a: { customerEmail: string }) => a.customerEmail === m.email);
    expect(recent.map((a: { points: number; reason: string; byEmail: string }) => [a.points, a.reason, a.byEmail]).sort()).toEqual([
      [-20, "Added twice by mistake", actors.admin.email],
      [50, "Parcel arrived late", actors.admin.email],
    ]);
  });

  it("pays what a member owes first when adding", async () => {
    const m = await member();
    await changeBalances(db(), m.id, "reversed", takeBack(15), { actor: REWARDS_SYSTEM, note: "refunded" });
    expect(await dataOf(await post({ intent: "adjust", email: m.email, points: "40", reason: "Goodwill" }))).toMatchObject({ ok: true });
    expect(await accountOf(m.id)).toMatchObject({ available_points: 25, owed_points: 0 });
  });

  it("takes points away from the lots that expire first, so a lot never expires points already taken", async () => {
    const m = await member();
    const order = await insertOrder(db(), { userId: m.id });
    const lot = newId();
    const now = new Date().toISOString();
    await db()
      .insertInto("reward_earnings")
      .values({ id: lot, user_id: m.id, order_id: order.id, points: 40, base_cents: 40000, earn_cents_per_point: 1000, status: "available", remaining_points: 40, available_at: now, expires_at: "2099-01-01T00:00:00.000Z", created_at: now })
      .execute();
    await changeBalances(db(), m.id, "available", credit(40), { actor: REWARDS_SYSTEM, orderId: order.id });
    expect(await dataOf(await post({ intent: "adjust", email: m.email, points: "−15", reason: "Returned a sample" }))).toMatchObject({ ok: true });
    expect(await accountOf(m.id)).toMatchObject({ available_points: 25 });
    expect(await db().selectFrom("reward_earnings").select("remaining_points").where("id", "=", lot).executeTakeFirstOrThrow()).toEqual({ remaining_points: 25 });
  });

  it("refuses taking away more than is available, and writes nothing", async () => {
    const m = await member();
    await post({ intent: "adjust", email: m.email, points: "30", reason: "Welcome" });
    const pendingToo = await changeBalances(db(), m.id, "earned", (b) => ({ ...b, pending: b.pending + 100 }), { actor: REWARDS_SYSTEM });
    expect(pendingToo).toMatchObject({ available: 30, pending: 100 });
    const count = await ledgerCount();
    const refused = await post({ intent: "adjust", email: m.email, points: "-31", reason: "Too many" });
    expect(statusOf(refused)).toBe(409);
    expect(await dataOf(refused)).toMatchObject({ ok: false, error: M.notEnough(30), fieldErrors: { points: M.notEnough(30) } });
    expect(await accountOf(m.id)).toMatchObject({ available_points: 30, pending_points: 100, owed_points: 0 });
    expect(await ledgerCount()).toBe(count);
  });

  it("refuses someone who never joined, an unknown address, 0 points and a missing or long reason", async () => {
    const outsider = await createUser(db());
    const count = await ledgerCount();
    const cases: [Record<string, string>, number, string, string][] = [
      [{ email: outsider.email, points: "50", reason: "Goodwill" }, 400, "email", M.notMember],
      [{ email: "nobody-here@example.co.za", points: "50", reason: "Goodwill" }, 404, "email", M.noCustomer],
      [{ email: outsider.email, points: "0", reason: "Goodwill" }, 400, "points", M.pointsZero],
      [{ email: outsider.email, points: "12.5", reason: "Goodwill" }, 400, "points", M.points],
      [{ email: outsider.email, points: "50", reason: "   " }, 400, "reason", M.reasonRequired],
      [{ email: outsider.email, points: "50", reason: "x".repeat(301) }, 400, "reason", M.reasonTooLong],
    ];
    for (const [form, status, field, message] of cases) {
      const refused = await post({ intent: "adjust", ...form });
      expect(statusOf(refused)).toBe(status);
      expect(await dataOf(refused)).toMatchObject({ ok: false, error: message, fieldErrors: { [field]: message } });
    }
    expect(M.notMember).toBe("This customer hasn't joined the rewards programme.");
    expect(await db().selectFrom("reward_accounts").select("user_id").where("user_id", "=", outsider.id).executeTakeFirst()).toBeUndefined();
    expect(await ledgerCount()).toBe(count);
  });
});

describe("the figures", () => {
  it("say what every point did and what is outstanding, and put the outstanding points in rand", async () => {
    const before = (await dataOf(await load(actors.admin.cookie))).figures;
    const a = await member();
    const b = await member();
    const ctx = { actor: REWARDS_SYSTEM };
    // the story of TWO_MEMBERS_FIGURES. a: earns 300 (pending), 200 become available, spends 120, 20 of them released,
    // 10 given back, 50 expire
    await changeBalances(db(), a.id, "earned", (x) => ({ ...x, pending: x.pending + 300 }), ctx);
    await changeBalances(db(), a.id, "available", (x) => ({ ...credit(200)(x), pending: x.pending - 200 }), ctx);
    await changeBalances(db(), a.id, "redeemed", spend(120), ctx);
    await changeBalances(db(), a.id, "released", credit(20), ctx);
    await changeBalances(db(), a.id, "given_back", credit(10), ctx);
    await changeBalances(db(), a.id, "expired", spend(50), ctx);
    // b: 40 pending taken back by a refund, then 25 more than they have: 25 owed
    await changeBalances(db(), b.id, "earned", (x) => ({ ...x, pending: x.pending + 40 }), ctx);
    await changeBalances(db(), b.id, "reversed", (x) => ({ ...x, pending: x.pending - 40 }), ctx);
    await changeBalances(db(), b.id, "reversed", takeBack(25), ctx);
    // by hand: +30 to b (25 pay what is owed), −5 from a
    await post({ intent: "adjust", email: b.email, points: "30", reason: "Goodwill" });
    await post({ intent: "adjust", email: a.email, points: "-5", reason: "Correction" });

    const d = await dataOf(await load(actors.admin.cookie));
    const delta = Object.fromEntries(Object.entries(d.figures).map(([k, v]) => [k, (v as number) - (before[k] as number)]));
    expect(delta).toEqual(TWO_MEMBERS_FIGURES);
    expect(d.liability).toEqual({ availableCents: d.figures.available * d.settings.pointValueCents, pendingCents: d.figures.pending * d.settings.pointValueCents });
    expect(await accountOf(b.id)).toMatchObject({ available_points: 5, owed_points: 0 });
  });
});
