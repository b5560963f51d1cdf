import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * "Give R50, get R50" (issue 40 point 2, docs/decisions/063; app/modules/rewards/referrals.server.ts).
 *
 * - `reward_accounts.referral_code`: a member's short code, in their link /r/CODE (made when first asked for).
 * - `referrals`: one per friend (`friend_user_id` unique): who referred them, and how it went — attributed (the
 *   friend's reward waits for their first order), reserved (held by an unpaid order), paid (the order paid; the
 *   referrer's points pending), rewarded (available after the return window), refused or cancelled with the reason
 *   in `reason`. `ip_key`: a keyed hash of the friend's address when they came (many accounts from one address),
 *   never the address itself. The people's links become null when an account is deleted; the row stays for the sums.
 * - `orders.referral_cents`: the friend's reward on their first order, a part of `discount_amount_cents`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("reward_accounts").addColumn("referral_code", "text").execute();
  await db.schema.createIndex("reward_accounts_code_idx").on("reward_accounts").column("referral_code").unique().execute();
  await db.schema
    .createTable("referrals")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("referrer_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("friend_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("friend_order_id", "text", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("friend_reward_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("referrer_reward_points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("ip_key", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("paid_at", t.timestamp)
    .addColumn("rewarded_at", t.timestamp)
    .execute();
  await db.schema.createIndex("referrals_friend_idx").on("referrals").column("friend_user_id").unique().execute();
  await db.schema.createIndex("referrals_referrer_idx").on("referrals").columns(["referrer_user_id", "paid_at"]).execute();
  await db.schema.createIndex("referrals_ip_idx").on("referrals").columns(["ip_key", "created_at"]).execute();
  await db.schema.createIndex("referrals_status_idx").on("referrals").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("referrals_order_idx").on("referrals").column("friend_order_id").execute();
  await db.schema.alterTable("orders").addColumn("referral_cents", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("referral_cents").execute();
  await db.schema.dropTable("referrals").execute();
  await db.schema.dropIndex("reward_accounts_code_idx").execute();
  await db.schema.alterTable("reward_accounts").dropColumn("referral_code").execute();
}
