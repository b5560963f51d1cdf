import { DatabaseSync } from "node:sqlite";
import { e2eDataDir, expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN_EMAIL, E2E_PASSWORD, register, registerAndSignIn, signIn, uniqueEmail } from "./helpers/auth";
import { expectFleeting, holdTime, useTestClock } from "./helpers/clock";
import { axe } from "./helpers/shop";

/** The worker's E2E shop's SQLite file (tests/e2e/helpers/test.ts). */
function e2eDatabasePath(baseURL: string) {
  return `${e2eDataDir(Number(new URL(baseURL).port))}/shop.db`;
}

function resetLinkFromOutbox(baseURL: string, email: string): string {
  const db = new DatabaseSync(e2eDatabasePath(baseURL), { readOnly: true });
  try {
    const rows = db
      .prepare("select text_body from mail_outbox where to_address = ? order by created_at desc")
      .all(email) as Array<{ text_body: string }>;
    const link = rows.map((r) => /https?:\/\/\S+\/auth\/reset-password\?token=\S+/.exec(r.text_body)?.[0]).find(Boolean);
    if (!link) throw new Error(`no reset e-mail for ${email} in the outbox`);
    return link;
  } finally {
    db.close();
  }
}

/**
 * Opens the header's account menu and waits until it is open. A click that lands while the page hydrates can be lost
 * (a CI run clicked it right after a reload, and the menu never opened): then it is clicked again.
 */
async function openAccountMenu(page: Page) {
  const summary = page.getByRole("banner").locator("summary", { hasText: "Account" });
  await expect(async () => {
    if (!(await summary.evaluate((element) => (element.parentElement as HTMLDetailsElement).open))) await summary.click();
    await expect(summary.locator("xpath=..")).toHaveAttribute("open", "", { timeout: 1_000 });
  }).toPass();
}

