/**
 * Who is asking: the one place routes learn the signed-in user and their role. Roles are decided on the server.
 * (Interface agreed by every area; implemented on better-auth by the accounts module.)
 *
 * - loaders: `getSessionUser`, `requireUser` (visitor → login), `requireAdmin` (visitor → login, customer → 403 page)
 * - actions: `assertSameOrigin` on every state-changing action; `requireUserAction` / `requireAdminAction`
 *   (both include the origin check; a non-admin gets 403 'Admin access required')
 */
import { getDb } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { ADMIN_ACCESS_REQUIRED, errorResponse } from "~/utils/errors";
import { can, OWNER_ROLE_ID, parsePermissions, PRESET_ROLES, type Permission } from "./permissions";
import { COOKIE_PREFIX, getAuth } from "./auth.server";
import { MESSAGES } from "./accounts.schema";
import { cachedSession, rememberSession } from "./session-cache.server";
import { loginPath } from "./redirect";
import { staffSecurity, TWO_STEP_SETUP_PATH } from "./staff-security.server";
import { TWO_STEP_MESSAGES } from "./two-step.schema";

export interface SessionUser {
  id: string;
  email: string;
  /** may open the admin: a member of staff, whatever their role */
  isAdmin: boolean;
  /** a member of staff's role; null for a customer */
  role: { id: string; name: string } | null;
  /** what their role lets them do in the admin (app/modules/accounts/permissions.ts); empty for a customer */
  permissions: readonly Permission[];
  /** the session's id (Profile → Account's devices; the step-up stamp) */
  sessionId: string;
  /** when they last proved it was them, in ms: the sign-in, or the password or passkey asked again */
  confirmedAt: number;
  /**
   * has an authenticator app or a passkey (the owner may require one of staff). Only staff's passkeys are looked up:
   * a customer's is their app alone, so a shopper's session look-up costs no passkeys query
   */
  secondFactor: boolean;
}

/** A member of staff's role without a permission: 403, nothing read or changed. */
export const PERMISSION_DENIED_MESSAGE = "Your staff role doesn't allow this.";

export const ACCESS_DENIED_TITLE = "Access Denied";
export const ACCESS_DENIED_MESSAGE = "You need admin privileges to access this page.";

/** E-mails in ADMIN_EMAILS are admins whatever their record says (and their record is set at sign-in). */
export function isListedAdmin(email: string): boolean {
  return env().ADMIN_EMAILS.includes(email.trim().toLowerCase());
}

// One lookup per request, however many loaders ask.
const perRequest = new WeakMap<Request, Promise<SessionUser | null>>();

/**
 * The session cookie's whole signed value (`token.signature`); null without one. With more than one session cookie
 * (both the plain and the __Secure- name) better-auth decides which counts, so nothing is cached: "" (look up only).
 */
function sessionToken(cookie: string): string | null {
  const values = [...cookie.matchAll(SESSION_COOKIE)].map((m) => m[1]!);
  if (values.length === 0) return null;
  return values.length === 1 ? values[0]! : "";
}
const SESSION_COOKIE = new RegExp(`(?:^|;)\\s*(?:__Secure-)?${COOKIE_PREFIX}\\.session_token=([^;]*)`, "g");

async function lookup(request: Request): Promise<SessionUser | null> {
  const cookie = request.headers.get("cookie");
  const token = cookie ? sessionToken(cookie) : null;
  if (!cookie || token === null) return null;
  const remembered = token ? cachedSession(token) : undefined;
  if (remembered) return remembered as SessionUser; // remembered just as lookup made it
  const result = await getAuth().api.getSession({ headers: new Headers({ cookie }), query: { disableRefresh: true } });
  if (!result) return null;
  const user = result.user;
  const flag: unknown = user.isAdmin;
  const isAdmin = flag === true || flag === 1 || isListedAdmin(user.email);
  // ADMIN_EMAILS make owners; so does the admin flag without a role (the spec's one kind of admin, and older admins).
  const roleId = isAdmin ? (isListedAdmin(user.email) ? OWNER_ROLE_ID : ((user.staffRoleId as string | null | undefined) ?? OWNER_ROLE_ID)) : null;
  const role = roleId ? await staffRole(roleId) : null;
  const confirmed = (result.session as { confirmedAt?: Date | string | null }).confirmedAt;
  noteLastSeen(result.session as { id: string; lastSeenAt?: Date | string | null });
  const sessionUser: SessionUser = {
    id: user.id,
    email: user.email,
    isAdmin,
    role: role ? { id: role.id, name: role.name } : null,
    permissions: role?.permissions ?? [],
    sessionId: result.session.id,
    confirmedAt: Math.max(new Date(result.session.createdAt).getTime(), confirmed ? new Date(confirmed).getTime() : 0),
    secondFactor: await hasSecondFactor(user as { id: string; twoFactorEnabled?: unknown }, isAdmin),
  };
  if (token) rememberSession(token, sessionUser, new Date(result.session.expiresAt).getTime());
  return sessionUser;
}

