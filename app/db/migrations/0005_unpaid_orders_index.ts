import type { Kysely } from "kysely";

/**
 * The unpaid-order expiry (app/modules/orders/order-expiry.server.ts) asks every minute, on every app server, for
 * the oldest orders still pending / payment pending: an index on exactly those columns keeps that a short range scan
 * however many orders the shop has.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_unpaid_created_idx").on("orders").columns(["status", "payment_status", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("orders_unpaid_created_idx").execute();
}