test.describe("accounts", () => {
  test("register → sign in → header menu → change password → sign out → sign in with the new password", async ({ page }) => {
    const email = uniqueEmail("journey");
    await useTestClock(page);
    await page.goto("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();

    await register(page, { email, password: E2E_PASSWORD });
    await expect(page.getByText("Your account is ready. Please sign in.")).toBeVisible();

    // show/hide password on the login form
    const password = page.getByLabel("Password", { exact: true });
    await password.fill(E2E_PASSWORD);
    await expect(password).toHaveAttribute("type", "password");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(password).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(password).toHaveAttribute("type", "password");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);

    // the header shows the signed-in state: cart, account menu with Profile Settings and Sign Out; no Admin
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Sign In" })).toHaveCount(0);
    await expect(header.getByRole("link", { name: /cart/i }).first()).toBeVisible();
    await expect(header.getByRole("link", { name: "Admin" })).toHaveCount(0);
    await openAccountMenu(page);
    await header.getByRole("link", { name: "Profile Settings" }).first().click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { name: "Profile Settings" })).toBeVisible();
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);

    // change password
    const newPassword = "cedar-and-fig-at-dusk";
    await page.getByLabel("Current password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Show new password" }).click();
    await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("type", "text");
    await holdTime(page);
    await page.getByRole("button", { name: "Update Password" }).click();
    await expect(page.getByLabel("Current password", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");
    await expectFleeting(page, page.getByText("Password updated successfully")); // SPEC §9: 3 s

    // still signed in after the change (a fresh session), then sign out
    await page.reload();
    await expect(page.getByRole("heading", { name: "Profile Settings" })).toBeVisible();
    await openAccountMenu(page);
    await header.getByRole("button", { name: "Sign Out" }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await expect(header.getByRole("link", { name: "Sign In" })).toBeVisible();
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fprofile/);

    // the old password no longer works, the new one does
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText("Failed to sign in. Please check your credentials.")).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/profile$/);
  });

  test("the session cookie is HttpOnly and SameSite=Lax", async ({ page, context }) => {
    await registerAndSignIn(page);
    const cookie = (await context.cookies()).find((c) => c.name.endsWith("scentara.session_token"));
    expect(cookie).toBeDefined();
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe("Lax");
    expect(await page.evaluate(() => document.cookie)).not.toContain("session_token");
  });

  test("forgot password: the e-mailed link sets a new password once", async ({ page, baseURL }) => {
    const email = uniqueEmail("forgot");
    await register(page, { email, password: E2E_PASSWORD });
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL(/\/auth\/forgot-password$/);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByText("Password reset instructions have been sent to your email.")).toBeVisible();

    const link = resetLinkFromOutbox(baseURL!, email);
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Set a New Password" })).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("orris-and-rain-after-noon");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expect(page).toHaveURL(/\/auth\/login\?reset=1$/);
    await expect(page.getByText("Your password has been reset. Please sign in with your new password.")).toBeVisible();
    await signIn(page, { email, password: "orris-and-rain-after-noon" });

    // the link is spent
    await page.goto(link);
    await expect(page.getByText("This reset link is invalid or has expired. Please request a new one.")).toBeVisible();
  });

  test("/admin: a visitor is sent to login and comes back after signing in as admin", async ({ page }) => {
    const admin = { email: E2E_ADMIN_EMAIL, password: E2E_PASSWORD };
    await register(page, admin); // first use in this server run; later uses look the same
    await page.goto("/admin/orders");
    await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fadmin%2Forders$/);
    await page.getByLabel("Email", { exact: true }).fill(admin.email);
    await page.getByLabel("Password", { exact: true }).fill(admin.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByRole("heading", { name: "Orders" })).toBeVisible();
  });

  test("/admin: a signed-in customer sees Access Denied with HTTP 403 and a Sign In button", async ({ page }) => {
    await registerAndSignIn(page);
    for (const path of ["/admin", "/admin/users"]) {
      const denied = await page.goto(path);
      expect(denied?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
      await expect(page.getByText("You need admin privileges to access this page.")).toBeVisible();
    }
    await page.getByRole("main").getByRole("link", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fadmin%2Fusers$/);
  });

  test("the admin (ADMIN_EMAILS) gets the admin shell with every admin page, and the Admin link", async ({ page }) => {
    await registerAndSignIn(page, { email: E2E_ADMIN_EMAIL });
    await expect(page.getByRole("banner").getByRole("link", { name: "Admin" }).first()).toBeVisible();
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(200);
    const nav = page.getByRole("navigation", { name: "Admin" });
    for (const name of ["Dashboard", "Orders", "Products", "Categories", "Coupons", "Reviews", "Users", "Shipping", "Pricing"]) {
      await expect(nav.getByRole("link", { name })).toBeVisible();
    }
    await nav.getByRole("link", { name: "Coupons" }).click();
    await expect(page).toHaveURL(/\/admin\/coupons$/);
    await expect(page.getByRole("heading", { name: "Coupons" })).toBeVisible();
  });

  test("redirect after login returns to the page, and ignores an outside URL", async ({ page }) => {
    const user = { email: uniqueEmail("redirect"), password: E2E_PASSWORD };
    await register(page, user);
    // the tab's old address (in e-mails already sent) still leads there
    await page.goto("/profile?tab=orders");
    await expect(page).toHaveURL(/\/auth\/login\?redirect=/);
    await page.getByLabel("Email", { exact: true }).fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/profile\/orders$/);
    await expect(page.getByText("No orders found")).toBeVisible();
    await expect(page.getByRole("link", { name: "Start Shopping" })).toBeVisible();

    await page.context().clearCookies();
    await signIn(page, user, "https://evil.example/steal");
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    // a path that only becomes '//evil.example/x' once the browser resolves its dot segment
    await page.context().clearCookies();
    await signIn(page, user, "/.//evil.example/x");
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  test("email preferences: the marketing opt-in is saved with its date; the message clears after 3 s", async ({ page }) => {
    await useTestClock(page);
    await registerAndSignIn(page);
    await page.goto("/profile/preferences");
    const marketing = page.getByRole("switch", { name: "News and offers" });
    const notifications = page.getByRole("switch", { name: "Order and account notifications" });
    await expect(notifications).toBeChecked();
    await expect(marketing).not.toBeChecked();
    await marketing.check();
    await holdTime(page);
    await page.getByRole("button", { name: "Save Preferences" }).click();
    await expectFleeting(page, page.getByText("Email preferences updated successfully!"));
    await page.reload();
    await expect(page.getByRole("switch", { name: "News and offers" })).toBeChecked();
    // en-ZA style (SPEC §9), e.g. "12 Dec 2025", never ISO
    await expect(page.getByText(/You opted in on \d{1,2} [A-Z][a-z]{2,3} \d{4}\./)).toBeVisible();
  });
});

