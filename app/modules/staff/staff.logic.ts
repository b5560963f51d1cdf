import type { Permission } from "~/modules/accounts/permissions";

/** Pure rules of the staff area (docs/decisions/058), browser-safe. */

/** The invitation page (its e-mail's link carries ?token=…). */
export const INVITATION_PATH = "/staff/invitation";

/** An invitation's link works this long after it is sent (or sent again). */
export const INVITATION_HOURS = 72;
export const INVITATION_MS = INVITATION_HOURS * 60 * 60 * 1000;

export type InvitationState = "pending" | "expired" | "accepted" | "revoked";

export function invitationState(row: { accepted_at: string | null; revoked_at: string | null; expires_at: string }, now: Date): InvitationState {
  if (row.accepted_at) return "accepted";
  if (row.revoked_at) return "revoked";
  return new Date(row.expires_at).getTime() <= now.getTime() ? "expired" : "pending";
}

/**
 * Nobody gives more than their own role allows: a person who may manage staff but not, say, download backups can't
 * make a role (or give someone a role) that downloads backups. An owner has every permission, so nothing stops them.
 */
export function withinOwnRole(actor: readonly Permission[], role: readonly Permission[]): boolean {
  return role.every((p) => actor.includes(p));
}

/** A role name as it is compared: trimmed, inner spaces collapsed, case ignored. */
export function roleNameKey(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}
