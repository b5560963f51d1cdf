/**
 * Announcements (issue 21 point 2; docs/decisions/039): the owner writes one (subject, text, a product or two),
 * previews it, sends a test to themself, then sends it to the customers who opted in.
 *
 * Sending never happens inside the request. Pressing Send lists the recipients — everyone opted in at that moment —
 * as rows of announcement_recipients (one per person: the primary key), in the same transaction that marks the
 * announcement as sending; the sender job (announcement-sender.server.ts) then works through them a few at a time,
 * in whichever process holds its lease, so a restart resumes where it stopped and nobody is written to twice.
 */
import { inTransaction } from "~/db/in-transaction.server";
import { sql } from "kysely";
import type { DB, Queryable } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import type { AnnouncementStatus, RecipientStatus } from "~/db/schema";
import { sizedImage } from "~/modules/media/images";
import { NO_SMTP_REASON, sendMail } from "~/modules/mail/mailer.server";
import { withMailFooter } from "~/modules/mail/mail-footer";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { announcementMail, type MailProduct } from "./announcement-mail";
import { ANNOUNCEMENT_MESSAGES as M } from "./announcements.schema";
import { unsubscribeLinks, unsubscribeUrl } from "./unsubscribe.server";

export const ANNOUNCEMENTS_PAGE_SIZE = 20;

export interface Announcement {
  id: string;
  subject: string;
  body: string;
  productIds: string[];
  status: AnnouncementStatus;
  recipientsTotal: number;
  createdAt: string;
  updatedAt: string;
  queuedAt: string | null;
  finishedAt: string | null;
}

export type Progress = Record<RecipientStatus, number> & { total: number; lastError: string | null };

const COLUMNS = ["id", "subject", "body", "product_ids", "status", "recipients_total", "created_at", "updated_at", "queued_at", "finished_at"] as const;

function toAnnouncement(r: {
  id: string;
  subject: string;
  body: string;
  product_ids: string[] | string;
  status: AnnouncementStatus;
  recipients_total: number;
  created_at: string;
  updated_at: string;
  queued_at: string | null;
  finished_at: string | null;
}): Announcement {
  const ids = typeof r.product_ids === "string" ? (JSON.parse(r.product_ids) as string[]) : r.product_ids;
  return {
    id: r.id,
    subject: r.subject,
    body: r.body,
    productIds: Array.isArray(ids) ? ids : [],
    status: r.status,
    recipientsTotal: Number(r.recipients_total),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    queuedAt: r.queued_at,
    finishedAt: r.finished_at,
  };
}

export async function getAnnouncement(db: Queryable, id: string): Promise<Announcement | null> {
  const row = await db.selectFrom("announcements").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toAnnouncement(row) : null;
}

async function requireAnnouncement(db: Queryable, id: string): Promise<Announcement> {
  const found = await getAnnouncement(db, id);
  if (!found) throw new DomainError(M.notFound, 404);
  return found;
}

export async function listAnnouncements(db: Queryable, page: number): Promise<Page<Announcement & { progress: Progress }>> {
  const result = await paginate(db.selectFrom("announcements").select(COLUMNS).orderBy("created_at", "desc").orderBy("id", "desc"), { page, pageSize: ANNOUNCEMENTS_PAGE_SIZE });
  const rows = result.rows.map(toAnnouncement);
  const progress = await progressOf(db, rows.filter((a) => a.status !== "draft").map((a) => a.id));
  return { ...result, rows: rows.map((a) => ({ ...a, progress: progress.get(a.id) ?? emptyProgress(a.recipientsTotal) })) };
}

function emptyProgress(total: number): Progress {
  return { total, pending: 0, sending: 0, sent: 0, failed: 0, skipped: 0, lastError: null };
}

