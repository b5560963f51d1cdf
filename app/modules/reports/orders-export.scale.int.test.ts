/**
 * The export at scale (issue 20, DESIGN.md budgets: "CSV exports stream in < 300 MB of memory"): many generated orders
 * (50 000 by default; EXPORT_SCALE_ORDERS=1000000 for the budget's size, outside CI) are read through the route while
 * the test watches the heap: the file must arrive batch by batch, and the heap must not grow with it.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { beforeAll, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { loader } from "~/routes/admin.orders.export[.]csv";
import { newId } from "~/utils/ids";
import { TEST_ADDRESS } from "../../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { callLoader } from "../../../tests/setup/route";

const ORDERS = Number(process.env.EXPORT_SCALE_ORDERS ?? 50_000);
const YEAR_START = Date.parse("2018-01-01T00:00:00.000Z");
const YEAR_MS = 360 * 24 * 60 * 60 * 1000;
const MB = 1024 * 1024;

// The heap that is still in use, not the garbage not yet collected: a collection on demand (the flag, set at run time).
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
function liveHeap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

let cookie: string;
let customerId: string;

beforeAll(async () => {
  const db = getDb();
  customerId = (await createUser(db)).id;
  cookie = await sessionCookieFor(db, (await createUser(db, { isAdmin: true })).id);
  const started = performance.now();
  const address = JSON.stringify(TEST_ADDRESS);
  const CHUNK = 1000;
  for (let from = 0; from < ORDERS; from += CHUNK) {
    const rows = [];
    for (let i = from; i < Math.min(ORDERS, from + CHUNK); i++) {
      const at = new Date(YEAR_START + Math.floor((i / ORDERS) * YEAR_MS)).toISOString();
      const subtotal = 10000 + (i % 5000) * 7;
      rows.push({
        id: newId(),
        user_id: customerId,
        status: "delivered" as const,
        payment_status: "completed" as const,
        subtotal_cents: subtotal,
        shipping_cents: 7000,
        total_amount_cents: subtotal + 7000,
        shipping_address: address,
        created_at: at,
        updated_at: at,
      });
    }
    await db.insertInto("orders").values(rows).execute();
  }
  console.log(`orders export scale: ${ORDERS} orders inserted in ${Math.round(performance.now() - started)} ms`);
}, 600_000);

it(`streams ${ORDERS} orders batch by batch with a flat heap`, async () => {
  const db = getDb();
  const heapBefore = liveHeap();
  const started = performance.now();
  const response = (await callLoader(loader, "/admin/orders/export.csv?from=2018-01-01&to=2018-12-31", { headers: { cookie } })) as Response;
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();

  let bytes = 0;
  let newlines = 0;
  let chunks = 0;
  let firstDataMs = 0;
  let peakHeap = heapBefore;
  let peakRss = process.memoryUsage().rss;
  let lateSeen = false;
  const decoder = new TextDecoder();
  const late = `Late ${newId()}`;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks += 1;
    bytes += value.byteLength;
    for (const b of value) if (b === 0x0a) newlines += 1;
    if (!lateSeen && chunks > 2) lateSeen = decoder.decode(value).includes(late);
    if (chunks === 2) {
      firstDataMs = performance.now() - started;
      // An order placed now, at the end of the range, after the first rows have left: a file built before sending could
      // not hold it; a streamed one reads it when it gets there.
      await db.insertInto("orders").values({ id: newId(), user_id: customerId, subtotal_cents: 100, shipping_cents: 0, total_amount_cents: 100, shipping_address: JSON.stringify({ ...TEST_ADDRESS, name: late }), created_at: "2018-12-31T12:00:00.000Z", updated_at: "2018-12-31T12:00:00.000Z" }).execute();
    }
    if (chunks % 10 === 0) {
      peakHeap = Math.max(peakHeap, liveHeap());
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
  }
  const totalMs = performance.now() - started;
  const growth = peakHeap - heapBefore;
  console.log(
    `orders export scale: ${newlines - 1} rows, ${(bytes / MB).toFixed(1)} MB in ${chunks} chunks; first rows after ${Math.round(firstDataMs)} ms, ` +
      `all after ${Math.round(totalMs)} ms; live heap ${(heapBefore / MB).toFixed(0)} MB before, grew at most ${(growth / MB).toFixed(1)} MB; ` +
      `peak RSS ${(peakRss / MB).toFixed(0)} MB (the test process, its in-memory database included)`,
  );
  expect(newlines).toBe(ORDERS + 2); // header, the orders, the late one
  expect(lateSeen).toBe(true);
  expect(firstDataMs).toBeLessThan(totalMs / 4);
  // A batch in flight and the one read ahead: a few MB whatever the number of orders (the whole file would not fit).
  expect(growth).toBeLessThan(16 * MB);
}, 600_000);
