import { z } from "zod";
import { formatCountUnbroken } from "~/utils/counts";

/** The users page (SPEC §2, §4 user role edit, §8), browser-safe. */
/**
 * A search lists every matching customer up to this many; beyond, the newest this many (the page says so and asks for
 * more of the address). Finding them stops there: a search for "gmail" among 280 000 customers never reads them all.
 */
export const USERS_SEARCH_BOUND = 1000;

export const USER_ADMIN_MESSAGES = {
  updated: "User updated",
  deleted: "User deleted: their personal data is erased; paid orders and invoices are kept for the tax record.",
  failedUpdate: "Failed to update user",
  failedDelete: "Failed to delete user",
  failedFetch: "Failed to fetch users",
  none: "No users found matching your criteria.",
  manyMatches: (bound: number) => `More than ${formatCountUnbroken(bound)} customers match: the newest ${formatCountUnbroken(bound)} are listed. Type more of the address to narrow it.`,
  selfDemote: "You can't remove your own admin access: ask another admin",
  selfDelete: "You can't delete your own account here: use Profile → Delete my account",
  lastAdmin: "The shop needs at least one owner: make someone else an owner first",
  listedAdmin: "This address is an admin through ADMIN_EMAILS (server configuration): remove it there to demote it",
  marketingConsent: "Marketing e-mails need the customer's own consent: they can opt in under Profile → Email Preferences",
} as const;

export const USER_ROLES = ["admin", "regular"] as const;

const id = z.string().trim().min(1).max(100);
/** A checkbox: present ("on") or absent. */
const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");

export const userAdminIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("update"), id, isAdmin: checkbox, emailNotifications: checkbox, emailMarketing: checkbox }),
  z.object({ intent: z.literal("delete"), id }),
]);
