import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Couriers (issue 19): how an order is delivered, its shipment with the courier, the shipment's tracking events, the
 * couriers' lockers and pick-up points, a shared cache of courier quotes, and the review request after delivery.
 *
 * - `products.weight_grams`: what one bottle weighs packed (null: the shop's default, see delivery settings).
 * - `orders.delivery_*`: what the shopper chose at checkout — kind (door, locker, point), courier, service level,
 *   the locker / point (its code and a copy of its name and address as shown), the promised window — and where the
 *   price came from (`courier`: a live quote, `table`: the zone's table rate because no quote came in time, `flat`:
 *   the owner's flat price). Null on orders placed before couriers, which ship by the zone table as before.
 * - `shipments`: one booking with a courier. At most one that is not cancelled per order (a partial unique index):
 *   booking twice — a double click, a retry, two admins — finds the first instead of paying the courier twice.
 *   `status` is the latest tracking status; `booking` while the courier is being asked.
 * - `shipment_events`: each tracking event once (unique per shipment and event key), so a webhook and a poll that
 *   report the same event, or a replayed webhook, move the order once.
 * - `courier_points`: the couriers' lockers and pick-up points, refreshed daily, searched by the checkout.
 * - `courier_quote_cache`: live quotes by courier, destination, parcel and service, shared by every app process.
 * - `review_requests`: the one e-mail per delivered order asking for reviews (sent_at set once).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("products").addColumn("weight_grams", "integer").execute();
  for (const column of ["delivery_kind", "delivery_courier", "delivery_service_code", "delivery_service_name", "delivery_point_code", "delivery_price_source"]) {
    await db.schema.alterTable("orders").addColumn(column, "text").execute();
  }
  await db.schema.alterTable("orders").addColumn("delivery_point", t.json).execute();
  await db.schema.alterTable("orders").addColumn("delivery_window_from", "text").execute();
  await db.schema.alterTable("orders").addColumn("delivery_window_to", "text").execute();

  await db.schema
    .createTable("shipments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("courier", "text", (c) => c.notNull())
    .addColumn("service_code", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("courier_shipment_id", "text")
    .addColumn("tracking_reference", "text")
    .addColumn("tracking_url", "text")
    .addColumn("price_cents", "integer")
    .addColumn("collection_date", "text")
    .addColumn("collection_pin", "text")
    .addColumn("is_test", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("booked_at", t.timestamp)
    .addColumn("cancelled_at", t.timestamp)
    .addColumn("last_polled_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await sql`create unique index shipments_one_active_per_order on shipments (order_id) where status <> 'cancelled'`.execute(db);
  await db.schema.createIndex("shipments_tracking_reference_idx").on("shipments").columns(["courier", "tracking_reference"]).execute();
  await db.schema.createIndex("shipments_status_idx").on("shipments").column("status").execute();

  await db.schema
    .createTable("shipment_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("shipment_id", "text", (c) => c.notNull().references("shipments.id").onDelete("cascade"))
    .addColumn("event_key", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("occurred_at", t.timestamp, (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("location", "text")
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("received_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("shipment_events_key_idx").on("shipment_events").columns(["shipment_id", "event_key"]).unique().execute();

  await db.schema
    .createTable("courier_points")
    .addColumn("courier", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("street_address", "text", (c) => c.notNull())
    .addColumn("suburb", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("province", "text", (c) => c.notNull())
    .addColumn("postal_code", "text", (c) => c.notNull())
    .addColumn("lat", "double precision", (c) => c.notNull())
    .addColumn("lng", "double precision", (c) => c.notNull())
    .addColumn("hours", t.json, (c) => c.notNull())
    .addColumn("refreshed_at", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("courier_points_pk", ["courier", "code"])
    .execute();

  await db.schema
    .createTable("courier_quote_cache")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("rates", t.json, (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();

  // The review request job looks for orders delivered some days ago (an index, not a scan of every delivered order).
  await db.schema.createIndex("orders_status_delivered_idx").on("orders").columns(["status", "actual_delivery_date"]).execute();
  await db.schema
    .createTable("review_requests")
    .addColumn("order_id", "text", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("sent_at", t.timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("review_requests").execute();
  await db.schema.dropIndex("orders_status_delivered_idx").execute();
  await db.schema.dropTable("courier_quote_cache").execute();
  await db.schema.dropTable("courier_points").execute();
  await db.schema.dropTable("shipment_events").execute();
  await db.schema.dropTable("shipments").execute();
  for (const column of ["delivery_window_to", "delivery_window_from", "delivery_point", "delivery_price_source", "delivery_point_code", "delivery_service_name", "delivery_service_code", "delivery_courier", "delivery_kind"]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
  await db.schema.alterTable("products").dropColumn("weight_grams").execute();
}
