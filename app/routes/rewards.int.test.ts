/**
 * /rewards (issue 40): 404 while the programme is off; on, the rules with the owner's numbers for everyone, a sign-in
 * link for a visitor, the exact words a shopper agrees to, and Join / Leave recorded in the consent log.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { DEFAULT_REWARD_SETTINGS, type RewardSettings } from "~/modules/rewards/rewards.logic";
import { joinWording, saveRewardSettings } from "~/modules/rewards/rewards.server";
import { REWARDS_PAGE_MESSAGES } from "~/modules/rewards/rewards-profile.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import * as rewards from "./rewards";
import * as root from "../root";

const db = () => getDb();
const ON: RewardSettings = { ...DEFAULT_REWARD_SETTINGS, pointsOn: true, earnCentsPerPoint: 1000, pointValueCents: 10, minRedeemPoints: 100, pointsMonths: 12 };

async function customer() {
  const user = await createUser(db());
  return { user, headers: { cookie: await sessionCookieFor(db(), user.id) } };
}

const consentsOf = (userId: string) =>
  db().selectFrom("consents").select(["purpose", "granted", "wording", "source", "version"]).where("user_id", "=", userId).orderBy("created_at").execute();

describe("/rewards while the programme is off", () => {
  beforeEach(() => saveRewardSettings(db(), DEFAULT_REWARD_SETTINGS));

  it("answers 404 to a visitor and to a customer, page and form alike", async () => {
    const { user, headers } = await customer();
    expect(statusOf(await callLoader(rewards.loader, "/rewards"))).toBe(404);
    expect(statusOf(await callLoader(rewards.loader, "/rewards", { headers }))).toBe(404);
    const join = await callAction(rewards.action, "/rewards", { intent: "join", wording: joinWording("Scentara", DEFAULT_REWARD_SETTINGS) }, { headers });
    expect(statusOf(join)).toBe(404);
    expect(await consentsOf(user.id)).toEqual([]);
  });
});

describe("/rewards while the programme is on", () => {
  beforeEach(() => saveRewardSettings(db(), ON));

  it("is personal: never cached", () => {
    expect(rewards.headers()).toEqual({ "Cache-Control": "private, no-store" });
  });

  it("a visitor sees the rules in the owner's numbers and a link to sign in and come back", async () => {
    await saveRewardSettings(db(), { ...ON, earnCentsPerPoint: 1250, pointValueCents: 5, minRedeemPoints: 200, pointsMonths: 18 });
    const page = await dataOf(await callLoader(rewards.loader, "/rewards"));
    expect(page.viewer).toEqual({ kind: "visitor" });
    expect(page.signIn).toBe("/auth/login?redirect=%2Frewards");
    expect(page.rules).toMatchObject({ earnPer: "R12.50", pointWorth: "5 cents", minRedeem: "200 points (R10.00)", months: 18, returnWindowDays: 7 });
    expect(page.rules.example).toEqual({ spend: "R625", points: "50 points (R2.50)" });
  });

  it("a customer reads the words, joins (the consent log keeps them) and leaves", async () => {
    const { user, headers } = await customer();
    const before = await dataOf(await callLoader(rewards.loader, "/rewards", { headers }));
    const wording = joinWording("Scentara", ON);
    expect(before.viewer).toEqual({ kind: "shopper", wording });

    const joined = await callAction(rewards.action, "/rewards", { intent: "join", wording }, { headers });
    expect(await dataOf(joined)).toEqual({ ok: true, message: REWARDS_PAGE_MESSAGES.joined });
    const member = await dataOf(await callLoader(rewards.loader, "/rewards", { headers }));
    expect(member.viewer).toMatchObject({ kind: "member", available: "0 points (R0.00)", pending: "0 points (R0.00)", owed: null });

    // joining twice writes nothing more
    expect(await dataOf(await callAction(rewards.action, "/rewards", { intent: "join", wording }, { headers }))).toEqual({ ok: true, message: REWARDS_PAGE_MESSAGES.alreadyMember });

    const left = await callAction(rewards.action, "/rewards", { intent: "leave" }, { headers });
    expect(await dataOf(left)).toEqual({ ok: true, message: REWARDS_PAGE_MESSAGES.left });
    expect((await dataOf(await callLoader(rewards.loader, "/rewards", { headers }))).viewer).toEqual({ kind: "shopper", wording });

    const rows = await consentsOf(user.id);
    // (the join first: both may carry the same millisecond)
    expect(rows.map((r) => ({ ...r, granted: Boolean(r.granted) })).sort((a, b) => Number(b.granted) - Number(a.granted))).toEqual([
      { purpose: "rewards_programme", granted: true, wording, source: "rewards_page", version: expect.any(String) },
      { purpose: "rewards_programme", granted: false, wording: expect.stringContaining("I leave"), source: "rewards_page", version: expect.any(String) },
    ]);
    // a member no more: leaving again is refused
    expect(statusOf(await callAction(rewards.action, "/rewards", { intent: "leave" }, { headers }))).toBe(409);
  });

  it("refuses to join on words that are no longer the rules, and an unknown intent; nothing written", async () => {
    const { user, headers } = await customer();
    const stale = joinWording("Scentara", { ...ON, earnCentsPerPoint: 500 });
    const refused = await callAction(rewards.action, "/rewards", { intent: "join", wording: stale }, { headers });
    expect(statusOf(refused)).toBe(409);
    expect((await dataOf(refused)).error).toBe(REWARDS_PAGE_MESSAGES.rulesChanged);
    expect(statusOf(await callAction(rewards.action, "/rewards", { intent: "everything" }, { headers }))).toBe(400);
    expect(await consentsOf(user.id)).toEqual([]);
    expect(await db().selectFrom("reward_accounts").selectAll().where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("a visitor posting Join is sent to sign in, and nothing is written", async () => {
    const accounts = await db().selectFrom("reward_accounts").select("user_id").execute();
    const consents = await db().selectFrom("consents").select("id").execute();
    const result = await callAction(rewards.action, "/rewards", { intent: "join", wording: joinWording("Scentara", ON) });
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/auth/login?redirect=%2Frewards");
    expect(await db().selectFrom("reward_accounts").select("user_id").execute()).toEqual(accounts);
    expect(await db().selectFrom("consents").select("id").execute()).toEqual(consents);
  });
});

describe("the footer's link (the root loader's flag)", () => {
  it("follows the programme, as of the last storefront change (the owner's save raises one), for a shared copy too", async () => {
    const flag = async () => (await dataOf(await callLoader(root.loader, "/", { audience: "visitor" }))).rewards;
    await saveRewardSettings(db(), DEFAULT_REWARD_SETTINGS);
    storefrontChanged("test: rewards off");
    expect(await flag()).toBe(false);
    await saveRewardSettings(db(), ON);
    expect(await flag()).toBe(false); // kept until the change is announced: a page costs no query
    storefrontChanged("test: rewards on");
    expect(await flag()).toBe(true);
    await saveRewardSettings(db(), DEFAULT_REWARD_SETTINGS);
    storefrontChanged("test: rewards off again");
    expect(await flag()).toBe(false);
  });
});
