import { sql, type ExpressionBuilder } from "kysely";
import type { Queryable, Trx } from "~/db/db.server";
import { inTransaction } from "~/db/in-transaction.server";
import type { Database } from "~/db/schema";
import { env } from "~/utils/env.server";
import { ALL_PERMISSIONS, isPresetRole, OWNER_ROLE_ID, parsePermissions, PRESET_ROLES, type Permission } from "./permissions";

/**
 * Who is on the staff and as what, as the database says it (docs/decisions/058): shared by Admin → Users (the admin
 * switch), Admin → Staff (app/modules/staff), an accepted invitation and create-admin, so the rule that keeps the shop
 * runnable — there is always at least one owner — is counted one way everywhere.
 *
 * `users.is_admin` means "may open the admin"; `users.staff_role_id` is the role. An admin without a role reads as an
 * owner (every admin before roles, and the test factories' admins), and so does every address in ADMIN_EMAILS.
 */

function listed(): string[] {
  return env().ADMIN_EMAILS;
}

export function isListedEmail(email: string): boolean {
  return listed().includes(email.trim().toLowerCase());
}

/** An owner, from the user's row: listed in ADMIN_EMAILS, or an admin whose role is owner (or missing). */
export function isOwnerRow(row: { email: string; is_admin: unknown; staff_role_id: string | null }): boolean {
  if (isListedEmail(row.email)) return true;
  const admin = row.is_admin === true || row.is_admin === 1;
  return admin && (row.staff_role_id === null || row.staff_role_id === OWNER_ROLE_ID);
}

/** The same as a condition on `users`. */
export function ownerCondition(eb: ExpressionBuilder<Database, "users">) {
  const byRole = eb.and([eb("users.is_admin", "=", true), eb.or([eb("users.staff_role_id", "is", null), eb("users.staff_role_id", "=", OWNER_ROLE_ID)])]);
  return listed().length ? eb.or([byRole, eb(sql<string>`lower(users.email)`, "in", listed())]) : byRole;
}

/** A member of staff (may open the admin): the flag, or an address in ADMIN_EMAILS. */
export function staffCondition(eb: ExpressionBuilder<Database, "users">) {
  const flag = eb("users.is_admin", "=", true);
  return listed().length ? eb.or([flag, eb(sql<string>`lower(users.email)`, "in", listed())]) : flag;
}

export async function countOwners(db: Queryable): Promise<number> {
  const row = await db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).where((eb) => ownerCondition(eb)).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Staff changes run one at a time (in the caller's transaction when there is one): two owners demoting each other at
 * the same moment must not leave the shop with none. The transaction first writes one lock row (PostgreSQL holds its row lock until commit, so the second waits and
 * then counts what the first committed; SQLite writes are serial anyway), then counts owners and changes the user.
 */
export async function withAdminRoleLock<T>(db: Queryable, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return inTransaction(db, async (trx) => {
    const now = new Date().toISOString();
    await trx
      .insertInto("settings")
      .values({ key: "lock:admin-roles", value: "", updated_at: now })
      .onConflict((oc) => oc.column("key").doUpdateSet({ updated_at: now }))
      .execute();
    return fn(trx);
  });
}

/** Puts a user on the staff with a role, or (null) takes them off it: their account stays, as a customer's. */
export async function setStaffRole(db: Queryable, userId: string, roleId: string | null, now: Date = new Date()): Promise<void> {
  await db
    .updateTable("users")
    .set({ is_admin: roleId !== null, staff_role_id: roleId, updated_at: now.toISOString() })
    .where("id", "=", userId)
    .execute();
}

/**
 * What a user may do in the admin, read from the database now (not from their session, which may be seconds old):
 * a staff change checks its actor again under the lock, so someone demoted a moment ago can't act on their old role.
 */
export async function staffPermissionsOf(db: Queryable, userId: string): Promise<Permission[]> {
  const row = await db.selectFrom("users").select(["email", "is_admin", "staff_role_id"]).where("id", "=", userId).executeTakeFirst();
  if (!row) return [];
  if (isListedEmail(row.email)) return [...ALL_PERMISSIONS];
  if (!(row.is_admin === true || (row.is_admin as unknown) === 1)) return [];
  const roleId = row.staff_role_id ?? OWNER_ROLE_ID;
  if (isPresetRole(roleId)) return [...PRESET_ROLES[roleId].permissions];
  const role = await db.selectFrom("staff_roles").select("permissions").where("id", "=", roleId).executeTakeFirst();
  return role ? parsePermissions(role.permissions) : [];
}
