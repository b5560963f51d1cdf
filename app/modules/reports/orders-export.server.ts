/**
 * Orders for the accountant (issue 20): a CSV of the orders placed in a range of South African days, one row per order
 * or one per order line, streamed as it is read so a million orders cost the memory of one batch.
 *
 * The file: UTF-8 with a byte-order mark (Excel then reads accents right), comma-separated, CRLF line ends (RFC 4180),
 * a header row. Dates are South African days (YYYY-MM-DD) and times South African time (UTC+2, HH:MM). Amounts are
 * rand with 2 decimals and a dot, no currency sign or grouping ("1299.00"); none is negative. Text that came from
 * people is neutralised for spreadsheets (reports.logic neutraliseCell).
 *
 * Orders are read in batches in (created_at, id) order, each batch starting after the last one's key (keyset
 * pagination on the orders_created_id_idx index): no batch costs more than the one before, and no connection or
 * transaction is held between batches, so the shop keeps serving while a large file downloads.
 */
import { lineNameSql } from "~/modules/catalog/sizes.server";
import { sql } from "kysely";
import type { Queryable } from "~/db/db.server";
import { keysetBatches, timeKey, timeKeyValue } from "~/db/keyset-batches.server";
import type { OrderStatus, PaymentStatus } from "~/db/schema";
import { formatInvoiceNumber, vatInInclusiveTotal } from "~/modules/invoices/invoice.logic";
import { ORDER_STATUS_LABELS, paymentStatusLabel } from "~/modules/orders/order-admin.logic";
import { paymentMethodShort } from "~/modules/payments/payment-methods";
import { shortOrderId } from "~/utils/ids";
import { csvAmount, csvRecord, neutraliseCell } from "./reports.logic";
import { rangeBounds, saDay, saTime, type DayRange } from "~/utils/sa-days";
import type { ExportStatus } from "./reports.schema";
import { PAID } from "~/modules/order-days/order-days.server";
import { refundsByOrder } from "~/modules/returns/returns.server";
import { downloadStream } from "~/utils/download-stream.server";

export interface OrdersExportOptions extends DayRange {
  /** one row per order line (the order's columns repeated) instead of one per order */
  lines: boolean;
  /** null: every order; "paid": payment completed (the sales totals' orders); else that order status */
  status: ExportStatus | null;
  invoicePrefix: string;
  /** orders read per query */
  batchSize?: number;
}

export const EXPORT_BATCH_SIZE = 1000;

/** The header row. Money columns say their currency; the README says the rest. */
export const ORDER_COLUMNS = [
  "Date",
  "Time (SAST)",
  "Order",
  "Order ID",
  "Invoice",
  "Customer",
  "E-mail",
  "Province",
  "Status",
  "Payment method",
  "Payment status",
  "Subtotal (ZAR)",
  "Discount (ZAR)",
  "Delivery (ZAR)",
  "VAT included (ZAR)",
  "Total (ZAR)",
  "Refunds (ZAR)",
] as const;
export const LINE_COLUMNS = ["Product", "Quantity", "Unit price (ZAR)", "Line total (ZAR)"] as const;

interface ExportOrder {
  id: string;
  created_at: string;
  /** created_at at the database's own precision, for the next batch's start (see orderBatches) */
  cursor_at: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  payment_method: string;
  subtotal_cents: number;
  discount_amount_cents: number;
  shipping_cents: number;
  total_amount_cents: number;
  invoice_number: number | null;
  /** the shipping address's name and province: read from its JSON by the database, the rest of it is not needed */
  ship_name: string | null;
  ship_province: string | null;
  email: string | null;
  /** what its refunds paid back (its credit notes' totals, docs/decisions/041) */
  refunded_cents?: number;
}

interface ExportLine {
  order_id: string;
  name: string;
  quantity: number;
  unit_price_cents: number;
  total_price_cents: number;
}

/** The download's name: scentara-orders-2026-03-01-to-2026-03-31[-paid][-lines].csv */
export function ordersExportFilename(shopName: string, options: Pick<OrdersExportOptions, "from" | "to" | "lines" | "status">): string {
  const shop = shopName.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() || "shop";
  return `${shop}-orders-${options.from}-to-${options.to}${options.status ? `-${options.status}` : ""}${options.lines ? "-lines" : ""}.csv`;
}

/**
 * The orders of the range, a batch at a time, oldest first. Each batch starts strictly after the previous batch's
 * last (created_at, id). On PostgreSQL the key is taken as the database's own text (microseconds): timestamptz is read
 * back as milliseconds, and a row stored with finer precision would otherwise be read again.
 */
