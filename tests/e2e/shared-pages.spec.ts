/**
 * Storefront pages are cached once per audience — visitors, customers, admins (docs/decisions/023). What must hold:
 * a customer is served a copy another customer caused, and yet nobody ever sees anyone else's data; the header still
 * shows each person's own state (Sign In / Account / Admin), and the personal islands (the account menu's e-mail)
 * are their own.
 */
import { expect, test, type Browser, type Page } from "./helpers/test";
import { newCustomer, signInAsAdmin, signOut, E2E_ADMIN_EMAIL } from "./helpers/auth";

const PAGES = ["/", "/shop", "/shop?q=rose", "/terms"];

async function signedInPage(browser: Browser, as: "customer" | "admin") {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const user = as === "admin" ? await signInAsAdmin(page) : await newCustomer(page);
  return { page, email: user.email, close: () => context.close() };
}

async function firstProductPath(page: Page) {
  await page.goto("/shop");
  const href = await page.locator('a[href^="/products/"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  return href!;
}

test.describe("pages shared by an audience", () => {
  test("two customers share one cached copy, and neither ever receives the other's e-mail", async ({ browser, request }) => {
    const lerato = await signedInPage(browser, "customer");
    const thabo = await signedInPage(browser, "customer");
    const admin = await signedInPage(browser, "admin");
    const everyone = [lerato.email, thabo.email, E2E_ADMIN_EMAIL];
    const paths = [...PAGES, await firstProductPath(lerato.page)];

    for (const path of paths) {
      // Lerato's request renders (or reuses) the customers' copy; Thabo's must then be served from it.
      const first = await lerato.page.request.get(path);
      const second = await thabo.page.request.get(path);
      expect(first.status(), path).toBe(200);
      expect(second.headers()["x-page-cache"], path).toBe("HIT");
      expect(second.headers()["cache-control"], path).toBe("private, no-cache");
      for (const response of [first, second]) {
        const html = await response.text();
        for (const email of everyone) expect(html, `${path} must not carry ${email}`).not.toContain(email);
        expect(html, path).toContain("Account"); // the signed-in header
        expect(html, path).not.toContain('href="/admin"');
      }
      // The admins' copy has the Admin link, the visitors' copy the Sign In link; neither has any e-mail either.
      const adminHtml = await (await admin.page.request.get(path)).text();
      expect(adminHtml, path).toContain('href="/admin"');
      const visitorHtml = await (await request.get(path)).text();
      expect(visitorHtml, path).toContain('href="/auth/login"');
      for (const html of [adminHtml, visitorHtml]) for (const email of everyone) expect(html).not.toContain(email);
    }

    // Each one's own e-mail comes to their own account menu, from /api/me: Lerato opens it once the page's script
    // has run; Thabo, on a slow connection, opens it before (it opens without JavaScript) and gets it when it runs.
    await lerato.page.goto("/shop");
    await lerato.page.waitForLoadState("networkidle");
    await lerato.page.getByText("Account", { exact: true }).click();
    await expect(lerato.page.getByText(`Signed in as ${lerato.email}`)).toBeVisible();

    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await thabo.page.route("**/assets/*.js", async (route) => {
      await held;
      await route.continue();
    });
    await thabo.page.goto("/shop", { waitUntil: "commit" });
    await thabo.page.getByText("Account", { exact: true }).click();
    await expect(thabo.page.getByText("Signed in", { exact: true })).toBeVisible();
    release();
    await expect(thabo.page.getByText(`Signed in as ${thabo.email}`)).toBeVisible();
    await Promise.all([lerato.close(), thabo.close(), admin.close()]);
  });

  test("after signing out, the same browser gets the visitors' page at once", async ({ browser }) => {
    const shopper = await signedInPage(browser, "customer");
    await shopper.page.goto("/shop");
    await expect(shopper.page.getByText("Account", { exact: true })).toBeVisible();
    await signOut(shopper.page);
    await shopper.page.goto("/shop");
    await expect(shopper.page.getByRole("link", { name: "Sign In" })).toBeVisible();
    await expect(shopper.page.getByText("Account", { exact: true })).toHaveCount(0);
    await shopper.close();
  });
});
