/**
 * Delivery from checkout to review, in Chromium against the production build: a shop of its own that talks to the
 * three fake couriers (started here, over HTTP) and sends its mail to a real SMTP server (also started here).
 *
 * A shopper on a 360 px touch phone picks a PUDO locker near "Rondebosch 7700", pays; the owner books the courier and
 * prints the label; the fake courier moves the parcel to delivered (six days ago, by its clock); the shopper sees the
 * tracking timeline, receives the review request by e-mail, follows its link and posts a review.
 */
import type { AddressInfo } from "node:net";
import { devices, expect, test } from "./helpers/test";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import "../factories/smtp-greeting";
import { startFakeCouriers } from "../fakes/couriers";
import { startShop, waitForShop } from "./helpers/shop-server";
import { newCustomer, uniqueEmail } from "./helpers/auth";
import { expectFleeting, holdTime, useTestClock } from "./helpers/clock";
import { screenshot } from "./helpers/screenshot";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 7;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = "owner@scentara.test";
const DAY = 24 * 3600_000;

let shop: ReturnType<typeof startShop>;
let couriers: Awaited<ReturnType<typeof startFakeCouriers>>;
let smtp: SMTPServer;
const mail: ParsedMail[] = [];
/**
 * The fake couriers live six days in the past: the parcel is collected and delivered "six days ago", so the review
 * request (due five days after delivery) is due as soon as the delivery is heard of. Nothing waits for a real clock.
 */
const COURIER_CLOCK_OFFSET = -6 * DAY;

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  couriers = await startFakeCouriers({ now: () => Date.now() + COURIER_CLOCK_OFFSET });
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
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  shop = startShop(PORT, {
    SEED_DEMO: "true",
    LOG_LEVEL: "warn",
    WEB_CONCURRENCY: "1",
    PUBLIC_BASE_URL: BASE,
    ADMIN_EMAILS: ADMIN,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    DELIVERY_KINDS: "door,locker,point",
    SHIPLOGIC_API_BASE: couriers.shiplogic.baseUrl,
    SHIPLOGIC_API_KEY: couriers.shiplogic.apiKey,
    PUDO_API_BASE: couriers.pudo.baseUrl,
    PUDO_API_KEY: couriers.pudo.apiKey,
    PARGO_API_BASE: couriers.pargo.baseUrl,
    PARGO_USERNAME: couriers.pargo.username,
    PARGO_PASSWORD: couriers.pargo.password,
    REVIEW_REQUEST_AFTER_DAYS: "5",
    // the background jobs (tracking polls, review requests) look for work every second instead of every few minutes
    JOBS_EVERY_SECONDS: "1",
  });
  await waitForShop(shop, BASE);
});

