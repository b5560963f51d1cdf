/**
 * Profile → Account's "Sign-in & security" (docs/decisions/059): the authenticator app (add with a QR code and the
 * secret as text, confirm with a code, backup codes shown once, regenerate, remove), passkeys (add, name, remove), and
 * the signed-in devices (sign one or every other out). The route only parses and calls these.
 */
import type { Queryable } from "~/db/db.server";
import type { RequestMeta } from "./accounts.server";
import { endDevice, endOtherDevices, listDevices } from "./devices.server";
import { listPasskeys, removePasskey, renamePasskey } from "./passkeys.server";
import type { SessionUser } from "./session.server";
import { staffSecurity } from "./staff-security.server";
import { authenticatorState, confirmAuthenticator, pendingAuthenticatorSetup, regenerateBackupCodes, removeAuthenticator, startAuthenticator } from "./two-factor.server";
import { TWO_STEP_MESSAGES, type SecurityIntent } from "./two-step.schema";

export async function securityOverview(db: Queryable, user: SessionUser) {
  const [authenticator, setup, passkeys, devices] = await Promise.all([
    authenticatorState(db, user.id),
    pendingAuthenticatorSetup(db, user),
    listPasskeys(db, user.id),
    listDevices(db, user),
  ]);
  const required = user.isAdmin && !user.secondFactor && (await staffSecurity(db)).requireTwoStep;
  return { authenticator, setup, passkeys, devices, required };
}

export interface SecurityResult {
  message: string;
  /** shown once, right after the app is confirmed or the codes are made again */
  backupCodes?: string[];
}

export async function runSecurityIntent(db: Queryable, user: SessionUser, input: SecurityIntent, meta: RequestMeta): Promise<SecurityResult> {
  switch (input.intent) {
    case "totp-start":
      await startAuthenticator(db, user.id);
      return { message: "Scan the QR code or type the key into your authenticator app, then enter the code it shows." };
    case "totp-confirm":
      return { message: TWO_STEP_MESSAGES.authenticatorEnabled, backupCodes: (await confirmAuthenticator(db, user.id, input.code, meta)).backupCodes };
    case "totp-remove":
      await removeAuthenticator(db, user.id);
      return { message: TWO_STEP_MESSAGES.authenticatorRemoved };
    case "codes-regenerate":
      return { message: TWO_STEP_MESSAGES.backupCodesRegenerated, backupCodes: await regenerateBackupCodes(db, user.id) };
    case "passkey-rename":
      await renamePasskey(db, user.id, input.id, input.name);
      return { message: TWO_STEP_MESSAGES.passkeyRenamed };
    case "passkey-remove":
      await removePasskey(db, user.id, input.id);
      return { message: TWO_STEP_MESSAGES.passkeyRemoved };
    case "device-end":
      await endDevice(db, user, input.id);
      return { message: TWO_STEP_MESSAGES.sessionEnded };
    case "devices-end-others":
      await endOtherDevices(db, user);
      return { message: TWO_STEP_MESSAGES.otherSessionsEnded };
  }
}
