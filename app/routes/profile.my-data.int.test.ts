/**
 * "Download my data" (POPIA s23; docs/decisions/040) through its route, on SQLite and PostgreSQL: the signed-in person
 * gets one ZIP with everything the shop holds about them (and nobody else's), each paid order's invoice inside; a
 * request naming someone else is refused and changes nothing; the hourly allowance holds.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { recordConsent } from "~/modules/consent/consent.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { DOWNLOAD_RATE_RULE, downloadPersonalData } from "~/modules/privacy/export.server";
import type { PersonalData } from "~/modules/privacy/export.logic";
import { PRIVACY_MESSAGES } from "~/modules/privacy/privacy.schema";
import { KIND_LABELS } from "~/modules/returns/returns.logic";
import { newId } from "~/utils/ids";
import { snapshotDatabase } from "../../tests/authz/matrix";
import { insertProduct, insertReview } from "../../tests/factories/catalog";
import { insertOrder, TEST_ADDRESS } from "../../tests/factories/orders";
import { insertAwaitingOrder } from "../../tests/factories/payments";
import { pdfText } from "../../tests/factories/pdf-text";
import { unzip } from "../../tests/factories/unzip";
import { createUser, sessionCookieFor, type TestUser } from "../../tests/factories/users";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { action, loader, DOWNLOAD_REFUSED_PATH } from "./profile.my-data";
import { loader as profileLoader } from "./profile._index";

const db = () => getDb();
let thandi: TestUser & { cookie: string; orderId: string };
let sipho: TestUser & { cookie: string; orderId: string };

async function shopperWithHistory(name: string, email: string) {
  const user = await createUser(db(), { email });
  const cookie = await sessionCookieFor(db(), user.id);
  const product = await insertProduct(db(), { name: `${name}'s Oud <Noir>`, price_cents: 45000 });
  const order = await insertAwaitingOrder(db(), {
    userId: user.id,
    lines: [{ productId: product.id, name: `${name}'s Oud <Noir>`, quantity: 1, unitPriceCents: 45000 }],
    shippingAddress: { name, telephone: "082 555 0101", street: `1 ${name} Street`, suburb: "Sea Point", city: "Cape Town", postalCode: "8005", province: "Western Cape" },
  });
  await db().transaction().execute((trx) => markOrderPaid(trx, order.id));
  await insertOrder(db(), { userId: user.id, status: "cancelled", paymentStatus: "failed" });
  await insertReview(db(), product.id, { user_id: user.id, comment: `${name} loves it` });
  const stamp = new Date().toISOString();
  await db().insertInto("contact_messages").values({ id: newId(), name, email, message: `${name} asks about Durban`, created_at: stamp }).execute();
  await db().insertInto("mail_outbox").values({ id: newId(), to_address: email, subject: `Hello ${name}`, text_body: `Dear ${name}`, html_body: null, created_at: stamp, sent_at: stamp }).execute();
  await db()
    .insertInto("returns")
    .values({ id: newId(), order_id: order.id, user_id: user.id, status: "requested", kind: "faulty", reason: "faulty", note: `${name}: the atomiser sticks`, requested_at: stamp, refund_due_at: stamp, created_at: stamp, updated_at: stamp })
    .execute();
  await recordConsent(db(), { userId: user.id, email, purpose: "marketing_email", version: "2026-11-26", wording: "News and offers by e-mail.", granted: true, source: "register" });
  return { ...user, cookie, orderId: order.id };
}

beforeAll(async () => {
  thandi = await shopperWithHistory("Thandi", "thandi.data@example.co.za");
  sipho = await shopperWithHistory("Sipho", "sipho.data@example.co.za");
});

const download = (cookie: string, form: Record<string, string> = {}) => callAction(action, "/profile/my-data", form, { headers: { cookie } });

describe("download my data", () => {
  it("gives the signed-in person one ZIP: the JSON, a page to read, and each paid order's invoice", async () => {
    const result = await download(thandi.cookie);
    expect(statusOf(result)).toBe(200);
    const response = result as Response;
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="scentara-my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const files = unzip(new Uint8Array(await response.arrayBuffer()));

    const data = JSON.parse(files.get("my-data.json")!.text()) as PersonalData;
    expect(data.account.email).toBe("thandi.data@example.co.za");
    expect(data.preferences).toMatchObject({ orderAndAccountEmails: true });
    expect(data.consents).toEqual([expect.objectContaining({ purpose: "Marketing e-mails", granted: true, wording: "News and offers by e-mail.", source: "Registration" })]);
    // the two addresses she gave (one per order here), each once
    expect(data.addresses).toHaveLength(2);
    expect(data.addresses).toContainEqual(expect.objectContaining({ name: "Thandi", street: "1 Thandi Street", usedOnOrders: [thandi.orderId.slice(0, 8)] }));
    expect(data.addresses).toContainEqual(expect.objectContaining({ street: TEST_ADDRESS.street }));
    expect(data.orders).toHaveLength(2);
    const paid = data.orders.find((o) => o.id === thandi.orderId)!;
    expect(paid.lines).toEqual([{ name: "Thandi's Oud <Noir>", quantity: 1, unitPriceCents: 45000, totalPriceCents: 45000 }]);
    expect(paid.invoice!.number).toMatch(/^INV-\d{6}$/);
    expect(data.reviews).toEqual([expect.objectContaining({ product: "Thandi's Oud <Noir>", comment: "Thandi loves it" })]);
    expect(data.contactMessages.map((m) => m.message)).toEqual(["Thandi asks about Durban"]);
    expect(data.returns).toEqual([expect.objectContaining({ order: thandi.orderId.slice(0, 8), kind: KIND_LABELS.faulty, note: "Thandi: the atomiser sticks", refundCents: null })]);
    expect(data.emails.map((m) => m.subject)).toEqual(["Hello Thandi"]);
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);

    // nobody else's
    expect(files.get("my-data.json")!.text()).not.toContain("Sipho");

    // the invoice the shop issued, as a PDF, under its number
    const pdf = files.get(paid.invoice!.file)!;
    expect(pdf.data.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdfText(pdf.data)).toContain(paid.invoice!.number);

    // the readable page: the same facts, the shopper's text escaped
    const html = files.get("my-data.html")!.text();
    expect(html).toContain("<h1>Your data at Scentara</h1>");
    expect(html).toContain(`Order #${thandi.orderId.slice(0, 8)}`);
    expect(html).toContain("Thandi&#39;s Oud &lt;Noir&gt;");
    expect(html).not.toContain("<Noir>");
    expect([...files.keys()].sort()).toEqual(["my-data.html", "my-data.json", paid.invoice!.file].sort());

    const record = await db().selectFrom("privacy_requests").selectAll().where("user_id", "=", thandi.id).where("kind", "=", "export").executeTakeFirstOrThrow();
    expect(record).toMatchObject({ requested_by: "self", actor_user_id: null });
    expect(record.summary).toMatchObject({ orders: 2, invoices: 1, reviews: 1, emails: 1, consents: 1 });
  });

  it("someone else's data: a form naming another account is refused with a clear message, and nothing changes", async () => {
    const before = await snapshotDatabase(db());
    const counters = await db().selectFrom("rate_limits").selectAll().where("key", "=", `my-data:user:${sipho.id}`).execute();
    const forms: Array<Record<string, string>> = [{ userId: thandi.id }, { email: thandi.email }, { id: thandi.id }];
    for (const form of forms) {
      const result = await download(sipho.cookie, form);
      expect(statusOf(result)).toBe(403);
      expect((await dataOf(result)).error).toBe(PRIVACY_MESSAGES.onlyYourOwn);
    }
    expect(await snapshotDatabase(db())).toEqual(before);
    expect(await db().selectFrom("rate_limits").selectAll().where("key", "=", `my-data:user:${sipho.id}`).execute()).toEqual(counters);
    // naming oneself is the same as naming nobody
    expect(statusOf(await download(sipho.cookie, { email: sipho.email }))).toBe(200);
  });

  it("a visitor is sent to sign in; a GET goes back to the profile", async () => {
    const visitor = await callAction(action, "/profile/my-data", {});
    expect(statusOf(visitor)).toBe(302);
    expect((visitor as Response).headers.get("Location")).toBe("/auth/login?redirect=%2Fprofile%2Fmy-data");
    const get = await callLoader(loader, "/profile/my-data");
    expect((get as Response).headers.get("Location")).toBe("/profile#your-data");
  });

  it(`allows ${DOWNLOAD_RATE_RULE.max} downloads an hour; then the profile says so, and nothing is built or recorded; an hour later it works again`, async () => {
    const customer = await createUser(db());
    const cookie = await sessionCookieFor(db(), customer.id);
    for (let i = 0; i < DOWNLOAD_RATE_RULE.max; i++) expect(statusOf(await download(cookie))).toBe(200);
    const refused = await download(cookie);
    expect(statusOf(refused)).toBe(303);
    expect((refused as Response).headers.get("Location")).toBe(DOWNLOAD_REFUSED_PATH);
    const exports = async () => (await db().selectFrom("privacy_requests").select("id").where("user_id", "=", customer.id).execute()).length;
    expect(await exports()).toBe(DOWNLOAD_RATE_RULE.max);
    const profile = await dataOf(await callLoader(profileLoader, DOWNLOAD_REFUSED_PATH, { headers: { cookie } }));
    expect(profile.dataNotice).toBe(PRIVACY_MESSAGES.tooManyDownloads);
    // the clock moved on an hour (the counter's window): allowed again
    const later = await downloadPersonalData(db(), customer.id, { kind: "self" }, new Date(Date.now() + DOWNLOAD_RATE_RULE.windowMs + 1000));
    expect(later.bytes.byteLength).toBeGreaterThan(0);
    expect(await exports()).toBe(DOWNLOAD_RATE_RULE.max + 1);
  });
});
