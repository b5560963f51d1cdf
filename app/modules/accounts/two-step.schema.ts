import { z } from "zod";

/** Two-step sign-in, passkeys and step-up: messages and form inputs (browser-safe). docs/decisions/059. */
export const TWO_STEP_MESSAGES = {
  codeRequired: "Enter the 6-digit code from your authenticator app, or a backup code",
  codeWrong: "That code isn't right. Check your authenticator app and try again.",
  codeReused: "That code was already used. Wait for the next one in your authenticator app.",
  challengeExpired: "Your sign-in took too long. Please sign in again.",
  locked: "Too many wrong codes. Please try again in 15 minutes.",
  authenticatorEnabled: "Your authenticator app is set up. Keep your backup codes somewhere safe.",
  authenticatorRemoved: "Your authenticator app was removed.",
  authenticatorAlready: "You already have an authenticator app. Remove it first to add another.",
  authenticatorNotStarted: "Start adding an authenticator app first.",
  backupCodesRegenerated: "New backup codes are ready. The old ones no longer work.",
  passkeyAdded: "Your passkey was added.",
  passkeyRemoved: "Your passkey was removed.",
  passkeyRenamed: "Your passkey was renamed.",
  passkeyFailed: "That passkey couldn't be used. Please try again.",
  passkeyUnknown: "That passkey isn't registered with this shop.",
  sessionEnded: "That device was signed out.",
  otherSessionsEnded: "Every other device was signed out.",
  confirmFailed: "That password isn't right.",
  confirmed: "Thank you, that's confirmed.",
  confirmNeeded: "For your security, confirm it's you (your password or a passkey) before doing this.",
  setupRequired: "The shop's owner requires two-step sign-in for staff. Add an authenticator app or a passkey to open the admin.",
} as const;

/** A second-step code: 6 digits from the app, or a backup code (xxxxx-xxxxx); spaces and case are forgiven in digits. */
export const secondStepSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, TWO_STEP_MESSAGES.codeRequired)
    .max(40, TWO_STEP_MESSAGES.codeWrong)
    .transform((v) => (/^[\d\s]+$/.test(v) ? v.replace(/\s+/g, "") : v)),
  redirect: z.string().max(500).optional(),
});

export const passkeyNameSchema = z.string().trim().min(1, "Give the passkey a name").max(60, "At most 60 characters");

/** Is this text shaped like a backup code (better-auth's: 10 letters and digits, a dash in the middle)? */
export function looksLikeBackupCode(code: string): boolean {
  return /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/.test(code);
}

/** Profile → Account's sign-in and security forms, one intent each. */
export const securityIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("totp-start") }),
  z.object({ intent: z.literal("totp-confirm"), code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code your app shows") }),
  z.object({ intent: z.literal("totp-remove") }),
  z.object({ intent: z.literal("codes-regenerate") }),
  z.object({ intent: z.literal("passkey-rename"), id: z.string().min(1).max(64), name: passkeyNameSchema }),
  z.object({ intent: z.literal("passkey-remove"), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("device-end"), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("devices-end-others") }),
]);
export type SecurityIntent = z.infer<typeof securityIntentSchema>;

/** Intents that change a factor: the password or a passkey is asked again when the last proof is over 10 minutes old. */
export const SENSITIVE_SECURITY_INTENTS: ReadonlySet<SecurityIntent["intent"]> = new Set(["totp-start", "totp-remove", "codes-regenerate", "passkey-remove"]);
