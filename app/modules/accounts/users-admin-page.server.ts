import type { DB, Queryable } from "~/db/db.server";
import { consentVerb, PURPOSE_LABELS, SOURCE_LABELS } from "~/modules/consent/consent.logic";
import { listConsents } from "~/modules/consent/consent.server";
import { formatDateTimeZA } from "~/utils/dates";
import { DomainError } from "~/utils/errors";
import { can } from "./permissions";
import { isListedAdmin, PERMISSION_DENIED_MESSAGE, type SessionUser } from "./session.server";

/** Admin → Users (app/routes/admin.users.tsx): a person's consent history, and who may change a member of staff. */

/** A person's consent rows as the panel shows them, oldest first, with the admin who made a change named. */
export async function consentHistory(db: Queryable, userId: string) {
  const rows = await listConsents(db, userId);
  const actors = [...new Set(rows.map((r) => r.actorUserId).filter((a): a is string => a !== null))];
  const emails = actors.length ? await db.selectFrom("users").select(["id", "email"]).where("id", "in", actors).execute() : [];
  return {
    userId,
    rows: rows.map((r) => ({
      id: r.id,
      at: formatDateTimeZA(r.createdAt),
      purpose: PURPOSE_LABELS[r.purpose],
      version: r.version,
      verb: consentVerb(r.purpose, r.granted),
      granted: r.granted,
      source: SOURCE_LABELS[r.source],
      actor: r.actorUserId ? (emails.find((e) => e.id === r.actorUserId)?.email ?? "a deleted admin") : null,
      wording: r.wording,
    })),
  };
}

export type ConsentHistoryRow = Awaited<ReturnType<typeof consentHistory>>["rows"][number];

/**
 * The page is the customers permission's; making someone staff, or changing or deleting a member of staff, is the
 * staff permission's (a manager looks after customers, not after the people who run the shop): 403, nothing changed.
 */
export async function assertMayChangeStaff(db: DB, admin: SessionUser, id: string, makesStaff: boolean) {
  if (can(admin.permissions, "staff")) return;
  const user = await db.selectFrom("users").select(["email", "is_admin"]).where("id", "=", id).executeTakeFirst();
  const isStaff = user ? Boolean(user.is_admin) || isListedAdmin(user.email) : false;
  if (makesStaff || isStaff) throw new DomainError(PERMISSION_DENIED_MESSAGE, 403);
}
