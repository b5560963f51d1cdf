/**
 * Wishlists and back-in-stock alerts (issue 34 points 3 and 4, docs/decisions/057) in Chromium at 360 px, against the
 * production build: a shop of its own whose mail goes to a real SMTP server started here, and whose jobs look for
 * work every second (JOBS_EVERY_SECONDS).
 *
 * A visitor hearts a scent, signs in through the form, and finds it on /wishlist (now the account's). A visitor asks to
 * be told when a sold-out scent is back: the confirmation e-mail comes first; after its link is confirmed and the owner
 * restocks, exactly one back-in-stock e-mail arrives and the request is gone. Screenshots of the hearts on cards,
 * /wishlist and the notify-me form at 1280, 390 and 360 px; nothing wider than the screen.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { ParsedMail } from "mailparser";
import { expect, test, type Page } from "./helpers/test";
import { startShopWithMail } from "./helpers/shop-server";
import { E2E_PASSWORD, registerByRequest, signInByRequest, uniqueEmail } from "./helpers/auth";
import { screenshot } from "./helpers/screenshot";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 6;
const BASE = `http://127.0.0.1:${PORT}`;
const OWNER = "owner@scentara.test";
const SHOTS = `test-results/${process.env.E2E_PORT ?? 3210}/wishlist`;
const PHONE = { width: 360, height: 760 };

let own: Awaited<ReturnType<typeof startShopWithMail>>;
/** every message the shop sent, as mailparser reads it */
let mail: ParsedMail[] = [];

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE, viewport: PHONE });

test.beforeAll(async () => {
  own = await startShopWithMail(PORT, {
    ADMIN_EMAILS: OWNER,
    JOBS_EVERY_SECONDS: "1",
    MARKETING_EMAILS_PER_MINUTE: "600",
  });
  mail = own.smtp.received;
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await own?.close();
});

const toOf = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.text : "");
const mailTo = (address: string) => mail.filter((m) => toOf(m) === address);

/** The shop's own database, read-only: what the test can't see in a page. */
function query<T>(sql: string, ...params: string[]): T[] {
  const db = new DatabaseSync(join(own.shop.dir, "shop.db"), { readOnly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

async function fitsTheScreen(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "the page is wider than the screen").toBeLessThanOrEqual(0);
}

/** At 1280, 390 and 360 px: a screenshot each, and nothing wider than the screen. */
async function atEveryWidth(page: Page, name: string, fullPage = false) {
  for (const width of [1280, 390, 360]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 760 });
    await fitsTheScreen(page);
    await screenshot(page, { path: `${SHOTS}/${name}-${width}.png`, fullPage });
  }
  await page.setViewportSize(PHONE);
}

let ownerRegistered = false;
async function signInAsOwner(page: Page) {
  const owner = { email: OWNER, password: E2E_PASSWORD };
  if (!ownerRegistered) {
    await registerByRequest(page, owner);
    ownerRegistered = true;
  }
  await signInByRequest(page, owner);
}

test("a visitor hearts a scent, signs in through the form, and finds it on /wishlist", async ({ page }) => {
  await page.goto("/shop");
  const card = page.getByRole("main").getByRole("listitem").filter({ has: page.getByTestId("wishlist-heart") }).first();
  const name = (await card.getByRole("heading").innerText()).trim();
  const heart = card.getByRole("button", { name: `Save ${name} to your wishlist` });
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  await heart.click();
  const saved = card.getByRole("button", { name: `Remove ${name} from your wishlist` });
  await expect(saved).toHaveAttribute("aria-pressed", "true");
  // kept in the browser, as the cart is
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem("wishlist"))) ?? "[]")).toHaveLength(1);
  await atEveryWidth(page, "cards-with-hearts");

  await page.goto("/wishlist");
  await expect(page.getByTestId("wishlist-items").getByRole("heading", { name })).toBeVisible();

  const shopper = { email: uniqueEmail("wisher"), password: E2E_PASSWORD };
  await registerByRequest(page, shopper);
  await page.goto("/auth/login?redirect=%2Fwishlist");
  await page.getByLabel("Email", { exact: true }).fill(shopper.email);
  await page.getByLabel("Password", { exact: true }).fill(shopper.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/wishlist$/);
  // rendered by the server from the account's list (the page's own Remove is a form post)
  await expect(page.getByTestId("wishlist-items").getByRole("heading", { name })).toBeVisible();
  await expect(page.getByRole("button", { name: `Remove ${name}`, exact: true })).toBeVisible();
  expect(query<{ n: number }>("select count(*) as n from wishlist_items w join users u on u.id = w.user_id where u.email = ?", shopper.email)[0]!.n).toBe(1);
  await expect(page.getByTestId("wishlist-share-link")).toHaveValue(new RegExp(`^${BASE}/wishlist/shared/`));
  await atEveryWidth(page, "wishlist", true);
});