/** Each announcement's recipients counted by status (one grouped query), and the latest failure's reason. */
export async function progressOf(db: Queryable, ids: string[]): Promise<Map<string, Progress>> {
  const out = new Map<string, Progress>();
  if (ids.length === 0) return out;
  const counts = await db
    .selectFrom("announcement_recipients")
    .select(["announcement_id", "status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("announcement_id", "in", ids)
    .groupBy(["announcement_id", "status"])
    .execute();
  for (const c of counts) {
    const p = out.get(c.announcement_id) ?? emptyProgress(0);
    p[c.status] = Number(c.n);
    p.total += Number(c.n);
    out.set(c.announcement_id, p);
  }
  const failures = await db
    .selectFrom("announcement_recipients")
    .select(["announcement_id", "error"])
    .where("announcement_id", "in", ids)
    .where("status", "=", "failed")
    .orderBy("sent_at", "desc")
    .limit(ids.length * 5)
    .execute();
  for (const f of failures) {
    const p = out.get(f.announcement_id);
    if (p && !p.lastError) p.lastError = f.error;
  }
  return out;
}

export async function announcementProgress(db: Queryable, id: string): Promise<Progress> {
  return (await progressOf(db, [id])).get(id) ?? emptyProgress(0);
}

// ---------------------------------------------------------------- the products under the text

/**
 * A product named the way an owner has it at hand: its page's link (from the shop), its slug, or its SKU. Answers
 * its id, or a DomainError naming what was not found.
 */
export async function resolveProduct(db: Queryable, ref: string, field: string): Promise<string> {
  let key = ref.trim();
  const inPath = key.match(/\/products\/([^/?#\s]+)/);
  if (inPath) key = decodeURIComponent(inPath[1]!);
  const found = await db
    .selectFrom("products")
    .select("id")
    .where((eb) => eb.or([eb("slug", "=", key.toLowerCase()), eb("sku", "=", key)]))
    .executeTakeFirst();
  if (!found) throw new DomainError(M.productNotFound(ref.trim().slice(0, 80)), 400, field);
  return found.id;
}

/** The products as the e-mail shows them, read now (today's price), in the announcement's order; deleted ones left out. */
export async function mailProducts(db: Queryable, ids: string[]): Promise<MailProduct[]> {
  if (ids.length === 0) return [];
  const base = env().PUBLIC_BASE_URL.replace(/\/+$/, "");
  const rows = await db.selectFrom("products").select(["id", "name", "slug", "price_cents", "images", "inspired_house", "inspired_fragrance"]).where("id", "in", ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const p = byId.get(id);
    if (!p) return [];
    const images = typeof p.images === "string" ? (JSON.parse(p.images) as string[]) : p.images;
    const first = Array.isArray(images) && images[0] ? sizedImage(images[0], 400) : null;
    return [
      {
        name: p.name,
        priceCents: p.price_cents,
        url: `${base}/products/${p.slug}`,
        imageUrl: first ? (first.startsWith("/") ? `${base}${first}` : first) : null,
        inspiredBy: p.inspired_house && p.inspired_fragrance ? `Inspired by ${p.inspired_house} ${p.inspired_fragrance}` : null,
      },
    ];
  });
}

/** The e-mail of an announcement, without its footer (sendMail adds it). */
export async function composeAnnouncement(db: Queryable, a: Pick<Announcement, "subject" | "body" | "productIds">) {
  return announcementMail({ shopName: env().SHOP_NAME, subject: a.subject, body: a.body, products: await mailProducts(db, a.productIds) });
}

/** What a recipient would receive, footer included (the admin's preview; the link in it is the admin's own). */
export async function previewAnnouncement(db: Queryable, a: Announcement, viewer: { id: string }) {
  const mail = await composeAnnouncement(db, a);
  const config = env();
  const footer = { baseUrl: config.PUBLIC_BASE_URL, shopName: config.SHOP_NAME, legalName: config.SHOP_LEGAL_NAME, address: config.SHOP_ADDRESS, contactEmail: config.CONTACT_EMAIL };
  const withFooter = withMailFooter(mail, footer, "marketing", unsubscribeUrl(viewer.id));
  // Inside a page only the body's content may go (a second <body> tag would lend its attributes to the page's own):
  // it goes in a box with the body's own style (its background).
  const body = /<body([^>]*)>([\s\S]*)<\/body>/i.exec(withFooter.html!);
  const style = body ? (/\sstyle="([^"]*)"/.exec(body[1]!)?.[1] ?? "") : "";
  const bodyHtml = body ? `<div style="${style}">${body[2]}</div>` : withFooter.html!;
  return { subject: mail.subject, text: withFooter.text, bodyHtml, from: config.MAIL_FROM };
}

// ---------------------------------------------------------------- drafts

export interface DraftInput {
  id: string;
  subject: string;
  body: string;
  product1: string;
  product2: string;
}

/** Saves a draft ("new" makes one); answers its id. Only drafts change: what was sent stays what was sent. */
export async function saveAnnouncement(db: DB, adminId: string, input: DraftInput, now = new Date()): Promise<string> {
  const productIds: string[] = [];
  for (const [ref, field] of [
    [input.product1, "product1"],
    [input.product2, "product2"],
  ] as const) {
    if (!ref) continue;
    const id = await resolveProduct(db, ref, field);
    if (productIds.includes(id)) throw new DomainError(M.sameProductTwice, 400, field);
    productIds.push(id);
  }
  const at = now.toISOString();
  if (input.id === "new") {
    const id = newId();
    await db
      .insertInto("announcements")
      .values({ id, subject: input.subject, body: input.body, product_ids: JSON.stringify(productIds), status: "draft", created_by: adminId, created_at: at, updated_at: at })
      .execute();
    return id;
  }
  const updated = await db
    .updateTable("announcements")
    .set({ subject: input.subject, body: input.body, product_ids: JSON.stringify(productIds), updated_at: at })
    .where("id", "=", input.id)
    .where("status", "=", "draft")
    .returning("id")
    .executeTakeFirst();
  if (!updated) {
    await requireAnnouncement(db, input.id);
    throw new DomainError(M.notDraft, 409);
  }
  return updated.id;
}

export async function deleteAnnouncement(db: DB, id: string): Promise<void> {
  const deleted = await db.deleteFrom("announcements").where("id", "=", id).where("status", "=", "draft").returning("id").executeTakeFirst();
  if (!deleted) {
    await requireAnnouncement(db, id);
    throw new DomainError(M.notDraft, 409);
  }
}

// ---------------------------------------------------------------- test, send, retry

/** The announcement to the admin themself, marked [Test], with the same footer and headers as the real one. */
export async function sendAnnouncementTest(db: DB, id: string, admin: { id: string; email: string }): Promise<string> {
  const a = await requireAnnouncement(db, id);
  const mail = await composeAnnouncement(db, a);
  const result = await sendMail({
    to: admin.email,
    subject: `[Test] ${mail.subject}`,
    text: mail.text,
    html: mail.html,
    replyTo: env().CONTACT_EMAIL,
    kind: "marketing",
    unsubscribe: unsubscribeLinks(admin.id),
  }, db);
  if (result.delivered) return M.testSent(admin.email);
  if (result.error === NO_SMTP_REASON) return M.testInOutbox(admin.email);
  throw new DomainError(M.testRefused(result.error ?? "unknown error"), 502);
}

/**
 * Send: lists everyone opted in right now as the announcement's recipients and marks it sending, in one transaction;
 * the sender job does the rest. A second press (another tab, another admin) finds it no longer a draft: 409.
 */
export async function queueAnnouncement(db: DB, id: string, adminId: string, now = new Date()): Promise<number> {
  return inTransaction(db, async (trx) => {
    const a = await requireAnnouncement(trx, id);
    if (a.status !== "draft") throw new DomainError(M.notDraft, 409);
    const marked = await trx
      .updateTable("announcements")
      .set({ status: "sending", queued_at: now.toISOString(), queued_by: adminId, updated_at: now.toISOString() })
      .where("id", "=", id)
      .where("status", "=", "draft")
      .returning("id")
      .executeTakeFirst();
    if (!marked) throw new DomainError(M.notDraft, 409);
    await trx
      .insertInto("announcement_recipients")
      .columns(["announcement_id", "user_id", "status"])
      .expression(
        trx
          .selectFrom("users")
          .select([sql<string>`cast(${id} as text)`.as("announcement_id"), "users.id", sql<RecipientStatus>`cast(${"pending"} as text)`.as("status")])
          .where("users.email_marketing", "=", true),
      )
      .execute();
    const counted = await trx.selectFrom("announcement_recipients").select((eb) => eb.fn.countAll<number>().as("n")).where("announcement_id", "=", id).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    // Nobody to send it to: refused, and the transaction's changes are undone with the throw.
    if (total === 0) throw new DomainError(M.nobodyOptedIn, 409);
    await trx.updateTable("announcements").set({ recipients_total: total }).where("id", "=", id).execute();
    return total;
  });
}

/** The recipients the mail server refused go back in the queue (they never received it); the sender picks them up. */
export async function retryFailed(db: DB, id: string, now = new Date()): Promise<number> {
  return inTransaction(db, async (trx) => {
    const a = await requireAnnouncement(trx, id);
    if (a.status === "draft") throw new DomainError(M.notSending, 409);
    const again = await trx
      .updateTable("announcement_recipients")
      .set({ status: "pending", error: null, outbox_id: null, claimed_at: null, sent_at: null })
      .where("announcement_id", "=", id)
      .where("status", "=", "failed")
      .returning("user_id")
      .execute();
    if (again.length === 0) throw new DomainError(M.notSending, 409);
    await trx.updateTable("announcements").set({ status: "sending", finished_at: null, updated_at: now.toISOString() }).where("id", "=", id).execute();
    return again.length;
  });
}

/** Figures for the page's cards: who may be written to, and how many withdrew lately. */
export async function marketingFigures(db: Queryable, now = new Date()) {
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000).toISOString();
  const [optedIn, withdrawn, sent] = await Promise.all([
    db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).where("email_marketing", "=", true).executeTakeFirstOrThrow(),
    db
      .selectFrom("consents")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("purpose", "=", "marketing_email")
      .where("granted", "=", false)
      .where("created_at", ">=", since)
      .executeTakeFirstOrThrow(),
    db.selectFrom("announcements").select((eb) => eb.fn.countAll<number>().as("n")).where("status", "<>", "draft").executeTakeFirstOrThrow(),
  ]);
  return { optedIn: Number(optedIn.n), withdrawnLast30Days: Number(withdrawn.n), announcementsSent: Number(sent.n) };
}
