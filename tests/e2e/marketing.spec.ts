/**
 * The consent log and marketing that respects it (issue 21 points 1 and 2), in Chromium against the production
 * build: a shop of its own whose mail goes to a real SMTP server started here, and whose announcement sender looks for
 * work every second (JOBS_EVERY_SECONDS).
 *
 * A shopper registers without the marketing box: the owner's first announcement doesn't reach them. They opt in on
 * their profile: the second one does, with the RFC 8058 headers; signed out, one click on its link unsubscribes them;
 * Admin → Users shows both in their consent history, and the owner downloads the whole log. A forged and an expired
 * link are refused and change nothing. Every new page at 1280, 390 and 360 px, with axe.
 */
import type { AddressInfo } from "node:net";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import "../factories/smtp-greeting";
import { expect, test, type Browser, type Page } from "./helpers/test";
import { startShop, waitForShop } from "./helpers/shop-server";
import { E2E_PASSWORD, registerByRequest, signInByRequest, uniqueEmail } from "./helpers/auth";
import { seriousViolations } from "./helpers/shop";
import { useTestClock } from "./helpers/clock";
import { signUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS } from "../../app/modules/marketing/unsubscribe-token";
import { screenshot } from "./helpers/screenshot";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 8;
const BASE = `http://127.0.0.1:${PORT}`;
const OWNER = "owner@scentara.test";
const SECRET = "marketing-e2e-secret-marketing-e2e-secret-01";
const SHOTS = "test-results/screenshots/marketing";

let shop: ReturnType<typeof startShop>;
let smtp: SMTPServer;
const mail: ParsedMail[] = [];

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((m) => (mail.push(m), callback()))
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  shop = startShop(PORT, {
    SEED_DEMO: "true",
    LOG_LEVEL: "warn",
    WEB_CONCURRENCY: "1",
    PUBLIC_BASE_URL: BASE,
    AUTH_SECRET: SECRET,
    ADMIN_EMAILS: OWNER,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    DELIVERY_KINDS: "",
    // the sender looks for work every second, and may send plenty a minute: nothing waits on the real throttle
    JOBS_EVERY_SECONDS: "1",
    MARKETING_EMAILS_PER_MINUTE: "600",
  });
  await waitForShop(shop, BASE);
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  shop?.child.kill("SIGTERM");
  await shop?.exited;
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

const toOf = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.text : "");
const mailTo = (address: string, subject: string) => mail.filter((m) => toOf(m) === address && m.subject === subject);
/** The raw header line as sent (unfolded). */
const headerLine = (m: ParsedMail, key: string) => m.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, " ");
const unsubscribeAddress = (m: ParsedMail) => /^List-Unsubscribe: <([^>]+)>$/.exec(headerLine(m, "list-unsubscribe") ?? "")?.[1] ?? "";

async function register(page: Page, email: string, marketing: boolean) {
  await page.goto("/auth/register");
  const box = page.getByRole("checkbox", { name: "News and offers by e-mail" });
  // never ticked in advance, and apart from the terms
  await expect(box).not.toBeChecked();
  await expect(page.getByText("By creating an account you accept our Terms & Conditions")).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
  if (marketing) await box.check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
}

/** Signs a customer in by request, as the form posts (signing in is not what these journeys test). */
const signIn = (page: Page, email: string) => signInByRequest(page, { email, password: E2E_PASSWORD });

let ownerRegistered = false;
/**
 * Signs in as the owner (ADMIN_EMAILS), registered on first use in this shop: by request, as the forms post (the
 * customers' registrations above go through the form, whose marketing box is part of what is tested).
 */
async function signInAsOwner(page: Page) {
  const owner = { email: OWNER, password: E2E_PASSWORD };
  if (!ownerRegistered) {
    await registerByRequest(page, owner);
    ownerRegistered = true;
  }
  await signInByRequest(page, owner);
}

/** A user's id, read from the shop's own database (the test signs a link as the shop would). */
function userIdOf(email: string): string {
  const db = new DatabaseSync(join(shop.dir, "shop.db"), { readOnly: true });
  try {
    return (db.prepare("select id from users where email = ?").get(email) as { id: string }).id;
  } finally {
    db.close();
  }
}

async function signedOutPage(browser: Browser, javaScriptEnabled = true) {
  const context = await browser.newContext({ baseURL: BASE, javaScriptEnabled });
  return { context, page: await context.newPage() };
}

