/**
 * A person's data (docs/decisions/040): the forms of "Download my data", "Delete my account" and Admin → Privacy,
 * and their messages. Browser-safe.
 */
import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/modules/accounts/accounts.schema";

export const PRIVACY_MESSAGES = {
  onlyYourOwn: "You can download only your own data. Signed in, “Download my data” gives you yours.",
  tooManyDownloads: "You have downloaded your data several times in the last hour. Please try again later.",
  passwordRequired: "Enter your password to confirm",
  passwordWrong: "That password is not right. Your account has not been deleted.",
  deleteFailed: "Your account could not be deleted. Nothing was changed; please try again.",
  lastAdminSelf: "You are the shop's only admin: make someone else an admin before you delete your account.",
  listedAdminSelf: "Your address is an admin through ADMIN_EMAILS (server configuration): it must be taken out there before this account can be deleted.",
  exportNoSuchAccount: "No account has that e-mail address.",
  exportEmailInvalid: "Enter the e-mail address of the account",
} as const;

/** Delete my account: the password, checked again on the server (a stolen session alone can't delete the account). */
export const deleteAccountSchema = z.object({
  password: z.string({ error: PRIVACY_MESSAGES.passwordRequired }).min(1, PRIVACY_MESSAGES.passwordRequired).max(MAX_PASSWORD_LENGTH, PRIVACY_MESSAGES.passwordWrong),
});

/** Admin → Privacy: the data of the account with this e-mail (a request that came by e-mail or letter). */
export const adminExportSchema = z.object({
  email: z.string().trim().min(1, PRIVACY_MESSAGES.exportEmailInvalid).max(254, PRIVACY_MESSAGES.exportEmailInvalid).pipe(z.email({ error: PRIVACY_MESSAGES.exportEmailInvalid })).transform((e) => e.toLowerCase()),
});
