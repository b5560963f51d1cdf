import { forgetUserSessions } from "./session-cache.server";
import { countOwners, isOwnerRow, setStaffRole, staffCondition, staffPermissionsOf, withAdminRoleLock } from "./staff-membership.server";
import { can, OWNER_ROLE_ID } from "./permissions";
import { PERMISSION_DENIED_MESSAGE } from "./session.server";
import { sql, type ExpressionBuilder } from "kysely";
import type { Database } from "~/db/schema";
import { keptWhileUnchanged } from "~/db/kept-reads.server";
import type { DB, Queryable } from "~/db/db.server";
import { customersWithEmailContaining, emailContains } from "./email-search.server";
import { pageOfCounted, paginate, type Page } from "~/db/paginate.server";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { USER_ADMIN_MESSAGES, USERS_SEARCH_BOUND } from "./users-admin.schema";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { ADMIN_MARKETING_OFF_WORDING } from "~/modules/consent/consent.logic";
import { setMarketingConsent } from "~/modules/consent/consent.server";
import { RECENT_SIGNUP_DAYS } from "./signups.logic";

/**
 * The people of the shop as an admin manages them (SPEC §2 Users, §7 get_all_users / update_user_role /
 * delete_user_account). Admin is the is_admin flag or an address in ADMIN_EMAILS; the rules that keep the shop
 * administrable (nobody demotes or deletes themself, the last admin stays) are checked here, on the server.
 */
export const ADMIN_USERS_PAGE_SIZE = 25;

export interface AdminUser {
  id: string;
  email: string;
  isAdmin: boolean;
  /** admin through ADMIN_EMAILS: the flag can't take it away */
  listedAdmin: boolean;
  emailNotifications: boolean;
  emailMarketing: boolean;
  createdAt: string;
  orderCount: number;
}

function listed(): string[] {
  return env().ADMIN_EMAILS;
}

const adminCondition = staffCondition;

export interface AdminUsersPage extends Page<AdminUser> {
  /** more customers match the search than USERS_SEARCH_BOUND: the pages hold the newest of them */
  more: boolean;
}

/**
 * One page of Admin → Users, newest first. A search is answered in one of two ways, by how many customers it matches
 * (at 280 000 customers the sign-up index walked for a rare address read every row: 290 ms, 1.2 s under load):
 * - up to USERS_SEARCH_BOUND: their ids from one pass (accounts/email-search), then those rows alone, sorted;
 * - more: the pass stopped at the bound; the sign-up index is walked newest first, each row's e-mail tested, which
 *   finds a page of dense matches at once, and the pages end at the bound.
 */
export async function listAdminUsers(db: Queryable, input: { q: string; role: string; page: number }): Promise<AdminUsersPage> {
  const role = (eb: ExpressionBuilder<Database, "users">) => (input.role === "admin" ? adminCondition(eb) : eb.not(adminCondition(eb)));
  const byRole = input.role === "admin" || input.role === "regular" ? role : undefined;
  let query = db
    .selectFrom("users")
    .select(["users.id", "users.email", "users.is_admin", "users.email_notifications", "users.email_marketing", "users.created_at"])
    .select((eb) => eb.selectFrom("orders").select((o) => o.fn.countAll<number>().as("n")).whereRef("orders.user_id", "=", "users.id").as("order_count"));
  if (byRole) query = query.where(byRole);
  const newestFirst = <Q extends typeof query>(q: Q) => q.orderBy("users.created_at", "desc").orderBy("users.id", "desc");
  let page: Page<Awaited<ReturnType<typeof query.execute>>[number]>;
  let more = false;
  if (!input.q && !byRole) {
    // everyone: the count the page's figures keep until a user changes (PostgreSQL counted 280 000 rows: 30–110 ms)
    page = await pageOfCounted(newestFirst(query), { matching: (await userFigures(db)).total, page: input.page, pageSize: ADMIN_USERS_PAGE_SIZE });
  } else if (!input.q) {
    page = await paginate(newestFirst(query), { page: input.page, pageSize: ADMIN_USERS_PAGE_SIZE });
  } else {
    const found = await customersWithEmailContaining(db, input.q, { limit: USERS_SEARCH_BOUND, where: byRole });
    more = found.more;
    if (found.ids.length === 0) page = await pageOfCounted(query, { matching: 0, page: 1, pageSize: ADMIN_USERS_PAGE_SIZE });
    else if (!more) page = await pageOfCounted(newestFirst(query.where("users.id", "in", found.ids)), { matching: found.ids.length, page: input.page, pageSize: ADMIN_USERS_PAGE_SIZE });
    else page = await pageOfCounted(newestFirst(query.where(emailContains(db, input.q))), { matching: USERS_SEARCH_BOUND, page: input.page, pageSize: ADMIN_USERS_PAGE_SIZE });
  }
  return {
    ...page,
    more,
    rows: page.rows.map((u) => {
      const isListed = listed().includes(u.email.toLowerCase());
      return {
        id: u.id,
        email: u.email,
        isAdmin: u.is_admin === true || isListed,
        listedAdmin: isListed,
        emailNotifications: u.email_notifications === true,
        emailMarketing: u.email_marketing === true,
        createdAt: u.created_at,
        orderCount: Number(u.order_count ?? 0),
      };
    }),
  };
}

