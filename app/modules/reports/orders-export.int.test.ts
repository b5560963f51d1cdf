/**
 * The accountant's export through its route (issue 20): which orders, the columns and amounts, lines, the BOM,
 * neutralised formulas, totals equal to salesTotals, and refusals. Each test uses its own year, so they don't mix.
 */
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { loader } from "~/routes/admin.orders.export[.]csv";
import { insertOrder, TEST_ADDRESS } from "../../../tests/factories/orders";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { AliasNode, TableNode, type KyselyPlugin, type RootOperationNode } from "kysely";
import { LINE_COLUMNS, ORDER_COLUMNS, orderBatches, ordersCsvStream } from "./orders-export.server";
import { EXPORT_MESSAGES } from "./reports.schema";
import { salesTotals } from "./sales-totals.server";

let admin: TestUser;
let customer: TestUser;
let cookie: string;

beforeAll(async () => {
  const db = getDb();
  admin = await createUser(db, { isAdmin: true });
  customer = await createUser(db);
  cookie = await sessionCookieFor(db, admin.id);
});

async function exportCsv(query: string) {
  const result = await callLoader(loader, `/admin/orders/export.csv?${query}`, { headers: { cookie } });
  expect(statusOf(result)).toBe(200);
  const response = result as Response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  // TextDecoder drops the BOM: look at the bytes.
  const bom = [...bytes.slice(0, 3)];
  const text = new TextDecoder().decode(bytes);
  const [header, ...rows] = parse(text) as string[][];
  return { response, bom, text, header: header!, rows };
}

const col = (name: (typeof ORDER_COLUMNS)[number] | (typeof LINE_COLUMNS)[number]) => [...ORDER_COLUMNS, ...LINE_COLUMNS].indexOf(name);
const cents = (amount: string) => Math.round(Number(amount) * 100);

