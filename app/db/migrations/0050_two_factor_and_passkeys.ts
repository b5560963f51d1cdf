import { type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Two-step sign-in and passkeys (issue 38, docs/decisions/059).
 *
 * - `users.two_factor_enabled`: better-auth's two-factor plugin's flag (an authenticator app confirmed with a code);
 *   a password sign-in of such an account asks for a code before the session is made.
 * - `two_factors`: the plugin's table (one row per user): the TOTP secret and the ten backup codes, both encrypted by
 *   better-auth with the shop's secret (AUTH_SECRET, or the one the shop keeps); `verified` stays false until the
 *   first code confirms the app; the plugin's failed-attempt counter and lock. `last_totp_step` is the shop's own: the
 *   RFC 6238 time step of the last code accepted, so a code is used once (the library would take it again).
 * - `passkeys`: WebAuthn credentials (the columns of better-auth's passkey plugin, snake_case), verified by
 *   @simplewebauthn/server; `name` is the person's label; `last_used_at` is shown in Profile → Account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("users").addColumn("two_factor_enabled", t.bool, (c) => c.notNull().defaultTo(t.false)).execute();

  await db.schema
    .createTable("two_factors")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().unique().references("users.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("backup_codes", "text", (c) => c.notNull())
    .addColumn("verified", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("failed_verification_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_until", t.timestamp)
    .addColumn("last_totp_step", "bigint")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("passkeys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("device_type", "text", (c) => c.notNull())
    .addColumn("backed_up", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("transports", "text")
    .addColumn("aaguid", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("last_used_at", t.timestamp)
    .execute();
  await db.schema.createIndex("passkeys_user_id_idx").on("passkeys").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("passkeys").execute();
  await db.schema.dropTable("two_factors").execute();
  await db.schema.alterTable("users").dropColumn("two_factor_enabled").execute();
}
