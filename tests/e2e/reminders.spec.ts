/**
 * A cart reminder (issue 34 points 2 and 5), in Chromium at 360 px against the production build: a shop of its own
 * whose mail goes to a real SMTP server started here (read with mailparser), and whose jobs look for work every second.
 *
 * A shopper who opted in to news and offers signs in and leaves a product in their cart; the browser keeps it on the
 * server too. The clock of that cart is moved a day back (its last change, in the shop's database: nothing sleeps) and
 * the reminder job sends one e-mail with the item, the restore link and the one-click unsubscribe. In a fresh browser,
 * signed out, the link puts the item back in the cart; a tampered link adds nothing. The e-mail (its HTML rendered in
 * the browser) and Admin → Marketing → Reminders are photographed at 1280, 390 and 360 px (PNG: a handful, to read).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { ParsedMail } from "mailparser";
import { expect, test, type Page } from "./helpers/test";
import { startShopWithMail } from "./helpers/shop-server";
import { E2E_PASSWORD, registerByRequest, signInByRequest, uniqueEmail } from "./helpers/auth";
import { screenshot } from "./helpers/screenshot";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 5;
const BASE = `http://127.0.0.1:${PORT}`;
const OWNER = "owner@scentara.test";
const SHOTS = "test-results/screenshots/reminders";
const PHONE = { width: 360, height: 780 };

let own: Awaited<ReturnType<typeof startShopWithMail>>;
/** every message the shop sent, as mailparser reads it */
let mail: ParsedMail[] = [];

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE, viewport: PHONE });

test.beforeAll(async () => {
  own = await startShopWithMail(PORT, {
    ADMIN_EMAILS: OWNER,
    // the reminder job looks every second; the cart's day passes by moving its clock, not by waiting
    JOBS_EVERY_SECONDS: "1",
  });
  mail = own.smtp.received;
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await own?.close();
});

/** The shop's own database, written the way its clock would have: the cart was last changed a day and an hour ago. */
function moveCartClockBack(email: string, hours: number) {
  const db = new DatabaseSync(join(own.shop.dir, "shop.db"));
  try {
    db.exec("pragma busy_timeout = 5000");
    const changed = new Date(Date.now() - hours * 3600_000).toISOString();
    const result = db.prepare("update saved_carts set changed_at = ? where user_id = (select id from users where email = ?) and cart_id is not null").run(changed, email);
    expect(result.changes, "the cart kept on the server").toBe(1);
  } finally {
    db.close();
  }
}

const toOf = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.text : "");
const headerLine = (m: ParsedMail, key: string) => m.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, " ");

let reminder: ParsedMail;
let productName = "";

test("a consenting shopper leaves a cart; a day later one reminder arrives with the item, its restore link and one-click unsubscribe", async ({ page }) => {
  const email = uniqueEmail("reminded");
  // registered with the marketing box ticked (as the form posts it), then signed in
  const origin = BASE;
  const answer = await page.request.post("/auth/register", { form: { email, password: E2E_PASSWORD, marketing: "on", redirect: "" }, headers: { origin }, maxRedirects: 0 });
  expect(answer.status()).toBe(302);
  await signInByRequest(page, { email, password: E2E_PASSWORD });

  await page.goto("/shop");
  await page.locator('a[href^="/products/"]').first().click();
  await expect(page).toHaveURL(/\/products\//);
  await expect(page.getByRole("button", { name: "Add to Cart" })).toBeVisible();
  productName = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();
  // the browser sends its cart to the server after the change (debounced): wait for that save
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/cart") && r.request().method() === "POST" && r.request().postData()?.includes('"quantity":1') === true);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  expect((await saved).status()).toBe(200);

  moveCartClockBack(email, 25);
  await expect.poll(() => mail.filter((m) => toOf(m) === email).length, { timeout: 15_000 }).toBe(1);
  reminder = mail.find((m) => toOf(m) === email)!;
  expect(reminder.subject).toBe("Scentara: your cart is saved for you");
  expect(reminder.text).toContain(`1 × ${productName}`);
  expect(reminder.text).toMatch(new RegExp(`${BASE}/cart\\?restore=`));
  expect(headerLine(reminder, "list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  expect(headerLine(reminder, "list-unsubscribe")).toMatch(/\/unsubscribe\/one-click\?token=/);
});

test("the restore link opens the cart with the item in a fresh browser; a tampered one adds nothing", async ({ browser }) => {
  const link = /https?:\/\/\S+\/cart\?restore=\S+/.exec(reminder.text ?? "")![0];
  const fresh = await browser.newContext({ baseURL: BASE, viewport: PHONE });
  const page = await fresh.newPage();

  const tampered = link.replace(/restore=(.)/, (_m, c: string) => `restore=${c === "A" ? "B" : "A"}`);
  await page.goto(tampered);
  await expect(page.getByText("This link to your cart is not valid")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();

  await page.goto(link);
  await expect(page.getByText("Welcome back: 1 item is in your cart again.")).toBeVisible();
  await expect(page.getByText(productName).first()).toBeVisible();
  await expect(page).toHaveURL(`${BASE}/cart`);
  // kept by this browser: a reload shows it, and restores nothing twice
  await page.reload();
  await expect(page.getByText(productName).first()).toBeVisible();
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem("cart")))!)).toHaveLength(1);
  await screenshot(page, { path: `${SHOTS}/cart-restored-360.png`, fullPage: true });
  await fresh.close();
});

async function shoot(page: Page, name: string, check: () => Promise<void>) {
  for (const width of [1280, 390, 360]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await check();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

test("the reminder e-mail and Admin → Marketing → Reminders at 1280, 390 and 360 px", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  await page.setContent(reminder.html as string);
  await shoot(page, "reminder-email", async () => {
    await expect(page.getByRole("link", { name: "Back to my cart" })).toBeVisible();
    await expect(page.getByText("Unsubscribe").first()).toBeVisible();
  });

  const owner = { email: OWNER, password: E2E_PASSWORD };
  await registerByRequest(page, owner);
  await signInByRequest(page, owner);
  await page.goto("/admin/marketing");
  await page.getByRole("link", { name: "Reminders" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reminders" })).toBeVisible();
  await shoot(page, "admin-reminders", async () => {
    await expect(page.getByText("Reminders sent").first()).toBeVisible();
  });
  // one sent, its cart restored (no order yet: nothing recovered)
  const card = (label: string) => page.getByRole("listitem").filter({ has: page.getByText(label, { exact: true }) });
  await expect(card("Reminders sent").locator("span").nth(1)).toHaveText("1");
  await expect(card("Carts restored").locator("span").nth(1)).toHaveText("1");
  await expect(card("Orders recovered").locator("span").nth(1)).toHaveText("0");
  await context.close();
});
