import type { DB, Queryable, Trx } from "~/db/db.server";
import { isUniqueViolation } from "~/db/db.server";
import { can, isPresetRole, OWNER_ROLE_ID, parsePermissions, PRESET_ROLES, type Permission } from "~/modules/accounts/permissions";
import { PERMISSION_DENIED_MESSAGE } from "~/modules/accounts/session.server";
import { forgetUserSessions } from "~/modules/accounts/session-cache.server";
import { countOwners, isListedEmail, isOwnerRow, setStaffRole, staffCondition, staffPermissionsOf, withAdminRoleLock } from "~/modules/accounts/staff-membership.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { STAFF_MESSAGES } from "./staff.schema";
import { roleNameKey, withinOwnRole } from "./staff.logic";

/**
 * Admin → Staff (issue 38, docs/decisions/058): the people who run the shop and their roles. Every change runs under
 * the admin-role lock (accounts/staff-membership.server.ts), checks its actor's role again there (not the session's
 * copy, which may be seconds old), keeps at least one owner, writes its activity entry in the same transaction, and
 * after the commit forgets the sessions it affects, so the change holds from the person's very next request.
 */

/** Who acts: the signed-in member of staff, and the address their request came from. */
export interface StaffActor {
  id: string;
  email: string;
  ip?: string | null;
}

export interface StaffRole {
  id: string;
  name: string;
  preset: boolean;
  permissions: Permission[];
  /** people with this role now */
  members: number;
}

export interface StaffMember {
  id: string;
  email: string;
  name: string;
  role: { id: string; name: string };
  /** an owner through ADMIN_EMAILS: can't be demoted or removed here */
  listed: boolean;
  owner: boolean;
  /** an authenticator app or a passkey */
  secondFactor: boolean;
  lastSignInAt: string | null;
}

const MAX_STAFF = 500;

function roleOf(row: { id: string; name: string; preset: unknown; permissions: unknown }): Omit<StaffRole, "members"> {
  const preset = isPresetRole(row.id);
  // the presets' permissions are the code's (PRESET_ROLES), as the session reads them
  return { id: row.id, name: row.name, preset, permissions: preset ? [...PRESET_ROLES[row.id as keyof typeof PRESET_ROLES].permissions] : parsePermissions(row.permissions) };
}

