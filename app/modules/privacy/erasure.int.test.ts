/**
 * Deleting an account (POPIA s24; docs/decisions/040) on SQLite and PostgreSQL, through the one path the person and an
 * admin share (deleteAccount): the person can't sign in, every session ends, their personal data is erased, their
 * reviews are removed, paid orders and their tax invoices stay with exactly what the invoice shows, and a
 * confirmation e-mail reaches them — read back from a real SMTP server started here.
 */
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { getAuth } from "~/modules/accounts/auth.server";
import { getSessionUser } from "~/modules/accounts/session.server";
import { deleteAccount, deleteUserByAdmin } from "~/modules/flows/account-deleted.server";
import { USER_ADMIN_MESSAGES } from "~/modules/accounts/users-admin.schema";
import { recordConsent } from "~/modules/consent/consent.server";
import { getInvoiceForViewer } from "~/modules/invoices/invoice.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { env, resetEnvForTests } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { snapshotDatabase } from "../../../tests/authz/matrix";
import { insertProduct, insertReview } from "../../../tests/factories/catalog";
import { insertCoupon, insertOrder, TEST_ADDRESS } from "../../../tests/factories/orders";
import { couponState, insertAwaitingOrder } from "../../../tests/factories/payments";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { PRIVACY_MESSAGES } from "./privacy.schema";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";

const db = () => getDb();
let mailServer: MailServer;

beforeAll(async () => {
  mailServer = await startMailServer();
  process.env.SMTP_URL = mailServer.url;
  process.env.ADMIN_EMAILS = "listed.owner@scentara.test";
  resetEnvForTests();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.ADMIN_EMAILS;
  resetEnvForTests();
  await mailServer.close();
});

beforeEach(() => {
  mailServer.clear();
});

const isSignedIn = async (cookie: string) => (await getSessionUser(new Request("http://localhost:3000/profile", { headers: { cookie } }))) !== null;
const canSignIn = async (email: string, password: string) => (await getAuth().api.signInEmail({ body: { email, password }, asResponse: true })).ok;
const to = (mail: ParsedMail) => (mail.to && !Array.isArray(mail.to) ? mail.to.text : "");

/** A customer with everything the shop can hold about someone. */
async function customerWithHistory(email: string) {
  const customer = await createUser(db(), { email });
  const cookie = await sessionCookieFor(db(), customer.id);
  const otherCookie = await sessionCookieFor(db(), customer.id); // a second device
  const product = await insertProduct(db(), { name: "Amber Lantern", price_cents: 59900 });

  // a paid order: its invoice number allocated through the verified path
  const paid = await insertAwaitingOrder(db(), { userId: customer.id, lines: [{ productId: product.id, name: "Amber Lantern", quantity: 2, unitPriceCents: 59900 }], shippingCents: 0, notes: "Asked for gift wrapping" });
  await db().transaction().execute((trx) => markOrderPaid(trx, paid.id));
  // an open checkout holding a coupon reservation, and an old abandoned one
  const coupon = await insertCoupon(db(), { code: `BYE${Date.now() % 100000}`, max_redemptions: 5 });
  const open = await insertAwaitingOrder(db(), { userId: customer.id, coupon, discountCents: 1000 });
  const abandoned = await insertOrder(db(), { userId: customer.id, status: "cancelled", paymentStatus: "cancelled", createdAt: "2026-01-10T09:00:00.000Z" });

  const review = await insertReview(db(), product.id, { user_id: customer.id, comment: "Warm and smoky, lasts all day." });
  const stamp = new Date().toISOString();
  await db()
    .insertInto("contact_messages")
    .values([
      { id: newId(), name: "Lerato", email: email.toUpperCase(), message: "Do you ship to Durban?", created_at: stamp },
      { id: newId(), name: "Someone else", email: "someone.else@example.co.za", message: "Hello", created_at: stamp },
    ])
    .execute();
  await db()
    .insertInto("mail_outbox")
    .values([
      { id: newId(), to_address: email, subject: "Your order", text_body: "Hi Lerato", html_body: null, created_at: stamp },
      { id: newId(), to_address: env().CONTACT_EMAIL, subject: "New order", text_body: `Customer: Lerato <${email}>, 082 123 4567`, html_body: null, created_at: stamp },
      { id: newId(), to_address: "someone.else@example.co.za", subject: "Your order", text_body: "Hi there", html_body: null, created_at: stamp },
    ])
    .execute();
  const returnId = newId();
  await db()
    .insertInto("returns")
    .values({ id: returnId, order_id: paid.id, user_id: customer.id, status: "requested", kind: "cooling_off", reason: "changed_mind", note: "Lerato here: the box was dented", requested_at: stamp, refund_due_at: stamp, created_at: stamp, updated_at: stamp })
    .execute();
  await recordConsent(db(), { userId: customer.id, email, purpose: "terms", version: "2026-11-26", wording: "By creating an account you accept our Terms", granted: true, source: "register" });
  await db().insertInto("rate_limits").values({ id: newId(), key: `signin:email:${email}`, count: 2, last_request: Date.now() }).execute();
  return { customer, cookie, otherCookie, paid, open, abandoned, coupon, review, product, returnId };
}

