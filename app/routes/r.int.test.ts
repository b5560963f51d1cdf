import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { referralCodeOf } from "~/modules/rewards/referrals.server";
import { DEFAULT_REWARD_SETTINGS } from "~/modules/rewards/rewards.logic";
import { joinRewards, saveRewardSettings } from "~/modules/rewards/rewards.server";
import { insertProduct } from "../../tests/factories/catalog";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { callLoader, dataOf } from "../../tests/setup/route";
import * as cart from "./cart";
import * as link from "./r.$code";

/**
 * The referral link /r/CODE (docs/decisions/063): a visitor gets the code in a cookie of its own and lands on the home
 * page with nothing in its address (a cached page stays a shared copy); a signed-in shopper is attributed at once; the
 * cart's quote attributes a shopper who came by the link before signing in, and shows the friend's reward.
 */
const db = () => getDb();

beforeEach(async () => {
  await saveRewardSettings(db(), { ...DEFAULT_REWARD_SETTINGS, pointsOn: true, referralsOn: true });
});

async function member() {
  const user = await createUser(db());
  await joinRewards(db(), user, "I join.");
  return { user, code: (await referralCodeOf(db(), user.id))! };
}

const referralOf = (friendId: string) => db().selectFrom("referrals").select(["status", "referrer_user_id"]).where("friend_user_id", "=", friendId).executeTakeFirst();

describe("the referral link", () => {
  it("a visitor: remembered in an HttpOnly cookie for 30 days, then the home page with no code in its address; nothing attributed", async () => {
    const { code } = await member();
    const answer = (await callLoader(link.loader, `/r/${code.toLowerCase()}`, { params: { code: code.toLowerCase() } })) as Response;
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/");
    expect(answer.headers.get("set-cookie")).toBe(`scentara_ref=${code}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`);
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  it("a code that can't be one: the home page, nothing remembered", async () => {
    const answer = (await callLoader(link.loader, "/r/<script>", { params: { code: "<script>" } })) as Response;
    expect(answer.headers.get("location")).toBe("/");
    expect(answer.headers.get("set-cookie")).toBeNull();
  });

  it("a signed-in newcomer is attributed at once; one who came before signing in, when their cart is quoted, which shows the reward", async () => {
    const { user: referrer, code } = await member();
    const friend = await createUser(db());
    await callLoader(link.loader, `/r/${code}`, { params: { code }, headers: { cookie: await sessionCookieFor(db(), friend.id) } });
    expect(await referralOf(friend.id)).toEqual({ status: "attributed", referrer_user_id: referrer.id });

    const later = await createUser(db());
    const p = await insertProduct(db(), { price_cents: 40_000, stock: 10 });
    const quote = await dataOf(
      await callLoader(cart.loader, `/cart?quote=${encodeURIComponent(JSON.stringify([{ productId: p.id, quantity: 1 }]))}`, {
        headers: { cookie: `${await sessionCookieFor(db(), later.id)}; scentara_ref=${code}` },
      }),
    );
    expect(await referralOf(later.id)).toEqual({ status: "attributed", referrer_user_id: referrer.id });
    expect(quote.quote.friendReward).toEqual({ cents: 5000, refusal: null });
    expect(quote.quote.discountCents).toBe(5000);
  });

  it("a visitor's cart says the reward waits for an account", async () => {
    const { code } = await member();
    const p = await insertProduct(db(), { price_cents: 40_000, stock: 10 });
    const quote = await dataOf(await callLoader(cart.loader, `/cart?quote=${encodeURIComponent(JSON.stringify([{ productId: p.id, quantity: 1 }]))}`, { headers: { cookie: `scentara_ref=${code}` } }));
    expect(quote.quote.friendReward).toEqual({ cents: 0, refusal: "Create an account or sign in to take your friend's R50 off your first order." });
    expect(quote.quote.discountCents).toBe(0);
  });

  it("off: the link still lands on the home page, and nobody is attributed", async () => {
    await saveRewardSettings(db(), { ...DEFAULT_REWARD_SETTINGS, pointsOn: true, referralsOn: false });
    const { code } = await member();
    const friend = await createUser(db());
    const answer = (await callLoader(link.loader, `/r/${code}`, { params: { code }, headers: { cookie: await sessionCookieFor(db(), friend.id) } })) as Response;
    expect(answer.headers.get("location")).toBe("/");
    expect(await referralOf(friend.id)).toBeUndefined();
  });
});

describe("the terms page", () => {
  it("gains the programme's rules only while it runs, give and get among them only while that runs too", async () => {
    const terms = await import("./terms");
    expect((await terms.loader()).rewards?.map((r) => r.title)).toEqual(["Earn on what you pay for goods", "Spend them at checkout", "Pending, then yours", "Refunds", "Give and get", "The fine print"]);
    await saveRewardSettings(db(), { ...DEFAULT_REWARD_SETTINGS, pointsOn: true, referralsOn: false });
    expect((await terms.loader()).rewards?.map((r) => r.title)).not.toContain("Give and get");
    await saveRewardSettings(db(), DEFAULT_REWARD_SETTINGS);
    expect((await terms.loader()).rewards).toBeNull();
  });
});
