/** SPEC §9: recent signups are those of the last 7 days (accounts/signups.logic.ts). */
export { RECENT_SIGNUP_DAYS } from "~/modules/accounts/signups.logic";

/** part / whole as a whole percent (rounded); null when there is no whole to speak of. */
export function percentOf(part: number, whole: number): number | null {
  if (!(whole > 0)) return null;
  return Math.round((part / whole) * 100);
}
