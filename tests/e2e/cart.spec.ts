/**
 * The cart and checkout pages in Chromium against the production build and the demo catalogue
 * (Pink Protea R399.00 with bulk tiers 3–5 at R367.00 and 6+ at R339.00; White Tea Ritual R299.00; zones
 * 'Gauteng Metro' (first) and 'Rest of South Africa'; coupon WELCOME10 = 10% off).
 */
import { expect, test, type Page } from "./helpers/test";
import { newCustomer } from "./helpers/auth";
import { addFromProductPage, axe, fillAddress } from "./helpers/shop";
import { expectFleeting, holdTime, useTestClock } from "./helpers/clock";

async function expectNoAxeViolations(page: Page) {
  const { violations } = await axe(page).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const summary = (page: Page) => page.getByRole("complementary", { name: "Order summary" });

test.describe("cart", () => {
  test("tier prices, coupon, free-delivery hint, remove and clear", async ({ page }) => {
    await useTestClock(page);
    await addFromProductPage(page, "pink-protea");
    await page.goto("/cart");
    await expect(page.getByRole("heading", { name: "Shopping Cart" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Pink Protea" })).toBeVisible();
    await expect(page.getByTestId("unit-price")).toContainText("R399.00");
    await expect(summary(page).getByTestId("subtotal")).toHaveText("R399.00");
    await expect(summary(page).getByTestId("shipping")).toHaveText("R45.00");
    await expect(summary(page).getByTestId("free-delivery-hint")).toContainText("Spend R200.00 more for free delivery");
    await expect(summary(page).getByTestId("total")).toHaveText("R444.00");
    await expect(summary(page).getByTestId("vat")).toHaveText("R57.91");

    // quantity 3 → bulk tier price, and the order now ships free
    await page.getByLabel("Quantity for Pink Protea").selectOption("3");
    await expect(page.getByTestId("unit-price")).toContainText("R367.00");
    await expect(page.getByTestId("unit-price")).toContainText("Bulk price");
    await expect(summary(page).getByTestId("subtotal")).toHaveText("R1 101.00");
    await expect(summary(page).getByTestId("shipping")).toHaveText("Free");
    await expect(summary(page).getByTestId("free-delivery-hint")).toHaveText("You qualify for free delivery");

    // empty coupon, unknown coupon, then WELCOME10 (typed in lower case: upper-cased as typed)
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("Please enter a coupon code")).toBeVisible();
    const code = page.getByLabel("Coupon code");
    await code.fill("nope-123");
    await expect(code).toHaveValue("NOPE-123");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("Invalid coupon code")).toBeVisible();
    await code.fill("welcome10");
    await holdTime(page);
    await page.getByRole("button", { name: "Apply" }).click();
    await expectFleeting(page, page.getByText("Coupon applied! You saved R110.10")); // SPEC §9: 3 s
    await expect(summary(page).getByTestId("discount")).toHaveText("−R110.10");
    await expect(summary(page).getByTestId("total")).toHaveText("R990.90");
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("appliedCoupon") ?? "null"))).toMatchObject({ code: "WELCOME10", discountType: "percentage", discountAmount: 11010 });
    await expectNoAxeViolations(page);

    // survives a reload
    await page.reload();
    await expect(summary(page).getByTestId("total")).toHaveText("R990.90");
    await expect(page.getByText("WELCOME10", { exact: true })).toBeVisible();

    // back to one bottle: the discounted total is under R599 again → shipping and the hint return
    await page.getByLabel("Quantity for Pink Protea").selectOption("1");
    await expect(summary(page).getByTestId("discount")).toHaveText("−R39.90");
    await expect(summary(page).getByTestId("shipping")).toHaveText("R45.00");
    await expect(summary(page).getByTestId("free-delivery-hint")).toContainText("Spend R239.90 more for free delivery");

    // a second product, then remove it
    await addFromProductPage(page, "white-tea-ritual");
    await page.goto("/cart");
    await expect(page.getByRole("heading", { name: "White Tea Ritual" })).toBeVisible();
    await expect(summary(page).getByTestId("subtotal")).toHaveText("R698.00");
    await page.getByRole("button", { name: "Remove White Tea Ritual" }).click();
    await expect(page.getByRole("heading", { name: "White Tea Ritual" })).toHaveCount(0);
    await expect(summary(page).getByTestId("subtotal")).toHaveText("R399.00");

    // clear cart: lines and coupon gone
    await page.getByRole("button", { name: "Clear cart" }).click();
    await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Explore the collection" })).toHaveAttribute("href", "/shop");
    expect(await page.evaluate(() => [localStorage.getItem("cart"), localStorage.getItem("appliedCoupon")])).toEqual([null, null]);
  });

  test("a larger quantity from the product page stays selectable", async ({ page }) => {
    await addFromProductPage(page, "pink-protea", 10);
    await page.goto("/cart");
    const select = page.getByLabel("Quantity for Pink Protea");
    await expect(select).toHaveValue("10");
    await expect(select.locator("option")).toHaveText(["1", "2", "3", "4", "5", "6", "10"]);
    await expect(page.getByTestId("unit-price")).toContainText("R339.00");
  });

  test("a stale coupon in browser storage is dropped with the server's reason", async ({ page }) => {
    await addFromProductPage(page, "pink-protea");
    await page.evaluate(() => localStorage.setItem("appliedCoupon", JSON.stringify({ code: "GONE99", discountType: "fixed_amount", discountAmount: 99900, description: null })));
    await page.goto("/cart");
    await expect(page.getByText("Coupon GONE99 was removed: Invalid coupon code.")).toBeVisible();
    await expect(summary(page).getByTestId("total")).toHaveText("R444.00");
    await expect(summary(page).getByTestId("discount")).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem("appliedCoupon"))).toBeNull();
  });
});

