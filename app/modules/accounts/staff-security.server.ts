/**
 * The owner's staff security settings (Admin → Staff), saved under the `settings` table's "staff-security" key:
 * whether every member of staff must sign in in two steps (an authenticator app or a passkey). When it is on, a member
 * of staff without a second factor is sent to set one up at their next admin request (session.server.ts requireAdmin)
 * before anything else in the admin opens. docs/decisions/059.
 */
import { z } from "zod";
import type { Queryable } from "~/db/db.server";
import { loadSavedSettings, saveSettings } from "~/modules/settings/saved-settings.server";

export const STAFF_SECURITY_KEY = "staff-security";

export const staffSecuritySchema = z.object({ requireTwoStep: z.boolean() });
export type StaffSecurity = z.infer<typeof staffSecuritySchema>;

export const STAFF_SECURITY_DEFAULTS: StaffSecurity = { requireTwoStep: false };

export async function staffSecurity(db: Queryable): Promise<StaffSecurity> {
  const saved = await loadSavedSettings(db, STAFF_SECURITY_KEY, STAFF_SECURITY_DEFAULTS, "Staff security");
  const parsed = staffSecuritySchema.safeParse(saved);
  return parsed.success ? parsed.data : STAFF_SECURITY_DEFAULTS;
}

/** Saves the owner's choice (checked); takes effect on every process at the next admin request (it's read each time). */
export async function saveStaffSecurity(db: Queryable, settings: StaffSecurity, now: Date = new Date()): Promise<StaffSecurity> {
  const checked = staffSecuritySchema.parse(settings);
  await saveSettings(db, STAFF_SECURITY_KEY, checked, now);
  return checked;
}

/** Where a member of staff without a second factor is sent when the owner requires one. */
export const TWO_STEP_SETUP_PATH = "/profile/security?required=staff";
