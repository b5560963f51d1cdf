import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { resetEnvForTests } from "~/utils/env.server";
import * as route from "~/routes/checkout";
import { callAction, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { insertProduct } from "../../../tests/factories/catalog";
import { insertCoupon, TEST_ADDRESS } from "../../../tests/factories/orders";
import { couponState } from "../../../tests/factories/payments";
import { startFakeYoco, type FakeYoco } from "../../../tests/fakes/fake-yoco";
import { TEST_ORIGIN } from "../../../tests/setup/route";
import { checkout } from "~/modules/flows/checkout.server";
import { CHECKOUT_MESSAGES } from "~/modules/orders/orders.logic";
import { checkoutSchema } from "~/modules/orders/orders.schema";

/**
 * One order per checkout click: concurrent and repeated submissions of the same form (same token) make one order,
 * reserve the coupon once, and all land on the same payment page.
 */
const db = () => getDb();
let shopper: TestUser;
let cookie = "";

beforeAll(async () => {
  shopper = await createUser(db());
  cookie = await sessionCookieFor(db(), shopper.id);
});

async function form(extra: Record<string, string> = {}) {
  const product = await insertProduct(db(), { price_cents: 45000 });
  return { ...TEST_ADDRESS, lines: JSON.stringify([{ productId: product.id, quantity: 1 }]), checkoutToken: crypto.randomUUID(), ...extra } as Record<string, string>;
}
const submit = (fields: Record<string, string>) => callAction(route.action, "/checkout", fields, { headers: { cookie } });
const ordersWith = (token: string) =>
  db().selectFrom("orders").select(["id", "payment_id", "checkout_url", "status", "payment_status"]).where("checkout_token", "=", token).execute();
const locationOf = (result: unknown) => (result as Response).headers.get("location");

describe("one order per checkout click", () => {
  it("two submissions at once make one order and go to the same payment", async () => {
    const fields = await form();
    const [a, b] = await Promise.all([submit(fields), submit(fields)]);
    expect([statusOf(a), statusOf(b)]).toEqual([302, 302]);
    const [locA, locB] = [(a as Response).headers.get("location"), (b as Response).headers.get("location")];
    expect(locA).toMatch(/^\/pay\/simulated\/sim_/);
    expect(locB).toBe(locA);
    const orders = await ordersWith(fields.checkoutToken!);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.checkout_url).toBe(locA);
  });

  it("two submissions that both miss the first look-up: the unique index decides and the loser follows the winner", async () => {
    const fields = await form();
    const input = checkoutSchema.parse(fields);
    const customer = { id: shopper.id, email: shopper.email };
    // SQLite serves every query through one connection: holding it lines both submissions up, so each looks the
    // token up (and finds nothing) before either places its order. On PostgreSQL they simply race.
    let release!: () => void;
    const held = db().connection().execute(() => new Promise<void>((resolve) => (release = resolve)));
    const racing = [checkout(db(), customer, input), checkout(db(), customer, input)];
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await held;
    const [a, b] = await Promise.all(racing);
    expect(a.redirectTo).toMatch(/^\/pay\/simulated\/sim_/);
    expect(b.redirectTo).toBe(a.redirectTo);
    expect(await ordersWith(fields.checkoutToken!)).toHaveLength(1);
  });

  it("five at once with a 3-use coupon reserve it once; a new click (new token) is a new order", async () => {
    const coupon = await insertCoupon(db(), { code: `ONCE${Date.now() % 100000}`, max_redemptions: 3 });
    const fields = await form({ couponCode: coupon.code });
    const results = await Promise.all(Array.from({ length: 5 }, () => submit(fields)));
    const locations = new Set(results.map((r) => (r as Response).headers.get("location")));
    expect(locations.size).toBe(1);
    const orders = await ordersWith(fields.checkoutToken!);
    expect(orders).toHaveLength(1);
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [orders[0]!.id] });

    const again = await submit({ ...fields, checkoutToken: crypto.randomUUID() });
    expect((again as Response).headers.get("location")).not.toBe([...locations][0]);
    // the new attempt with the same limited coupon closed the earlier unpaid one (docs/decisions/015)
    const [newer] = await db().selectFrom("orders").select("id").where("id", "!=", orders[0]!.id).where("coupon_code", "=", coupon.code).execute();
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [newer!.id] });
    expect(await ordersWith(fields.checkoutToken!)).toMatchObject([{ status: "cancelled", payment_status: "cancelled" }]);
  });

  it("the same form posted after paying goes to the order's confirmation, not to a second payment", async () => {
    const fields = await form();
    await submit(fields);
    const [order] = await ordersWith(fields.checkoutToken!);
    await db().updateTable("orders").set({ payment_status: "completed", status: "processing" }).where("id", "=", order!.id).execute();
    const repeat = await submit(fields);
    expect((repeat as Response).headers.get("location")).toBe(`/order-confirmation?id=${order!.id}`);
    expect(await ordersWith(fields.checkoutToken!)).toHaveLength(1);
  });

  it("a token whose order was cancelled is refused with the spec's message; the page's next token works", async () => {
    const fields = await form();
    await submit(fields);
    await db().updateTable("orders").set({ status: "cancelled", payment_status: "cancelled" }).where("checkout_token", "=", fields.checkoutToken!).execute();
    const repeat = await submit(fields);
    expect(statusOf(repeat)).toBe(409);
    const answer = await dataOf(repeat);
    expect(answer.error).toBe(CHECKOUT_MESSAGES.orderFailed);
    // The page has no loader run after a 409, so the answer itself hands out the next token.
    expect(answer.checkoutToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.checkoutToken).not.toBe(fields.checkoutToken);
    expect(statusOf(await submit({ ...fields, checkoutToken: answer.checkoutToken }))).toBe(302);
    expect(await ordersWith(answer.checkoutToken)).toHaveLength(1);
  });

  it("a refusal that stored nothing keeps the token: the corrected form places the order with it", async () => {
    const fields = await form({ couponCode: "NO-SUCH-COUPON" });
    const refused = await submit(fields);
    expect(statusOf(refused)).toBe(409);
    expect((await dataOf(refused)).checkoutToken).toBe(fields.checkoutToken);
    expect(await ordersWith(fields.checkoutToken!)).toHaveLength(0);

    const { couponCode: _dropped, ...corrected } = fields;
    const placed = await submit(corrected);
    expect(statusOf(placed)).toBe(302);
    expect(await ordersWith(fields.checkoutToken!)).toHaveLength(1);
  });

  it("a malformed token is refused with a new one to use, and nothing is stored", async () => {
    const fields = await form({ checkoutToken: "not-a-token" });
    const refused = await submit(fields);
    expect(statusOf(refused)).toBe(400);
    const answer = await dataOf(refused);
    expect(answer.fieldErrors.checkoutToken).toBeDefined();
    expect(answer.checkoutToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(await ordersWith("not-a-token")).toHaveLength(0);
  });

  it("another shopper's token is theirs alone", async () => {
    const fields = await form();
    await submit(fields);
    const other = await createUser(db());
    const otherCookie = await sessionCookieFor(db(), other.id);
    const result = await callAction(route.action, "/checkout", fields, { headers: { cookie: otherCookie } });
    expect(statusOf(result)).toBe(302);
    expect(await ordersWith(fields.checkoutToken!)).toHaveLength(2);
  });
});

