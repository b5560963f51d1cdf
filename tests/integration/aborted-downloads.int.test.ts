/**
 * A shopper (or a crawler, or the owner) who hangs up mid-download is not an error (issue 39 point 6). Each streamed
 * download — the sitemap (through its route), the products CSV and the consent log CSV — is served by a real HTTP
 * server the way the shop serves it (@react-router/node's writeReadableStreamToWritable, which the Express adapter
 * uses), to a real HTTP client in a process of its own (so it hangs up while the server is still busy, as a phone
 * would, even on SQLite whose reads hold this process) that reads the first bytes and closes the connection. Then: one info line says the
 * download was abandoned and how much had been sent (less than the whole), nothing is logged as an error (on PostgreSQL it was "Invalid
 * state: Controller is already closed"), and the database holds nothing for it: no connection of the shop's left
 * reading or in a transaction (PostgreSQL), and the next write goes through at once.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeReadableStreamToWritable } from "@react-router/node";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, isPostgres } from "~/db/db.server";
import { productsCsvStream } from "~/modules/catalog-csv/csv-export.server";
import { consentLogCsvStream } from "~/modules/consent/consent.server";
import { seedLargeCatalogue } from "~/modules/demo/seed.server";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { loader as sitemapLoader } from "~/routes/sitemap[.]xml";

// Each download is a few megabytes (far more than the connection's buffers hold while the client reads nothing), so
// the server is still streaming when the client hangs up.
const PRODUCTS = 20_000;
const CONSENTS = 30_000;

const downloads: Record<string, () => Promise<Response> | Response> = {
  "/sitemap.xml": () => sitemapLoader(),
  "/admin/products/export.csv": () => new Response(productsCsvStream(getDb(), { baseUrl: "http://localhost:3000" })),
  "/admin/consents.csv": () => new Response(consentLogCsvStream(getDb())),
};

let server: Server;
let base: string;

beforeAll(async () => {
  await seedLargeCatalogue(getDb(), { products: PRODUCTS, orders: 0, users: 1 });
  const at = Date.now() - 400 * 86_400_000;
  const consents = Array.from({ length: CONSENTS }, (_, i) => ({
    id: newId(),
    user_id: null,
    email: `shopper.${i}@example.co.za`,
    purpose: "marketing_email" as const,
    version: "2026-01",
    wording: "Yes, send me news of new scents and offers by e-mail. I can unsubscribe at any time from any e-mail.",
    granted: i % 3 !== 0,
    source: "checkout" as const,
    actor_user_id: null,
    created_at: new Date(at + i * 60_000).toISOString(),
  }));
  for (let i = 0; i < consents.length; i += 2000) await getDb().insertInto("consents").values(consents.slice(i, i + 2000)).execute();
  server = createServer(async (req, res) => {
    const response = await downloads[req.url ?? ""]!();
    res.writeHead(response.status, Object.fromEntries(response.headers));
    // as the Express adapter sends a Response: a closed connection cancels the body and ends here
    await writeReadableStreamToWritable(response.body!, res).catch(() => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

afterEach(() => vi.restoreAllMocks());

/**
 * A client in another process GETs `path`, reads until the first bytes of the body arrive, then closes the connection
 * (destroys its socket) and exits. Returns how many bytes it got.
 */
function hangUpAfterFirstBytes(path: string): Promise<number> {
  const client = `
    const req = require("node:http").get(process.argv[1], (res) => {
      if (res.statusCode !== 200) { console.log("status " + res.statusCode); process.exit(1); }
      res.once("data", (chunk) => { req.destroy(); console.log(chunk.length); process.exit(0); });
    });
    req.on("error", (e) => { console.log(String(e)); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["-e", client, `${base}${path}`], (error, stdout) => {
      if (error) reject(new Error(`client: ${stdout || error.message}`));
      else resolve(Number(stdout.trim()));
    });
  });
}

/** The shop's other connections to this database busy with a query or inside a transaction (PostgreSQL). */
async function busyConnections(): Promise<number> {
  const { rows } = await sql<{ n: unknown }>`
    select count(*) as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and state in ('active', 'idle in transaction', 'idle in transaction (aborted)')
  `.execute(getDb());
  return Number(rows[0]!.n);
}

describe("a download abandoned mid-stream", () => {
  for (const path of Object.keys(downloads)) {
    it(`${path}: logged once at info with what was sent, never as an error, and its database reads end at once`, { timeout: 60_000 }, async () => {
      const error = vi.spyOn(logger, "error");
      const warn = vi.spyOn(logger, "warn");
      let abandoned!: (line: Record<string, unknown>) => void;
      const logged = new Promise<Record<string, unknown>>((resolve) => (abandoned = resolve));
      const info = vi.spyOn(logger, "info").mockImplementation(((fields: Record<string, unknown>, message?: string) => {
        if (typeof message === "string" && message.includes("the client closed the connection before the end")) abandoned(fields);
      }) as never);

      const received = await hangUpAfterFirstBytes(path);
      expect(received).toBeGreaterThan(0);
      // written once the download's reads have stopped (downloadStream's cancel)
      const line = await logged;
      expect(line.bytes).toEqual(expect.any(Number));
      expect(line.bytes as number).toBeGreaterThanOrEqual(received);
      expect(line.chunks as number).toBeGreaterThan(0);
      const lines = info.mock.calls.filter(([, message]) => String(message).includes("the client closed the connection before the end"));
      expect(lines).toHaveLength(1);
      expect(error).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();

      // nothing held: no connection of the shop's still reading or in a transaction, and a write goes through
      // (polled for a moment: a backend reports itself idle in pg_stat_activity only after its last answer has gone
      // out, and a CI run once read the shop's connection in that instant; a cursor or transaction left open stays
      // busy and still fails this)
      if (isPostgres(getDb())) await expect.poll(busyConnections, { timeout: 2_000, interval: 20 }).toBe(0);
      await getDb()
        .insertInto("consents")
        .values({ id: newId(), user_id: null, email: "after@example.co.za", purpose: "terms", version: "1", wording: "Terms", granted: true, source: "checkout", actor_user_id: null, created_at: new Date().toISOString() })
        .execute();
      // the same download, read to its end, still works
      const whole = await fetch(`${base}${path}`);
      expect(whole.status).toBe(200);
      // and what the abandoned one had sent was less than all of it
      expect((await whole.arrayBuffer()).byteLength).toBeGreaterThan(line.bytes as number);
      expect(error).not.toHaveBeenCalled();
    });
  }
});