test.afterAll(async () => {
  shop?.child.kill("SIGTERM");
  await shop?.exited;
  await couriers?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

test("a locker near Rondebosch 7700: checkout on a phone, booked and labelled, tracked to delivered, reviewed from the e-mail", async ({ browser }) => {
  test.setTimeout(90_000);
  const phone = await browser.newContext({ ...devices["Pixel 5"], viewport: { width: 360, height: 780 }, baseURL: BASE, hasTouch: true, isMobile: true });
  const page = await phone.newPage();
  const shopper = uniqueEmail("locker");
  // registered and signed in by request, as the forms post (signing in is not what this journey tests)
  await newCustomer(page, { email: shopper });

  // A bottle into the cart from the shop.
  await page.goto("/shop");
  const first = page.locator('a[href^="/products/"]').first();
  const slug = (await first.getAttribute("href"))!.replace("/products/", "");
  await page.goto(`/products/${slug}`);
  const productName = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();
  await page.getByRole("button", { name: "Add to Cart" }).tap();
  await expect(page.getByRole("status").filter({ hasText: "to your cart" })).toBeVisible();

  // Checkout: the address, then a locker near it.
  await page.goto("/checkout");
  await page.getByLabel("Full name").fill("Lerato Dlamini");
  await page.getByLabel("Telephone").fill("082 555 1234");
  await page.getByLabel("Street address").fill("4 Belmont Road");
  await page.getByLabel("Suburb").fill("Rondebosch");
  await page.getByLabel("City").fill("Cape Town");
  await page.getByLabel("Postal code").fill("7700");
  await page.getByLabel("Province").selectOption("Western Cape");
  await page.getByText("Collect from a PUDO locker").tap();
  const lockers = page.getByRole("list", { name: "Lockers nearby" });
  await expect(lockers.getByRole("listitem").first()).toContainText(/Rondebosch/);
  await expect(lockers.getByRole("listitem").first()).toContainText(/\d+\.\d km/);
  await expect(page.getByTestId("points-map")).toBeVisible();
  const lockerName = (await lockers.getByRole("listitem").first().locator("span.font-medium").first().textContent())!.replace(/^\d+\.\s*/, "").trim();
  await lockers.getByRole("radio").first().tap();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, { path: `test-results/couriers-checkout-360.jpg`, fullPage: true });
  const pay = page.getByRole("button", { name: /^Pay R/ });
  await expect(pay).toBeEnabled();
  await pay.tap();

  // The simulated payment.
  await expect(page).toHaveURL(/\/pay\/simulated\/sim_/);
  await page.getByRole("button", { name: /^Pay R/ }).tap();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  const orderId = new URL(page.url()).searchParams.get("orderId")!;

  // The owner books it and prints the label.
  const desk = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 900 } });
  const admin = await desk.newPage();
  // the booking's message lasts 3 s (SPEC §9): the test owns the page's clock so it cannot miss it (helpers/clock.ts)
  await useTestClock(admin);
  await newCustomer(admin, { email: ADMIN });
  await admin.goto(`/admin/orders?status=processing&q=${orderId.slice(0, 8)}`);
  const panel = admin.getByTestId("shipment-panel").filter({ hasText: lockerName });
  await expect(panel).toContainText("PUDO locker");
  await holdTime(admin);
  await panel.getByRole("button", { name: /Book courier/ }).click();
  await expectFleeting(admin, admin.getByText(/^Courier booked: waybill \S+$/));
  await expect(panel).toContainText("Courier booked");
  const labelHref = await panel.getByRole("link", { name: /Print label/ }).getAttribute("href");
  const label = await admin.request.get(labelHref!);
  expect(label.headers()["content-type"]).toBe("application/pdf");
  expect((await label.body()).subarray(0, 4).toString()).toBe("%PDF");
  await screenshot(admin, { path: `test-results/couriers-admin-1280.jpg`, fullPage: true });

  // The courier delivers it (six days ago by its clock); the shop's tracking poll hears it.
  const waybill = [...couriers.pudo.shipments.values()].find((s) => s.customerReference === orderId)!.reference;
  couriers.pudo.advance(waybill, "delivered");

  // The shopper's order page shows the timeline.
  await expect
    .poll(async () => {
      await page.goto(`/order-confirmation?id=${orderId}`);
      return page.getByTestId("tracking").textContent();
    }, { timeout: 20_000 })
    .toContain("Delivered");
  await expect(page.getByTestId("tracking")).toContainText("Courier booked");
  // The order page says where to collect it, not only the home address.
  await expect(page.getByRole("heading", { name: "Collect from" })).toBeVisible();
  await expect(page.locator("section", { has: page.getByRole("heading", { name: "Collect from" }) })).toContainText(lockerName);
  await screenshot(page, { path: `test-results/couriers-tracking-360.jpg`, fullPage: true });

  // The review request arrives through SMTP; its link opens the product's review form, ready.
  const reviewRequest = () => mail.find((m) => (m.to && !Array.isArray(m.to) ? m.to.text : "") === shopper && /how are you finding/i.test(m.subject ?? ""));
  await expect.poll(reviewRequest, { timeout: 20_000 }).toBeTruthy();
  const request = reviewRequest()!;
  // Delivered before anyone could collect it: no "ready for collection" e-mail after the fact.
  expect(mail.filter((m) => /ready for collection/.test(m.subject ?? ""))).toHaveLength(0);
  expect(request.text).toContain(productName);
  const link = /https?:\/\/\S+\?review=\S+/.exec(request.text ?? "")![0];
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ""));
  await expect(page.getByRole("heading", { name: "Write a review" })).toBeVisible();
  // The form is ready to rate: the stars have the focus.
  await expect(page.getByRole("radio", { name: "5 stars" })).toBeFocused();
  await page.getByLabel("Your review").fill("Lasts all day — collected from the locker on my way home.");
  await page.getByRole("button", { name: "Submit review" }).tap();
  await expect(page.getByText("Thank you — your review has been saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("list", { name: "Reviews, newest first" })).toContainText("Lasts all day — collected from the locker on my way home.");
  await phone.close();
  await desk.close();
});