/** Every role, presets first (in the code's order), then the owner's own by name; with how many people have each. */
export async function listRoles(db: Queryable): Promise<StaffRole[]> {
  const [rows, counts] = await Promise.all([
    db.selectFrom("staff_roles").select(["id", "name", "preset", "permissions"]).execute(),
    db
      .selectFrom("users")
      .select(["staff_role_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("is_admin", "=", true)
      .groupBy("staff_role_id")
      .execute(),
  ]);
  // an admin without a role is an owner
  const members = new Map<string, number>();
  for (const c of counts) members.set(c.staff_role_id ?? OWNER_ROLE_ID, (members.get(c.staff_role_id ?? OWNER_ROLE_ID) ?? 0) + Number(c.n));
  const order = Object.keys(PRESET_ROLES);
  return rows
    .map((r) => ({ ...roleOf(r), members: members.get(r.id) ?? 0 }))
    .sort((a, b) => {
      const ia = order.indexOf(a.id);
      const ib = order.indexOf(b.id);
      if (ia >= 0 || ib >= 0) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
      return a.name.localeCompare(b.name);
    });
}

async function findRole(db: Queryable, id: string) {
  const row = await db.selectFrom("staff_roles").select(["id", "name", "preset", "permissions"]).where("id", "=", id).executeTakeFirst();
  if (!row) throw new DomainError(STAFF_MESSAGES.noRole, 404, "roleId");
  return roleOf(row);
}

/** The staff: everyone who may open the admin, with their role, second factor and last sign-in. */
export async function listStaff(db: Queryable): Promise<StaffMember[]> {
  const [rows, roles] = await Promise.all([
    db
      .selectFrom("users")
      .select(["users.id", "users.email", "users.name", "users.is_admin", "users.staff_role_id"])
      // the newest session, or the newest sign-in the activity log recorded (a signed-out session is deleted)
      .select((eb) => eb.selectFrom("sessions").select((s) => s.fn.max("sessions.created_at").as("m")).whereRef("sessions.user_id", "=", "users.id").as("last_session"))
      .select((eb) =>
        eb
          .selectFrom("activity_log")
          .select("activity_log.at")
          .whereRef("activity_log.actor_id", "=", "users.id")
          .where("activity_log.kind", "=", "sign-in")
          .orderBy("activity_log.id", "desc")
          .limit(1)
          .as("last_logged"),
      )
      .where((eb) => staffCondition(eb))
      .orderBy("users.email")
      .limit(MAX_STAFF)
      .execute(),
    db.selectFrom("staff_roles").select(["id", "name"]).execute(),
  ]);
  const names = new Map(roles.map((r) => [r.id, r.name]));
  const factors = await secondFactorsOf(db, rows.map((r) => r.id));
  return rows.map((r) => {
    const listed = isListedEmail(r.email);
    const roleId = listed ? OWNER_ROLE_ID : (r.staff_role_id ?? OWNER_ROLE_ID);
    return {
      id: r.id,
      email: r.email,
      name: r.name ?? "",
      role: { id: roleId, name: names.get(roleId) ?? PRESET_ROLES.owner.name },
      listed,
      owner: isOwnerRow(r),
      secondFactor: factors.has(r.id),
      lastSignInAt: latest(r.last_session as string | null, r.last_logged as string | null),
    };
  });
}

function latest(...times: Array<string | null | undefined>): string | null {
  const ms = times.filter((t): t is string => !!t).map((t) => new Date(t).getTime());
  return ms.length ? new Date(Math.max(...ms)).toISOString() : null;
}

/** Which of these people have a second factor: a confirmed authenticator app, or a passkey (docs/decisions/059). */
async function secondFactorsOf(db: Queryable, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const [apps, keys] = await Promise.all([
    db.selectFrom("users").select("id").where("id", "in", ids).where("two_factor_enabled", "=", true).execute(),
    db.selectFrom("passkeys").select("user_id").distinct().where("user_id", "in", ids).execute(),
  ]);
  return new Set([...apps.map((a) => a.id), ...keys.map((k) => k.user_id)]);
}

/** The actor's permissions now, under the lock; without "staff" the change is refused (403). */
async function actorPermissions(db: Queryable, actor: StaffActor): Promise<Permission[]> {
  const permissions = await staffPermissionsOf(db, actor.id);
  if (!can(permissions, "staff")) throw new DomainError(PERMISSION_DENIED_MESSAGE, 403);
  return permissions;
}

async function findStaffMember(db: Queryable, id: string) {
  const user = await db.selectFrom("users").select(["id", "email", "is_admin", "staff_role_id"]).where("id", "=", id).executeTakeFirst();
  if (!user) throw new DomainError(STAFF_MESSAGES.noUser, 404);
  const listed = isListedEmail(user.email);
  if (!(user.is_admin === true || listed)) throw new DomainError(STAFF_MESSAGES.notStaff, 409);
  const roleId = listed ? OWNER_ROLE_ID : (user.staff_role_id ?? OWNER_ROLE_ID);
  const role = await db.selectFrom("staff_roles").select(["id", "name", "preset", "permissions"]).where("id", "=", roleId).executeTakeFirst();
  // a role that is gone gives nothing (as the session reads it)
  return { ...user, listed, owner: isOwnerRow(user), role: role ? roleOf(role) : { id: roleId, name: "a removed role", preset: false, permissions: [] as Permission[] } };
}

/** The checks every change of someone's place on the staff shares; answers the person as they are now. */
async function checkChangeOf(trx: Trx, actor: StaffActor, id: string, newRole: Omit<StaffRole, "members"> | null) {
  const permissions = await actorPermissions(trx, actor);
  const member = await findStaffMember(trx, id);
  if (member.id === actor.id) throw new DomainError(STAFF_MESSAGES.self, 409);
  // nobody changes someone whose role, or gives a role, beyond their own
  if (!withinOwnRole(permissions, member.role.permissions)) throw new DomainError(STAFF_MESSAGES.beyondOwnRole, 403);
  if (newRole && !withinOwnRole(permissions, newRole.permissions)) throw new DomainError(STAFF_MESSAGES.beyondOwnRole, 403, "roleId");
  const staysOwner = newRole?.id === OWNER_ROLE_ID;
  if (member.listed && !staysOwner) throw new DomainError(STAFF_MESSAGES.listedOwner, 409);
  if (member.owner && !staysOwner && (await countOwners(trx)) <= 1) throw new DomainError(STAFF_MESSAGES.lastOwner, 409);
  return member;
}

/** Gives a member of staff another role. */
export async function changeStaffRole(db: DB, actor: StaffActor, input: { id: string; roleId: string }, now: Date = new Date()) {
  const result = await withAdminRoleLock(db, async (trx) => {
    const role = await findRole(trx, input.roleId);
    const member = await checkChangeOf(trx, actor, input.id, role);
    if (member.role.id !== role.id) {
      await setStaffRole(trx, member.id, role.id, now);
    }
    return { email: member.email, role: role.name };
  });
  forgetUserSessions(input.id); // after the commit: their next request reads the new role
  return result;
}

/** Takes a person off the staff; their account stays, as a customer's (is_admin false, no role). */
export async function removeFromStaff(db: DB, actor: StaffActor, input: { id: string }, now: Date = new Date()) {
  const result = await withAdminRoleLock(db, async (trx) => {
    const member = await checkChangeOf(trx, actor, input.id, null);
    await setStaffRole(trx, member.id, null, now);
    return { email: member.email };
  });
  forgetUserSessions(input.id);
  return result;
}

/** Makes a role of the owner's own (no id) or changes one; the presets are read-only. Its members' sessions are forgotten. */
export async function saveRole(db: DB, actor: StaffActor, input: { id: string; name: string; permissions: Permission[] }, now: Date = new Date()) {
  const name = input.name.trim().replace(/\s+/g, " ");
  const permissions = parsePermissions(input.permissions);
  const saved = await withAdminRoleLock(db, async (trx) => {
    const own = await actorPermissions(trx, actor);
    if (!withinOwnRole(own, permissions)) throw new DomainError(STAFF_MESSAGES.beyondOwnRole, 403, "permissions");
    const existing = input.id ? await findRole(trx, input.id) : null;
    if (existing?.preset || isPresetRole(input.id)) throw new DomainError(STAFF_MESSAGES.presetReadOnly, 409);
    if (existing && !withinOwnRole(own, existing.permissions)) throw new DomainError(STAFF_MESSAGES.beyondOwnRole, 403, "permissions");
    const others = await trx.selectFrom("staff_roles").select(["id", "name"]).execute();
    if (others.some((r) => r.id !== existing?.id && roleNameKey(r.name) === roleNameKey(name))) throw new DomainError(STAFF_MESSAGES.roleNameTaken, 409, "name");
    const id = existing?.id ?? newId();
    try {
      if (existing) {
        await trx.updateTable("staff_roles").set({ name, permissions: JSON.stringify(permissions), updated_at: now.toISOString() }).where("id", "=", id).execute();
      } else {
        await trx
          .insertInto("staff_roles")
          .values({ id, name, permissions: JSON.stringify(permissions), preset: false, created_at: now.toISOString(), updated_at: now.toISOString() })
          .execute();
      }
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError(STAFF_MESSAGES.roleNameTaken, 409, "name");
      throw error;
    }
    const members = await trx.selectFrom("users").select("id").where("staff_role_id", "=", id).execute();
    return { id, name, members: members.map((m) => m.id) };
  });
  for (const member of saved.members) forgetUserSessions(member);
  return { id: saved.id, name: saved.name };
}

/** Deletes a role of the owner's own that nobody has and no pending invitation offers. */
export async function deleteRole(db: DB, actor: StaffActor, input: { id: string }, now: Date = new Date()) {
  return withAdminRoleLock(db, async (trx) => {
    const own = await actorPermissions(trx, actor);
    const role = await findRole(trx, input.id);
    if (role.preset) throw new DomainError(STAFF_MESSAGES.presetReadOnly, 409);
    if (!withinOwnRole(own, role.permissions)) throw new DomainError(STAFF_MESSAGES.beyondOwnRole, 403);
    const members = await trx.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).where("staff_role_id", "=", role.id).executeTakeFirstOrThrow();
    if (Number(members.n) > 0) throw new DomainError(STAFF_MESSAGES.roleInUse(Number(members.n)), 409);
    const pending = await trx
      .selectFrom("staff_invitations")
      .select("id")
      .where("role_id", "=", role.id)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst();
    if (pending) throw new DomainError(STAFF_MESSAGES.roleInvited, 409);
    // invitations of the past that named it (accepted, revoked, expired) go with it; the activity log keeps their story
    await trx.deleteFrom("staff_invitations").where("role_id", "=", role.id).execute();
    await trx.deleteFrom("staff_roles").where("id", "=", role.id).execute();
    return { name: role.name };
  });
}
