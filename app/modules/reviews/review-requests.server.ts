/**
 * The review request (issue 19, point 6): some days after an order is delivered (REVIEW_REQUEST_AFTER_DAYS, default 5)
 * its customer gets one e-mail asking them to review each product of the order they have not reviewed yet, each with
 * its own signed link (review-link.server.ts) that opens the product's review form.
 *
 * - Once per order, whatever happens: the order's review_requests row is inserted (insert … on conflict do nothing)
 *   before the e-mail goes, and only the run whose insert took the row sends. Any number of processes may run this at
 *   the same moment (the job's lease only saves the duplicate work); a crash between the claim and the send loses that
 *   one e-mail rather than risking a second one.
 * - Only to customers who want notifications (users.email_notifications), only for paid orders (the review form
 *   refuses anyone else), and only while something in the order is still unreviewed and still sold.
 * - The e-mail lists only the products not reviewed yet; a product reviewed after the request simply shows its review
 *   when the link is followed.
 */
import { sql } from "kysely";
import type { Queryable } from "~/db/db.server";
import { escapeHtml } from "~/modules/contact/contact.logic";
import { sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { REVIEW_LINK_DAYS, reviewLinkPath, signReviewToken } from "./review-link.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How far back past the due day an order still gets its request. When the feature is first switched on (or a shop
 * with years of delivered orders upgrades), every old delivered order would otherwise be "due" at once: a flood of
 * e-mails about purchases people have long forgotten, unexpected, likely marked as spam (which hurts the delivery of
 * the shop's order e-mails too). 30 days still covers a job that was stopped for a while (an outage, a long
 * maintenance): those orders get their request late rather than never.
 */
export const REVIEW_REQUEST_GRACE_DAYS = 30;

/** Orders handled per run; the rest wait for the next run (every few minutes), so one run stays short. */
export const REVIEW_REQUEST_BATCH = 100;

export interface ReviewRequestRunOptions {
  /** the clock (tests control it) */
  now?: Date;
  /** days after delivery (REVIEW_REQUEST_AFTER_DAYS); 0 or less sends nothing */
  afterDays: number;
  /** at most this many orders this run */
  limit?: number;
}

export interface SentReviewRequest {
  orderId: string;
  userId: string;
  /** the products asked about */
  productIds: string[];
  /** false when the message only reached the outbox (no SMTP configured, or the mail server refused it) */
  delivered: boolean;
}

export interface ReviewRequestRun {
  sent: SentReviewRequest[];
  /** orders another process claimed first, or whose products were all reviewed meanwhile */
  skipped: number;
  /** the batch was full: more orders may be due */
  more: boolean;
}

/** The delivered orders whose request is due now, oldest delivery first. */
async function dueOrders(db: Queryable, now: Date, afterDays: number, limit: number) {
  const dueBy = new Date(now.getTime() - afterDays * DAY_MS).toISOString();
  const notBefore = new Date(now.getTime() - (afterDays + REVIEW_REQUEST_GRACE_DAYS) * DAY_MS).toISOString();
  return db
    .selectFrom("orders as o")
    .innerJoin("users as u", "u.id", "o.user_id")
    .select(["o.id", "u.id as userId", "o.shipping_address", "u.email", "u.name"])
    .where("o.status", "=", "delivered")
    .where("o.payment_status", "=", "completed")
    .where("o.actual_delivery_date", "<=", dueBy)
    .where("o.actual_delivery_date", ">=", notBefore)
    .where("u.email_notifications", "=", true)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("review_requests as rr").select(sql<number>`1`.as("one")).whereRef("rr.order_id", "=", "o.id"))))
    // something in it is still unreviewed by this customer, and still sold (a deleted product can't be reviewed)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("order_lines as l")
          .innerJoin("products as p", "p.id", "l.product_id")
          .select(sql<number>`1`.as("one"))
          .whereRef("l.order_id", "=", "o.id")
          .where((inner) =>
            inner.not(inner.exists(inner.selectFrom("reviews as r").select(sql<number>`1`.as("one")).whereRef("r.product_id", "=", "l.product_id").whereRef("r.user_id", "=", "o.user_id"))),
          ),
      ),
    )
    .orderBy("o.actual_delivery_date")
    .orderBy("o.id")
    .limit(limit)
    .execute();
}

