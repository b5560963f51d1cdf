import type { Queryable } from "~/db/db.server";
import { recordActivity } from "~/modules/activity/activity.server";
import { logger } from "~/utils/logger.server";
import { isListedAdmin } from "./session.server";

/**
 * Sign-ins and failed second factors of staff go to the activity log (issue 38 point 3); a customer's don't. Never
 * fails the sign-in it describes: a log that can't be written is logged as an error instead.
 */
export async function recordStaffSignIn(
  db: Queryable,
  userId: string,
  ip: string,
  what: { kind: "sign-in" | "sign-in.second-factor-failed"; method: string },
): Promise<void> {
  try {
    const user = await db.selectFrom("users").select(["id", "email", "is_admin"]).where("id", "=", userId).executeTakeFirst();
    if (!user || !(user.is_admin || isListedAdmin(user.email))) return;
    const summary =
      what.kind === "sign-in" ? `${user.email} signed in (${what.method})` : `${user.email} entered a wrong ${what.method} at sign-in`;
    await recordActivity(db, {
      actor: { id: user.id, email: user.email },
      ip,
      kind: what.kind,
      record: { type: "user", id: user.id },
      summary,
      after: { method: what.method },
    });
  } catch (error) {
    logger.error({ err: error, userId }, "could not record a staff sign-in");
  }
}
