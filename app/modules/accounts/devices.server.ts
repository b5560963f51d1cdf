/**
 * The person's signed-in devices (Profile → Account, issue 38 point 4): each live session with its browser and system
 * in plain words, its address, when it signed in and was last seen; signing one or every other out. A session ended
 * here is deleted, and forgetUserSessions drops its remembered copies on this process and, through the change feed,
 * on every other one, so it is refused at its very next request everywhere.
 *
 * The place: the shop keeps no address-to-place database (none ships offline with a licence we can bundle, and asking
 * an outside service would send every customer's address to it), so a device is shown by its address, and the one
 * you're using says "this device".
 */
import type { Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { describeUserAgent } from "./devices.logic";
import { forgetUserSessions } from "./session-cache.server";

export interface DeviceView {
  id: string;
  /** "Chrome on Windows" */
  label: string;
  ip: string | null;
  signedInAt: string;
  /** the last request seen (at most a few minutes stale), or the sign-in */
  lastSeenAt: string;
  current: boolean;
}

export async function listDevices(db: Queryable, user: { id: string; sessionId: string }, now: Date = new Date()): Promise<DeviceView[]> {
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "user_agent", "ip_address", "created_at", "last_seen_at"])
    .where("user_id", "=", user.id)
    .where("expires_at", ">", now.toISOString())
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(100)
    .execute();
  const devices = rows.map((r) => ({
    id: r.id,
    label: describeUserAgent(r.user_agent).label,
    ip: r.ip_address || null,
    signedInAt: r.created_at,
    lastSeenAt: r.last_seen_at && r.last_seen_at > r.created_at ? r.last_seen_at : r.created_at,
    current: r.id === user.sessionId,
  }));
  // this device first, then the most recently seen
  return devices.sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
}

/** Signs one of the person's other devices out (their own current session is signed out by Sign Out). */
export async function endDevice(db: Queryable, user: { id: string; sessionId: string }, sessionId: string): Promise<void> {
  if (sessionId === user.sessionId) throw new DomainError("To sign out of this device, use Sign Out.", 400);
  const result = await db.deleteFrom("sessions").where("id", "=", sessionId).where("user_id", "=", user.id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new DomainError("That device was already signed out.", 404);
  forgetUserSessions(user.id);
}

/** Signs every device but this one out. Returns how many. */
export async function endOtherDevices(db: Queryable, user: { id: string; sessionId: string }): Promise<number> {
  const result = await db.deleteFrom("sessions").where("user_id", "=", user.id).where("id", "!=", user.sessionId).executeTakeFirst();
  forgetUserSessions(user.id);
  return Number(result.numDeletedRows);
}


