/**
 * The numbers behind each dashboard chart as a CSV (GET /admin/sales.csv?dataset=…&from=…&to=…&grouping=…): the same
 * query the chart ran, one dataset at a time. Amounts as rand with 2 decimals ("1299.00"), days as YYYY-MM-DD, text
 * that came from people (product names, coupon codes) made safe for a spreadsheet.
 */
import { stringify } from "csv-stringify/sync";
import type { Queryable } from "~/db/db.server";
import { csvAmount, neutraliseCell } from "./reports.logic";
import { averageOrderCents, type SalesDataset, type SalesRange } from "./sales.logic";
import { bestSellers, couponUse, newAndReturning, ordersByStatus, paymentMethods, revenueFigures } from "./sales.server";

export async function salesCsvRows(db: Queryable, range: SalesRange, dataset: SalesDataset): Promise<string[][]> {
  switch (dataset) {
    case "revenue": {
      const r = await revenueFigures(db, range);
      return [
        ["period_start", "period_end", "orders", "revenue", "average_order", "previous_orders", "previous_revenue", "previous_average_order"],
        ...r.buckets.map((b) => [
          b.from,
          b.to,
          String(b.orders),
          csvAmount(b.revenueCents),
          csvAmount(averageOrderCents(b.revenueCents, b.orders)),
          String(b.previousOrders),
          csvAmount(b.previousRevenueCents),
          csvAmount(averageOrderCents(b.previousRevenueCents, b.previousOrders)),
        ]),
      ];
    }
    case "statuses":
      return [["status", "orders"], ...(await ordersByStatus(db, range)).map((s) => [s.status, String(s.orders)])];
    case "best-units":
    case "best-revenue": {
      const best = await bestSellers(db, range);
      const rows = dataset === "best-units" ? best.byUnits : best.byRevenue;
      return [["rank", "product", "units", "revenue"], ...rows.map((r, i) => [String(i + 1), neutraliseCell(r.name), String(r.units), csvAmount(r.revenueCents)])];
    }
    case "payment-methods":
      return [["method", "orders", "revenue"], ...(await paymentMethods(db, range)).map((m) => [m.method, String(m.orders), csvAmount(m.revenueCents)])];
    case "customers":
      return [["kind", "orders", "customers", "revenue"], ...(await newAndReturning(db, range)).map((c) => [c.kind, String(c.orders), String(c.customers), csvAmount(c.revenueCents)])];
    case "coupons": {
      const c = await couponUse(db, range);
      return [["code", "orders", "discount", "revenue"], ...c.rows.map((r) => [neutraliseCell(r.code), String(r.orders), csvAmount(r.discountCents), csvAmount(r.revenueCents)])];
    }
  }
}

export async function salesCsv(db: Queryable, range: SalesRange, dataset: SalesDataset): Promise<string> {
  // as the orders export writes its file: a BOM (Excel then reads UTF-8) and Windows line ends
  return stringify(await salesCsvRows(db, range, dataset), { record_delimiter: "windows", bom: true });
}

/** scentara-sales-revenue-2026-03-01-to-2026-03-31.csv */
export function salesCsvFilename(shopName: string, range: SalesRange, dataset: SalesDataset): string {
  const shop = shopName.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() || "shop";
  return `${shop}-sales-${dataset}-${range.from}-to-${range.to}.csv`;
}