describe("deleting one's own account", () => {
  it("signs out everywhere, erases the personal data, keeps the paid order with its invoice, and e-mails the person", async () => {
    const email = "lerato.leaving@example.co.za";
    const h = await customerWithHistory(email);
    const admin = await createUser(db(), { isAdmin: true });
    const invoiceBefore = await getInvoiceForViewer(db(), h.paid.id, { id: admin.id, isAdmin: true });
    expect(invoiceBefore.state).toBe("found");
    const changes: string[] = [];
    const stop = onStorefrontChange((reason) => changes.push(reason));

    const result = await deleteAccount(db(), h.customer.id, { kind: "self" });
    stop();

    // can't sign in; every session ended
    expect(await canSignIn(email, h.customer.password)).toBe(false);
    expect(await isSignedIn(h.cookie)).toBe(false);
    expect(await isSignedIn(h.otherCookie)).toBe(false);
    expect(await db().selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", h.customer.id).execute()).toEqual([]);
    expect(await db().selectFrom("accounts").select("id").where("user_id", "=", h.customer.id).execute()).toEqual([]);

    // the paid order stays, unlinked, with exactly what its invoice showed (only the account's e-mail is gone)
    const kept = await db().selectFrom("orders").selectAll().where("id", "=", h.paid.id).executeTakeFirstOrThrow();
    expect(kept.user_id).toBeNull();
    expect(kept.shipping_address).toEqual(TEST_ADDRESS);
    expect(kept.notes).toBeNull();
    expect(kept.personal_data_erased_at).toBeNull();
    const invoiceAfter = await getInvoiceForViewer(db(), h.paid.id, { id: admin.id, isAdmin: true });
    if (invoiceBefore.state !== "found" || invoiceAfter.state !== "found") throw new Error("the invoice must render");
    expect(invoiceAfter.invoice).toEqual({ ...invoiceBefore.invoice, recipient: { ...invoiceBefore.invoice.recipient, email: null } });
    expect(invoiceAfter.invoice.recipient).toMatchObject({ name: TEST_ADDRESS.name, telephone: TEST_ADDRESS.telephone });
    expect(await db().selectFrom("order_lines").select(["name", "quantity"]).where("order_id", "=", h.paid.id).execute()).toEqual([{ name: "Amber Lantern", quantity: 2 }]);

    // the open checkout is cancelled and its coupon given back; unpaid orders lose name, telephone and address
    const open = await db().selectFrom("orders").select(["status", "payment_status", "shipping_address", "user_id"]).where("id", "=", h.open.id).executeTakeFirstOrThrow();
    expect(open).toMatchObject({ status: "cancelled", payment_status: "cancelled", user_id: null });
    expect(open.shipping_address).toEqual({ name: "", telephone: "", street: "", suburb: "", city: "", postalCode: "", province: TEST_ADDRESS.province });
    expect((await couponState(db(), h.coupon.id)).timesRedeemed).toBe(0);
    const abandoned = await db().selectFrom("orders").select(["shipping_address", "personal_data_erased_at"]).where("id", "=", h.abandoned.id).executeTakeFirstOrThrow();
    expect(abandoned.shipping_address.name).toBe("");
    expect(abandoned.personal_data_erased_at).not.toBeNull();

    // reviews removed (and the storefront told); messages and e-mails gone; the shop's notice naming them blanked
    expect(await db().selectFrom("reviews").select("id").where("id", "=", h.review.id).execute()).toEqual([]);
    expect(changes.some((c) => c.includes("reviews removed"))).toBe(true);
    expect((await db().selectFrom("contact_messages").select("email").execute()).map((m) => m.email)).toEqual(["someone.else@example.co.za"]);
    const mails = await db().selectFrom("mail_outbox").select(["to_address", "subject", "text_body"]).orderBy("created_at").execute();
    expect(mails.filter((m) => m.to_address === email && m.subject !== "Your Scentara account has been deleted")).toEqual([]);
    expect(mails.find((m) => m.subject === "New order")!.text_body).toBe("");
    expect(mails.find((m) => m.to_address === "someone.else@example.co.za")!.text_body).toBe("Hi there");

    // consent rows stay as the record, without the address; sign-in counters for the address go
    const consents = await db().selectFrom("consents").select(["email", "user_id", "purpose"]).where("wording", "=", "By creating an account you accept our Terms").execute();
    expect(consents).toEqual([{ email: null, user_id: null, purpose: "terms" }]);
    expect(await db().selectFrom("rate_limits").select("key").where("key", "=", `signin:email:${email}`).execute()).toEqual([]);

    // a return stays with its order (and credit note, once refunded), without the shopper's words
    expect(await db().selectFrom("returns").select(["note", "user_id", "order_id"]).where("id", "=", h.returnId).executeTakeFirstOrThrow()).toEqual({ note: "", user_id: null, order_id: h.paid.id });

    // on record, naming nobody
    const record = await db().selectFrom("privacy_requests").selectAll().where("kind", "=", "erasure").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    expect(record).toMatchObject({ requested_by: "self", user_id: null, actor_user_id: null });
    expect(record.summary).toEqual(result.summary);
    expect(result.summary).toMatchObject({ ordersKept: 1, openOrdersCancelled: 1, ordersErased: 2, reviewsRemoved: 1, contactMessagesDeleted: 1, emailsDeleted: 1, emailsRedacted: 1, sessionsEnded: 2, consentsKept: 1, returnsKept: 1 });

    // the confirmation, through a real SMTP server
    const confirmation = mailServer.received.find((m) => m.subject === "Your Scentara account has been deleted");
    expect(confirmation, "the confirmation e-mail").toBeTruthy();
    expect(to(confirmation!)).toBe(email);
    expect(confirmation!.text).toContain(`As you asked, your Scentara account (${email}) was deleted`);
    expect(confirmation!.text).toContain(`- Order #${h.paid.id.slice(0, 8)}, invoice INV-`);
    expect(confirmation!.text).toContain("Tax Administration Act, section 29");
    expect(confirmation!.text).toContain("for 5 years");
    expect(confirmation!.text).toContain("Your unpaid order was cancelled");
  });

  it("the shop's only admin can't delete their own account: refused with the reason, nothing changed", async () => {
    // Every admin but one is deleted first, so this one is the last.
    const admin = await createUser(db(), { isAdmin: true });
    const others = await db().selectFrom("users").select("id").where("is_admin", "=", true).where("id", "<>", admin.id).execute();
    for (const o of others) await db().deleteFrom("users").where("id", "=", o.id).execute();
    const before = await snapshotDatabase(db());
    await expect(deleteAccount(db(), admin.id, { kind: "self" })).rejects.toThrow(PRIVACY_MESSAGES.lastAdminSelf);
    expect(await snapshotDatabase(db())).toEqual(before);
    expect(mailServer.received).toEqual([]);
  });

  it("an address in ADMIN_EMAILS can't be deleted, by itself or by another admin", async () => {
    const listed = await createUser(db(), { email: "listed.owner@scentara.test", isAdmin: true });
    const other = await createUser(db(), { isAdmin: true });
    await expect(deleteAccount(db(), listed.id, { kind: "self" })).rejects.toThrow(PRIVACY_MESSAGES.listedAdminSelf);
    await expect(deleteUserByAdmin(db(), other.id, listed.id)).rejects.toThrow(USER_ADMIN_MESSAGES.listedAdmin);
    expect(await db().selectFrom("users").select("id").where("id", "=", listed.id).execute()).toHaveLength(1);
  });
});

describe("an admin deleting a customer", () => {
  it("takes the same path: erased, paid orders kept, the person told it was the shop, the admin on record", async () => {
    const email = "sipho.removed@example.co.za";
    const h = await customerWithHistory(email);
    const admin = await createUser(db(), { isAdmin: true });
    const result = await deleteUserByAdmin(db(), admin.id, h.customer.id);
    expect(result.summary).toMatchObject({ ordersKept: 1, reviewsRemoved: 1, openOrdersCancelled: 1 });
    expect(await isSignedIn(h.cookie)).toBe(false);
    expect(await canSignIn(email, h.customer.password)).toBe(false);
    expect((await db().selectFrom("orders").select("shipping_address").where("id", "=", h.paid.id).executeTakeFirstOrThrow()).shipping_address).toEqual(TEST_ADDRESS);
    const record = await db().selectFrom("privacy_requests").selectAll().where("kind", "=", "erasure").where("actor_user_id", "=", admin.id).executeTakeFirstOrThrow();
    expect(record.requested_by).toBe("admin");
    const confirmation = mailServer.received.find((m) => to(m) === email);
    expect(confirmation?.text).toContain(`Your Scentara account (${email}) was deleted by the shop`);
  });

  it("an admin can't delete themself from Admin → Users (their profile is the way)", async () => {
    const admin = await createUser(db(), { isAdmin: true });
    await createUser(db(), { isAdmin: true });
    await expect(deleteUserByAdmin(db(), admin.id, admin.id)).rejects.toThrow(USER_ADMIN_MESSAGES.selfDelete);
  });

  it("the person and an admin deleting the same account at once: one erasure, the other told it is gone", async () => {
    const customer = await createUser(db());
    const admin = await createUser(db(), { isAdmin: true });
    const outcomes = await Promise.allSettled([deleteAccount(db(), customer.id, { kind: "self" }), deleteUserByAdmin(db(), admin.id, customer.id)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as Error).message).toBe("That user no longer exists");
    expect(mailServer.received.filter((m) => to(m) === customer.email)).toHaveLength(1);
  });
});