/** The owner writes an announcement (with a product), saves it and lands on its page with the preview. */
async function writeAnnouncement(page: Page, subject: string, product?: { slug: string; name: string }) {
  await page.goto("/admin/marketing");
  await page.getByRole("link", { name: "New announcement" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New announcement" })).toBeVisible();
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Text").fill("Dear friend of the house,\n\nThree new scents arrived this week, ready for the cooler evenings.");
  if (product) await page.getByLabel("Product 1").fill(`${BASE}/products/${product.slug}`);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\/admin\/marketing\/[0-9a-f-]{36}/);
  await expect(page.getByRole("heading", { level: 1, name: subject })).toBeVisible();
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByText(subject).first()).toBeVisible();
  if (product) await expect(preview.getByText(product.name).first()).toBeVisible();
}

async function sendAnnouncement(page: Page, recipients: number) {
  const label = `Send to ${recipients} ${recipients === 1 ? "customer" : "customers"}`;
  await page.getByRole("link", { name: label }).click();
  const dialog = page.getByRole("dialog", { name: "Send this announcement?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: label }).click();
  // the sender works in the background; the page follows its progress until everyone is dealt with, looking again
  // every 3 s: the page's clock (useTestClock) is run on to each next look instead of waiting for it
  await expect(async () => {
    await page.clock.runFor(3000);
    await expect(page.getByRole("heading", { name: "Sent", exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText(`${recipients} of ${recipients} sent`)).toBeVisible();
}

test("register without marketing → no announcement; opt in → it arrives with the unsubscribe headers → one click signed out unsubscribes → the log shows both", async ({ page, browser }) => {
  test.slow();
  const quiet = uniqueEmail("quiet");
  const keen = uniqueEmail("keen");
  await register(page, quiet, false);
  await register(page, keen, true);

  // a product of the demo catalogue to show under the text
  await page.goto("/shop");
  const first = page.locator('a[href^="/products/"]').first();
  const slug = (await first.getAttribute("href"))!.slice("/products/".length);
  await page.goto(`/products/${slug}`);
  const productName = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();

  const owner = await browser.newContext({ baseURL: BASE });
  const admin = await owner.newPage();
  await useTestClock(admin);
  await signInAsOwner(admin);

  // 1. The first announcement, tested on the owner, then sent: it reaches the opted-in customer only.
  await writeAnnouncement(admin, "Autumn arrivals", { slug, name: productName });
  await admin.getByRole("button", { name: "Send a test to me" }).click();
  await expect(admin.getByText(`Test sent to ${OWNER}`)).toBeVisible();
  await expect.poll(() => mailTo(OWNER, "[Test] Autumn arrivals").length).toBe(1);
  await sendAnnouncement(admin, 1);
  await expect.poll(() => mailTo(keen, "Autumn arrivals").length).toBe(1);
  expect(mailTo(quiet, "Autumn arrivals")).toHaveLength(0);
  expect(mailTo(keen, "Autumn arrivals")[0]!.text).toContain(productName);

  // 2. The quiet customer opts in on their profile.
  await signIn(page, quiet);
  await page.goto("/profile/preferences");
  const marketing = page.getByRole("switch", { name: "News and offers by e-mail" });
  await expect(marketing).not.toBeChecked();
  await marketing.check();
  await page.getByRole("button", { name: "Save Preferences" }).click();
  await expect(page.getByText(/You opted in on/)).toBeVisible();

  // 3. The second announcement reaches them, with the RFC 8058 headers and the footer naming the shop.
  await writeAnnouncement(admin, "Winter restock");
  await sendAnnouncement(admin, 2);
  await expect.poll(() => mailTo(quiet, "Winter restock").length).toBe(1);
  const received = mailTo(quiet, "Winter restock")[0]!;
  const link = unsubscribeAddress(received);
  expect(link).toMatch(new RegExp(`^${BASE}/unsubscribe/one-click\\?token=`));
  expect(headerLine(received, "list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  expect(received.from?.value[0]?.name).toBe("Scentara");
  expect(received.text).toContain("Sent by Scentara");
  const footerLink = link.replace("/unsubscribe/one-click?", "/unsubscribe?");
  expect(received.text).toContain(`Unsubscribe (one click, no sign-in): ${footerLink}`);

  // 4. Signed out, in another browser: the footer's link shows the question; one click unsubscribes.
  const stranger = await signedOutPage(browser);
  await stranger.page.goto(footerLink);
  await expect(stranger.page.getByRole("heading", { level: 1, name: "Unsubscribe" })).toBeVisible();
  await expect(stranger.page.getByText("Stop news and offers e-mails from Scentara?")).toBeVisible();
  await screenshot(stranger.page, { path: `${SHOTS}/unsubscribe-ready-1280.jpg`, fullPage: true });
  await stranger.page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(stranger.page.getByRole("heading", { level: 1, name: "Unsubscribed" })).toBeVisible();
  await expect(stranger.page.getByText("You're unsubscribed.")).toBeVisible();
  await screenshot(stranger.page, { path: `${SHOTS}/unsubscribe-done-1280.jpg`, fullPage: true });
  await stranger.context.close();

  // the other customer's mail program uses the one-click header itself (a POST from elsewhere, no cookie, no page)
  const keenLink = unsubscribeAddress(mailTo(keen, "Winter restock")[0]!);
  const oneClick = await page.request.fetch(keenLink, { method: "POST", form: { "List-Unsubscribe": "One-Click" }, headers: { origin: "https://mail.example.com", cookie: "" }, maxRedirects: 0 });
  expect(oneClick.status()).toBe(200);
  expect(await oneClick.text()).toMatch(/^You're unsubscribed\./);
  // a program that only opens the header's address lands on the page, which asks first
  const opened = await page.request.get(keenLink, { maxRedirects: 0 });
  expect(opened.status()).toBe(303);

  // 5. Nobody opted in any more: a third announcement has no one to go to.
  await writeAnnouncement(admin, "Nobody left");
  await expect(admin.getByText("Nobody has opted in to news and offers yet.")).toBeVisible();
  await expect(admin.getByRole("button", { name: "Send to 0 customers" })).toBeDisabled();

  // 6. Admin → Users: the quiet customer's history shows the opt-in (profile) and the withdrawal (unsubscribe link).
  await admin.goto(`/admin/users?q=${encodeURIComponent(quiet)}`);
  await admin.getByRole("link", { name: `Consents of ${quiet}` }).click();
  const history = admin.getByRole("region", { name: `Consent history of ${quiet}` });
  await expect(history).toBeVisible();
  const items = history.getByRole("listitem");
  await expect(items).toHaveCount(4);
  await expect(history).toContainText("Accepted: Terms & Conditions");
  await expect(history).toContainText("Acknowledged: Privacy notice");
  await expect(items.nth(2)).toContainText("Given: Marketing e-mails");
  await expect(items.nth(2)).toContainText("Profile");
  await expect(items.nth(3)).toContainText("Withdrawn: Marketing e-mails");
  await expect(items.nth(3)).toContainText("Unsubscribe link");
  await screenshot(admin, { path: `${SHOTS}/users-consents-1280.jpg`, fullPage: true });

  // 7. The whole log as a CSV, from the Marketing page.
  await admin.goto("/admin/marketing");
  const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: "Consent log (CSV)" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^scentara-consent-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const quietRows = csv.split("\r\n").filter((line) => line.includes(quiet));
  expect(quietRows.filter((r) => r.includes("Marketing e-mails")).map((r) => (r.includes(",Given,") ? "Given" : r.includes(",Withdrawn,") ? "Withdrawn" : "?"))).toEqual(["Given", "Withdrawn"]);
  await owner.close();
});

test("a forged or an expired unsubscribe link is refused with a clear message and changes nothing", async ({ page, browser }) => {
  const email = uniqueEmail("kept");
  await register(page, email, true);
  const { context, page: stranger } = await signedOutPage(browser);
  // a link of this shop's making, but for nobody real and altered: refused
  const forged = `${signUnsubscribeToken("someone-else", { secret: SECRET }).slice(0, -3)}abc`;
  await stranger.goto(`/unsubscribe?token=${encodeURIComponent(forged)}`);
  await expect(stranger.getByRole("heading", { level: 1, name: "Link Not Valid" })).toBeVisible();
  await expect(stranger.getByText(/This unsubscribe link is not valid/)).toBeVisible();
  await expect(stranger.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
  await screenshot(stranger, { path: `${SHOTS}/unsubscribe-invalid-1280.jpg`, fullPage: true });

  // an expired link for the real customer, signed as the shop does but made longer ago than links last
  const userId = userIdOf(email);
  const expired = signUnsubscribeToken(userId, { secret: SECRET, now: new Date(Date.now() - (UNSUBSCRIBE_LINK_DAYS + 1) * 24 * 3600_000) });
  await stranger.goto(`/unsubscribe?token=${encodeURIComponent(expired)}`);
  await expect(stranger.getByRole("heading", { level: 1, name: "Link Expired" })).toBeVisible();
  await expect(stranger.getByText(/This unsubscribe link has expired/)).toBeVisible();
  // the one-click POST with it is refused too
  const post = await stranger.request.post(`/unsubscribe?token=${encodeURIComponent(expired)}`, { form: { "List-Unsubscribe": "One-Click" } });
  expect(post.status()).toBe(400);
  await context.close();

  // still opted in
  await signIn(page, email);
  await page.goto("/profile/preferences");
  await expect(page.getByRole("switch", { name: "News and offers by e-mail" })).toBeChecked();
});

test("the new pages at 1280, 390 and 360 px: nothing wider than the screen, no serious accessibility findings", async ({ browser }) => {
  test.slow();
  const owner = await browser.newContext({ baseURL: BASE });
  const admin = await owner.newPage();
  await signInAsOwner(admin);
  await admin.goto("/shop");
  const slug = (await admin.locator('a[href^="/products/"]').first().getAttribute("href"))!.slice("/products/".length);
  await admin.goto(`/products/${slug}`);
  const name = (await admin.getByRole("heading", { level: 1 }).textContent())!.trim();
  await writeAnnouncement(admin, "A draft to look at", { slug, name });
  const draftPath = new URL(admin.url()).pathname;
  const { context, page: stranger } = await signedOutPage(browser);
  const shots: Array<{ name: string; page: Page; path: string }> = [
    { name: "admin-marketing", page: admin, path: "/admin/marketing" },
    { name: "admin-marketing-draft", page: admin, path: draftPath },
    { name: "admin-marketing-new", page: admin, path: "/admin/marketing/new" },
    { name: "register", page: stranger, path: "/auth/register" },
    { name: "unsubscribe-invalid", page: stranger, path: "/unsubscribe?token=nope" },
  ];
  await admin.goto("/admin/marketing");
  const sentHref = await admin.getByRole("link", { name: "Open Winter restock" }).getAttribute("href");
  shots.push({ name: "admin-marketing-sent", page: admin, path: sentHref! });
  // each page opened once and resized to each width (opening it anew at each width cost two more loads apiece)
  for (const s of shots) {
    await s.page.setViewportSize({ width: 1280, height: 900 });
    await s.page.goto(s.path);
    for (const width of [1280, 390, 360]) {
      await s.page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      await expect(s.page.getByRole("heading", { level: 1 })).toBeVisible();
      const overflow = await s.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${s.path} at ${width} px`).toBeLessThanOrEqual(0);
      await screenshot(s.page, { path: `${SHOTS}/${s.name}-${width}.jpg`, fullPage: true });
      if (width !== 360) expect(await seriousViolations(s.page), `${s.path} at ${width} px`).toEqual([]);
    }
  }
  await context.close();
  await owner.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the owner saves a draft, confirms Send through the page's own dialog, and a customer unsubscribes with the page's button", async ({ page, browser }) => {
    const email = uniqueEmail("nojs");
    await register(page, email, true);
    const owner = await browser.newContext({ baseURL: BASE, javaScriptEnabled: false });
    const admin = await owner.newPage();
    await signInAsOwner(admin);
    await writeAnnouncement(admin, "Plain forms still work");
    await admin.getByRole("link", { name: /^Send to \d+ customers?$/ }).click();
    await expect(admin).toHaveURL(/\?confirm=send$/);
    const dialog = admin.getByRole("dialog", { name: "Send this announcement?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: /^Send to \d+ customers?$/ }).click();
    await expect(admin.getByRole("heading", { name: /^(Sending…|Sent)$/ })).toBeVisible();
    await expect.poll(() => mailTo(email, "Plain forms still work").length, { timeout: 15_000 }).toBe(1);
    await owner.close();

    const link = unsubscribeAddress(mailTo(email, "Plain forms still work")[0]!).replace("/unsubscribe/one-click?", "/unsubscribe?");
    const { context, page: stranger } = await signedOutPage(browser, false);
    await stranger.goto(link);
    await stranger.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(stranger.getByRole("heading", { level: 1, name: "Unsubscribed" })).toBeVisible();
    await context.close();
  });
});
