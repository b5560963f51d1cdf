/**
 * Reward points (issue 40 point 1, docs/decisions/062) on a phone at 360 px: the owner turns the programme on, a
 * shopper joins on /rewards, the owner adds points by hand with a reason, and the shopper spends 300 of them at
 * checkout: the total drops by R30, the payment is for the rest, the confirmation shows the points' row, and Profile →
 * Rewards shows what is left and what the order earned (pending). A shop of its own: the programme is off in the
 * others. Then give and get: a member shares their link, a friend follows it, signs up, gets R50 off their first order
 * and pays; once that order is past its return window the member's points are theirs, and they spend them.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect, test, type Page } from "./helpers/test";
import { startShop, waitForShop } from "./helpers/shop-server";
import { E2E_PASSWORD, registerByRequest, signInByRequest, uniqueEmail } from "./helpers/auth";
import { addFromProductPage, fillAddress } from "./helpers/shop";
import { screenshot } from "./helpers/screenshot";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 3;
const BASE = `http://127.0.0.1:${PORT}`;
const OWNER = "owner@scentara.test";
const SHOTS = "test-results/screenshots/rewards";
const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true } as const;

let shop: ReturnType<typeof startShop>;

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  shop = startShop(PORT, {
    SEED_DEMO: "true",
    LOG_LEVEL: "warn",
    WEB_CONCURRENCY: "1",
    PUBLIC_BASE_URL: BASE,
    AUTH_SECRET: "rewards-e2e-secret-rewards-e2e-secret-0123",
    ADMIN_EMAILS: OWNER,
    DELIVERY_KINDS: "",
    // the rewards job looks every second: points become available as soon as "ten days" have passed
    JOBS_EVERY_SECONDS: "1",
  });
  await waitForShop(shop, BASE);
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  shop?.child.kill("SIGTERM");
  await shop?.exited;
});

const noWiderThanScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("the owner turns points on; a shopper joins, is given 500 points and spends 300 at checkout on a phone", async ({ browser }) => {
  test.slow(); // two people, a checkout and a payment
  const owner = await browser.newContext({ baseURL: BASE });
  const admin = await owner.newPage();
  await registerByRequest(admin, { email: OWNER, password: E2E_PASSWORD });
  await signInByRequest(admin, { email: OWNER, password: E2E_PASSWORD });
  await admin.goto("/admin/marketing/rewards");
  await admin.getByRole("checkbox", { name: /Run the rewards programme/ }).check();
  await admin.getByRole("checkbox", { name: /Give and get/ }).check();
  await admin.getByRole("button", { name: "Save rewards settings" }).click();
  await expect(admin.getByText("Rewards settings saved")).toBeVisible();

  const shopper = await browser.newContext({ baseURL: BASE, ...PHONE });
  const page = await shopper.newPage();
  const email = uniqueEmail("points");
  await registerByRequest(page, { email, password: E2E_PASSWORD });
  await signInByRequest(page, { email, password: E2E_PASSWORD });
  // the footer links the programme now that it is on; the shopper joins in plain words
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Rewards" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Rewards" })).toBeVisible();
  await expect(page.getByText(/I join Scentara Rewards: I earn a point for every R10/)).toBeVisible();
  await page.getByRole("button", { name: "Join Rewards" }).click();
  await expect(page.getByRole("button", { name: "Leave Rewards" })).toBeVisible();
  expect(await noWiderThanScreen(page)).toBeLessThanOrEqual(0);
  await screenshot(page, { path: `${SHOTS}/rewards-member-360.jpg`, fullPage: true });

  await admin.reload();
  await admin.getByLabel("Customer's e-mail").fill(email);
  await admin.getByLabel("Points", { exact: true }).fill("500");
  await admin.getByLabel("Reason").fill("Welcome to Rewards");
  await admin.getByRole("button", { name: "Change points" }).click();
  await expect(admin.getByText(`Added 500 points to ${email}`)).toBeVisible();

  // Checkout at 360 px: R599 of goods, free delivery; 300 points take R30 off.
  await addFromProductPage(page, "amber-lantern");
  await page.goto("/checkout");
  await fillAddress(page);
  const points = page.getByTestId("reward-points-field");
  await expect(points).toContainText("You have 500 points.");
  await points.getByLabel("Points to spend").fill("300");
  await points.getByRole("button", { name: "Use", exact: true }).click();
  await expect(page.getByTestId("points-discount")).toHaveText("−R30.00");
  await expect(page.getByTestId("total")).toHaveText("R569.00");
  expect(await noWiderThanScreen(page)).toBeLessThanOrEqual(0);
  await screenshot(page, { path: `${SHOTS}/checkout-points-360.jpg`, fullPage: true });
  await page.getByRole("button", { name: "Pay R569.00" }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\/sim_/);
  await page.getByRole("button", { name: "Pay R569.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await page.getByRole("link", { name: "View Order Details" }).click();
  await expect(page.getByTestId("points-discount")).toContainText("Reward points (300)");
  await expect(page.getByTestId("points-discount")).toContainText("-R30.00");

  // Profile → Rewards: 200 left to spend; the order's 56 points (R569 of goods) pending until its return window ends
  await page.goto("/profile/rewards");
  await expect(page.getByText("200", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("56", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Spent on an order")).toBeVisible();
  expect(await noWiderThanScreen(page)).toBeLessThanOrEqual(0);
  await screenshot(page, { path: `${SHOTS}/profile-rewards-360.jpg`, fullPage: true });
  await owner.close();
  await shopper.close();
});

/** Time passes for an order: delivered `days` ago (the shop's own database, as the clock the server can't be given). */
function deliveredDaysAgo(email: string, days: number) {
  const db = new DatabaseSync(join(shop.dir, "shop.db"));
  try {
    const at = new Date(Date.now() - days * 86_400_000).toISOString();
    db.prepare("update orders set status = 'delivered', actual_delivery_date = ? where user_id = (select id from users where email = ?) and payment_status = 'completed'").run(at, email);
  } finally {
    db.close();
  }
}