export async function* orderBatches(db: Queryable, options: OrdersExportOptions): AsyncGenerator<Array<{ order: ExportOrder; lines: ExportLine[] }>> {
  const { start, end } = rangeBounds(options);
  const read = (after: { at: string; id: string } | null, limit: number) => {
    let query = db
      .selectFrom("orders as o")
      .leftJoin("users as u", "u.id", "o.user_id")
      .select([
        "o.id",
        "o.created_at",
        timeKey(db, "o.created_at").as("cursor_at"),
        "o.status",
        "o.payment_status",
        "o.payment_method",
        "o.subtotal_cents",
        "o.discount_amount_cents",
        "o.shipping_cents",
        "o.total_amount_cents",
        "o.invoice_number",
        sql<string | null>`o.shipping_address ->> 'name'`.as("ship_name"),
        sql<string | null>`o.shipping_address ->> 'province'`.as("ship_province"),
        "u.email",
      ])
      .where("o.created_at", "<", end);
    if (options.status === "paid") query = query.where("o.payment_status", "=", PAID);
    else if (options.status) query = query.where("o.status", "=", options.status);
    if (after) {
      const at = timeKeyValue(db, after.at);
      // The lower bound is the last key's time, not the range's start: SQLite seeks the index by the plain bound and
      // only filters by the row value, so with the range's start every batch scanned all the batches before it again
      // (a batch halfway through a million orders: 110 ms instead of 13).
      query = query.where("o.created_at", ">=", at).where(sql<boolean>`(o.created_at, o.id) > (${at}, ${after.id})`);
    } else {
      query = query.where("o.created_at", ">=", start);
    }
    return query.orderBy("o.created_at").orderBy("o.id").limit(limit).execute() as Promise<ExportOrder[]>;
  };
  for await (const orders of keysetBatches(read, (last) => ({ at: last.cursor_at, id: last.id }), options.batchSize ?? EXPORT_BATCH_SIZE)) {
    const ids = orders.map((o) => o.id);
    const [lines, refunds] = await Promise.all([options.lines ? linesOf(db, ids) : new Map<string, ExportLine[]>(), refundsByOrder(db, ids)]);
    yield orders.map((order) => {
      order.refunded_cents = refunds.get(order.id) ?? 0;
      return { order, lines: lines.get(order.id) ?? [] };
    });
  }
}

async function linesOf(db: Queryable, orderIds: string[]): Promise<Map<string, ExportLine[]>> {
  const rows = await db
    .selectFrom("order_lines")
    .select(["order_id", "quantity", "unit_price_cents", "total_price_cents"])
    .select(lineNameSql("order_lines").as("name"))
    .where("order_id", "in", orderIds)
    .orderBy("order_id")
    .orderBy("position")
    .orderBy("id")
    .execute();
  const out = new Map<string, ExportLine[]>();
  for (const row of rows) {
    const list = out.get(row.order_id);
    if (list) list.push(row);
    else out.set(row.order_id, [row]);
  }
  return out;
}

/** One order's cells, in ORDER_COLUMNS order. */
function orderCells(o: ExportOrder, invoicePrefix: string): string[] {
  const total = Number(o.total_amount_cents);
  return [
    saDay(o.created_at),
    saTime(o.created_at),
    shortOrderId(o.id),
    o.id,
    o.invoice_number === null ? "" : neutraliseCell(formatInvoiceNumber(Number(o.invoice_number), invoicePrefix)),
    neutraliseCell(o.ship_name ?? ""),
    neutraliseCell(o.email ?? ""),
    neutraliseCell(o.ship_province ?? ""),
    ORDER_STATUS_LABELS[o.status] ?? neutraliseCell(String(o.status)),
    paymentMethodShort(o.payment_method),
    paymentStatusLabel(o.payment_status),
    csvAmount(Number(o.subtotal_cents)),
    csvAmount(Number(o.discount_amount_cents)),
    csvAmount(Number(o.shipping_cents)),
    csvAmount(vatInInclusiveTotal(total)),
    csvAmount(total),
    // Refunds stand beside the total, never taken off it: the total is what the order's invoice says, each refund is a
    // credit note of its own (docs/decisions/041).
    csvAmount(Number(o.refunded_cents ?? 0)),
  ];
}

/**
 * A batch as UTF-8 bytes: one record per order, or one per line (an order without lines still gets one, its line cells
 * empty). Each record is encoded as soon as it is made, so none outlives the next: V8 moves objects that survive a
 * young-generation collection to the old generation, and then allocates everything made at the same place there
 * directly ("pretenuring"); a batch's thousand records all alive at once taught it that, and the old generation filled
 * with ~200 MB of garbage between full collections (SQLite, a million orders).
 */
function batchBytes(batch: Array<{ order: ExportOrder; lines: ExportLine[] }>, options: Pick<OrdersExportOptions, "lines" | "invoicePrefix">, encoder: TextEncoder): Uint8Array {
  let bytes = new Uint8Array(batch.length * 256 + 1024);
  let length = 0;
  const put = (cells: readonly string[]) => {
    const line = csvRecord(cells);
    // UTF-8 takes at most 3 bytes for each UTF-16 unit
    if (bytes.length - length < line.length * 3) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, length + line.length * 3));
      grown.set(bytes.subarray(0, length));
      bytes = grown;
    }
    length += encoder.encodeInto(line, bytes.subarray(length)).written;
  };
  for (const { order, lines } of batch) {
    const cells = orderCells(order, options.invoicePrefix);
    if (!options.lines) put(cells);
    else if (lines.length === 0) put([...cells, "", "", "", ""]);
    else for (const l of lines) put([...cells, neutraliseCell(l.name), String(l.quantity), csvAmount(Number(l.unit_price_cents)), csvAmount(Number(l.total_price_cents))]);
  }
  return bytes.subarray(0, length);
}

/**
 * The export as a byte stream for a Response: the header first, then one chunk per batch, each read only when the
 * client has taken the previous one (pull), so memory holds about one batch however long the file. A client that goes
 * away stops the reading (downloadStream).
 */
export function ordersCsvStream(db: Queryable, options: OrdersExportOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return downloadStream(
    async function* () {
      // with a byte-order mark: Excel then reads the file as UTF-8
      yield `\ufeff${csvRecord([...ORDER_COLUMNS, ...(options.lines ? LINE_COLUMNS : [])])}`;
      for await (const batch of orderBatches(db, options)) yield batchBytes(batch, options, encoder);
    },
    { name: "orders export", context: { from: options.from, to: options.to } },
  );
}