describe("GET /admin/orders/export.csv", () => {
  it("holds exactly the orders placed in the range, its first and last days included in South African time", async () => {
    const db = getDb();
    const at = (iso: string) => insertOrder(db, { userId: customer.id, createdAt: iso });
    const [, first, last] = [
      await at("2021-02-28T21:59:59.999Z"), // 23:59 on 28 February in South Africa: before
      await at("2021-02-28T22:00:00.000Z"), // 00:00 on 1 March
      await at("2021-03-31T21:59:59.999Z"), // 23:59 on 31 March
      await at("2021-03-31T22:00:00.000Z"), // 00:00 on 1 April: after
    ];
    const { rows } = await exportCsv("from=2021-03-01&to=2021-03-31");
    expect(rows.map((r) => r[col("Order ID")])).toEqual([first!.id, last!.id]);
    expect(rows.map((r) => [r[col("Date")], r[col("Time (SAST)")]])).toEqual([
      ["2021-03-01", "00:00"],
      ["2021-03-31", "23:59"],
    ]);
  });

  it("writes one row per order with every column, amounts in rand with a dot, and a BOM", async () => {
    const db = getDb();
    const order = await insertOrder(db, {
      userId: customer.id,
      createdAt: "2022-06-15T10:30:00.000Z",
      lines: [{ name: "Amber Oud", quantity: 2, unitPriceCents: 45000 }],
      couponCode: "WINTER10",
      discountCents: 9000,
      shippingCents: 7000,
      shippingAddress: { ...TEST_ADDRESS, name: "Zoë Mokoena", province: "Western Cape" },
    });
    await db.transaction().execute((trx) => markOrderPaid(trx, order.id));
    const { invoice_number } = await db.selectFrom("orders").select("invoice_number").where("id", "=", order.id).executeTakeFirstOrThrow();
    const { response, bom, text, header, rows } = await exportCsv("from=2022-06-15&to=2022-06-15");
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="scentara-orders-2022-06-15-to-2022-06-15.csv"');
    expect(bom).toEqual([0xef, 0xbb, 0xbf]);
    expect(text).toContain("\r\n");
    expect(header).toEqual([...ORDER_COLUMNS]);
    // total 900.00 − 90.00 + 70.00 = 880.00; VAT 880 × 15 / 115 = 114.78
    expect(rows).toEqual([
      [
        "2022-06-15",
        "12:30",
        order.id.slice(0, 8),
        order.id,
        `INV-${String(invoice_number).padStart(6, "0")}`,
        "Zoë Mokoena",
        customer.email,
        "Western Cape",
        "Processing",
        "Card",
        "Completed",
        "900.00",
        "90.00",
        "70.00",
        "114.78",
        "880.00",
        "0.00",
      ],
    ]);
  });

  it("with lines=1 writes one row per order line, the order's columns repeated", async () => {
    const db = getDb();
    const order = await insertOrder(db, {
      userId: customer.id,
      createdAt: "2023-01-10T08:00:00.000Z",
      lines: [
        { name: "Amber Oud", quantity: 2, unitPriceCents: 45000 },
        { name: "Citrus Veil", quantity: 1, unitPriceCents: 29999 },
      ],
    });
    const { header, rows } = await exportCsv("from=2023-01-10&to=2023-01-10&lines=1&status=pending");
    expect(header).toEqual([...ORDER_COLUMNS, ...LINE_COLUMNS]);
    expect(rows.map((r) => r.slice(ORDER_COLUMNS.length))).toEqual([
      ["Amber Oud", "2", "450.00", "900.00"],
      ["Citrus Veil", "1", "299.99", "299.99"],
    ]);
    expect(rows.map((r) => [r[col("Order ID")], r[col("Invoice")], r[col("Status")], r[col("Total (ZAR)")]])).toEqual([
      [order.id, "", "Pending", "1269.99"],
      [order.id, "", "Pending", "1269.99"],
    ]);
  });

  it("neutralises a customer's formula (=HYPERLINK…) and a product name starting with @", async () => {
    const db = getDb();
    await insertOrder(db, {
      userId: customer.id,
      createdAt: "2024-05-05T09:00:00.000Z",
      shippingAddress: { ...TEST_ADDRESS, name: '=HYPERLINK("http://x")', province: "+Gauteng" },
      lines: [{ name: "@SUM(A1)", unitPriceCents: 10000 }],
    });
    const { rows, text } = await exportCsv("from=2024-05-05&to=2024-05-05&lines=1");
    expect(rows[0]![col("Customer")]).toBe(`'=HYPERLINK("http://x")`);
    expect(rows[0]![col("Province")]).toBe("'+Gauteng");
    expect(rows[0]![col("Product")]).toBe("'@SUM(A1)");
    // No cell of the file starts a formula.
    expect(text.split(/\r\n/).some((line) => /(^|,)"?[=+\-@]/.test(line))).toBe(false);
  });

  it("its paid orders add up to salesTotals for the same range, whatever else it holds", async () => {
    const db = getDb();
    const day = (d: number) => `2020-04-${String(d).padStart(2, "0")}T${String(d % 24).padStart(2, "0")}:15:00.000Z`;
    const specs = [
      { paymentStatus: "completed", status: "processing", discountCents: 1000, shippingCents: 7000, createdAt: day(1) },
      { paymentStatus: "completed", status: "delivered", discountCents: 0, shippingCents: 0, createdAt: day(2) },
      { paymentStatus: "completed", status: "cancelled", discountCents: 2500, shippingCents: 9900, createdAt: day(3) },
      { paymentStatus: "pending", status: "pending", discountCents: 0, shippingCents: 7000, createdAt: day(4) },
      { paymentStatus: "failed", status: "cancelled", discountCents: 0, shippingCents: 7000, createdAt: day(5) },
      { paymentStatus: "completed", status: "shipped", discountCents: 0, shippingCents: 7000, createdAt: "2020-05-01T12:00:00.000Z" }, // outside
    ] as const;
    for (const [i, s] of specs.entries()) await insertOrder(db, { userId: customer.id, lines: [{ quantity: i + 1, unitPriceCents: 12345 + i * 1111 }], ...s });
    const range = { from: "2020-04-01", to: "2020-04-30" };
    const totals = await salesTotals(db, range);
    const sum = (rows: string[][], name: Parameters<typeof col>[0]) => rows.reduce((s, r) => s + cents(r[col(name)]!), 0);
    const check = (rows: string[][]) => {
      expect(rows.length).toBe(totals.orders);
      expect({
        revenueCents: sum(rows, "Total (ZAR)"),
        subtotalCents: sum(rows, "Subtotal (ZAR)"),
        discountCents: sum(rows, "Discount (ZAR)"),
        deliveryCents: sum(rows, "Delivery (ZAR)"),
        vatCents: sum(rows, "VAT included (ZAR)"),
      }).toEqual({ revenueCents: totals.revenueCents, subtotalCents: totals.subtotalCents, discountCents: totals.discountCents, deliveryCents: totals.deliveryCents, vatCents: totals.vatCents });
    };
    expect(totals.orders).toBe(3);
    check((await exportCsv("from=2020-04-01&to=2020-04-30&status=paid")).rows);
    const all = (await exportCsv("from=2020-04-01&to=2020-04-30")).rows;
    expect(all.length).toBe(5);
    check(all.filter((r) => r[col("Payment status")] === "Completed"));
  });

  it("reads orders placed at the same instant once each across batches", async () => {
    const db = getDb();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await insertOrder(db, { userId: null, lines: [], createdAt: "2019-07-07T07:07:07.007Z" })).id);
    const seen = [];
    for await (const batch of orderBatches(db, { from: "2019-07-07", to: "2019-07-07", lines: false, status: null, invoicePrefix: "INV-", batchSize: 2 })) seen.push(...batch.map((b) => b.order.id));
    expect(seen.sort()).toEqual(ids.sort());
  });

  it("quotes a cell holding a comma, a quote or a line break, so it reads back as one cell", async () => {
    const db = getDb();
    const name = 'Naledi "Ledi" Dube, Jr.\r\nc/o Sipho\nDube';
    await insertOrder(db, { userId: customer.id, createdAt: "2017-03-03T09:00:00.000Z", shippingAddress: { ...TEST_ADDRESS, name }, lines: [{ name: "Oud, Rose & Amber", unitPriceCents: 10000 }] });
    const { rows } = await exportCsv("from=2017-03-03&to=2017-03-03&lines=1");
    expect(rows.map((r) => [r.length, r[col("Customer")], r[col("Product")]])).toEqual([[ORDER_COLUMNS.length + LINE_COLUMNS.length, name, "Oud, Rose & Amber"]]);
  });

  it("reads the next batch only when the download has taken the one before, and stops when it goes away", async () => {
    // A client slower than the database must cost the server one batch read ahead, not the orders it has not taken
    // yet; and one that leaves must stop the reading. Counted as the export's queries on orders, after letting the
    // stream run as far as it would by itself.
    const db = getDb();
    for (let i = 0; i < 12; i++) await insertOrder(db, { userId: customer.id, lines: [], createdAt: `2017-08-0${1 + (i % 9)}T10:00:00.000Z` });
    let reads = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        if (readsOrders(args.node)) reads += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const settle = async () => {
      for (let i = 0; i < 20; i++) await new Promise((done) => setTimeout(done, 5));
    };
    const reader = ordersCsvStream(db.withPlugin(counting), { from: "2017-08-01", to: "2017-08-09", lines: false, status: null, invoicePrefix: "INV-", batchSize: 3 }).getReader();
    await settle();
    expect(reads).toBe(0); // the header is ready; no order read before the client asks
    const taken: string[] = [];
    for (let chunk = 0; chunk < 3; chunk++) {
      taken.push(new TextDecoder().decode((await reader.read()).value));
      await settle();
      // the header and `chunk` batches taken: at most the next batch read ahead
      expect(reads).toBeLessThanOrEqual(chunk + 1);
    }
    expect(taken.join("").split("\r\n").length - 2).toBe(6); // two batches of 3 orders have arrived
    await reader.cancel();
    const readsWhenLeft = reads;
    await settle();
    expect(reads).toBe(readsWhenLeft);
    expect(reads).toBeLessThan(5); // the 12 orders take 4 batches and a last empty read: not all were read
  });

  it("refuses a bad query with 400 and what to fix", async () => {
    for (const [query, error] of [
      ["from=2026-03-02&to=2026-03-01", EXPORT_MESSAGES.order],
      ["from=2015-01-01&to=2026-03-01", EXPORT_MESSAGES.tooLong],
      ["from=01/03/2026&to=2026-03-31", EXPORT_MESSAGES.from],
      ["from=2026-03-01", EXPORT_MESSAGES.to],
      ["from=2026-03-01&to=2026-03-31&status=refunded", EXPORT_MESSAGES.status],
    ] as const) {
      const result = await callLoader(loader, `/admin/orders/export.csv?${query}`, { headers: { cookie } });
      expect(statusOf(result), query).toBe(400);
      expect((await dataOf(result)).error, query).toBe(error);
    }
  });
});

/** Is this query the export's read of a batch of orders (from "orders as o")? */
function readsOrders(node: RootOperationNode): boolean {
  if (node.kind !== "SelectQueryNode") return false;
  const from = node.from?.froms[0];
  return !!from && AliasNode.is(from) && TableNode.is(from.node) && from.node.table.identifier.name === "orders";
}
