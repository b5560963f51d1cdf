/**
 * Who is asking: the one place routes learn the signed-in user and their role. Roles are decided on the server.
 * (Interface agreed by every area; implemented on better-auth by the accounts module.)
 *
 * - loaders: `getSessionUser`, `requireUser` (visitor → login), `requireAdmin` (visitor → login, customer → 403 page)
 * - actions: `assertSameOrigin` on every state-changing action; `requireUserAction` / `requireAdminAction`
 *   (both include the origin check; a non-admin gets 403 'Admin access required')
 */
import { env } from "~/utils/env.server";
import { ADMIN_ACCESS_REQUIRED, errorResponse } from "~/utils/errors";
import { COOKIE_PREFIX, getAuth } from "./auth.server";
import { MESSAGES } from "./accounts.schema";
import { cachedSession, rememberSession } from "./session-cache.server";
import { loginPath } from "./redirect";

export interface SessionUser {
  id: string;
  email: string;
  isAdmin: boolean;
}

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
  if (remembered) return remembered;
  const result = await getAuth().api.getSession({ headers: new Headers({ cookie }), query: { disableRefresh: true } });
  if (!result) return null;
  const user = result.user;
  const flag: unknown = user.isAdmin;
  const sessionUser = { id: user.id, email: user.email, isAdmin: flag === true || flag === 1 || isListedAdmin(user.email) };
  if (token) rememberSession(token, sessionUser, new Date(result.session.expiresAt).getTime());
  return sessionUser;
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
  return user;
}

/** Admin actions: checks the origin, then answers anyone but an admin (visitor included) with 403 'Admin access required'. */
export async function requireAdminAction(request: Request): Promise<SessionUser> {
  assertSameOrigin(request);
  const user = await getSessionUser(request);
  if (!user?.isAdmin) throw forbiddenResponse(ADMIN_ACCESS_REQUIRED);
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
