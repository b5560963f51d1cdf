/**
 * Accounts for end-to-end tests, through the real pages (the forms work without JavaScript, so this is also what a
 * user does). The E2E server lists ADMIN_EMAILS=admin@scentara.test (playwright.config.ts): that address becomes
 * admin when it signs in.
 *
 *   const user = await registerAndSignIn(page);          // a fresh customer, signed in through the forms
 *   const user = await newCustomer(page);                // the same by request, for tests about something else
 *   await signInAsAdmin(page);                           // the admin (registered on first use)
 */
import { expect, type APIRequestContext, type Cookie, type Page } from "@playwright/test";

export const E2E_ADMIN_EMAIL = "admin@scentara.test";
export const E2E_PASSWORD = "amber-vetiver-nocturne-7";

export interface E2EUser {
  email: string;
  password: string;
}

let n = 0;
export function uniqueEmail(prefix = "shopper"): string {
  n += 1;
  return `${prefix}-${Date.now().toString(36)}-${n}-${Math.random().toString(36).slice(2, 6)}@example.test`;
}

/** Registers through /auth/register; ends on the login page. Registering an existing e-mail looks the same. */
export async function register(page: Page, user: E2EUser) {
  await page.goto("/auth/register");
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
}

/** Signs in through /auth/login (optionally with ?redirect=…) and waits to leave the login page. */
export async function signIn(page: Page, user: E2EUser, redirectTo?: string) {
  await page.goto(redirectTo ? `/auth/login?redirect=${encodeURIComponent(redirectTo)}` : "/auth/login");
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
}

/** A new customer account, signed in through the forms (the page ends on the home page). */
export async function registerAndSignIn(page: Page, user: Partial<E2EUser> = {}): Promise<E2EUser> {
  const full = { email: user.email ?? uniqueEmail(), password: user.password ?? E2E_PASSWORD };
  await register(page, full);
  await signIn(page, full);
  return full;
}

/** Anything whose requests share a browser context's cookies: a page, or the context itself. */
type HasRequest = { request: APIRequestContext };

/** The origin of the shop the context talks to (its baseURL, which relative URLs resolve against). */
async function shopOrigin(target: HasRequest): Promise<string> {
  return new URL((await target.request.get("/healthz")).url()).origin;
}

/**
 * Registers by request: the POST the registration form makes (same fields, same origin), answered as the form's is —
 * on to the sign-in page. Registering an existing e-mail answers the same.
 */
export async function registerByRequest(target: HasRequest, user: E2EUser) {
  const origin = await shopOrigin(target);
  const answer = await target.request.post("/auth/register", { form: { email: user.email, password: user.password, redirect: "" }, headers: { origin }, maxRedirects: 0 });
  expect(answer.status(), `registering ${user.email}`).toBe(302);
  expect(answer.headers()["location"]).toMatch(/^\/auth\/login\?registered=1/);
}

/**
 * Signs in by request: the POST the sign-in form makes; its session cookie lands in the context's cookies, as the
 * form's does, and /api/me then answers with the e-mail. The page stays where it was: callers go where they need.
 */
export async function signInByRequest(target: HasRequest, user: E2EUser) {
  const origin = await shopOrigin(target);
  const answer = await target.request.post("/auth/login", { form: { email: user.email, password: user.password, redirect: "" }, headers: { origin }, maxRedirects: 0 });
  expect(answer.status(), `signing in ${user.email}`).toBe(302);
  const me = await target.request.get("/api/me");
  expect(me.status()).toBe(200);
  expect((await me.json()).email).toBe(user.email.toLowerCase());
}

/**
 * A new customer account, registered and signed in by request: for the many tests about something else than signing
 * in (a return, a checkout's address, the admin link of a promoted customer…), it spares the two forms' four page
 * loads. The tests about registering and signing in (accounts.spec.ts, fewer-taps.spec.ts, checkout.spec.ts' journey)
 * go through the forms (registerAndSignIn, register, signIn). The page stays where it was: callers go where they need.
 */
export async function newCustomer(target: HasRequest, user: Partial<E2EUser> = {}): Promise<E2EUser> {
  const full = { email: user.email ?? uniqueEmail(), password: user.password ?? E2E_PASSWORD };
  await registerByRequest(target, full);
  await signInByRequest(target, full);
  return full;
}

/** Per shop (origin): the admin is registered there, and the cookies of its signed-in session. */
const adminRegistered = new Set<string>();
const adminSessions = new Map<string, Cookie[]>();

/**
 * Signs in as the configured admin e-mail. The first time in this test process for a shop, by request as the forms
 * post (registering first: registering again each time would meet the registration limit of five an hour per
 * address); after that it reuses that signed-in session's cookies in the page's context (the sign-in form's round
 * trip cost about a second in each of ~25 admin tests). Either way the page stays where it was — every caller goes
 * to the page it needs next. A session that no longer answers as the admin (a test signed it out) is replaced by a
 * new sign-in. The tests about signing in (accounts.spec.ts, fewer-taps.spec.ts) use register/signIn, so they always
 * go through the forms.
 */
export async function signInAsAdmin(page: Page): Promise<E2EUser> {
  const admin = { email: E2E_ADMIN_EMAIL, password: E2E_PASSWORD };
  // the shop this page's context talks to (its baseURL), which relative URLs resolve against
  const me = await page.request.get("/api/me");
  const origin = new URL(me.url()).origin;
  const saved = adminSessions.get(origin);
  if (saved) {
    await page.context().addCookies(saved);
    const check = await page.request.get("/api/me");
    if (check.ok() && (await check.json()).email === E2E_ADMIN_EMAIL) return admin;
    adminSessions.delete(origin); // the sign-in below sets a new session cookie in its place
  }
  if (!adminRegistered.has(origin)) {
    await registerByRequest(page, admin);
    adminRegistered.add(origin);
  }
  await signInByRequest(page, admin);
  // the session cookie only: nothing else set on the way (e.g. the remembered e-mail) travels on
  adminSessions.set(origin, (await page.context().cookies(origin)).filter((c) => c.name.endsWith(".session_token")));
  return admin;
}

/** Signs out with a POST to /auth/logout from the shop's origin (what the header's Sign Out button does). */
export async function signOut(page: Page) {
  const response = await page.request.post("/auth/logout", { headers: { origin: await shopOrigin(page) }, form: {}, maxRedirects: 0 });
  expect([302, 303]).toContain(response.status());
}
