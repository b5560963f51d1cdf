/**
 * The sales dashboard's figures for a seeded week of orders, exact to the cent, on SQLite and PostgreSQL; the
 * dashboard loader and the CSV download answer admins only.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import type { OrderStatus, PaymentStatus } from "~/db/schema";
import { callLoader, dataOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { insertOrder, type OrderLineInput } from "../../../tests/factories/orders";
import { insertProduct } from "../../../tests/factories/catalog";
import * as dashboard from "~/routes/admin._index";
import * as salesCsvRoute from "~/routes/admin.sales[.]csv";
import { salesTotals } from "./sales-totals.server";
import { salesRange } from "./sales.logic";
import { salesDashboard } from "./sales.server";

const db = () => getDb();
// 1–7 March 2026 (South African days), by day; the previous period is 22–28 February.
const RANGE = salesRange({ from: "2026-03-01", to: "2026-03-07" }, "day");
let adminCookie = "";
let customerCookie = "";

async function order(input: {
  userId: string;
  at: string;
  payment: PaymentStatus;
  status: OrderStatus;
  method?: "card" | "instant_eft" | "eft";
  lines: OrderLineInput[];
  shippingCents?: number;
  coupon?: { code: string; discountCents: number };
}) {
  const o = await insertOrder(db(), {
    userId: input.userId,
    createdAt: input.at,
    paymentStatus: input.payment,
    status: input.status,
    lines: input.lines,
    shippingCents: input.shippingCents ?? 0,
    couponCode: input.coupon?.code ?? null,
    discountCents: input.coupon?.discountCents ?? 0,
  });
  await db().updateTable("orders").set({ payment_method: input.method ?? "card" }).where("id", "=", o.id).execute();
  return o;
}

beforeAll(async () => {
  const admin = await createUser(db(), { isAdmin: true });
  adminCookie = await sessionCookieFor(db(), admin.id);
  const [a, b, c, d] = await Promise.all([createUser(db()), createUser(db()), createUser(db()), createUser(db())]);
  customerCookie = await sessionCookieFor(db(), a.id);
  const oud = await insertProduct(db(), { name: "Oud Royale", price_cents: 50_000 });
  const rose = await insertProduct(db(), { name: "Rose Ambrée", price_cents: 20_000 });
  const p1 = { productId: oud.id, name: "Oud Royale", unitPriceCents: 50_000 };
  const p2 = { productId: rose.id, name: "Rose Ambrée", unitPriceCents: 20_000 };
  // a product since deleted: its lines keep the name
  const musk = { productId: null, name: "Vintage Musk", unitPriceCents: 10_000 };

  // the previous period: A's first paid order on its last South African instant (28 Feb 23:59:59.999 SAST), and D's
  await order({ userId: a.id, at: "2026-02-28T21:59:59.999Z", payment: "completed", status: "delivered", lines: [{ ...p1, quantity: 1 }] }); // 500.00
  await order({ userId: d.id, at: "2026-02-25T09:00:00.000Z", payment: "completed", status: "delivered", lines: [{ ...p2, quantity: 1 }], shippingCents: 10_000 }); // 300.00
  // before the previous period: never counted
  await order({ userId: d.id, at: "2026-02-21T21:59:59.999Z", payment: "completed", status: "delivered", lines: [{ ...p1, quantity: 9 }] });

  // the range
  // A returning (paid before), on the range's first instant (1 Mar 00:00 SAST), by bank transfer with WELCOME10
  await order({ userId: a.id, at: "2026-02-28T22:00:00.000Z", payment: "completed", status: "processing", method: "eft", lines: [{ ...p1, quantity: 2 }], coupon: { code: "WELCOME10", discountCents: 10_000 } }); // 900.00
  // B new, instant EFT
  await order({ userId: b.id, at: "2026-03-03T10:00:00.000Z", payment: "completed", status: "shipped", method: "instant_eft", lines: [{ ...p2, quantity: 3 }], shippingCents: 7_000 }); // 670.00
  // B again on the range's last instant: returning (B's order above was paid first)
  await order({ userId: b.id, at: "2026-03-07T21:59:59.999Z", payment: "completed", status: "processing", lines: [{ ...p1, quantity: 1 }, { ...p2, quantity: 1 }], coupon: { code: "WELCOME10", discountCents: 5_000 } }); // 650.00
  // C: an unpaid order first (not a sale, so C's next paid order is still C's first), a cancelled one, then a paid one
  await order({ userId: c.id, at: "2026-03-04T08:00:00.000Z", payment: "pending", status: "pending", lines: [{ ...p1, quantity: 5 }] });
  await order({ userId: c.id, at: "2026-03-02T08:00:00.000Z", payment: "cancelled", status: "cancelled", lines: [{ ...p1, quantity: 5 }] });
  await order({ userId: c.id, at: "2026-03-05T12:00:00.000Z", payment: "completed", status: "delivered", lines: [{ ...musk, quantity: 4 }], shippingCents: 7_000, coupon: { code: "VIP", discountCents: 2_000 } }); // 450.00
  // the day after the range (8 Mar 00:00 SAST): never counted
  await order({ userId: d.id, at: "2026-03-07T22:00:00.000Z", payment: "completed", status: "delivered", lines: [{ ...p2, quantity: 9 }] });
});

describe("salesDashboard", () => {
  it("revenue per South African day against the previous period, and the headline totals equal salesTotals'", async () => {
    const { revenue } = await salesDashboard(db(), RANGE);
    expect(revenue).toMatchObject({ revenueCents: 267_000, orders: 4, averageCents: 66_750, previous: { revenueCents: 80_000, orders: 2, averageCents: 40_000 } });
    expect(revenue.buckets.map((b) => [b.key, b.orders, b.revenueCents, b.previousOrders, b.previousRevenueCents])).toEqual([
      ["2026-03-01", 1, 90_000, 0, 0],
      ["2026-03-02", 0, 0, 0, 0],
      ["2026-03-03", 1, 67_000, 0, 0],
      ["2026-03-04", 0, 0, 1, 30_000], // 25 Feb + 7 days
      ["2026-03-05", 1, 45_000, 0, 0],
      ["2026-03-06", 0, 0, 0, 0],
      ["2026-03-07", 1, 65_000, 1, 50_000], // 28 Feb + 7 days
    ]);
    const totals = await salesTotals(db(), RANGE);
    expect({ revenueCents: totals.revenueCents, orders: totals.orders }).toEqual({ revenueCents: revenue.revenueCents, orders: revenue.orders });
    expect(revenue.buckets.reduce((s, b) => s + b.revenueCents, 0)).toBe(totals.revenueCents);
    expect(revenue.buckets.reduce((s, b) => s + b.previousRevenueCents, 0)).toBe((await salesTotals(db(), RANGE.previous)).revenueCents);

    const weekly = await salesDashboard(db(), salesRange({ from: "2026-03-01", to: "2026-03-07" }, "week"));
    // 1 March 2026 is a Sunday: the week of 23 Feb (one day of it), then 2–7 March
    expect(weekly.revenue.buckets.map((b) => [b.key, b.from, b.to, b.revenueCents, b.previousRevenueCents])).toEqual([
      ["2026-02-23", "2026-03-01", "2026-03-01", 90_000, 0],
      ["2026-03-02", "2026-03-02", "2026-03-07", 177_000, 80_000],
    ]);
  });

  it("orders by status (every order placed in the range), best sellers, payment methods, customers and coupons", async () => {
    const s = await salesDashboard(db(), RANGE);
    expect(s.statuses.map((r) => [r.status, r.orders])).toEqual([
      ["pending", 1],
      ["processing", 2],
      ["shipped", 1],
      ["delivered", 1],
      ["cancelled", 1],
    ]);
    // paid orders only (C's unpaid five Oud Royale don't count); a tie on units goes to the larger revenue
    expect(s.bestByUnits.map((r) => [r.name, r.units, r.revenueCents])).toEqual([
      ["Rose Ambrée", 4, 80_000],
      ["Vintage Musk", 4, 40_000],
      ["Oud Royale", 3, 150_000],
    ]);
    expect(s.bestByRevenue.map((r) => [r.name, r.revenueCents])).toEqual([
      ["Oud Royale", 150_000],
      ["Rose Ambrée", 80_000],
      ["Vintage Musk", 40_000],
    ]);
    expect(s.methods.map((m) => [m.method, m.label, m.orders, m.revenueCents])).toEqual([
      ["card", "Card", 2, 110_000],
      ["eft", "Bank transfer (EFT)", 1, 90_000],
      ["instant_eft", "Instant EFT", 1, 67_000],
    ]);
    expect(s.customers.map((c) => [c.kind, c.orders, c.customers, c.revenueCents])).toEqual([
      ["new", 2, 2, 112_000],
      ["returning", 2, 2, 155_000],
    ]);
    expect(s.coupons).toEqual({
      rows: [
        { code: "WELCOME10", orders: 2, discountCents: 15_000, revenueCents: 155_000 },
        { code: "VIP", orders: 1, discountCents: 2_000, revenueCents: 45_000 },
      ],
      orders: 3,
      discountCents: 17_000,
    });
  });
});

describe("the dashboard loader and the CSV", () => {
  it("answers a range in the URL with that range's figures", async () => {
    const d = await dataOf(await callLoader(dashboard.loader, "/admin?from=2026-03-01&to=2026-03-07&grouping=day", { headers: { cookie: adminCookie } }));
    expect(d.sales.range).toMatchObject({ from: "2026-03-01", to: "2026-03-07", grouping: "day", previous: { from: "2026-02-22", to: "2026-02-28" } });
    expect(d.sales.revenue.revenueCents).toBe(267_000);
    expect(d.sales.notice).toBeNull();
    expect(d.sales.presets.map((p: { label: string }) => p.label)).toContain("30 days");
    // the existing figures are still there
    expect(d.orders).toBeDefined();
    expect(d.users.total).toBeGreaterThan(0);
  });

  it("a CSV of one chart's numbers, amounts in rand, names made safe for a spreadsheet; an unknown dataset is a 400", async () => {
    const res = (await callLoader(salesCsvRoute.loader, "/admin/sales.csv?dataset=best-revenue&from=2026-03-01&to=2026-03-07", { headers: { cookie: adminCookie } })) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename=".*-sales-best-revenue-2026-03-01-to-2026-03-07\.csv"/);
    const text = (await res.text()).replace(/^\uFEFF/, "");
    expect(text.split("\r\n").slice(0, 4)).toEqual(["rank,product,units,revenue", "1,Oud Royale,3,1500.00", "2,Rose Ambrée,4,800.00", "3,Vintage Musk,4,400.00"]);
    const revenue = await ((await callLoader(salesCsvRoute.loader, "/admin/sales.csv?dataset=revenue&from=2026-03-01&to=2026-03-07&grouping=day", { headers: { cookie: adminCookie } })) as Response).text();
    expect(revenue.split("\r\n")[7]).toBe("2026-03-07,2026-03-07,1,650.00,650.00,1,500.00,500.00");
    const bad = (await callLoader(salesCsvRoute.loader, "/admin/sales.csv?dataset=orders", { headers: { cookie: adminCookie } })) as Response;
    expect(bad.status).toBe(400);
    // a customer is refused
    const refused = (await callLoader(salesCsvRoute.loader, "/admin/sales.csv?dataset=revenue", { headers: { cookie: customerCookie } })) as Response;
    expect(refused.status).toBe(403);
  });
});
