/** SPEC §9: recent signups are those of the last 7 days (Admin → Users and the dashboard count them). */
export const RECENT_SIGNUP_DAYS = 7;
