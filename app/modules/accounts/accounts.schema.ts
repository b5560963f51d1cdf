import { z } from "zod";
import { COMMON_PASSWORDS } from "./common-passwords";

/** Password rules (NIST SP 800-63B): length only, no composition rules, the most common passwords refused. */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

export const MESSAGES = {
  loginFailed: "Failed to sign in. Please check your credentials.",
  registerFailed: "Failed to create an account. Please try again.",
  resetSent: "Password reset instructions have been sent to your email.",
  resetFailed: "Failed to reset password. Please try again.",
  passwordUpdated: "Password updated successfully",
  passwordUpdateFailed: "Failed to update password. Please try again.",
  preferencesUpdated: "Email preferences updated successfully!",
  preferencesFailed: "Failed to update preferences. Please try again.",
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  passwordRequired: "Password is required",
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  passwordTooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters`,
  passwordCommon: "This password is too common. Please choose a less common one.",
  currentPasswordRequired: "Current password is required",
  newPasswordRequired: "New password is required",
  resetLinkInvalid: "This reset link is invalid or has expired. Please request a new one.",
  passwordReset: "Your password has been reset. Please sign in with your new password.",
  registered: "Your account is ready. Please sign in.",
  crossSite: "This request came from another site and was refused.",
} as const;

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.trim().toLowerCase());
}

/** The e-mail as stored: trimmed, lower case. */
export const emailSchema = z
  .string({ error: MESSAGES.emailRequired })
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(254, MESSAGES.emailInvalid)
  .pipe(z.email({ error: MESSAGES.emailInvalid }))
  .transform((e) => e.toLowerCase());

/** A new password (register, reset, change). */
export const newPasswordSchema = z
  .string({ error: MESSAGES.passwordRequired })
  .min(1, MESSAGES.passwordRequired)
  .min(MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, MESSAGES.passwordTooLong)
  .refine((p) => !isCommonPassword(p), MESSAGES.passwordCommon);

/** A password being checked (sign-in, current password): only presence and the upper bound. */
const givenPassword = (required: string) =>
  z.string({ error: required }).min(1, required).max(MAX_PASSWORD_LENGTH, MESSAGES.loginFailed);

export const loginSchema = z.object({
  email: emailSchema,
  password: givenPassword(MESSAGES.passwordRequired),
  redirect: z.string().optional(),
});

export const registerSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  /** the marketing box (never ticked in advance): present ("on") only when the person ticked it */
  marketing: z
    .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
    .optional()
    .transform((v) => v === "on" || v === "true"),
});

export const forgotPasswordSchema = z.object({ email: emailSchema });

export const resetPasswordSchema = z.object({
  token: z.string().min(1, MESSAGES.resetLinkInvalid).max(200, MESSAGES.resetLinkInvalid),
  password: newPasswordSchema,
});

export const changePasswordSchema = z.object({
  intent: z.literal("password"),
  currentPassword: givenPassword(MESSAGES.currentPasswordRequired),
  newPassword: z.string({ error: MESSAGES.newPasswordRequired }).min(1, MESSAGES.newPasswordRequired).pipe(newPasswordSchema),
});

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
  .optional()
  .transform((v) => v === "on" || v === "true");

export const preferencesSchema = z.object({
  intent: z.literal("preferences"),
  emailNotifications: checkbox,
  emailMarketing: checkbox,
});