test.describe("accounts without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("register, sign in and sign out work as plain HTML forms", async ({ page }) => {
    const user = await registerAndSignIn(page);
    await page.goto("/profile");
    await expect(page.getByRole("heading", { name: "Profile Settings" })).toBeVisible();
    await page.getByRole("link", { name: "Orders" }).click();
    await expect(page).toHaveURL(/\/profile\/orders$/);
    await expect(page.getByText("No orders found")).toBeVisible();
    await openAccountMenu(page);
    await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fprofile$/);
    expect(user.email).toContain("@example.test");
  });

  test("change password as a plain form post: still signed in here, told so, other sessions ended, the new password works", async ({ page, browser, baseURL }) => {
    const user = await registerAndSignIn(page);
    const newPassword = "a-brand-new-passphrase-9";
    // the same account signed in on another browser
    const elsewhere = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const otherPage = await elsewhere.newPage();
    await signIn(otherPage, user);

    await page.goto("/profile");
    await page.getByLabel("Current password", { exact: true }).fill(user.password);
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Update Password" }).click();
    await expect(page).toHaveURL(/\/profile\?updated=password$/);
    await expect(page.getByText("Password updated successfully")).toBeVisible();
    await expect(page.getByLabel("Current password", { exact: true })).toHaveValue("");

    // still signed in on this browser, after a reload too
    await page.goto("/profile");
    await expect(page.getByRole("heading", { name: "Profile Settings" })).toBeVisible();
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(user.email);

    // the other browser's session ended with the change
    await otherPage.goto("/profile");
    await expect(otherPage).toHaveURL(/\/auth\/login\?redirect=%2Fprofile$/);
    // the old password no longer signs in there, the new one does
    await otherPage.getByLabel("Email", { exact: true }).fill(user.email);
    await otherPage.getByLabel("Password", { exact: true }).fill(user.password);
    await otherPage.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(otherPage.getByText("Failed to sign in. Please check your credentials.")).toBeVisible();
    await otherPage.getByLabel("Email", { exact: true }).fill(user.email);
    await otherPage.getByLabel("Password", { exact: true }).fill(newPassword);
    await otherPage.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(otherPage).toHaveURL(/\/profile$/);
    await expect(otherPage.getByLabel("Email", { exact: true })).toHaveValue(user.email);
    await elsewhere.close();
  });

  test("forgot and reset password as plain form posts: the e-mailed link sets a new password", async ({ page, baseURL }) => {
    const email = uniqueEmail("forgot-plain");
    await register(page, { email, password: E2E_PASSWORD });
    await page.goto("/auth/forgot-password");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByText("Password reset instructions have been sent to your email.")).toBeVisible();
    await page.goto(resetLinkFromOutbox(baseURL!, email));
    await page.getByLabel("New password", { exact: true }).fill("orris-and-rain-without-script");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expect(page).toHaveURL(/\/auth\/login\?reset=1$/);
    await signIn(page, { email, password: "orris-and-rain-without-script" });
  });
});

test.describe("accounts accessibility", () => {
  test("sign-in, sign-up, password and profile pages and Access Denied have no axe violations", async ({ page }) => {
    test.setTimeout(120_000); // axe is slow on a busy 2-core machine
    const audit = async (path: string) => {
      await page.goto(path);
      const { violations } = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    };
    for (const path of ["/auth/login", "/auth/register", "/auth/forgot-password", "/auth/reset-password?token=nope"]) await audit(path);
    await registerAndSignIn(page);
    for (const path of ["/profile", "/profile/orders", "/profile/preferences", "/admin"]) await audit(path);
  });
});