describe("one order per checkout click, with the real Yoco adapter", () => {
  let fake: FakeYoco;
  const saved = { ...process.env };
  const keys = ["PAYMENT_PROVIDER", "YOCO_API_BASE", "YOCO_SECRET_KEY", "YOCO_WEBHOOK_SECRET", "PUBLIC_BASE_URL"] as const;

  beforeAll(async () => {
    fake = await startFakeYoco();
    Object.assign(process.env, {
      PAYMENT_PROVIDER: "yoco",
      YOCO_API_BASE: fake.baseUrl,
      YOCO_SECRET_KEY: fake.secretKey,
      YOCO_WEBHOOK_SECRET: fake.webhookSecret,
      PUBLIC_BASE_URL: TEST_ORIGIN,
    });
    resetEnvForTests();
  });

  afterAll(async () => {
    for (const key of keys) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    resetEnvForTests();
    await fake.close();
  });

  it("five submissions at once ask Yoco for one checkout and all go to it", async () => {
    const fields = await form();
    fake.requests.length = 0;
    const results = await Promise.all(Array.from({ length: 5 }, () => submit(fields)));
    expect(results.map(statusOf)).toEqual([302, 302, 302, 302, 302]);
    const orders = await ordersWith(fields.checkoutToken!);
    expect(orders).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(new Set(results.map(locationOf))).toEqual(new Set([`${fake.baseUrl}/checkout/${orders[0]!.payment_id}`]));
  });

  it("when Yoco refuses, every racing submission is refused, the coupon is released and a new token places a new order", async () => {
    const coupon = await insertCoupon(db(), { code: `YOCO${Date.now() % 100000}`, max_redemptions: 1 });
    const fields = await form({ couponCode: coupon.code });
    fake.failNextCreate(503, { errorCode: "unavailable" });
    const [a, b] = await Promise.all([submit(fields), submit(fields)]);
    expect([statusOf(a), statusOf(b)].every((s) => s >= 400)).toBe(true);
    const [answerA, answerB] = [await dataOf(a), await dataOf(b)];
    const [closed] = await ordersWith(fields.checkoutToken!);
    expect(closed).toMatchObject({ status: "cancelled", payment_status: "failed" });
    expect(await ordersWith(fields.checkoutToken!)).toHaveLength(1);
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 0, usageOrders: [] });
    for (const answer of [answerA, answerB]) expect(answer.checkoutToken).not.toBe(fields.checkoutToken);

    const retry = await submit({ ...fields, checkoutToken: answerA.checkoutToken });
    expect(statusOf(retry)).toBe(302);
    const [placed] = await ordersWith(answerA.checkoutToken);
    expect(locationOf(retry)).toBe(`${fake.baseUrl}/checkout/${placed!.payment_id}`);
    expect(await couponState(db(), coupon.id)).toEqual({ timesRedeemed: 1, usageOrders: [placed!.id] });
  });
});
