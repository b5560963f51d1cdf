import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { percentOf } from "~/modules/admin/dashboard.logic";
import { reviewRequestFigures } from "~/modules/reports/dashboard.server";
import { env, resetEnvForTests } from "~/utils/env.server";
import { insertProduct, insertReview, insertReviewer } from "../../../tests/factories/catalog";
import { insertOrder } from "../../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { callLoader, dataOf } from "../../../tests/setup/route";
import { verifyReviewToken } from "./review-link.server";
import { deleteReview } from "./reviews-admin.server";
import { REVIEW_REQUEST_GRACE_DAYS, sendDueReviewRequests } from "./review-requests.server";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";

/**
 * The review request after delivery (issue 19, point 6), with a controlled clock. Every test lives in its own year
 * (far from today and from each other), so the orders of one test are never due in another's run.
 */
const DAY = 24 * 60 * 60 * 1000;
const AFTER_DAYS = 5;
let year = 2040;
/** A delivery moment in a year no other test uses. */
const freshDelivery = () => new Date(Date.UTC(year++, 2, 10, 9, 30));
const at = (from: Date, days: number, ms = 0) => new Date(from.getTime() + days * DAY + ms);
const run = (now: Date, limit?: number) => sendDueReviewRequests(getDb(), { now, afterDays: AFTER_DAYS, ...(limit ? { limit } : {}) });

/** A paid order of the customer, delivered at the given moment (status and stamp as the admin's change leaves them). */
async function deliveredOrder(userId: string | null, deliveredAt: Date, lines: { productId?: string | null; name?: string }[] = [{}], paymentStatus: "completed" | "pending" = "completed") {
  const order = await insertOrder(getDb(), { userId, lines, status: "delivered", paymentStatus });
  await getDb().updateTable("orders").set({ actual_delivery_date: deliveredAt.toISOString() }).where("id", "=", order.id).execute();
  return order;
}

