/**
 * The team behind the shop in Chromium (issue 38 points 1, 2 and 5; docs/decisions/058), against the production build:
 * a shop of its own whose mail goes to a real SMTP server started here (read with mailparser).
 *
 * The owner requires two-step sign-in of all staff (and is asked to set theirs up first), then invites a packer by
 * e-mail. The packer opens the e-mail's link in a fresh browser, chooses a password, is taken to set up an
 * authenticator app (the code computed here from the secret the page shows, as an app would), and lands in the admin:
 * the menu offers orders and not products, exports or staff; they ship a customer's paid order; products and the
 * accountant's export answer the denied page (403). Staff and the invitation page are photographed at 1280, 390 and
 * 360 px, and nothing is wider than the screen.
 */
import { mkdirSync } from "node:fs";
import type { ParsedMail } from "mailparser";
import { base32Decode, totpCode } from "../../app/modules/accounts/totp.server";
import { expect, test, type Page } from "./helpers/test";
import { startShopWithMail } from "./helpers/shop-server";
import { E2E_PASSWORD, newCustomer, registerByRequest, signInByRequest, uniqueEmail } from "./helpers/auth";
import { addFromProductPage, fillAddress, seriousViolations } from "./helpers/shop";
import { screenshot } from "./helpers/screenshot";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 4;
const BASE = `http://127.0.0.1:${PORT}`;
const OWNER = "owner@scentara.test";
const SHOTS = "test-results/screenshots/staff";
const WIDTHS = [1280, 390, 360];

let own: Awaited<ReturnType<typeof startShopWithMail>>;

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  own = await startShopWithMail(PORT, { ADMIN_EMAILS: OWNER, PAYMENT_METHODS: "card" });
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await own?.close();
});

const toOf = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.text : "");

