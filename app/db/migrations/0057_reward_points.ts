import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Points counted in rand (issue 40 point 1, docs/decisions/062; app/modules/rewards).
 *
 * - `reward_accounts`: one per shopper who joined the programme (`joined_at`: their consent, also in the consent
 *   log). The three balances are the sums of the ledger, changed only by one conditional UPDATE each time (never
 *   below zero): `available_points` to spend, `pending_points` earned on orders still inside their return window,
 *   `owed_points` taken back after they were spent (a refund), paid from the next points credited.
 * - `reward_ledger`: every change with its order, who made it and the balances it left (append-only).
 * - `reward_earnings`: what one paid order earned, by the rule of its day (`earn_cents_per_point`); pending until the
 *   return window ends, then a lot of available points that expires (`expires_at`) with what is left of it
 *   (`remaining_points`); `reversed_points`: taken back by refunds; `expiry_noticed_at`: its month-ahead e-mail.
 * - `reward_redemptions`: the points an order spends, reserved when it is placed (like a coupon), confirmed when it is
 *   paid, released when it closes unpaid; `lots`: which lots they came from; `given_back_points`: returned by refunds.
 * - `orders.points_used`, `orders.points_cents` (a part of `discount_amount_cents`, like the sample credit) and
 *   `orders.reward_base_cents` (the goods paid for after every discount: what points are earned on).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("reward_accounts")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("available_points", "integer", (c) => c.notNull().defaultTo(0).check(sql`available_points >= 0`))
    .addColumn("pending_points", "integer", (c) => c.notNull().defaultTo(0).check(sql`pending_points >= 0`))
    .addColumn("owed_points", "integer", (c) => c.notNull().defaultTo(0).check(sql`owed_points >= 0`))
    /** the next ledger entry's position (taken by the same UPDATE as the balances) */
    .addColumn("entry_count", "integer", (c) => c.notNull().defaultTo(0))
    /** when they joined (null: left; their points stay until they expire) */
    .addColumn("joined_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("reward_ledger")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("reward_accounts.user_id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    /** earned, available, redeemed, released, reversed, given_back, expired, adjusted */
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("available_delta", "integer", (c) => c.notNull())
    .addColumn("pending_delta", "integer", (c) => c.notNull())
    .addColumn("owed_delta", "integer", (c) => c.notNull())
    .addColumn("available_after", "integer", (c) => c.notNull())
    .addColumn("pending_after", "integer", (c) => c.notNull())
    .addColumn("owed_after", "integer", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("actor_kind", "text", (c) => c.notNull())
    .addColumn("actor_id", "text")
    .addColumn("note", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("reward_ledger_user_idx").on("reward_ledger").columns(["user_id", "position"]).unique().execute();
  await db.schema.createIndex("reward_ledger_order_idx").on("reward_ledger").column("order_id").execute();
  await db.schema.createIndex("reward_ledger_kind_idx").on("reward_ledger").columns(["kind", "created_at"]).execute();

  await db.schema
    .createTable("reward_earnings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("reward_accounts.user_id").onDelete("cascade"))
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    /** order: what the order itself earned; referral: a referrer's reward for their friend's first order (062) */
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("order"))
    .addColumn("points", "integer", (c) => c.notNull().check(sql`points >= 0`))
    .addColumn("base_cents", "integer", (c) => c.notNull())
    .addColumn("earn_cents_per_point", "integer", (c) => c.notNull())
    /** pending (inside the return window), available (a lot), cancelled (the order cancelled or refunded in full) */
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("reversed_points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("remaining_points", "integer", (c) => c.notNull().defaultTo(0).check(sql`remaining_points >= 0`))
    .addColumn("available_at", t.timestamp)
    .addColumn("expires_at", t.timestamp)
    /** when its "points expire soon" e-mail was claimed (once a lot; only to members who agreed to marketing) */
    .addColumn("expiry_noticed_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  // one earning of each kind per order: a second confirmation of the payment earns nothing more
  await db.schema.createIndex("reward_earnings_order_idx").on("reward_earnings").columns(["order_id", "kind"]).unique().execute();
  await sql`create index reward_earnings_pending_idx on reward_earnings (created_at) where status = 'pending'`.execute(db);
  await sql`create index reward_earnings_lots_idx on reward_earnings (user_id, expires_at) where remaining_points > 0`.execute(db);
  await sql`create index reward_earnings_expiry_idx on reward_earnings (expires_at) where remaining_points > 0`.execute(db);

  await db.schema
    .createTable("reward_redemptions")
    .addColumn("order_id", "text", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("reward_accounts.user_id").onDelete("cascade"))
    .addColumn("points", "integer", (c) => c.notNull().check(sql`points > 0`))
    .addColumn("cents", "integer", (c) => c.notNull())
    /** reserved (placed), confirmed (paid), released (closed unpaid) */
    .addColumn("status", "text", (c) => c.notNull().defaultTo("reserved"))
    .addColumn("given_back_points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lots", t.json, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("reward_redemptions_user_idx").on("reward_redemptions").columns(["user_id", "status"]).execute();

  await db.schema.alterTable("orders").addColumn("points_used", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("orders").addColumn("points_cents", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("orders").addColumn("reward_base_cents", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("reward_base_cents").execute();
  await db.schema.alterTable("orders").dropColumn("points_cents").execute();
  await db.schema.alterTable("orders").dropColumn("points_used").execute();
  await db.schema.dropTable("reward_redemptions").execute();
  await db.schema.dropTable("reward_earnings").execute();
  await db.schema.dropTable("reward_ledger").execute();
  await db.schema.dropTable("reward_accounts").execute();
}