const mailsTo = (email: string) => getDb().selectFrom("mail_outbox").select(["subject", "text_body", "html_body"]).where("to_address", "=", email).execute();
const requestOf = (orderId: string) => getDb().selectFrom("review_requests").selectAll().where("order_id", "=", orderId).executeTakeFirst();
/** The review links in an e-mail's text: [product slug, token]. */
const linksIn = (text: string) => [...text.matchAll(/\/products\/([a-z0-9-]+)\?review=([A-Za-z0-9_.-]+)#write-review/g)].map((m) => ({ slug: m[1]!, token: m[2]! }));

describe("review requests after delivery", () => {
  it("are not sent before the day, then sent once on the day, however often the job runs", async () => {
    const delivered = freshDelivery();
    const customer = await insertReviewer(getDb(), "naledi.review@example.co.za");
    const order = await deliveredOrder(customer.id, delivered, [{ name: "Amber Lantern" }]);

    expect((await run(at(delivered, AFTER_DAYS, -60_000))).sent).toEqual([]);
    expect(await requestOf(order.id)).toBeUndefined();
    expect(await mailsTo(customer.email)).toHaveLength(0);

    const onTheDay = at(delivered, AFTER_DAYS);
    const first = await run(onTheDay);
    expect(first.sent).toEqual([{ orderId: order.id, userId: customer.id, productIds: [order.lines[0]!.productId], delivered: false }]);
    expect(await requestOf(order.id)).toEqual({ order_id: order.id, user_id: customer.id, sent_at: onTheDay.toISOString(), reviewed: 0 });

    expect((await run(onTheDay)).sent).toEqual([]);
    expect((await run(at(delivered, AFTER_DAYS + 3))).sent).toEqual([]);
    const mails = await mailsTo(customer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Scentara: how are you finding Amber Lantern?");
    expect(mails[0]!.text_body).toContain("Hi Thandi Nkosi,");
    expect(mails[0]!.text_body).toContain(`Your order ${order.id.slice(0, 8)} arrived`);
    expect(mails[0]!.text_body).toContain("turn them off in your profile: http://localhost:3000/profile");
    expect(mails[0]!.html_body).toContain("Review Amber Lantern</a>");
  });

  it("two runs at the same moment (two processes) send one e-mail", async () => {
    const delivered = freshDelivery();
    const customer = await insertReviewer(getDb());
    const order = await deliveredOrder(customer.id, delivered);
    const now = at(delivered, AFTER_DAYS + 1);
    const runs = await Promise.all([run(now), run(now), run(now)]);
    expect(runs.flatMap((r) => r.sent).map((s) => s.orderId)).toEqual([order.id]);
    expect(await mailsTo(customer.email)).toHaveLength(1);
  });

  it("never go to a customer who turned notifications off", async () => {
    const delivered = freshDelivery();
    const customer = await insertReviewer(getDb());
    await getDb().updateTable("users").set({ email_notifications: false }).where("id", "=", customer.id).execute();
    const order = await deliveredOrder(customer.id, delivered);
    expect((await run(at(delivered, AFTER_DAYS + 1))).sent).toEqual([]);
    expect(await requestOf(order.id)).toBeUndefined();
    expect(await mailsTo(customer.email)).toHaveLength(0);
  });

  it("are not sent when every product of the order is already reviewed, or no longer sold", async () => {
    const delivered = freshDelivery();
    const customer = await insertReviewer(getDb());
    const [a, b] = [await insertProduct(getDb()), await insertProduct(getDb())];
    await insertReview(getDb(), a.id, { user_id: customer.id });
    await insertReview(getDb(), b.id, { user_id: customer.id });
    const reviewed = await deliveredOrder(customer.id, delivered, [{ productId: a.id }, { productId: b.id }]);
    // a line whose product was deleted since (its product_id is null): nothing to review
    const gone = await deliveredOrder(customer.id, delivered, [{ productId: null, name: "Discontinued Musk" }]);
    expect((await run(at(delivered, AFTER_DAYS + 1))).sent).toEqual([]);
    expect(await requestOf(reviewed.id)).toBeUndefined();
    expect(await requestOf(gone.id)).toBeUndefined();
    expect(await mailsTo(customer.email)).toHaveLength(0);
  });

  it("list only the products not reviewed yet, each with a link of its own that verifies for that product and customer", async () => {
    const delivered = freshDelivery();
    const customer = await insertReviewer(getDb());
    const rose = await insertProduct(getDb(), { name: "Rose Nocturne" });
    const oud = await insertProduct(getDb(), { name: "Velvet Oud" });
    const neroli = await insertProduct(getDb(), { name: "Neroli Sun" });
    await insertReview(getDb(), oud.id, { user_id: customer.id });
    // the same product on two lines is asked about once; a deleted product not at all
    const order = await deliveredOrder(customer.id, delivered, [{ productId: rose.id }, { productId: oud.id }, { productId: neroli.id }, { productId: rose.id }, { productId: null }]);
    const now = at(delivered, AFTER_DAYS + 2);
    const { sent } = await run(now);
    expect(sent.map((s) => s.productIds)).toEqual([[rose.id, neroli.id]]);

    const [mail] = await mailsTo(customer.email);
    expect(mail!.subject).toBe("Scentara: how are you finding your fragrances?");
    expect(mail!.text_body).toContain("- Rose Nocturne: http://localhost:3000/products/");
    expect(mail!.text_body).toContain("- Neroli Sun: http://localhost:3000/products/");
    expect(mail!.text_body).not.toContain("Velvet Oud");
    const links = linksIn(mail!.text_body);
    expect(links.map((l) => l.slug)).toEqual([rose.slug, neroli.slug]);
    const [roseLink, neroliLink] = [links[0]!, links[1]!];
    expect(verifyReviewToken(roseLink.token, { productId: rose.id, now })).toMatchObject({ orderId: order.id, productId: rose.id, userId: customer.id });
    expect(verifyReviewToken(neroliLink.token, { productId: neroli.id, now })).toMatchObject({ orderId: order.id, userId: customer.id });
    // each link is for its own product only
    expect(verifyReviewToken(roseLink.token, { productId: neroli.id, now })).toBeNull();
    // the HTML part carries the same links
    for (const l of links) expect(mail!.html_body).toContain(`?review=${l.token}#write-review`);
  });

  it("skip orders that are not delivered and paid, and orders delivered before the grace window (the feature just switched on)", async () => {
    const delivered = freshDelivery();
    const customer = await insertReviewer(getDb());
    const unpaid = await deliveredOrder(customer.id, delivered, [{}], "pending");
    const shipped = await insertOrder(getDb(), { userId: customer.id, status: "shipped", paymentStatus: "completed" });
    const guest = await deliveredOrder(null, delivered);
    const longAgo = await deliveredOrder(customer.id, at(delivered, -(REVIEW_REQUEST_GRACE_DAYS + 1)));
    const inTime = await deliveredOrder(customer.id, at(delivered, -REVIEW_REQUEST_GRACE_DAYS));
    const { sent } = await run(at(delivered, AFTER_DAYS));
    expect(sent.map((s) => s.orderId)).toEqual([inTime.id]);
    for (const o of [unpaid, shipped, guest, longAgo]) expect(await requestOf(o.id)).toBeUndefined();
  });

  it("handle a bounded batch per run, oldest delivery first, and say when more are due", async () => {
    const delivered = freshDelivery();
    const customer = await insertReviewer(getDb());
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await deliveredOrder(customer.id, at(delivered, 0, -i * 60_000)));
    const now = at(delivered, AFTER_DAYS);
    const first = await run(now, 2);
    expect(first.sent.map((s) => s.orderId)).toEqual([orders[2]!.id, orders[1]!.id]);
    expect(first.more).toBe(true);
    const second = await run(now, 2);
    expect(second.sent.map((s) => s.orderId)).toEqual([orders[0]!.id]);
    expect(second.more).toBe(false);
  });

  it("are switched off by 0 days", async () => {
    const delivered = freshDelivery();
    const customer = await insertReviewer(getDb());
    await deliveredOrder(customer.id, delivered);
    expect(await sendDueReviewRequests(getDb(), { now: at(delivered, 10), afterDays: 0 })).toEqual({ sent: [], skipped: 0, more: false });
  });

  it("are counted on the dashboard: sent, how many became reviews (written after the request), and the share", async () => {
    const before = await reviewRequestFigures(getDb());
    const delivered = freshDelivery();
    const now = at(delivered, AFTER_DAYS);
    const [writes, alreadyWrote, silent] = [await insertReviewer(getDb()), await insertReviewer(getDb()), await insertReviewer(getDb())];
    const [p1, p2, p3] = [await insertProduct(getDb()), await insertProduct(getDb()), await insertProduct(getDb())];
    await deliveredOrder(writes.id, delivered, [{ productId: p1.id }]);
    // reviewed p2 before the request (so it is asked about p3 only), and never reviews p3
    await insertReview(getDb(), p2.id, { user_id: alreadyWrote.id, created_at: at(delivered, -1).toISOString() });
    await deliveredOrder(alreadyWrote.id, delivered, [{ productId: p2.id }, { productId: p3.id }]);
    await deliveredOrder(silent.id, delivered, [{ productId: p3.id }]);
    expect((await run(now)).sent).toHaveLength(3);
    await insertReview(getDb(), p1.id, { user_id: writes.id, created_at: at(now, 1).toISOString() });

    const after = await reviewRequestFigures(getDb());
    expect(after.sent - before.sent).toBe(3);
    expect(after.reviewed - before.reviewed).toBe(1);
    expect(after.percent).toBe(percentOf(after.reviewed, after.sent));
    expect([percentOf(1, 3), percentOf(2, 3), percentOf(0, 0), percentOf(5, 5)]).toEqual([33, 67, null, 100]);

    // and the admin's dashboard shows them
    const admin = await createUser(getDb(), { isAdmin: true });
    const { loader } = await import("~/routes/admin._index");
    const page = await dataOf(await callLoader(loader, "/admin", { headers: { cookie: await sessionCookieFor(getDb(), admin.id) } }));
    expect(page.reviewRequests).toEqual({ ...after, afterDays: env().REVIEW_REQUEST_AFTER_DAYS });

    // kept on each request by the database (migration 0029): the silent customer writes later, the first review is
    // removed by the admin, and the customer who had reviewed before the request changes nothing by editing it
    const silentReview = await insertReview(getDb(), p3.id, { user_id: silent.id, created_at: at(now, 2).toISOString() });
    expect((await reviewRequestFigures(getDb())).reviewed - before.reviewed).toBe(2);
    const first = await getDb().selectFrom("reviews").select("id").where("user_id", "=", writes.id).executeTakeFirstOrThrow();
    await deleteReview(getDb(), first.id);
    await getDb().updateTable("reviews").set({ rating: 1 }).where("user_id", "=", alreadyWrote.id).execute();
    expect((await reviewRequestFigures(getDb())).reviewed - before.reviewed).toBe(1);
    await deleteReview(getDb(), silentReview.id);
    expect(await reviewRequestFigures(getDb())).toEqual({ ...after, reviewed: after.reviewed - 1, percent: percentOf(after.reviewed - 1, after.sent) });
  });
});

describe("a review request through a real mail server", () => {
  let mailServer: MailServer;

  beforeAll(async () => {
    mailServer = await startMailServer();
    process.env.SMTP_URL = mailServer.url;
    resetEnvForTests();
  });

  afterAll(async () => {
    delete process.env.SMTP_URL;
    resetEnvForTests();
    await mailServer.close();
  });

  it("arrives with the shop's name and a link that opens the review form for its customer", async () => {
    // Today's clock: the link is followed now, and checked against now.
    const customer = await createUser(getDb(), { email: "zanele.smtp-review@example.co.za" });
    const product = await insertProduct(getDb(), { name: "Fynbos Dusk" });
    const order = await deliveredOrder(customer.id, new Date(Date.now() - (AFTER_DAYS + 1) * DAY), [{ productId: product.id }]);
    const { sent } = await sendDueReviewRequests(getDb(), { afterDays: AFTER_DAYS });
    expect(sent).toEqual([{ orderId: order.id, userId: customer.id, productIds: [product.id], delivered: true }]);

    expect(mailServer.received).toHaveLength(1);
    const mail = mailServer.received[0]!;
    expect(mail.subject).toBe("Scentara: how are you finding Fynbos Dusk?");
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("zanele.smtp-review@example.co.za");
    expect(mail.from?.value[0]).toMatchObject({ name: "Scentara" });
    expect(mail.text).toMatch(/\nScentara\n\n-- \n.*\/privacy\s*$/); // signed, then every e-mail's privacy footer (docs/decisions/037)
    const links = linksIn(mail.text ?? "");
    expect(links).toHaveLength(1);
    expect(mail.html).toContain(`href="http://localhost:3000/products/${product.slug}?review=${links[0]!.token}#write-review"`);

    // the link, followed by its customer: the product page with the form ready
    const { loader } = await import("~/routes/product");
    const cookie = await sessionCookieFor(getDb(), customer.id);
    const url = new URL(mail.text!.match(/http:\/\/localhost:3000\S+/)![0]);
    const page = await dataOf(await callLoader(loader, url.pathname + url.search, { params: { slug: product.slug }, headers: { cookie } }));
    expect(page.reviewForm).toEqual({ signedIn: true, canReview: true, ownReview: null, requested: true });
  });
});