/** Each width: nothing wider than the screen, and a picture for a person to look at. */
async function lookAt(page: Page, name: string, fullPage = true) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 780 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `${SHOTS}/${name}-${width}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The required two-step setup: the secret the page shows, the code an app would compute from it, Turn on. */
async function setUpAuthenticator(page: Page) {
  await expect(page).toHaveURL(/\/profile\/security\?required=staff/);
  await expect(page.getByText("Two-step sign-in required")).toBeVisible();
  await page.getByRole("button", { name: "Set up authenticator app" }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).trim();
  await page.getByLabel("Code from the app").fill(totpCode(base32Decode(secret)));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("heading", { name: "Your backup codes" })).toBeVisible();
}

/** A customer's order paid through the simulated provider: Processing, waiting to be shipped. Answers its short id. */
async function paidOrder(page: Page): Promise<string> {
  await newCustomer(page);
  await addFromProductPage(page, "white-tea-ritual", 1);
  await page.goto("/checkout");
  await fillAddress(page);
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page).toHaveURL(/\/pay\/simulated\/sim_/);
  const shortId = (await page.getByText(/^#[0-9a-f]{8}$/).textContent())!.slice(1);
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page).not.toHaveURL(/\/pay\/simulated\//);
  return shortId;
}

test("the owner invites a packer, who sets a password and two-step sign-in, ships an order, and can't open products or exports", async ({ browser }) => {
  test.slow();
  const customer = await browser.newContext({ baseURL: BASE });
  const shortId = await paidOrder(await customer.newPage());
  await customer.close();

  // The owner (ADMIN_EMAILS) requires two-step sign-in of all staff; their own next admin page asks them first.
  const ownerContext = await browser.newContext({ baseURL: BASE });
  const owner = await ownerContext.newPage();
  await registerByRequest(owner, { email: OWNER, password: E2E_PASSWORD });
  await signInByRequest(owner, { email: OWNER, password: E2E_PASSWORD });
  await owner.goto("/admin/staff");
  await expect(owner.getByRole("heading", { name: "Staff", level: 1 })).toBeVisible();
  const security = owner.locator("form").filter({ hasText: "Require two-step sign-in for all staff" });
  await security.getByLabel(/Require two-step sign-in for all staff/).check();
  await security.getByRole("button", { name: "Save" }).click();
  await expect(owner.getByText("Two-step sign-in is now required of all staff")).toBeVisible();
  await owner.goto("/admin/staff");
  await setUpAuthenticator(owner);

  // The invitation.
  const packerEmail = uniqueEmail("packer");
  await owner.goto("/admin/staff");
  await owner.getByRole("link", { name: "Invite a Person" }).click();
  const dialog = owner.getByRole("dialog", { name: "Invite a person" });
  await dialog.getByLabel("E-mail address").fill(packerEmail);
  await dialog.getByLabel("Role").selectOption({ label: "Packer" });
  await lookAt(owner, "invite", false); // a modal dialog: the screen as it is
  await dialog.getByRole("button", { name: "Send Invitation" }).click();
  await expect(owner.getByText(`Invitation sent to ${packerEmail}`)).toBeVisible();
  const invitations = owner.getByRole("region", { name: "Invitations" });
  await expect(invitations.getByText(packerEmail, { exact: true })).toBeVisible();
  expect(await seriousViolations(owner)).toEqual([]);
  await lookAt(owner, "staff");

  await expect.poll(() => own.smtp.received.filter((m) => toOf(m) === packerEmail).length).toBe(1);
  const message = own.smtp.received.find((m) => toOf(m) === packerEmail)!;
  expect(message.subject).toBe("You're invited to join the Scentara team");
  const link = /http:\/\/\S+\/staff\/invitation\?token=[A-Za-z0-9_-]+/.exec(message.text ?? "")?.[0];
  expect(link, message.text).toBeDefined();

  // The packer, in a browser of their own.
  const packerContext = await browser.newContext({ baseURL: BASE });
  const packer = await packerContext.newPage();
  await packer.goto(link!);
  await expect(packer.getByRole("heading", { name: "Join as Packer" })).toBeVisible();
  await expect(packer.getByText("Change an order's status, book the courier and print labels")).toBeVisible();
  expect(await seriousViolations(packer)).toEqual([]);
  await lookAt(packer, "invitation");
  await packer.getByLabel("Choose a password", { exact: true }).fill("linen-bergamot-dusk-58");
  await packer.getByRole("button", { name: "Set Password and Join" }).click();
  // signed in, on the way to the admin: the owner's requirement comes first
  await setUpAuthenticator(packer);
  await packer.goto("/admin");

  const menu = packer.getByRole("navigation", { name: "Admin" });
  await expect(menu.getByRole("link", { name: "Orders" })).toBeVisible();
  for (const page of ["Products", "Staff", "Data", "Users"]) await expect(menu.getByRole("link", { name: page, exact: true })).toHaveCount(0);

  // The packer ships the customer's order.
  await packer.goto(`/admin/orders?q=${shortId}&status=processing`);
  await expect(packer.getByText("Export for the accountant")).toHaveCount(0);
  await packer.waitForLoadState("networkidle"); // hydrated: the status select submits itself on change
  const row = packer.getByRole("row", { name: new RegExp(`^#${shortId}`) });
  await expect(row).toBeVisible();
  const answered = packer.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/admin/orders"));
  await packer.getByLabel(`Status of order ${shortId}`).selectOption("shipped");
  expect((await answered).status()).toBe(200);
  // it leaves Processing (the tab reloads without it) for Shipped
  await expect(row).toHaveCount(0);
  await packer.goto(`/admin/orders?q=${shortId}&status=shipped`);
  await expect(packer.getByRole("row").filter({ hasText: `#${shortId}` }).first()).toBeVisible();

  // Products and the exports answer the denied page.
  const products = await packer.goto("/admin/products");
  expect(products?.status()).toBe(403);
  await expect(packer.getByRole("heading", { name: "Not part of your role" })).toBeVisible();
  await expect(packer.getByText("Your staff role (Packer) doesn't allow this.")).toBeVisible();
  for (const download of ["/admin/orders/export.csv", "/admin/products/export.csv"]) {
    expect((await packer.request.get(download, { maxRedirects: 0 })).status(), download).toBe(403);
  }
  await expect(packer.goto("/admin/staff").then((r) => r?.status())).resolves.toBe(403);

  // The owner sees the packer on the staff, with two-step sign-in; the link, used once, now says so.
  await owner.goto("/admin/staff");
  const member = owner.getByRole("row").filter({ hasText: packerEmail });
  await expect(member.getByText("Packer", { exact: true })).toBeVisible();
  await expect(member.getByText("✓ Yes")).toBeVisible();
  await lookAt(owner, "staff-with-packer");
  const again = await browser.newContext({ baseURL: BASE });
  const late = await again.newPage();
  await late.goto(link!);
  await expect(late.getByText("This invitation has already been used.")).toBeVisible();
  await lookAt(late, "invitation-used");
  await Promise.all([again.close(), packerContext.close()]);

  // A role of the owner's own, made in its dialog (each width looked at); then a customer with an account is invited
  // to it and accepts in a browser without JavaScript: sign in with the account, back to the invitation, join.
  await owner.getByRole("link", { name: "New Role" }).click();
  const roleDialog = owner.getByRole("dialog", { name: "New role" });
  await roleDialog.getByLabel("Name").fill("Weekend packer");
  for (const does of ["See orders and their customers' delivery details", "Change an order's status, book the courier and print labels", "Moderate reviews"]) {
    await roleDialog.getByLabel(does).check();
  }
  await lookAt(owner, "new-role", false); // a modal dialog: the screen as it is
  await roleDialog.getByRole("button", { name: "Create Role" }).click();
  await expect(owner.getByText("Role “Weekend packer” saved")).toBeVisible();
  const card = owner.getByRole("heading", { name: "Weekend packer", level: 3 }).locator("xpath=../..");
  await expect(card.getByRole("list").getByText("Moderate reviews")).toBeVisible();
  await expect(card.getByRole("list").getByText("Refund, approve returns and change payments and order totals")).toHaveCount(0);

  const regular = { email: uniqueEmail("regular"), password: E2E_PASSWORD };
  const shopperContext = await browser.newContext({ baseURL: BASE });
  await newCustomer(shopperContext, regular);
  await shopperContext.close();
  await owner.getByRole("link", { name: "Invite a Person" }).click();
  await dialog.getByLabel("E-mail address").fill(regular.email);
  await dialog.getByLabel("Role").selectOption({ label: "Weekend packer" });
  await dialog.getByRole("button", { name: "Send Invitation" }).click();
  await expect(owner.getByText(`Invitation sent to ${regular.email}`)).toBeVisible();
  await expect.poll(() => own.smtp.received.filter((m) => toOf(m) === regular.email).length).toBe(1);
  const second = /http:\/\/\S+\/staff\/invitation\?token=[A-Za-z0-9_-]+/.exec(own.smtp.received.find((m) => toOf(m) === regular.email)!.text ?? "")![0];

  const noScript = await browser.newContext({ baseURL: BASE, javaScriptEnabled: false });
  const person = await noScript.newPage();
  await person.goto(second);
  await expect(person.getByRole("heading", { name: "Join as Weekend packer" })).toBeVisible();
  await person.getByRole("link", { name: "Sign In to Accept" }).click();
  await person.getByLabel("Email", { exact: true }).fill(regular.email);
  await person.getByLabel("Password", { exact: true }).fill(regular.password);
  await person.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(person).toHaveURL(/\/staff\/invitation\?token=/);
  await person.getByRole("button", { name: "Accept and Join" }).click();
  // joined: the owner's two-step requirement is the first thing the admin asks
  await expect(person).toHaveURL(/\/profile\/security\?required=staff/);
  await owner.goto("/admin/staff");
  await expect(owner.getByRole("row").filter({ hasText: regular.email }).getByText("Weekend packer", { exact: true })).toBeVisible();
  await Promise.all([noScript.close(), ownerContext.close()]);
});
