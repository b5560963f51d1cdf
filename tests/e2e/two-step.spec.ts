/**
 * Two-step sign-in and passkeys in Chromium (issue 38, docs/decisions/059): an authenticator app added from the secret
 * the page shows (the code computed here, as an app would) and a sign-in with its code; a passkey added and used to
 * sign in through Chromium's virtual authenticator (CDP WebAuthn). The pages looked at 1280, 390 and 360 px.
 *
 * Its own shop on http://localhost:<port>: WebAuthn refuses an IP address as the relying party's id, and the worker
 * shops are at 127.0.0.1.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { base32Decode, totpCode } from "../../app/modules/accounts/totp.server";
import { E2E_PASSWORD, register, signIn, signOut, uniqueEmail } from "./helpers/auth";
import { screenshot } from "./helpers/screenshot";
import { freePort, startShop, waitForShop } from "./helpers/shop-server";
import { expect, test } from "./helpers/test";

test.describe.configure({ mode: "serial" });

let shop: ReturnType<typeof startShop>;
let base = "";

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  shop = startShop(port, { PUBLIC_BASE_URL: base, AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123", LOG_LEVEL: "warn", WEB_CONCURRENCY: "1", DELIVERY_KINDS: "" });
  await waitForShop(shop, base);
});

test.afterAll(async () => {
  shop.child.kill("SIGTERM");
  await shop.exited;
});

const WIDTHS = [1280, 390, 360];

/** Each width: nothing wider than the screen, and a picture for a person to look at. */
async function lookAt(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 780 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `test-results/screenshots/two-step-${name}-${width}.jpg`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function newShopper(context: BrowserContext) {
  const page = await context.newPage();
  const user = { email: uniqueEmail("two-step"), password: E2E_PASSWORD };
  await register(page, user);
  await signIn(page, user);
  return { page, user };
}

test("an authenticator app is added from the shown secret, then a password sign-in asks for its code", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base });
  const { page, user } = await newShopper(context);
  await page.goto("/profile/security");
  await expect(page.getByRole("heading", { name: "Sign-in & Security" })).toBeVisible();
  await page.getByRole("button", { name: "Set up authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7 ]{20,}$/);
  await lookAt(page, "setup");
  const key = base32Decode(secret);
  await page.getByLabel("Code from the app").fill(totpCode(key));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("heading", { name: "Your backup codes" })).toBeVisible();
  await expect(page.getByTestId("backup-codes").getByRole("listitem")).toHaveCount(10);
  await lookAt(page, "backup-codes");

  await signOut(page);
  await page.goto("/auth/login?redirect=%2Fprofile%2Fsecurity");
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/two-step\?redirect=%2Fprofile%2Fsecurity$/);
  await expect(page.getByRole("heading", { name: "Enter Your Code" })).toBeVisible();
  await lookAt(page, "code");
  // a wrong code is refused and says so
  const now = totpCode(key);
  await page.getByLabel("Authentication code").fill(now === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("That code isn't right.", { exact: false })).toBeVisible();
  // The code that turned the app on is spent (a code works once): an app 30 seconds ahead shows the next one.
  await page.getByLabel("Authentication code").fill(totpCode(key, Date.now() + 30_000));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/profile\/security$/);
  await expect(page.getByText("Backup codes:", { exact: false })).toBeVisible();
  await expect(page.getByTestId("devices").getByText("This device")).toBeVisible();
  await lookAt(page, "profile");
  await context.close();
});

test("a passkey is added in the profile and then signs in alone, through Chromium's virtual authenticator", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base });
  const { page } = await newShopper(context);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await page.goto("/profile/security");
  await page.getByLabel("Name (optional)").fill("Studio laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText("Your passkey was added.")).toBeVisible();
  await expect(page.getByTestId("passkeys").getByText("Studio laptop", { exact: true })).toBeVisible();

  await signOut(page);
  await page.goto("/auth/login?redirect=%2Fprofile%2Fsecurity");
  const passkey = page.getByRole("button", { name: "Sign in with a passkey" });
  await expect(passkey).toBeVisible();
  await lookAt(page, "login");
  await passkey.click();
  await expect(page).toHaveURL(/\/profile\/security$/);
  await expect(page.getByTestId("passkeys").getByText("last used", { exact: false })).toBeVisible();

  // the step-up page offers the passkey too, and it confirms
  await page.goto("/auth/confirm?redirect=%2Fprofile%2Fsecurity");
  await expect(page.getByRole("heading", { name: "Confirm It's You" })).toBeVisible();
  await lookAt(page, "confirm");
  await page.getByRole("button", { name: "Confirm with passkey" }).click();
  await expect(page).toHaveURL(/\/profile\/security$/);
  await context.close();
});
