import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/db.server";
import { migrateTo, migrateToLatest } from "~/db/migrate.server";
import { createThrowawayDatabase } from "../../../tests/setup/pg-database";
import { insertOrder } from "../../../tests/factories/orders";

/**
 * Migration 0043 on a shop with WhatsApp messages already sent (SQLite rebuilds the table to let `order_id` be null):
 * every message and subscription comes through unchanged, a cart reminder's message (no order) can be stored, and an
 * order's messages still go with the order.
 */
let shop: DatabaseHandle;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (process.env.TEST_DB === "postgres") {
    const made = await createThrowawayDatabase(process.env.TEST_PG_URL!, "m0043");
    shop = openDatabase(made.url, 2);
    drop = made.drop;
  } else {
    shop = openDatabase(":memory:");
  }
  await migrateTo(shop.db, "0040_wishlists_and_stock_alerts");
}, 60_000);

afterAll(async () => {
  await shop.close();
  await drop?.();
});

const message = (id: string, orderId: string | null, userId: string) => ({
  id,
  dedupe_key: `k:${id}`,
  order_id: orderId,
  user_id: userId,
  event: "payment_received",
  to_phone: "27825550001",
  template: "payment_received",
  language: "en",
  params: JSON.stringify(["Thandi", "R 1.00"]),
  status: "delivered" as const,
  is_test: true,
  next_attempt_at: "2026-12-01T10:00:00.000Z",
  wamid: "wamid.1",
  created_at: "2026-12-01T10:00:00.000Z",
  updated_at: "2026-12-01T10:00:01.000Z",
  delivered_at: "2026-12-01T10:00:02.000Z",
});

describe("migration 0043", () => {
  it("keeps every WhatsApp message and subscription, then stores a message without an order", async () => {
    const db = shop.db;
    const user = { id: "u-0043" };
    const stamp = "2026-12-01T08:00:00.000Z";
    await db
      .insertInto("users")
      .values({ id: user.id, email: "m0043@example.com", name: "Thandi", email_verified: true, image: null, is_admin: false, email_notifications: true, email_marketing: false, created_at: stamp, updated_at: stamp })
      .execute();
    const order = await insertOrder(db, { userId: user.id });
    await db.insertInto("whatsapp_subscriptions").values({ user_id: user.id, phone: "27825550001", opted_in_at: "2026-12-01T09:00:00.000Z", updated_at: "2026-12-01T09:00:00.000Z" }).execute();
    await db.insertInto("whatsapp_messages").values(message("m1", order.id, user.id)).execute();
    const before = await db.selectFrom("whatsapp_messages").selectAll().executeTakeFirstOrThrow();

    await migrateToLatest(db);
    const after = await db.selectFrom("whatsapp_messages").selectAll().executeTakeFirstOrThrow();
    expect(after).toEqual({ ...before, reminder_id: null });
    expect(await db.selectFrom("whatsapp_subscriptions").select(["phone", "marketing_opted_in_at"]).execute()).toEqual([{ phone: "27825550001", marketing_opted_in_at: null }]);

    await db.insertInto("whatsapp_messages").values(message("m2", null, user.id)).execute();
    // an order's messages still go with it (the foreign key survived the rebuild)
    await db.deleteFrom("order_lines").where("order_id", "=", order.id).execute();
    await db.deleteFrom("orders").where("id", "=", order.id).execute();
    expect((await db.selectFrom("whatsapp_messages").select("id").execute()).map((m) => m.id)).toEqual(["m2"]);
  });
});