test.describe("checkout", () => {
  test("visitors go to login; an empty cart goes to /cart; a customer places the order and goes to payment", async ({ page, browser }) => {
    test.slow(); // the whole journey, then the same review again without JavaScript
    await useTestClock(page);
    await page.goto("/checkout");
    await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fcheckout/);

    await newCustomer(page);
    await page.goto("/checkout");
    await expect(page).toHaveURL(/\/cart$/);

    await addFromProductPage(page, "white-tea-ritual", 2);
    await page.goto("/cart");
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole("heading", { name: "Checkout", exact: true })).toBeVisible();
    // first zone preselected; the other zone's rate changes the quoted total
    await expect(page.getByRole("radio", { name: "Gauteng Metro" })).toBeChecked();
    await expect(summary(page).getByTestId("shipping")).toHaveText("R45.00");
    await expect(summary(page).getByTestId("total")).toHaveText("R643.00");

    // bad input: messages, nothing placed, the button is usable again
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByText("Name is required").first()).toBeVisible();
    await expect(page.getByRole("button", { name: /^Pay / })).toBeEnabled();
    await expect(page.getByLabel("Full name")).toBeFocused();
    await expectNoAxeViolations(page);

    await fillAddress(page);
    await page.getByRole("radio", { name: "Rest of South Africa" }).check();
    await expect(summary(page).getByTestId("shipping")).toHaveText("R70.00");
    await expect(summary(page).getByTestId("total")).toHaveText("R668.00");
    await page.getByRole("button", { name: "Pay R668.00" }).click();
    await expect(page).toHaveURL(/\/pay\/simulated\//);

    // pay (simulated provider), then the buyer may review what they bought — and only that
    await page.getByRole("button", { name: "Pay R668.00" }).click();
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    await expect(page.getByTestId("paid-order")).toHaveText(/^Order #[A-Za-z0-9_-]{8}.*paid R668\.00$/);
    await page.goto("/products/pink-protea");
    await expect(page.getByText("Reviews are written by customers who have bought this fragrance.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Submit review" })).toHaveCount(0);

    await page.goto("/products/white-tea-ritual");
    await expect(page.getByRole("heading", { name: "Write a review" })).toBeVisible();
    await expect(page.getByRole("radio", { name: "5 stars" })).toBeChecked();
    await expectNoAxeViolations(page);
    await page.getByRole("radio", { name: "4 stars" }).check({ force: true });
    await page.getByRole("textbox", { name: "Your review" }).fill("Soft and calming, lovely for the office.");
    await holdTime(page);
    await page.getByRole("button", { name: "Submit review" }).click();
    await expectFleeting(page, page.getByText("Thank you — your review has been saved.")); // SPEC §9: 3 s
    await expect(page.getByRole("heading", { name: "Update your review" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Reviews, newest first" }).getByText("Soft and calming, lovely for the office.", { exact: true })).toBeVisible();

    // submitting again updates the same review in place
    await page.reload();
    await page.waitForLoadState("networkidle"); // hydrated: typing before hydration would race React's textarea setup
    await expect(page.getByRole("radio", { name: "4 stars" })).toBeChecked();
    await page.getByRole("textbox", { name: "Your review" }).fill("Even better on a second bottle.");
    await page.getByRole("button", { name: "Update your review" }).click();
    await expect(page.getByText("Thank you — your review has been updated.")).toBeVisible();
    await expect(page.getByRole("list", { name: "Reviews, newest first" }).getByText("Even better on a second bottle.", { exact: true })).toBeVisible();
    await expect(page.getByRole("list", { name: "Reviews, newest first" }).getByText("Soft and calming, lovely for the office.", { exact: true })).toHaveCount(0);

    // the same customer without JavaScript (issue 22 review): the shared page links to their own form, which posts
    const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
    const noJs = await plain.newPage();
    await noJs.goto("/products/white-tea-ritual");
    await noJs.getByRole("link", { name: "Write a review" }).click();
    await expect(noJs).toHaveURL(/\?write-review/);
    await expect(noJs.getByRole("heading", { name: "Update your review" })).toBeVisible();
    // the third star (its label; the radio itself is visually hidden)
    await noJs.locator("label").filter({ has: noJs.getByRole("radio", { name: "3 stars" }) }).click();
    await expect(noJs.getByRole("radio", { name: "3 stars" })).toBeChecked();
    await noJs.getByRole("textbox", { name: "Your review" }).fill("Posted without JavaScript, still lovely.");
    await noJs.getByRole("button", { name: "Update your review" }).click();
    await expect(noJs).toHaveURL(/\/products\/white-tea-ritual(#reviews-heading)?$/);
    await expect(noJs.getByRole("list", { name: "Reviews, newest first" }).getByText("Posted without JavaScript, still lovely.", { exact: true })).toBeVisible();
    await plain.close();
  });
});
