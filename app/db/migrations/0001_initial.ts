import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * The whole data model of SPEC section 3, portable between SQLite and PostgreSQL.
 * Money is integer cents (*_cents) and never negative; ids are text.
 */
export async function up(db: Kysely<any>) {
  const t = columnTypes(db);

  // --- accounts (better-auth's tables, snake_case columns; users carries the shop's profile fields) ---
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("email_verified", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("image", "text")
    .addColumn("is_admin", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("email_notifications", t.bool, (c) => c.notNull().defaultTo(t.true))
    .addColumn("email_marketing", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("marketing_consent_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("users_created_at_idx").on("users").column("created_at").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("ip_address", "text")
    .addColumn("user_agent", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("access_token", "text")
    .addColumn("refresh_token", "text")
    .addColumn("id_token", "text")
    .addColumn("access_token_expires_at", t.timestamp)
    .addColumn("refresh_token_expires_at", t.timestamp)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("accounts_user_id_idx").on("accounts").column("user_id").execute();

  await db.schema
    .createTable("verifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("verifications_identifier_idx").on("verifications").column("identifier").execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("last_request", "bigint", (c) => c.notNull())
    .execute();

  // --- catalogue ---
  await db.schema
    .createTable("categories")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("products")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn("images", t.json, (c) => c.notNull().defaultTo(t.emptyJsonArray))
    .addColumn("category_id", "text", (c) => c.references("categories.id").onDelete("set null"))
    .addColumn("meta_title", "text")
    .addColumn("meta_desc", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  // Home and shop list newest first, optionally within a category and under a price.
  await db.schema.createIndex("products_created_at_idx").on("products").columns(["created_at", "id"]).execute();
  await db.schema
    .createIndex("products_category_created_idx")
    .on("products")
    .columns(["category_id", "created_at"])
    .execute();
  await db.schema.createIndex("products_price_idx").on("products").column("price_cents").execute();

  await db.schema
    .createTable("product_tiers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("min_quantity", "integer", (c) => c.notNull().check(sql`min_quantity >= 1`))
    .addColumn("max_quantity", "integer")
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents >= 0`))
    .addCheckConstraint("product_tiers_range_check", sql`max_quantity is null or max_quantity >= min_quantity`)
    .execute();
  await db.schema
    .createIndex("product_tiers_product_idx")
    .on("product_tiers")
    .columns(["product_id", "min_quantity"])
    .execute();

  await db.schema
    .createTable("reviews")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("rating", "integer", (c) => c.notNull().check(sql`rating between 1 and 5`))
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    // One review per buyer per product: submitting again updates it in place.
    .addUniqueConstraint("reviews_product_user_unique", ["product_id", "user_id"])
    .execute();
  await db.schema.createIndex("reviews_product_created_idx").on("reviews").columns(["product_id", "created_at"]).execute();
  await db.schema.createIndex("reviews_created_idx").on("reviews").column("created_at").execute();

  // --- shipping ---
  await db.schema
    .createTable("shipping_zones")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("base_rate_cents", "integer", (c) => c.notNull().check(sql`base_rate_cents >= 0`))
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("shipping_rules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("zone_id", "text", (c) => c.notNull().references("shipping_zones.id").onDelete("cascade"))
    .addColumn("min_total_cents", "integer", (c) => c.notNull().check(sql`min_total_cents >= 0`))
    .addColumn("max_total_cents", "integer")
    .addColumn("rate_cents", "integer", (c) => c.notNull().check(sql`rate_cents >= 0`))
    .addCheckConstraint(
      "shipping_rules_range_check",
      sql`max_total_cents is null or max_total_cents >= min_total_cents`,
    )
    .execute();
  await db.schema
    .createIndex("shipping_rules_zone_idx")
    .on("shipping_rules")
    .columns(["zone_id", "min_total_cents"])
    .execute();

  // --- coupons ---
  await db.schema
    .createTable("coupons")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("discount_type", "text", (c) =>
      c.notNull().check(sql`discount_type in ('percentage', 'fixed_amount', 'free_delivery')`),
    )
    .addColumn("discount_value", "integer", (c) => c.notNull().check(sql`discount_value >= 0`))
    .addColumn("minimum_spend_cents", "integer", (c) => c.notNull().defaultTo(0).check(sql`minimum_spend_cents >= 0`))
    .addColumn("max_redemptions", "integer", (c) => c.check(sql`max_redemptions is null or max_redemptions >= 1`))
    .addColumn("times_redeemed", "integer", (c) => c.notNull().defaultTo(0).check(sql`times_redeemed >= 0`))
    .addColumn("start_date", t.timestamp, (c) => c.notNull())
    .addColumn("end_date", t.timestamp, (c) => c.notNull())
    .addColumn("is_active", t.bool, (c) => c.notNull().defaultTo(t.true))
    .addColumn("description", "text")
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addCheckConstraint("coupons_percentage_check", sql`discount_type <> 'percentage' or discount_value <= 100`)
    .addCheckConstraint("coupons_dates_check", sql`end_date >= start_date`)
    .execute();

  // --- orders ---
  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending', 'processing', 'shipped', 'delivered', 'cancelled')`),
    )
    .addColumn("payment_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`payment_status in ('pending', 'completed', 'failed', 'cancelled')`),
    )
    .addColumn("subtotal_cents", "integer", (c) => c.notNull().check(sql`subtotal_cents >= 0`))
    .addColumn("discount_amount_cents", "integer", (c) => c.notNull().defaultTo(0).check(sql`discount_amount_cents >= 0`))
    .addColumn("shipping_cents", "integer", (c) => c.notNull().check(sql`shipping_cents >= 0`))
    .addColumn("total_amount_cents", "integer", (c) => c.notNull().check(sql`total_amount_cents >= 0`))
    .addColumn("original_total_cents", "integer", (c) => c.check(sql`original_total_cents is null or original_total_cents >= 0`))
    .addColumn("coupon_code", "text")
    .addColumn("shipping_zone_id", "text", (c) => c.references("shipping_zones.id").onDelete("set null"))
    .addColumn("shipping_address", t.json, (c) => c.notNull())
    .addColumn("payment_provider", "text")
    .addColumn("payment_id", "text")
    .addColumn("notes", "text")
    .addColumn("tracking_number", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("processing_started_at", t.timestamp)
    .addColumn("shipped_at", t.timestamp)
    .addColumn("actual_delivery_date", t.timestamp)
    .execute();
  await db.schema.createIndex("orders_user_created_idx").on("orders").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("orders_status_created_idx").on("orders").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("orders_payment_id_idx").on("orders").column("payment_id").execute();

  await db.schema
    .createTable("order_lines")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("product_id", "text", (c) => c.references("products.id").onDelete("set null"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity >= 1`))
    .addColumn("unit_price_cents", "integer", (c) => c.notNull().check(sql`unit_price_cents >= 0`))
    .addColumn("total_price_cents", "integer", (c) => c.notNull().check(sql`total_price_cents >= 0`))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("order_lines_order_idx").on("order_lines").column("order_id").execute();
  // Review permission: "has this user an order containing this product".
  await db.schema.createIndex("order_lines_product_idx").on("order_lines").column("product_id").execute();

  await db.schema
    .createTable("order_metrics")
    .addColumn("order_id", "text", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
    .addColumn("processing_time", "integer", (c) => c.check(sql`processing_time is null or processing_time >= 0`))
    .addColumn("delivery_time", "integer", (c) => c.check(sql`delivery_time is null or delivery_time >= 0`))
    .execute();

  await db.schema
    .createTable("coupon_usage")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("coupon_id", "text", (c) => c.notNull().references("coupons.id").onDelete("cascade"))
    .addColumn("order_id", "text", (c) => c.notNull().unique().references("orders.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("discount_amount_cents", "integer", (c) => c.notNull().check(sql`discount_amount_cents >= 0`))
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("coupon_usage_coupon_idx").on("coupon_usage").column("coupon_id").execute();

  await db.schema
    .createTable("payment_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("provider_event_id", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer")
    .addColumn("currency", "text")
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("received_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addUniqueConstraint("payment_events_provider_event_unique", ["provider", "provider_event_id"])
    .execute();

  // --- contact, mail, settings ---
  await db.schema
    .createTable("contact_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("sent_at", t.timestamp)
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("mail_outbox_created_idx").on("mail_outbox").column("created_at").execute();

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of [
    "settings",
    "mail_outbox",
    "contact_messages",
    "payment_events",
    "coupon_usage",
    "order_metrics",
    "order_lines",
    "orders",
    "coupons",
    "shipping_rules",
    "shipping_zones",
    "reviews",
    "product_tiers",
    "products",
    "categories",
    "rate_limits",
    "verifications",
    "accounts",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