test("give and get on a phone: a member shares their link; a friend follows it, gets R50 off their first order; the member's points come after the return window and are spent", async ({ browser }) => {
  test.slow();
  const member = await browser.newContext({ baseURL: BASE, ...PHONE });
  const a = await member.newPage();
  const memberEmail = uniqueEmail("sharer");
  await registerByRequest(a, { email: memberEmail, password: E2E_PASSWORD });
  await signInByRequest(a, { email: memberEmail, password: E2E_PASSWORD });
  await a.goto("/rewards");
  await a.getByRole("button", { name: "Join Rewards" }).click();
  await expect(a.getByRole("button", { name: "Leave Rewards" })).toBeVisible();
  await a.goto("/profile/rewards");
  const share = a.getByTestId("referral-share");
  await expect(share).toContainText("Give R50, get 500 points");
  const link = (await a.getByTestId("referral-link").textContent())!.trim();
  expect(link).toMatch(new RegExp(`^${BASE}/r/[A-Z2-9]{8}$`));
  const whatsapp = await share.getByRole("link", { name: "Share on WhatsApp" }).getAttribute("href");
  expect(decodeURIComponent(whatsapp!.replace("https://wa.me/?text=", ""))).toBe(`R50 off your first Scentara order of R300 or more: ${link}`);
  expect(await noWiderThanScreen(a)).toBeLessThanOrEqual(0);
  await screenshot(a, { path: `${SHOTS}/share-360.jpg`, fullPage: true });

  // The friend follows the link: the home page, with nothing of the code in its address
  const friend = await browser.newContext({ baseURL: BASE, ...PHONE });
  const b = await friend.newPage();
  await b.goto(link);
  await expect(b).toHaveURL(`${BASE}/`);
  // the code's cookie is not a session: the friend still gets the visitors' shared cached copy of the page
  const cookies = await friend.cookies(BASE);
  expect(cookies.find((c) => c.name === "scentara_ref")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  await b.request.get("/");
  expect((await b.request.get("/")).headers()["x-page-cache"]).toBe("HIT");
  const friendEmail = uniqueEmail("friend");
  await registerByRequest(b, { email: friendEmail, password: E2E_PASSWORD });
  await signInByRequest(b, { email: friendEmail, password: E2E_PASSWORD });
  await addFromProductPage(b, "amber-lantern");
  await b.goto("/checkout");
  await fillAddress(b, { name: "Lerato Dube", telephone: "083 111 2222", street: "8 Bree Street", suburb: "Cape Town City Centre", city: "Cape Town", postalCode: "8001", province: "Western Cape" });
  await expect(b.getByTestId("friend-reward")).toHaveText("−R50.00");
  await expect(b.getByTestId("total")).toHaveText("R549.00");
  expect(await noWiderThanScreen(b)).toBeLessThanOrEqual(0);
  await screenshot(b, { path: `${SHOTS}/friend-checkout-360.jpg`, fullPage: true });
  await b.getByRole("button", { name: "Pay R549.00" }).click();
  await b.getByRole("button", { name: "Pay R549.00" }).click();
  await expect(b.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();

  // The member's 500 points wait on the friend's order; ten days after its delivery they are the member's
  await a.goto("/profile/rewards");
  await expect(a.getByTestId("referral-share")).toContainText("1 pending");
  deliveredDaysAgo(friendEmail, 10);
  await expect(async () => {
    await a.reload();
    await expect(a.getByTestId("referral-share")).toContainText("1 rewarded");
  }).toPass({ timeout: 15_000 });
  await expect(a.getByText("Became yours to spend").first()).toBeVisible();

  // …and spent on the member's own next order
  await addFromProductPage(a, "amber-lantern");
  await a.goto("/checkout");
  await fillAddress(a);
  const points = a.getByTestId("reward-points-field");
  await expect(points).toContainText("You have 500 points.");
  await points.getByRole("button", { name: "Use 500" }).click();
  await expect(a.getByTestId("points-discount")).toHaveText("−R50.00");
  await a.getByRole("button", { name: "Pay R549.00" }).click();
  await a.getByRole("button", { name: "Pay R549.00" }).click();
  await expect(a.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await member.close();
  await friend.close();
});
