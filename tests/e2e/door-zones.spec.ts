/**
 * Door delivery priced by the shop's zones (docs/decisions/045), in Chromium against the production build: a shop of
 * its own with the couriers on (no credentials: the built-in test couriers) and the demo catalogue and zones.
 *
 * The owner finds "Price by my zones and rules" chosen on a fresh install and adds a zone with a rule; a shopper in
 * Kimberley sees it at checkout beside their province's zone, with the rule's rate, chooses it, pays the simulated
 * provider, and the order's total is the items plus that rate.
 */
import { expect, test, type Page } from "./helpers/test";
import { newCustomer } from "./helpers/auth";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { startShop, waitForShop } from "./helpers/shop-server";
import { screenshot } from "./helpers/screenshot";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 9;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = "owner@scentara.test";
const WIDTHS = [1280, 390, 360] as const;

let shop: ReturnType<typeof startShop>;

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  shop = startShop(PORT, { SEED_DEMO: "true", LOG_LEVEL: "warn", WEB_CONCURRENCY: "1", PUBLIC_BASE_URL: BASE, ADMIN_EMAILS: ADMIN, DELIVERY_KINDS: "door,locker,point" });
  await waitForShop(shop, BASE);
});

test.afterAll(async () => {
  shop?.child.kill("SIGTERM");
  await shop?.exited;
});

/** A screenshot of one part of the page at each width, after checking nothing is wider than the screen. */
async function shotsAtWidths(page: Page, part: ReturnType<Page["locator"]>, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width);
    // Below the fixed header, which would otherwise cover the part's top.
    await part.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 120));
    const box = (await part.boundingBox())!;
    const scrollY = await page.evaluate(() => window.scrollY);
    await screenshot(page, { path: `test-results/door-zones-${name}-${width}.png`, fullPage: true, clip: { x: 0, y: Math.max(0, box.y + scrollY - 16), width, height: box.height + 32 } });
  }
}

const name = `Karoo Express ${Date.now().toString(36)}`;

test("the owner adds a zone with a rule; a shopper in Kimberley chooses it at checkout and pays the items plus its rate", async ({ browser }) => {
  test.setTimeout(120_000);
  const desk = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 900 } });
  const admin = await desk.newPage();
  await newCustomer(admin, { email: ADMIN });
  await admin.goto("/admin/shipping");

  // A fresh install prices door delivery by the zones; lockers and points by their courier.
  const couriers = admin.getByRole("region", { name: "Couriers and parcels" });
  const doorCard = couriers.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: /^Delivery to your door/ }) });
  await expect(doorCard.getByRole("radio", { name: /^Price by my zones and rules/ })).toBeChecked();
  await expect(doorCard.getByRole("radio", { name: /^Courier's price plus a margin/ })).not.toBeChecked();
  const lockerCard = couriers.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: "PUDO lockers" }) });
  await expect(lockerCard.getByRole("radio", { name: /^Price by my zones/ })).toHaveCount(0);
  await expect(lockerCard.getByRole("radio", { name: /^Courier's price plus a margin/ })).toBeChecked();
  expect(await seriousViolations(admin)).toEqual([]);
  await shotsAtWidths(admin, doorCard, "admin-door-pricing");
  await admin.setViewportSize({ width: 1280, height: 900 });

  // The owner adds a zone serving no province in particular (offered everywhere) and a rule for every total.
  await admin.getByRole("link", { name: "New Zone" }).click();
  const create = admin.getByRole("dialog", { name: "New shipping zone" });
  await create.getByLabel("Zone name").fill(name);
  await create.getByLabel("Base rate (R)").fill("95");
  await create.getByRole("button", { name: "Create Zone" }).click();
  await expect(create).toBeHidden();
  const addRule = admin.getByRole("form", { name: `Add a rule to ${name}` });
  await addRule.getByLabel("From total (R)").fill("0");
  await addRule.getByLabel("Rate (R)").fill("55");
  await addRule.getByRole("button", { name: "Add rule" }).click();
  await expect(addRule.getByText("Shipping rule added")).toBeVisible();
  await desk.close();

  // A shopper in Kimberley (Northern Cape: the demo's "Rest of South Africa") with White Tea Ritual (R299.00).
  const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 900 } });
  const shopper = await context.newPage();
  await newCustomer(shopper);
  await addFromProductPage(shopper, "white-tea-ritual", 1);
  await shopper.goto("/checkout");
  await fillAddress(shopper, { name: "Kagiso Mokoena", street: "7 Du Toitspan Road", suburb: "Belgravia", city: "Kimberley", postalCode: "8301", province: "Northern Cape" });

  // The zones serving Northern Cape: its own first and preselected, then the owner's new one with its rule's rate.
  const zones = shopper.getByRole("list", { name: "Delivery zones" });
  const own = zones.getByRole("radio", { name: /^Rest of South Africa.*R95\.00$/ });
  const added = zones.getByRole("radio", { name: new RegExp(`^${name}.*R55\\.00$`) });
  await expect(own).toBeChecked();
  await expect(added).not.toBeChecked();
  await expect(zones.getByRole("radio")).toHaveCount(2);
  await added.check();
  const summary = shopper.getByRole("complementary", { name: "Order summary" });
  await expect(summary.getByTestId("shipping")).toHaveText("R55.00");
  await expect(summary.getByTestId("total")).toHaveText("R354.00");
  expect(await seriousViolations(shopper)).toEqual([]);
  await shotsAtWidths(shopper, shopper.getByTestId("delivery-choice"), "checkout-zones");
  await shopper.setViewportSize({ width: 1280, height: 900 });

  // The server charges the same: the simulated provider asks for R354.00, and the paid order's total is that.
  await shopper.getByRole("button", { name: "Pay R354.00" }).click();
  await expect(shopper).toHaveURL(/\/pay\/simulated\/sim_/);
  await expect(shopper.getByText("R354.00", { exact: true })).toBeVisible();
  await shopper.getByRole("button", { name: "Pay R354.00" }).click();
  await expect(shopper.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  const orderId = new URL(shopper.url()).searchParams.get("orderId")!;
  await shopper.goto(`/order-confirmation?id=${orderId}`);
  await expect(shopper.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  await expect(shopper.getByText("R354.00").first()).toBeVisible();
  await context.close();
});
