/**
 * The dashboard keeps its figures between views until what they count changes (docs/decisions/042, migration 0030's
 * topics), on SQLite and PostgreSQL: each kind of change an owner or a shopper makes shows at the next view — a
 * product, category, coupon or delivery zone; a customer or an admin; a review and a review request; a paid order and a
 * refund.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { saDay } from "~/utils/sa-days";
import { salesRange } from "~/modules/reports/sales.logic";
import { salesDashboard } from "~/modules/reports/sales.server";
import { insertCategory, insertProduct, insertReview } from "../../../tests/factories/catalog";
import { insertCoupon, insertOrder, insertZone } from "../../../tests/factories/orders";
import { returnOf } from "../../../tests/factories/returns";
import { createUser } from "../../../tests/factories/users";
import { dashboardFigures, reviewRequestFigures } from "~/modules/reports/dashboard.server";

const db = () => getDb();
const today = saDay(new Date());
const RANGE = salesRange({ from: today, to: today }, "day");

async function view() {
  const [figures, requests, sales] = await Promise.all([dashboardFigures(db()), reviewRequestFigures(db()), salesDashboard(db(), RANGE)]);
  return { figures, requests, sales };
}

let customer = "";
beforeAll(async () => {
  customer = (await createUser(db())).id;
});

describe("the dashboard's kept figures", () => {
  it("follow every kind of change at the next view", async () => {
    let before = await view();
    expect(await view()).toEqual(before); // unchanged: the kept figures

    await insertProduct(db());
    await insertCategory(db());
    await insertCoupon(db());
    await insertZone(db());
    let after = await view();
    expect(after.figures.counts).toMatchObject({
      products: before.figures.counts.products + 1,
      categories: before.figures.counts.categories + 1,
      coupons: before.figures.counts.coupons + 1,
      zones: before.figures.counts.zones + 1,
    });

    before = after;
    const admin = await createUser(db());
    await db().updateTable("users").set({ is_admin: true }).where("id", "=", admin.id).execute();
    after = await view();
    expect(after.figures.users.total).toBe(before.figures.users.total + 1);
    expect(after.figures.users.admins).toBe(before.figures.users.admins + 1);

    before = after;
    const product = await insertProduct(db());
    const order = await insertOrder(db(), { userId: customer, status: "delivered", paymentStatus: "completed", lines: [{ productId: product.id, name: product.name, unitPriceCents: 40_000 }] });
    await db().insertInto("review_requests").values({ order_id: order.id, user_id: customer, sent_at: new Date(Date.now() - 60_000).toISOString() }).execute();
    after = await view();
    expect(after.sales.revenue.orders).toBe(before.sales.revenue.orders + 1);
    expect(after.sales.revenue.revenueCents).toBe(before.sales.revenue.revenueCents + order.totalAmountCents);
    expect(after.requests).toMatchObject({ sent: before.requests.sent + 1, reviewed: before.requests.reviewed });

    before = after;
    await insertReview(db(), product.id, { user_id: customer, created_at: new Date().toISOString() });
    after = await view();
    expect(after.figures.counts.reviews).toBe(before.figures.counts.reviews + 1);
    expect(after.requests.reviewed).toBe(before.requests.reviewed + 1); // the request became a review (migration 0029)

    before = after;
    const refunded = await returnOf(db(), customer, "refunded");
    after = await view();
    expect(after.sales.revenue.refundedCents).toBe(before.sales.revenue.refundedCents + refunded.order.lines[0]!.unitPriceCents);
  });
});