/**
 * A role and its permissions. Presets are the code's (they can't be edited); an owner-made role is read from the
 * database (a session look-up is remembered for seconds, and changing a role forgets its members' sessions).
 */
async function staffRole(id: string): Promise<{ id: string; name: string; permissions: Permission[] } | null> {
  if (Object.hasOwn(PRESET_ROLES, id)) {
    const preset = PRESET_ROLES[id as keyof typeof PRESET_ROLES];
    return { id, name: preset.name, permissions: [...preset.permissions] };
  }
  const row = await getDb().selectFrom("staff_roles").select(["id", "name", "permissions"]).where("id", "=", id).executeTakeFirst();
  return row ? { id: row.id, name: row.name, permissions: parsePermissions(row.permissions) } : null;
}

/** Has this user a second factor: a confirmed authenticator app (better-auth's flag) or at least one passkey? */
async function hasSecondFactor(user: { id: string; twoFactorEnabled?: unknown }, staff: boolean): Promise<boolean> {
  if (user.twoFactorEnabled === true || user.twoFactorEnabled === 1) return true;
  if (!staff) return false;
  const passkey = await getDb().selectFrom("passkeys").select("id").where("user_id", "=", user.id).limit(1).executeTakeFirst();
  return !!passkey;
}

/** sessions.last_seen_at is written at most this often per session (the devices list shows it to the minute or so). */
export const LAST_SEEN_EVERY_MS = 5 * 60_000;

/**
 * Notes the session as seen now when its stamp is older than LAST_SEEN_EVERY_MS. Runs only when a session is looked
 * up (not on the remembered ones: at most every SESSION_CACHE_TTL_MS per session), and writes at most every few
 * minutes, after the answer, never holding the request up or failing it.
 */
function noteLastSeen(session: { id: string; lastSeenAt?: Date | string | null }, now = Date.now()) {
  const seen = session.lastSeenAt ? new Date(session.lastSeenAt).getTime() : 0;
  if (now - seen < LAST_SEEN_EVERY_MS) return;
  void getDb()
    .updateTable("sessions")
    .set({ last_seen_at: new Date(now).toISOString() })
    .where("id", "=", session.id)
    .execute()
    .catch(() => undefined);
}

/** The signed-in user, or null for a visitor. */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  let pending = perRequest.get(request);
  if (!pending) {
    pending = lookup(request);
    perRequest.set(request, pending);
  }
  return pending;
}

/**
 * The page the user asked for. A client-side navigation reaches loaders as a data request (/checkout.data,
 * /_.data for the index, with a _routes parameter): strip those, as React Router's own normalised URL does,
 * so the user comes back to the page and not to its raw data.
 */
export function requestedPage(request: Request): string {
  const url = new URL(request.url);
  let pathname = url.pathname;
  if (pathname.endsWith("/_.data")) pathname = pathname.slice(0, -"_.data".length);
  else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length);
  if (!url.searchParams.has("_routes")) return pathname + url.search;
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  return pathname + (search ? `?${search}` : "");
}

function redirectToLogin(request: Request): never {
  throw new Response(null, { status: 302, headers: { Location: loginPath(requestedPage(request)) } });
}

/** The signed-in user; a visitor is redirected to /auth/login?redirect=<this path>. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) redirectToLogin(request);
  return user;
}

/** Every 403 the accounts module throws: the shop's one error body (the admin layout shows it as 'Access Denied'). */
function forbiddenResponse(message: string): Response {
  return errorResponse(message, 403, { statusText: "Forbidden" });
}

/**
 * Admin pages (loaders): a visitor is sent to login with a redirect back; a signed-in non-admin gets a 403 that the
 * admin layout's error boundary shows as 'Access Denied' / 'You need admin privileges to access this page.'.
 */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) redirectToLogin(request);
  if (!user.isAdmin) throw forbiddenResponse(ACCESS_DENIED_MESSAGE);
  if (await mustSetUpSecondFactor(user)) throw new Response(null, { status: 302, headers: { Location: TWO_STEP_SETUP_PATH } });
  return user;
}

/**
 * The owner requires two-step sign-in of staff (staff-security.server.ts) and this member of staff has no second
 * factor yet. Read only for staff without one, so it costs nothing on anyone else's request.
 */
async function mustSetUpSecondFactor(user: SessionUser): Promise<boolean> {
  if (!user.isAdmin || user.secondFactor) return false;
  return (await staffSecurity(getDb())).requireTwoStep;
}

/** Admin actions: checks the origin, then answers anyone but an admin (visitor included) with 403 'Admin access required'. */
export async function requireAdminAction(request: Request): Promise<SessionUser> {
  assertSameOrigin(request);
  const user = await getSessionUser(request);
  if (!user?.isAdmin) throw forbiddenResponse(ADMIN_ACCESS_REQUIRED);
  if (await mustSetUpSecondFactor(user)) throw forbiddenResponse(TWO_STEP_MESSAGES.setupRequired);
  return user;
}

/**
 * An admin page that needs a permission (one, or any of several): a visitor is sent to login, a customer gets the
 * admin's 403 'Access Denied', a member of staff whose role lacks it gets 403 with PERMISSION_DENIED_MESSAGE.
 */
