/**
 * The owner's shipping page in Chromium against the production build (demo zones: Gauteng Metro → Gauteng, Western
 * Cape → Western Cape, Rest of South Africa → the other provinces; White Tea Ritual R299.00), ending at a shopper's
 * checkout: the zone serving their province is preselected, and every zone shows its price for the cart.
 */
import { expect, test } from "./helpers/test";
import { newCustomer, signInAsAdmin } from "./helpers/auth";
import { addFromProductPage, seriousViolations } from "./helpers/shop";

const stamp = Date.now().toString(36);

test("the owner makes a Western Cape zone with a rate; a Cape Town shopper gets it preselected with its price", async ({ page, browser, baseURL }) => {
  test.slow();
  // Sorts after the demo zones, so "Gauteng Metro" stays the first zone for the other journeys.
  const name = `Western Cape Courier ${stamp}`;
  await signInAsAdmin(page);
  await page.goto("/admin/shipping");
  await expect(page.getByRole("heading", { level: 1, name: "Shipping" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // A province belongs to one zone: the demo's Western Cape zone serves it, so the new zone is refused, naming it.
  await page.getByRole("link", { name: "New Zone" }).click();
  const create = page.getByRole("dialog", { name: "New shipping zone" });
  await create.getByLabel("Zone name").fill(name);
  await create.getByLabel("Base rate (R)").fill("85");
  await create.getByRole("checkbox", { name: /^Western Cape/ }).check();
  await create.getByRole("button", { name: "Create Zone" }).click();
  await expect(create.getByRole("alert")).toHaveText('Western Cape is already served by the zone "Western Cape": a province belongs to one zone only. Remove it there first.');
  await create.getByRole("link", { name: "Cancel" }).click();
  await expect(create).toBeHidden();

  // The owner deletes the demo zone, through its confirmation.
  await page.getByRole("link", { name: "Delete Western Cape", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this zone?" });
  await expect(confirm).toContainText("This action cannot be undone.");
  await confirm.getByRole("button", { name: "Delete zone" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Shipping zone deleted" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Western Cape", exact: true })).toHaveCount(0);

  // Now the new zone takes Western Cape.
  await page.getByRole("link", { name: "New Zone" }).click();
  await create.getByLabel("Zone name").fill(name);
  await create.getByLabel("Base rate (R)").fill("85");
  await create.getByRole("checkbox", { name: /^Western Cape/ }).check();
  await create.getByRole("button", { name: "Create Zone" }).click();
  await expect(create).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Shipping zone created" })).toBeVisible();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 2, name }) });
  await expect(card.getByLabel(`Provinces served by ${name}`)).toHaveText("Western Cape");

  // A rule for small orders, then an overlapping one, refused naming the first.
  const addRule = page.getByRole("form", { name: `Add a rule to ${name}` });
  await addRule.getByLabel("From total (R)").fill("0");
  await addRule.getByLabel("To total (R)").fill("299.99");
  await addRule.getByLabel("Rate (R)").fill("65");
  await addRule.getByRole("button", { name: "Add rule" }).click();
  await expect(addRule.getByText("Shipping rule added")).toBeVisible();
  await expect(card.getByRole("cell", { name: "R0.00 – R299.99", exact: true })).toBeVisible();
  await addRule.getByLabel("From total (R)").fill("250");
  await addRule.getByLabel("Rate (R)").fill("10");
  await addRule.getByRole("button", { name: "Add rule" }).click();
  await expect(addRule.getByRole("alert")).toHaveText("This range overlaps the zone's rule R0.00 – R299.99 (rate R65.00): a total may match one rule only");
  await expect(card.getByRole("row")).toHaveCount(2); // the heading row and the one rule

  // A shopper in Cape Town: the first zone until the province is chosen, then the Western Cape zone, priced.
  const context = await browser.newContext({ baseURL });
  const shopper = await context.newPage();
  await newCustomer(shopper);
  await addFromProductPage(shopper, "white-tea-ritual", 1);
  await shopper.goto("/checkout");
  await expect(shopper.getByRole("radio", { name: /^Gauteng Metro/ })).toBeChecked();
  await shopper.getByLabel("Full name").fill("Aisha Khan");
  await shopper.getByLabel("Telephone").fill("082 555 1234");
  await shopper.getByLabel("Street address").fill("1 Long Street");
  await shopper.getByLabel("Suburb").fill("City Bowl");
  await shopper.getByLabel("City").fill("Cape Town");
  await shopper.getByLabel("Postal code").fill("8001");
  await shopper.getByLabel("Province").selectOption("Western Cape");
  const mine = shopper.getByRole("radio", { name: new RegExp(`^${name}.* — R65\\.00$`) });
  await expect(mine).toBeChecked();
  // every option carries its price for this cart (R299.00: the demo zones' first rules)
  await expect(shopper.getByRole("radio", { name: /^Gauteng Metro — R60\.00$/ })).not.toBeChecked();
  await expect(shopper.getByRole("radio", { name: /^Rest of South Africa — R95\.00$/ })).toBeVisible();
  const summary = shopper.getByRole("complementary", { name: "Order summary" });
  await expect(summary.getByTestId("shipping")).toHaveText("R65.00");
  await expect(summary.getByTestId("total")).toHaveText("R364.00");
  expect(await seriousViolations(shopper)).toEqual([]);

  // The server charges the same: the payment page asks for R364.00.
  await shopper.getByRole("button", { name: "Pay R364.00" }).click();
  await expect(shopper).toHaveURL(/\/pay\/simulated\//);
  await expect(shopper.getByText("R364.00", { exact: true })).toBeVisible();
  await context.close();
});
