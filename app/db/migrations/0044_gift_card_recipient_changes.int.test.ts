import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/db.server";
import { migrateTo, migrateToLatest } from "~/db/migrate.server";
import { createThrowawayDatabase } from "../../../tests/setup/pg-database";
import { insertOrder } from "../../../tests/factories/orders";

/**
 * Migration 0044 on a shop that already sold cards: each card takes its sale's recipient name (none for the buyer's
 * own), a card already e-mailed counts one send and holds no claim any more, and a card still to go is left as it was.
 */
let shop: DatabaseHandle;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (process.env.TEST_DB === "postgres") {
    const made = await createThrowawayDatabase(process.env.TEST_PG_URL!, "m0044");
    shop = openDatabase(made.url, 2);
    drop = made.drop;
  } else {
    shop = openDatabase(":memory:");
  }
  await migrateTo(shop.db, "0043_whatsapp_reminders");
}, 60_000);

afterAll(async () => {
  await shop.close();
  await drop?.();
});

describe("migration 0044", () => {
  it("copies each sold card's recipient name and counts the e-mails already sent", async () => {
    const db = shop.db;
    const order = await insertOrder(db, { userId: null, lines: [{ productId: null, sizeId: null, name: "Gift card for Thandi" }, { productId: null, sizeId: null, name: "Gift card" }] });
    const sale = (id: string, line: number, name: string | null) => ({ id, order_id: order.id, order_line_id: order.lines[line]!.id, amount_cents: 50000, quantity: 1, recipient_name: name, recipient_email: name ? "thandi@example.co.za" : null, sender_name: null, message: null, send_on: "2026-12-01" });
    await db.insertInto("gift_card_sales").values([sale("s-for-thandi", 0, "Thandi"), sale("s-own", 1, null)]).execute();
    const card = (id: string, saleId: string | null, emailed: boolean) => ({
      id,
      code_hash: `hash-${id}`,
      last4: "ABCD",
      initial_cents: 50000,
      balance_cents: 50000,
      expires_at: "2029-12-01T00:00:00.000Z",
      issued_by_kind: "system" as const,
      issued_by: null,
      created_at: "2026-12-01T08:00:00.000Z",
      sale_id: saleId,
      sale_unit: saleId ? 1 : null,
      send_on: saleId ? "2026-12-01" : null,
      email_claimed_at: emailed ? "2026-12-01T08:00:00.000Z" : null,
      emailed_at: emailed ? "2026-12-01T08:00:01.000Z" : null,
    });
    await db.insertInto("gift_cards").values([card("c-thandi", "s-for-thandi", true), card("c-own", "s-own", false), card("c-hand", null, false)]).execute();

    await migrateToLatest(db);
    const rows = await db.selectFrom("gift_cards").select(["id", "recipient_name", "email_count", "email_claimed_at", "emailed_at"]).orderBy("id").execute();
    expect(rows.map((r) => ({ ...r, email_count: Number(r.email_count), emailed: r.emailed_at !== null, emailed_at: undefined }))).toEqual([
      { id: "c-hand", recipient_name: null, email_count: 0, email_claimed_at: null, emailed: false, emailed_at: undefined },
      { id: "c-own", recipient_name: null, email_count: 0, email_claimed_at: null, emailed: false, emailed_at: undefined },
      { id: "c-thandi", recipient_name: "Thandi", email_count: 1, email_claimed_at: null, emailed: true, emailed_at: undefined },
    ]);
    expect(await db.selectFrom("gift_card_changes").selectAll().execute()).toEqual([]);
  });
});
