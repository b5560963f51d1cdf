import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { COUPON_ADMIN_MESSAGES } from "~/modules/coupons/coupons-admin.schema";
import { validateAndApplyCoupon } from "~/modules/coupons/coupons.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { insertCoupon } from "../../tests/factories/orders";
import * as route from "./admin.coupons";

const db = () => getDb();
let cookie = "";
let adminId = "";

beforeAll(async () => {
  const admin = await createUser(db(), { isAdmin: true });
  adminId = admin.id;
  cookie = await sessionCookieFor(db(), admin.id);
});

const post = (form: Record<string, string>) => callAction(route.action, "/admin/coupons", form, { headers: { cookie } });
const base = { intent: "save", code: " winter15 ", discountType: "percentage", discountValue: "15", minimumSpend: "200", maxRedemptions: "", startDate: "2026-06-01", endDate: "2026-06-30", description: "Winter warmers" };
const byCode = (code: string) => db().selectFrom("coupons").selectAll().where("code", "=", code).executeTakeFirst();

describe("admin coupons", () => {
  it("creates a coupon: code trimmed and upper-cased, rand in cents, end date to the end of its South African day, created_by the admin", async () => {
    expect(await dataOf(await post(base))).toMatchObject({ ok: true, message: COUPON_ADMIN_MESSAGES.created });
    expect(await byCode("WINTER15")).toMatchObject({
      discount_type: "percentage",
      discount_value: 15,
      minimum_spend_cents: 20000,
      max_redemptions: null,
      start_date: "2026-05-31T22:00:00.000Z",
      end_date: "2026-06-30T21:59:59.999Z",
      is_active: true,
      created_by: adminId,
      description: "Winter warmers",
    });
  });

  it.each([
    [{ code: "  " }, COUPON_ADMIN_MESSAGES.codeRequired],
    [{ code: "X".repeat(21) }, COUPON_ADMIN_MESSAGES.codeTooLong],
    [{ discountType: "bogus" }, COUPON_ADMIN_MESSAGES.typeRequired],
    [{ discountValue: "101" }, COUPON_ADMIN_MESSAGES.percentRange],
    [{ discountValue: "12.5" }, COUPON_ADMIN_MESSAGES.percentRange],
    [{ discountType: "fixed_amount", discountValue: "-5" }, COUPON_ADMIN_MESSAGES.amount],
    [{ maxRedemptions: "0" }, COUPON_ADMIN_MESSAGES.maxRedemptions],
    [{ startDate: "" }, COUPON_ADMIN_MESSAGES.startRequired],
    [{ endDate: "2026-02-30" }, COUPON_ADMIN_MESSAGES.endRequired],
    [{ startDate: "2026-07-01", endDate: "2026-06-30" }, COUPON_ADMIN_MESSAGES.endBeforeStart],
  ])("refuses %j with %j and stores nothing", async (change, message) => {
    const code = `BAD${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    const result = await post({ ...base, code, ...change });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).error).toBe(message);
    expect(await byCode(code)).toBeUndefined();
  });

  it("refuses a code another coupon has; edits keep the code their own", async () => {
    const other = await insertCoupon(db(), { code: "TAKEN1" });
    const mine = await insertCoupon(db(), { code: "MINE1" });
    const clash = await post({ ...base, id: mine.id, code: "taken1" });
    expect(statusOf(clash)).toBe(409);
    expect((await dataOf(clash)).error).toBe(COUPON_ADMIN_MESSAGES.codeTaken);
    expect(await dataOf(await post({ ...base, id: mine.id, code: "MINE1", discountType: "fixed_amount", discountValue: "50" }))).toMatchObject({ ok: true, message: COUPON_ADMIN_MESSAGES.updated });
    expect(await byCode("MINE1")).toMatchObject({ discount_type: "fixed_amount", discount_value: 5000 });
    expect(other.code).toBe("TAKEN1");
  });

  it("deactivating a coupon stops it at the shop; the list shows display statuses and filters as SPEC §4", async () => {
    const live = await insertCoupon(db(), { code: "LIVE1" });
    expect((await validateAndApplyCoupon(db(), { code: "LIVE1", orderTotalCents: 50000, userId: null })).valid).toBe(true);
    expect(await dataOf(await post({ intent: "toggle", id: live.id, isActive: "false" }))).toMatchObject({ ok: true, message: COUPON_ADMIN_MESSAGES.deactivated });
    expect((await validateAndApplyCoupon(db(), { code: "LIVE1", orderTotalCents: 50000, userId: null })).valid).toBe(false);

    await insertCoupon(db(), { code: "OLD1", start_date: "2024-01-01T00:00:00.000Z", end_date: "2024-01-31T21:59:59.999Z" });
    await insertCoupon(db(), { code: "SOON1", start_date: new Date(Date.now() + 5 * 86_400_000).toISOString(), end_date: new Date(Date.now() + 9 * 86_400_000).toISOString() });
    const all = await dataOf(await callLoader(route.loader, "/admin/coupons", { headers: { cookie } }));
    const statusOfCode = (code: string) => all.list.rows.find((c: { code: string }) => c.code === code)?.status;
    expect([statusOfCode("LIVE1"), statusOfCode("OLD1"), statusOfCode("SOON1")]).toEqual(["Inactive", "Expired", "Scheduled"]);
    const codes = async (q: string) => (await dataOf(await callLoader(route.loader, `/admin/coupons?${q}`, { headers: { cookie } }))).list.rows.map((c: { code: string }) => c.code);
    expect(await codes("status=expired")).toContain("OLD1");
    expect(await codes("status=inactive")).toContain("LIVE1");
    expect(await codes("status=active")).toEqual(expect.not.arrayContaining(["LIVE1", "OLD1"]));
    expect(await codes("q=live")).toEqual(["LIVE1"]);
  });

  it("deletes a coupon with its confirmation's message", async () => {
    const gone = await insertCoupon(db(), { code: "GONE1" });
    expect(await dataOf(await post({ intent: "delete", id: gone.id }))).toMatchObject({ ok: true, message: COUPON_ADMIN_MESSAGES.deleted });
    expect(await byCode("GONE1")).toBeUndefined();
  });
});
