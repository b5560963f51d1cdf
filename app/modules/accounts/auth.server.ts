import { betterAuth } from "better-auth";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import { twoFactor } from "better-auth/plugins/two-factor";
import { database, type DatabaseHandle } from "~/db/db.server";
import { sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./accounts.schema";
import { authSecret } from "./auth-secret.server";
import { verifiedSignIn } from "./verified-sign-in.server";

/**
 * better-auth on the shop's own database. The tables exist in the shop's migration (snake_case columns); better-auth
 * never migrates anything. It is used only through its server API (auth.api.*) from React Router actions, so every
 * form works without JavaScript and every request passes the shop's own origin check and rate limits first.
 */

/** Sessions last 14 days from sign-in (absolute: loaders read them without refreshing). */
export const SESSION_LIFETIME_SECONDS = 14 * 24 * 60 * 60;
/** A password reset link works for one hour, once. */
export const RESET_TOKEN_SECONDS = 60 * 60;
export const COOKIE_PREFIX = "scentara";
/** A password sign-in waiting for its second step lasts 10 minutes. */
export const TWO_FACTOR_CHALLENGE_SECONDS = 10 * 60;

export function isHttpsDeployment(): boolean {
  return env().PUBLIC_BASE_URL.startsWith("https://");
}

/** The public link a reset e-mail carries. */
export function resetPasswordUrl(token: string): string {
  const base = env().PUBLIC_BASE_URL.replace(/\/+$/, "");
  return `${base}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * How passwords are hashed and checked: better-auth's own scrypt (N 2^14, r 16: ~0.13 s of CPU a hash, by design).
 * Every auth instance calls through this object, so the integration tests can give it a cheaper scrypt of their own
 * (tests/setup/password-hashing.ts); the shop itself never changes it.
 */
export const passwordHashing = {
  hash: (password: string): Promise<string> => hashPassword(password),
  verify: (data: { hash: string; password: string }): Promise<boolean> => verifyPassword(data),
};

function createAuth(handle: DatabaseHandle) {
  const config = env();
  const baseURL = config.PUBLIC_BASE_URL;
  return betterAuth({
    appName: config.SHOP_NAME,
    baseURL,
    basePath: "/api/auth",
    secret: authSecret(),
    database: { db: handle.authDb, type: handle.dialect },
    trustedOrigins: [new URL(baseURL).origin],
    telemetry: { enabled: false },
    logger: {
      level: "error",
      log: (level, message) => {
        if (level === "error") logger.error({ area: "auth" }, message);
        else logger.warn({ area: "auth" }, message);
      },
    },
    // The shop's own limiter (rate-limit.server.ts) guards the actions; the library's only guards its HTTP handler.
    rateLimit: { enabled: false },
    user: {
      modelName: "users",
      fields: { emailVerified: "email_verified", createdAt: "created_at", updatedAt: "updated_at" },
      additionalFields: {
        isAdmin: { type: "boolean", fieldName: "is_admin", defaultValue: false, input: false, required: false },
        emailNotifications: { type: "boolean", fieldName: "email_notifications", defaultValue: true, input: false, required: false },
        emailMarketing: { type: "boolean", fieldName: "email_marketing", defaultValue: false, input: false, required: false },
        // a member of staff's role (app/modules/staff): read with the session, so a role costs no extra look-up
        staffRoleId: { type: "string", fieldName: "staff_role_id", input: false, required: false },
      },
    },
    session: {
      modelName: "sessions",
      fields: {
        userId: "user_id",
        expiresAt: "expires_at",
        ipAddress: "ip_address",
        userAgent: "user_agent",
        createdAt: "created_at",
        updatedAt: "updated_at",
      },
      additionalFields: {
        // when the person last proved it was them (sign-in, or the password or passkey asked again): step-up checks
        confirmedAt: { type: "date", fieldName: "confirmed_at", input: false, required: false },
        // the last request seen on it (written at most every few minutes: session.server.ts), for the devices list
        lastSeenAt: { type: "date", fieldName: "last_seen_at", input: false, required: false },
      },
      expiresIn: SESSION_LIFETIME_SECONDS,
      disableSessionRefresh: true,
      cookieCache: { enabled: false },
    },
    account: {
      modelName: "accounts",
      fields: {
        userId: "user_id",
        accountId: "account_id",
        providerId: "provider_id",
        accessToken: "access_token",
        refreshToken: "refresh_token",
        idToken: "id_token",
        accessTokenExpiresAt: "access_token_expires_at",
        refreshTokenExpiresAt: "refresh_token_expires_at",
        createdAt: "created_at",
        updatedAt: "updated_at",
      },
    },
    verification: {
      modelName: "verifications",
      fields: { expiresAt: "expires_at", createdAt: "created_at", updatedAt: "updated_at" },
    },
    emailAndPassword: {
      enabled: true,
      // Register sends the user to the login page (SPEC §2); it also makes a duplicate sign-up look like a new one.
      autoSignIn: false,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      password: { hash: (password) => passwordHashing.hash(password), verify: (data) => passwordHashing.verify(data) },
      async sendResetPassword({ user, token }) {
        const link = resetPasswordUrl(token);
        await sendMail(
          {
            to: user.email,
            subject: `Reset your ${config.SHOP_NAME} password`,
            text:
              `Someone asked to reset the password of your ${config.SHOP_NAME} account.\n\n` +
              `Set a new password here (the link works once, for one hour):\n${link}\n\n` +
              `If it wasn't you, ignore this e-mail: your password stays as it is.`,
          },
          handle.db,
        );
      },
      async onExistingUserSignUp({ user }) {
        // The page answers as for a new account (it must not reveal who has one); the owner hears about it here.
        await sendMail(
          {
            to: user.email,
            subject: `Your ${config.SHOP_NAME} account`,
            text:
              `Someone tried to create a ${config.SHOP_NAME} account with this e-mail address, but you already have one.\n\n` +
              `Sign in: ${baseURL.replace(/\/+$/, "")}/auth/login\n` +
              `Forgot your password? ${baseURL.replace(/\/+$/, "")}/auth/forgot-password\n\n` +
              `If it wasn't you, no action is needed.`,
          },
          handle.db,
        );
      },
    },
    plugins: [
      // Authenticator apps (TOTP, RFC 6238) with ten backup codes (docs/decisions/059). The secret and the codes are
      // encrypted by better-auth with `secret` above (XChaCha20-Poly1305, key SHA-256 of the secret) before they are
      // stored; a password sign-in of an account with an app confirmed ends in a pending challenge (a signed
      // two_factor cookie, 10 minutes), not a session. two-factor.server.ts drives it.
      twoFactor({
        issuer: config.SHOP_NAME,
        twoFactorCookieMaxAge: TWO_FACTOR_CHALLENGE_SECONDS,
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: "encrypted" },
        schema: {
          user: { fields: { twoFactorEnabled: "two_factor_enabled" } },
          twoFactor: {
            modelName: "two_factors",
            fields: {
              userId: "user_id",
              backupCodes: "backup_codes",
              failedVerificationCount: "failed_verification_count",
              lockedUntil: "locked_until",
            },
          },
        },
      }),
      // A session for someone the shop has verified itself (a passkey): passkeys.server.ts.
      verifiedSignIn(),
    ],
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: isHttpsDeployment(),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

let cached: { handle: DatabaseHandle; baseURL: string; secret: string; auth: Auth } | undefined;

/** The better-auth instance for the process's database (rebuilt when tests switch databases or configuration). */
export function getAuth(): Auth {
  const handle = database();
  const config = env();
  const secret = authSecret();
  if (!cached || cached.handle !== handle || cached.baseURL !== config.PUBLIC_BASE_URL || cached.secret !== secret) {
    cached = { handle, baseURL: config.PUBLIC_BASE_URL, secret, auth: createAuth(handle) };
  }
  return cached.auth;
}

/** Name of the session cookie (with the __Secure- prefix on https deployments). */
export function sessionCookieName(): string {
  return `${isHttpsDeployment() ? "__Secure-" : ""}${COOKIE_PREFIX}.session_token`;
}

export { authSecret };
