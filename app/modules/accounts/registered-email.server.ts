/**
 * The e-mail a shopper just registered with, carried to the sign-in page so they don't type it twice
 * (docs/decisions/025). It lives in a short-lived, HttpOnly cookie of the browser that registered — never in the URL
 * (history, logs, Referer) — and it is set for every registration answer alike, new e-mail or existing one, so it says
 * nothing about whether an account exists (docs/decisions/010). A successful sign-in clears it.
 */
import { emailSchema } from "./accounts.schema";
import { isHttpsDeployment } from "./auth.server";

/** Long enough to open the e-mail app and come back; short enough not to linger on a shared computer. */
export const REGISTERED_EMAIL_MAX_AGE_SECONDS = 15 * 60;

/** /auth, not /auth/login: with JavaScript the page's data is fetched from /auth/login.data. */
const COOKIE_PATH = "/auth";

function cookieName(): string {
  return `${isHttpsDeployment() ? "__Secure-" : ""}scentara.registered_email`;
}

function attributes(maxAge: number): string {
  return `Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${isHttpsDeployment() ? "; Secure" : ""}`;
}

/** The Set-Cookie value that remembers `email` for the sign-in page (nothing for what isn't an e-mail address). */
export function rememberRegisteredEmail(email: string): string | null {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return null;
  return `${cookieName()}=${encodeURIComponent(parsed.data)}; ${attributes(REGISTERED_EMAIL_MAX_AGE_SECONDS)}`;
}

/** The Set-Cookie value that forgets it (after signing in). */
export function forgetRegisteredEmail(): string {
  return `${cookieName()}=; ${attributes(0)}`;
}

/** The remembered e-mail from this request's cookies, or null (also for a value that isn't an e-mail address). */
export function readRegisteredEmail(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  const name = cookieName();
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
    const parsed = emailSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  }
  return null;
}