/** The users page's figures (the same as the dashboard's): everyone, the admins, the rest, and the last days' signups. */
export interface UserFigures {
  total: number;
  admins: number;
  regular: number;
  recent: number;
}

/**
 * Counted from indexes, not by reading 100 000 users (migration 0028): admins are the flagged users plus the
 * ADMIN_EMAILS addresses that have an account without the flag.
 */
export async function userFigures(db: Queryable, now = new Date()): Promise<UserFigures> {
  const since = new Date(now.getTime() - RECENT_SIGNUP_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const count = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0);
  // The whole count and the admins' are kept until a user changes (docs/decisions/042: PostgreSQL counts 100 000 users
  // in ~10 ms); the recent ones depend on the time too, and read a short range of an index.
  const [[total, flagged, listedUsers], recent] = await Promise.all([
    keptWhileUnchanged(
      db,
      "users:figures",
      () =>
        Promise.all([
          db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst().then(count),
          db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).where("is_admin", "=", true).executeTakeFirst().then(count),
          listed().length ? db.selectFrom("users").select("is_admin").where(sql<string>`lower(email)`, "in", listed()).execute() : [],
        ]),
      { topics: ["customers"] },
    ),
    db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).where("created_at", ">=", since).executeTakeFirst().then(count),
  ]);
  const admins = flagged + listedUsers.filter((u) => u.is_admin !== true).length;
  return { total, admins, regular: total - admins, recent };
}

/** A user as the admin rules see them (listed in ADMIN_EMAILS, admin, owner); 404 when gone. */
export async function findUser(db: Queryable, id: string) {
  const user = await db.selectFrom("users").select(["id", "email", "is_admin", "staff_role_id", "email_marketing", "marketing_consent_at"]).where("id", "=", id).executeTakeFirst();
  if (!user) throw new DomainError("That user no longer exists", 404);
  const listedAdmin = listed().includes(user.email.toLowerCase());
  return { ...user, listedAdmin, isAdmin: user.is_admin === true || listedAdmin, isOwner: isOwnerRow(user) };
}

/**
 * update_user_role: the admin flag and both e-mail preferences. Marketing can be switched off for a customer but
 * only the customer can switch it on (POPIA: consent is theirs to give; it is recorded when they do).
 */
export async function updateUserByAdmin(
  db: DB,
  actorId: string,
  input: { id: string; isAdmin: boolean; emailNotifications: boolean; emailMarketing: boolean },
): Promise<void> {
  await withAdminRoleLock(db, (trx) => updateUserLocked(trx, actorId, input));
  forgetUserSessions(input.id); // a new role takes effect on their next page
}

async function updateUserLocked(db: Queryable, actorId: string, input: { id: string; isAdmin: boolean; emailNotifications: boolean; emailMarketing: boolean }) {
  const user = await findUser(db, input.id);
  const staffChange = user.isAdmin !== input.isAdmin;
  // Making or unmaking staff is managing staff (docs/decisions/058): the actor's role, read again under the lock,
  // must allow it (a manager sees customers, not the staff).
  if (staffChange && !can(await staffPermissionsOf(db, actorId), "staff")) throw new DomainError(PERMISSION_DENIED_MESSAGE, 403, "isAdmin");
  if (user.isAdmin && !input.isAdmin) {
    if (user.id === actorId) throw new DomainError(USER_ADMIN_MESSAGES.selfDemote, 409, "isAdmin");
    if (user.listedAdmin) throw new DomainError(USER_ADMIN_MESSAGES.listedAdmin, 409, "isAdmin");
    if (user.isOwner && (await countOwners(db)) <= 1) throw new DomainError(USER_ADMIN_MESSAGES.lastAdmin, 409, "isAdmin");
  }
  if (input.emailMarketing && !(user.email_marketing === true)) throw new DomainError(USER_ADMIN_MESSAGES.marketingConsent, 409, "emailMarketing");
  const now = new Date();
  await db.updateTable("users").set({ email_notifications: input.emailNotifications, updated_at: now.toISOString() }).where("id", "=", input.id).execute();
  // The admin switch: on makes an owner (the spec's one kind of admin), off takes them off the staff.
  if (staffChange) await setStaffRole(db, input.id, input.isAdmin ? OWNER_ROLE_ID : null, now);
  // Turning a customer's marketing off is logged as the admin's doing (consent log, docs/decisions/039).
  if (!input.emailMarketing) await setMarketingConsent(db, { userId: input.id, granted: false, source: "admin", wording: ADMIN_MARKETING_OFF_WORDING, actorUserId: actorId, now });
}

/** Who deletes an account: its owner (Profile → Delete my account, after their password) or an admin (Admin → Users). */
export type DeletedBy = { kind: "self" } | { kind: "admin"; adminId: string };