test("notify me on a sold-out scent as a visitor: confirmation first, then one e-mail when the owner restocks", async ({ page, browser }) => {
  const stamp = Date.now().toString(36);
  const name = `Midnight Fig ${stamp}`;
  const slug = `midnight-fig-${stamp}`;
  const owner = await browser.newContext({ baseURL: BASE });
  const admin = await owner.newPage();
  await signInAsOwner(admin);
  await admin.goto("/admin/products/add");
  await admin.getByLabel("Name", { exact: true }).fill(name);
  await admin.getByLabel("Price (rand, VAT included)").fill("495.00");
  await admin.getByLabel("Category", { exact: true }).selectOption({ label: "For Her" });
  await admin.getByLabel("Stock (bottles)").fill("0");
  await admin.getByRole("button", { name: "Create Product" }).click();
  await expect(admin.getByText("Product created successfully!")).toBeVisible();

  // without JavaScript the form is in the page (its script is loaded only when a page shows it), posting to /stock-alerts
  const plain = await browser.newContext({ baseURL: BASE, javaScriptEnabled: false, viewport: PHONE });
  const noJs = await plain.newPage();
  await noJs.goto(`/products/${slug}`);
  await expect(noJs.getByTestId("notify-me").getByLabel("Your e-mail")).toBeVisible();
  await expect(noJs.getByTestId("notify-me").locator("form")).toHaveAttribute("action", "/stock-alerts");
  await plain.close();

  await page.goto(`/products/${slug}`);
  const notify = page.getByTestId("notify-me");
  await expect(notify.getByRole("heading", { name: "Notify me when it’s back" })).toBeVisible();
  await notify.scrollIntoViewIfNeeded();
  await atEveryWidth(page, "notify-me");
  const email = uniqueEmail("waiting");
  await notify.getByLabel("Your e-mail").fill(email);
  await notify.getByRole("button", { name: "Notify me" }).click();
  await expect(notify.getByRole("status")).toContainText(`we've sent a link to ${email}`);

  // the confirmation e-mail, through the real SMTP server; nothing else yet
  await expect.poll(() => mailTo(email).length).toBe(1);
  const confirmation = mailTo(email)[0]!;
  expect(confirmation.subject).toBe(`Confirm: tell me when ${name} is back`);
  const link = /(http\S+\/stock-alerts\/confirm\?token=\S+)/.exec(confirmation.text ?? "")?.[1];
  expect(link).toBeTruthy();
  await page.goto(link!);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText(`Confirmed: we'll e-mail you once when ${name} is back in stock`)).toBeVisible();
  await fitsTheScreen(page);

  // the owner sees who waits, and restocks
  await admin.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await expect(admin.getByTestId("waiting-for-stock")).toHaveText("1 shopper waits for it to come back");
  await admin.getByRole("link", { name: `Edit ${name}` }).click();
  await admin.getByLabel("Stock (bottles)").fill("4");
  await admin.getByRole("button", { name: "Save Changes" }).click();
  await expect(admin.getByText("Product updated successfully!")).toBeVisible();

  await expect.poll(() => mailTo(email).filter((m) => m.subject === `${name} is back in stock`).length, { timeout: 15_000 }).toBe(1);
  expect(mailTo(email).find((m) => m.subject === `${name} is back in stock`)!.text).toContain(`${BASE}/products/${slug}`);
  // the address is gone with the request: no second e-mail can follow, however often the job runs
  expect(query("select id from stock_alerts where email = ?", email)).toEqual([]);
  await owner.close();
});
