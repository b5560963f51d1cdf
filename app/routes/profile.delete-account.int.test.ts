/**
 * Profile → "Delete my account" (POPIA s24; docs/decisions/040) through its route, on SQLite and PostgreSQL: the page
 * says what is kept; a wrong or missing password changes nothing; the right one deletes the account, clears the
 * browser's cookie and lands on a page that names nobody; the paid order stays in the admin with its invoice.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { getSessionUser } from "~/modules/accounts/session.server";
import { appendEntry, issueGiftCard } from "~/modules/gift-cards/gift-cards.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { newId } from "~/utils/ids";
import { insertProduct } from "../../tests/factories/catalog";
import { DELETE_PASSWORD_RULE } from "~/modules/flows/account-deleted.server";
import { PRIVACY_MESSAGES } from "~/modules/privacy/privacy.schema";
import { snapshotDatabase } from "../../tests/authz/matrix";
import { insertAwaitingOrder } from "../../tests/factories/payments";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { loader as adminOrdersLoader } from "./admin.orders";
import { loader as invoiceLoader } from "./orders.invoice[.]pdf";
import { action, DELETED_PATH, loader } from "./profile.delete-account";

const db = () => getDb();

async function paidCustomer() {
  const customer = await createUser(db());
  const cookie = await sessionCookieFor(db(), customer.id);
  const order = await insertAwaitingOrder(db(), { userId: customer.id });
  await db().transaction().execute((trx) => markOrderPaid(trx, order.id));
  return { customer, cookie, order };
}

const post = (cookie: string, form: Record<string, string>) => callAction(action, "/profile/delete-account", form, { headers: { cookie } });

describe("delete my account", () => {
  it("the page lists the paid orders that are kept, with their invoices; a visitor is sent to sign in", async () => {
    const { cookie, order } = await paidCustomer();
    const page = await dataOf(await callLoader(loader, "/profile/delete-account", { headers: { cookie } }));
    expect(page.state).toBe("confirm");
    expect(page.keptOrders).toEqual([expect.objectContaining({ shortId: order.id.slice(0, 8), invoiceNumber: expect.stringMatching(/^INV-\d{6}$/) })]);
    expect(page.invoiceYears).toBe(5);
    const visitor = await callLoader(loader, "/profile/delete-account");
    expect((visitor as Response).headers.get("Location")).toBe("/auth/login?redirect=%2Fprofile%2Fdelete-account");
  });

  it("the page lists the gift cards that keep their money (last four, balance, expiry), and says unused sample credits end", async () => {
    const { customer, cookie, order } = await paidCustomer();
    const card = await issueGiftCard(db(), { amountCents: 25000, recipientEmail: customer.email, actor: { kind: "system", id: null } });
    const spent = await issueGiftCard(db(), { amountCents: 10000, recipientEmail: customer.email, actor: { kind: "system", id: null } });
    await db().transaction().execute((trx) => appendEntry(trx, spent.id, "redemption", -10000, { actor: { kind: "user", id: customer.id }, orderId: order.id }));
    const product = await insertProduct(db());
    const grantedAt = new Date().toISOString();
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await db()
      .insertInto("sample_credits")
      .values({ id: newId(), user_id: customer.id, product_id: product.id, name: product.name, amount_cents: 3500, source_order_id: order.id, source_sample_id: newId(), unit: 0, granted_at: grantedAt, expires_at: expiresAt })
      .execute();
    const page = await dataOf(await callLoader(loader, "/profile/delete-account", { headers: { cookie } }));
    expect(page.giftCards).toEqual([{ last4: card.last4, balance: "R250.00", until: expect.any(String) }]);
    expect(page.openSampleCredits).toBe(1);
  });

  it("a wrong or missing password is refused with a clear message, and nothing changes", async () => {
    const { customer, cookie } = await paidCustomer();
    const before = await snapshotDatabase(db());
    const wrong = await post(cookie, { password: "not my password" });
    expect(statusOf(wrong)).toBe(400);
    expect(await dataOf(wrong)).toMatchObject({ error: PRIVACY_MESSAGES.passwordWrong, fieldErrors: { password: PRIVACY_MESSAGES.passwordWrong } });
    const missing = await post(cookie, {});
    expect(statusOf(missing)).toBe(400);
    expect((await dataOf(missing)).fieldErrors.password).toBe(PRIVACY_MESSAGES.passwordRequired);
    expect(await snapshotDatabase(db())).toEqual(before);
    expect(await getSessionUser(new Request("http://localhost:3000/", { headers: { cookie } }))).toMatchObject({ id: customer.id });
  });

  it(`after ${DELETE_PASSWORD_RULE.max} wrong passwords the form waits, even for the right one`, async () => {
    const { customer, cookie } = await paidCustomer();
    for (let i = 0; i < DELETE_PASSWORD_RULE.max; i++) expect(statusOf(await post(cookie, { password: `guess ${i}` }))).toBe(400);
    const throttled = await post(cookie, { password: customer.password });
    expect(statusOf(throttled)).toBe(429);
    expect((await dataOf(throttled)).error).toMatch(/^Too many attempts, try again in \d+ minutes?$/);
    expect(await db().selectFrom("users").select("id").where("id", "=", customer.id).execute()).toHaveLength(1);
  });

  it("the right password deletes the account, ends the session, and the order stays in the admin with its invoice", async () => {
    const { customer, cookie, order } = await paidCustomer();
    const result = await post(cookie, { password: customer.password });
    expect(statusOf(result)).toBe(303);
    const response = result as Response;
    expect(response.headers.get("Location")).toBe(DELETED_PATH);
    // the browser's session cookie is cleared
    expect(response.headers.getSetCookie().some((c) => /session_token=;/.test(c) && /Max-Age=0/i.test(c))).toBe(true);
    expect(await getSessionUser(new Request("http://localhost:3000/", { headers: { cookie } }))).toBeNull();
    // the page after: says it is done, to whoever arrives (no account named)
    expect(await dataOf(await callLoader(loader, DELETED_PATH))).toEqual({ state: "done" });
    // signed in with the old cookie, the page is no longer theirs
    expect(statusOf(await callLoader(loader, "/profile/delete-account", { headers: { cookie } }))).toBe(302);

    // the admin still has the order, and its invoice
    const admin = await createUser(db(), { isAdmin: true });
    const adminCookie = await sessionCookieFor(db(), admin.id);
    const list = await dataOf(await callLoader(adminOrdersLoader, `/admin/orders?status=processing&q=${order.id.slice(0, 8)}`, { headers: { cookie: adminCookie } }));
    expect(JSON.stringify(list)).toContain(order.id);
    const pdf = await callLoader(invoiceLoader, `/orders/${order.id}/invoice.pdf`, { headers: { cookie: adminCookie }, params: { id: order.id } });
    expect(statusOf(pdf)).toBe(200);
    expect((pdf as Response).headers.get("Content-Type")).toBe("application/pdf");
  });
});
