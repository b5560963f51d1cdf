import { PostgresAdapter, sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * The team behind the shop (issue 38, docs/decisions/058).
 *
 * - `staff_roles`: a named set of permissions (a JSON array of the names in app/modules/staff/permissions.ts). The five
 *   presets are written here with fixed ids (owner, manager, packer, marketer, bookkeeper); the owner adds their own.
 * - `users.staff_role_id`: a member of staff's role. `is_admin` keeps meaning "may open the admin" (the storefront and
 *   every older check read it); every admin before this migration becomes an owner, as ADMIN_EMAILS and create-admin
 *   make owners from now on. A staff user whose role is missing reads as an owner (the spec's one kind of admin).
 * - `staff_invitations`: an invitation by e-mail with a role; its link carries a token stored only as a hash, used once,
 *   until it expires.
 * - `activity_log`: who changed what in the admin, when, from which address, with the record's values before and after.
 *   Written in the same transaction as the change; triggers refuse every update, and every delete of an entry younger
 *   than the 5 years the Tax Administration Act (s29) keeps records for, so no code path of the app can rewrite history.
 * - `sessions.confirmed_at`: when the person last proved it was them (the sign-in, or the password or passkey asked again
 *   before a sensitive action); `sessions.last_seen_at`: shown in Profile → Account beside each signed-in device.
 */
export const PRESETS: Array<{ id: string; name: string; permissions: string[] }> = [
  {
    id: "owner",
    name: "Owner",
    permissions: ["orders.view", "orders.fulfil", "orders.money", "products.edit", "products.io", "coupons", "gift-cards", "marketing", "reviews", "reports", "customers", "staff", "settings", "data"],
  },
  {
    id: "manager",
    name: "Manager",
    permissions: ["orders.view", "orders.fulfil", "orders.money", "products.edit", "products.io", "coupons", "gift-cards", "marketing", "reviews", "reports", "customers"],
  },
  { id: "packer", name: "Packer", permissions: ["orders.view", "orders.fulfil"] },
  { id: "marketer", name: "Marketer", permissions: ["coupons", "marketing", "reviews"] },
  { id: "bookkeeper", name: "Bookkeeper", permissions: ["reports", "orders.view"] },
];

/** Entries younger than this may not be deleted (the retention job deletes older ones). */
const KEPT = { sqlite: "-5 years", postgres: "5 years" };

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable("staff_roles")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("permissions", t.json, (c) => c.notNull())
    .addColumn("preset", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .execute();
  await db
    .insertInto("staff_roles")
    .values(PRESETS.map((p) => ({ id: p.id, name: p.name, permissions: JSON.stringify(p.permissions), preset: postgres ? true : 1 })))
    .execute();

  await db.schema.alterTable("users").addColumn("staff_role_id", "text", (c) => c.references("staff_roles.id")).execute();
  await db.updateTable("users").set({ staff_role_id: "owner" }).where("is_admin", "=", postgres ? true : 1).execute();
  await db.schema.createIndex("users_staff_role_idx").on("users").column("staff_role_id").execute();

  await db.schema
    .createTable("staff_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role_id", "text", (c) => c.notNull().references("staff_roles.id"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("invited_by", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("accepted_at", t.timestamp)
    .addColumn("accepted_user_id", "text")
    .addColumn("revoked_at", t.timestamp)
    .execute();
  await db.schema.createIndex("staff_invitations_email_idx").on("staff_invitations").column("email").execute();

  await db.schema
    .createTable("activity_log")
    .addColumn("id", postgres ? "bigserial" : "integer", (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
    .addColumn("actor_id", "text")
    .addColumn("actor_email", "text")
    .addColumn("ip", "text")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("record_type", "text")
    .addColumn("record_id", "text")
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("before", t.json)
    .addColumn("after", t.json)
    .execute();
  // Keyset pages run newest first by id; each filter has its own index ending in id.
  await db.schema.createIndex("activity_log_actor_idx").on("activity_log").columns(["actor_id", "id"]).execute();
  await db.schema.createIndex("activity_log_kind_idx").on("activity_log").columns(["kind", "id"]).execute();
  await db.schema.createIndex("activity_log_record_idx").on("activity_log").columns(["record_type", "record_id", "id"]).execute();
  await db.schema.createIndex("activity_log_at_idx").on("activity_log").column("at").execute();

  if (postgres) {
    await sql
      .raw(
        `create function activity_log_kept() returns trigger language plpgsql as $$
         begin
           if tg_op = 'UPDATE' then
             raise exception 'activity log entries cannot be changed';
           end if;
           if old.at > now() - interval '${KEPT.postgres}' then
             raise exception 'activity log entries are kept for 5 years';
           end if;
           return old;
         end $$`,
      )
      .execute(db);
    await sql.raw(`create trigger activity_log_kept before update or delete on activity_log for each row execute function activity_log_kept()`).execute(db);
  } else {
    await sql.raw(`create trigger activity_log_no_update before update on activity_log begin select raise(abort, 'activity log entries cannot be changed'); end`).execute(db);
    await sql
      .raw(
        `create trigger activity_log_no_early_delete before delete on activity_log
         when old.at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '${KEPT.sqlite}')
         begin select raise(abort, 'activity log entries are kept for 5 years'); end`,
      )
      .execute(db);
  }

  await db.schema.alterTable("sessions").addColumn("confirmed_at", t.timestamp).execute();
  await db.schema.alterTable("sessions").addColumn("last_seen_at", t.timestamp).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
  await db.schema.alterTable("sessions").dropColumn("confirmed_at").execute();
  await db.schema.dropTable("activity_log").execute();
  if (postgres) await sql`drop function if exists activity_log_kept()`.execute(db);
  await db.schema.dropTable("staff_invitations").execute();
  await db.schema.dropIndex("users_staff_role_idx").execute();
  await db.schema.alterTable("users").dropColumn("staff_role_id").execute();
  await db.schema.dropTable("staff_roles").execute();
}