/** The order's products its customer has not reviewed, as they are sold today (name and page), in the order's order. */
async function unreviewedProducts(db: Queryable, orderId: string, userId: string) {
  const rows = await db
    .selectFrom("order_lines as l")
    .innerJoin("products as p", "p.id", "l.product_id")
    .select(["p.id", "p.name", "p.slug", "l.position"])
    .where("l.order_id", "=", orderId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("reviews as r").select(sql<number>`1`.as("one")).whereRef("r.product_id", "=", "p.id").where("r.user_id", "=", userId))))
    .orderBy("l.position")
    .execute();
  // the same product on two lines is asked about once
  const byId = new Map<string, { id: string; name: string; slug: string }>();
  for (const r of rows) if (!byId.has(r.id)) byId.set(r.id, { id: r.id, name: r.name, slug: r.slug });
  return [...byId.values()];
}

/** Takes the order's one request; true only for the caller whose insert made the row. */
async function claim(db: Queryable, orderId: string, userId: string, now: Date): Promise<boolean> {
  const row = await db
    .insertInto("review_requests")
    .values({ order_id: orderId, user_id: userId, sent_at: now.toISOString() })
    .onConflict((oc) => oc.column("order_id").doNothing())
    .returning("order_id")
    .executeTakeFirst();
  return !!row;
}

/**
 * Sends the review requests that are due: orders delivered at least `afterDays` ago (and at most
 * REVIEW_REQUEST_GRACE_DAYS before that), paid, not asked about yet, whose customer wants notifications and has not
 * reviewed every product in them. At most `limit` orders per call. Safe to call from several processes at once.
 */
export async function sendDueReviewRequests(db: Queryable, options: ReviewRequestRunOptions): Promise<ReviewRequestRun> {
  const now = options.now ?? new Date();
  const limit = options.limit ?? REVIEW_REQUEST_BATCH;
  if (options.afterDays <= 0 || limit <= 0) return { sent: [], skipped: 0, more: false };
  const due = await dueOrders(db, now, options.afterDays, limit);
  const run: ReviewRequestRun = { sent: [], skipped: 0, more: due.length === limit };
  for (const order of due) {
    const userId = order.userId;
    const products = await unreviewedProducts(db, order.id, userId);
    if (products.length === 0 || !(await claim(db, order.id, userId, now))) {
      run.skipped++;
      continue;
    }
    const greetingName = order.shipping_address?.name || order.name || "";
    const message = reviewRequestMail({ orderId: order.id, userId, name: greetingName, products, now });
    try {
      const result = await sendMail({ to: order.email, ...message, replyTo: env().CONTACT_EMAIL }, db);
      run.sent.push({ orderId: order.id, userId, productIds: products.map((p) => p.id), delivered: result.delivered });
    } catch (error) {
      // Claimed and not sent (the outbox could not be written): left claimed, so it is never sent twice.
      logger.error({ err: error, orderId: order.id }, "review request e-mail failed; it will not be retried");
    }
  }
  return run;
}

/** The e-mail: one signed link per product, in plain text and HTML. */
export function reviewRequestMail(input: {
  orderId: string;
  userId: string;
  name: string;
  products: { id: string; name: string; slug: string }[];
  now: Date;
}): { subject: string; text: string; html: string } {
  const config = env();
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const links = input.products.map((p) => ({
    name: p.name,
    url: `${base}${reviewLinkPath(p.slug, signReviewToken({ orderId: input.orderId, productId: p.id, userId: input.userId }, { now: input.now }))}`,
  }));
  const one = links.length === 1;
  const subject = one ? `${config.SHOP_NAME}: how are you finding ${links[0]!.name}?` : `${config.SHOP_NAME}: how are you finding your fragrances?`;
  const intro = `Your order ${shortOrderId(input.orderId)} arrived a few days ago. We would love to know what you think: a rating and a line or two help other shoppers choose.`;
  const lasts = `Each link opens the fragrance's review form (sign in if asked). It works for ${REVIEW_LINK_DAYS} days.`;
  const why = `You receive this because order notifications are on for your account. You can turn them off in your profile: ${base}/profile`;
  const text = [
    `Hi ${input.name || "there"},`,
    "",
    intro,
    "",
    ...links.map((l) => `- ${l.name}: ${l.url}`),
    "",
    lasts,
    "",
    why,
    "",
    config.SHOP_NAME,
  ].join("\n");
  const html = [
    `<p>Hi ${escapeHtml(input.name || "there")},</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    "<ul>",
    ...links.map((l) => `<li><a href="${escapeHtml(l.url)}">Review ${escapeHtml(l.name)}</a></li>`),
    "</ul>",
    `<p>${escapeHtml(lasts)}</p>`,
    `<p style="color:#777;font-size:12px">You receive this because order notifications are on for your account. You can turn them off in <a href="${escapeHtml(base)}/profile">your profile</a>.</p>`,
    `<p>${escapeHtml(config.SHOP_NAME)}</p>`,
  ].join("\n");
  return { subject, text, html };
}