export async function requirePermission(request: Request, needed: Permission | readonly Permission[]): Promise<SessionUser> {
  const user = await requireAdmin(request);
  if (!can(user.permissions, needed)) throw forbiddenResponse(PERMISSION_DENIED_MESSAGE);
  return user;
}

/** An admin action that needs a permission: the origin and the role first (403 'Admin access required'), then 403. */
export async function requirePermissionAction(request: Request, needed: Permission | readonly Permission[]): Promise<SessionUser> {
  const user = await requireAdminAction(request);
  if (!can(user.permissions, needed)) throw forbiddenResponse(PERMISSION_DENIED_MESSAGE);
  return user;
}

/** Signed-in actions: checks the origin, then a visitor is redirected to login. */
export async function requireUserAction(request: Request): Promise<SessionUser> {
  assertSameOrigin(request);
  return requireUser(request);
}

function originOf(value: string | null): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin;
  } catch {
    return "invalid";
  }
}

/** Is this state-changing request from one of the shop's own pages? (GET/HEAD always pass.) */
export function isSameOrigin(request: Request): boolean {
  const method = request.method.toUpperCase();
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return true;
  const allowed = new Set([new URL(request.url).origin, new URL(env().PUBLIC_BASE_URL).origin]);
  const origin = request.headers.get("origin");
  if (origin) return allowed.has(origin); // 'null' (sandboxed, privacy-redirected) is refused too
  // No Origin header (older browsers on same-origin requests, or a non-browser client that can't ride a cookie).
  if (request.headers.get("sec-fetch-site") === "cross-site") return false;
  const referer = originOf(request.headers.get("referer"));
  if (referer) return allowed.has(referer);
  return true;
}

/**
 * Cross-site request protection for every action that changes state: the Origin (or Referer) must be this shop.
 * Throws 403 otherwise. Cookies are SameSite=Lax as a second layer.
 */
export function assertSameOrigin(request: Request): void {
  if (!isSameOrigin(request)) throw forbiddenResponse(MESSAGES.crossSite);
}

// --- step-up (docs/decisions/059) ---

/** A sensitive action needs a proof (the sign-in, or the password or a passkey asked again) younger than this. */
export const STEP_UP_WINDOW_MS = 10 * 60_000;

/** Did this person prove it was them within STEP_UP_WINDOW_MS? */
export function isRecentlyConfirmed(user: SessionUser, now: number = Date.now()): boolean {
  return now - user.confirmedAt <= STEP_UP_WINDOW_MS;
}

/** The page that asks for the password or a passkey again, and comes back to `returnTo`. */
export function confirmPath(returnTo: string): string {
  return `/auth/confirm?redirect=${encodeURIComponent(returnTo)}`;
}

/** The refusal of a sensitive action whose proof is too old: nothing changed, and where to confirm. */
export interface ConfirmationRequired {
  ok: false;
  error: string;
  fieldErrors: Record<string, string>;
  /** /auth/confirm?redirect=<the page>: confirm there, then do it again */
  confirm: string;
}

export function confirmationRequired(returnTo: string): ConfirmationRequired {
  return { ok: false, error: TWO_STEP_MESSAGES.confirmNeeded, fieldErrors: {}, confirm: confirmPath(returnTo) };
}

/**
 * Step-up for a sensitive loader or action (a refund, a gift card issued or cancelled, a role changed, a backup or all
 * customers' data downloaded, payment or delivery settings changed): passes when the person proved it was them within
 * the last 10 minutes. Otherwise a page or download (GET) is redirected to /auth/confirm, which comes back to it; an
 * action is answered 403 with the refusal body and `confirm` (the page shows the message with a link), nothing changed.
 * `returnTo` is where to come back to (default: the page asked for; for an action, the page it was posted from).
 */
export function requireRecentConfirmation(request: Request, user: SessionUser, options: { returnTo?: string; now?: number } = {}): void {
  if (isRecentlyConfirmed(user, options.now)) return;
  const method = request.method.toUpperCase();
  const returnTo = options.returnTo ?? (method === "GET" || method === "HEAD" ? requestedPage(request) : postedFrom(request));
  if (method === "GET" || method === "HEAD") throw new Response(null, { status: 302, headers: { Location: confirmPath(returnTo) } });
  throw Response.json(confirmationRequired(returnTo), { status: 403, statusText: "Forbidden", headers: { "Cache-Control": "no-store" } });
}

/** The shop page a form was posted from (its Referer when it's this shop's), else the action's own page. */
export function postedFrom(request: Request): string {
  const own = new URL(request.url);
  const referer = request.headers.get("referer");
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.origin === own.origin || url.origin === new URL(env().PUBLIC_BASE_URL).origin) return url.pathname + url.search;
    } catch {
      // not a URL: the action's page
    }
  }
  own.searchParams.delete("index");
  own.searchParams.delete("_routes");
  const search = own.searchParams.toString();
  return own.pathname.replace(/\.data$/, "") + (search ? `?${search}` : "");
}
