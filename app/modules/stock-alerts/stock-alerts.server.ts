/**
 * Back-in-stock alerts (issue 34 point 3, docs/decisions/057).
 *
 * - requestStockAlert: a signed-in shopper waits at once (their account's address); a visitor's request is pending
 *   until they open the e-mailed confirmation link (double opt-in): an address typed by someone else gets that one
 *   e-mail and nothing more. One request per product, size and address.
 * - confirmStockAlert: the link's POST (a GET only shows the page: mail scanners open links by themselves).
 * - sendBackInStock: the job (server/jobs.ts). It compares instead of being told: every way stock comes back (the
 *   product form, a CSV import, a cancelled paid order, a received return) ends in product_sizes, so one query over
 *   the waiting requests finds them all, whoever changed the stock and however. Each person and product gets ONE
 *   e-mail: the rows are deleted before it is written (a DELETE … RETURNING: of two runners, one gets them), so a
 *   second restock, a second process or a retry finds nobody. At most `limit` e-mails a run (the shop's mail rate).
 *   The same run deletes unconfirmed requests whose link expired and every request older than 6 months (POPIA s14).
 * - waitingCounts: how many wait per product, for the admin.
 */
import type { Queryable } from "~/db/db.server";
import { emailSchema } from "~/modules/accounts/accounts.schema";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { addressKey, limitAttempts } from "~/modules/accounts/rate-limit.server";
import { recordConsent } from "~/modules/consent/consent.server";
import { monthsBefore } from "~/utils/dates";
import { sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { STOCK_ALERT_CONFIRM_DAYS, STOCK_ALERT_CONSENT, STOCK_ALERT_KEEP_MONTHS, STOCK_ALERT_MESSAGES, waitedFor } from "./stock-alerts.logic";
import { signStockAlertToken, verifyStockAlertToken } from "./stock-alert-token";

export const CONFIRM_PATH = "/stock-alerts/confirm";

/** A visitor's requests: enough for a shopper, not for filling someone's inbox with confirmation links. */
const RULES = {
  ip: { max: 20, windowMs: 60 * 60_000 },
  email: { max: 5, windowMs: 60 * 60_000 },
};

export interface StockAlertRequest {
  productId: string;
  /** the sold-out size; null: the product (any size) */
  sizeId: string | null;
  /** signed in: their account; null for a visitor */
  user: { id: string; email: string } | null;
  /** a visitor's address, as typed */
  email?: unknown;
  /** the client's address, for the visitor's rate limit */
  ip: string;
  now?: Date;
}

export type StockAlertOutcome = { kind: "waiting" | "confirm-sent"; message: string };

interface Waited {
  productName: string;
  slug: string;
  sizeLabel: string | null;
  sizeCode: string | null;
  /** the product's (or size's) stock: 0 = sold out */
  stock: number | null;
}

async function waitedThing(db: Queryable, productId: string, sizeId: string | null): Promise<Waited | null> {
  const product = await db.selectFrom("products").select(["name", "slug", "stock"]).where("id", "=", productId).executeTakeFirst();
  if (!product) return null;
  if (!sizeId) return { productName: product.name, slug: product.slug, sizeLabel: null, sizeCode: null, stock: product.stock };
  const size = await db
    .selectFrom("product_sizes")
    .select(["label", "code", "stock", "hidden"])
    .where("id", "=", sizeId)
    .where("product_id", "=", productId)
    .executeTakeFirst();
  if (!size || Number(size.hidden) === 1) return null;
  return { productName: product.name, slug: product.slug, sizeLabel: size.label || null, sizeCode: size.code, stock: size.stock };
}

function baseUrl(): string {
  return env().PUBLIC_BASE_URL.replace(/\/+$/, "");
}

function productUrl(slug: string, sizeCode: string | null): string {
  return `${baseUrl()}/products/${slug}${sizeCode ? `?size=${encodeURIComponent(sizeCode)}` : ""}`;
}

export async function requestStockAlert(db: Queryable, input: StockAlertRequest): Promise<StockAlertOutcome> {
  const now = input.now ?? new Date();
  const waited = await waitedThing(db, input.productId, input.sizeId);
  if (!waited) throw new DomainError(STOCK_ALERT_MESSAGES.unknown, 404);
  const what = waitedFor(waited.productName, waited.sizeLabel);
  // Only a sold-out product or size has anything to wait for (untracked stock is always there).
  if (waited.stock !== 0) throw new DomainError(STOCK_ALERT_MESSAGES.inStock(what), 409);

  if (input.user) {
    // One tap: the account's own address, confirmed by the sign-in; the consent row in the same transaction.
    await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("stock_alerts")
        .values({ id: newId(), product_id: input.productId, size_id: input.sizeId, user_id: input.user!.id, email: input.user!.email.toLowerCase(), status: "waiting", created_at: now.toISOString(), confirmed_at: now.toISOString() })
        .onConflict((oc) => oc.doNothing())
        .returning("id")
        .executeTakeFirst();
      if (row) await recordStockAlertConsent(trx, { userId: input.user!.id, email: input.user!.email, what, now });
    });
    return { kind: "waiting", message: STOCK_ALERT_MESSAGES.waiting(what) };
  }

  const email = emailSchema.safeParse(input.email);
  if (!email.success) throw new DomainError(email.error.issues[0]?.message ?? "Please enter your e-mail address", 400, "email");
  await limitAttempts(db, [
    { key: `stock-alert:ip:${addressKey(input.ip)}`, rule: RULES.ip },
    { key: `stock-alert:email:${email.data}`, rule: RULES.email },
  ], now.getTime());
  const id = newId();
  const inserted = await db
    .insertInto("stock_alerts")
    .values({ id, product_id: input.productId, size_id: input.sizeId, user_id: null, email: email.data, status: "pending", created_at: now.toISOString(), confirmed_at: null })
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  // Asked before (pending or confirmed): the same answer and no second e-mail, so the form tells nobody whether an
  // address already waits, and can't be used to send one address link after link.
  if (inserted) {
    const token = signStockAlertToken(id, { secret: authSecret(), days: STOCK_ALERT_CONFIRM_DAYS, now });
    const link = `${baseUrl()}${CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
    await sendMail(
      {
        to: email.data,
        subject: `Confirm: tell me when ${what} is back`,
        text: [
          `Someone (we hope you) asked ${env().SHOP_NAME} to e-mail this address when ${what} is back in stock.`,
          "",
          `To confirm, open this link within ${STOCK_ALERT_CONFIRM_DAYS} days and press Confirm:`,
          link,
          "",
          `We'll then send one e-mail when it is back, and delete your address after sending it, or after ${STOCK_ALERT_KEEP_MONTHS} months if it doesn't come back.`,
          `If it wasn't you, ignore this e-mail: without the confirmation we send nothing more, and delete the request in ${STOCK_ALERT_CONFIRM_DAYS} days.`,
        ].join("\n"),
      },
      db,
    );
  }
  return { kind: "confirm-sent", message: STOCK_ALERT_MESSAGES.confirmSent(email.data) };
}

function recordStockAlertConsent(db: Queryable, input: { userId: string | null; email: string; what: string; now: Date }) {
  return recordConsent(db, {
    userId: input.userId,
    email: input.email,
    purpose: "stock_alert",
    version: STOCK_ALERT_CONSENT.version,
    wording: STOCK_ALERT_CONSENT.wording(input.what),
    granted: true,
    source: "product_page",
    now: input.now,
  });
}

export type ConfirmLinkState =
  | { kind: "refused"; message: string }
  | { kind: "gone"; message: string }
  | { kind: "ready" | "confirmed" | "already"; what: string; productUrl: string; message: string };

/** What the link would do (the page a GET shows), or what it did (confirm: true, the POST). */
export async function confirmStockAlert(db: Queryable, token: unknown, options: { confirm: boolean; now?: Date }): Promise<ConfirmLinkState> {
  const now = options.now ?? new Date();
  const verified = verifyStockAlertToken(token, { secret: authSecret(), now });
  if (!verified.ok) return { kind: "refused", message: STOCK_ALERT_MESSAGES[verified.reason] };
  const alert = await db.selectFrom("stock_alerts").select(["id", "product_id", "size_id", "email", "status"]).where("id", "=", verified.alertId).executeTakeFirst();
  const waited = alert ? await waitedThing(db, alert.product_id, alert.size_id) : null;
  if (!alert || !waited) return { kind: "gone", message: STOCK_ALERT_MESSAGES.gone };
  const what = waitedFor(waited.productName, waited.sizeLabel);
  const url = productUrl(waited.slug, waited.sizeCode).slice(baseUrl().length);
  if (alert.status === "waiting") return { kind: "already", what, productUrl: url, message: STOCK_ALERT_MESSAGES.alreadyConfirmed(what) };
  if (!options.confirm) return { kind: "ready", what, productUrl: url, message: `Confirm that we may e-mail ${alert.email} once when ${what} is back in stock.` };
  const changed = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("stock_alerts")
      .set({ status: "waiting", confirmed_at: now.toISOString() })
      .where("id", "=", alert.id)
      .where("status", "=", "pending")
      .returning("id")
      .executeTakeFirst();
    if (row) await recordStockAlertConsent(trx, { userId: null, email: alert.email, what, now });
    return !!row;
  });
  return changed
    ? { kind: "confirmed", what, productUrl: url, message: STOCK_ALERT_MESSAGES.confirmed(what) }
    : { kind: "already", what, productUrl: url, message: STOCK_ALERT_MESSAGES.alreadyConfirmed(what) };
}

/** How many confirmed requests wait for each of these products (any size). */
export async function waitingCounts(db: Queryable, productIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (productIds.length === 0) return counts;
  const rows = await db
    .selectFrom("stock_alerts")
    .select((eb) => ["product_id", eb.fn.countAll<number>().as("n")])
    .where("status", "=", "waiting")
    .where("product_id", "in", [...productIds])
    .groupBy("product_id")
    .execute();
  for (const r of rows) counts.set(r.product_id, Number(r.n));
  return counts;
}

/** Deletes the requests past their time: unconfirmed past their link, any past 6 months. Answers how many. */
export async function deleteExpiredStockAlerts(db: Queryable, now = new Date()): Promise<number> {
  const linkExpired = new Date(now.getTime() - STOCK_ALERT_CONFIRM_DAYS * 24 * 60 * 60_000).toISOString();
  const tooOld = monthsBefore(now, STOCK_ALERT_KEEP_MONTHS).toISOString();
  const result = await db
    .deleteFrom("stock_alerts")
    .where((eb) => eb.or([eb("created_at", "<", tooOld), eb.and([eb("status", "=", "pending"), eb("created_at", "<", linkExpired)])]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface BackInStockRun {
  /** e-mails written */
  sent: number;
  /** requests deleted for their age */
  expired: number;
  /** more requests are back than this run's limit: the next run goes on */
  more: boolean;
}

/** The job: the e-mails for what is back (at most `limit`), and the deletions by age. */
export async function sendBackInStock(db: Queryable, options: { limit: number; now?: Date }): Promise<BackInStockRun> {
  const now = options.now ?? new Date();
  const expired = await deleteExpiredStockAlerts(db, now);
  // Waiting requests whose size (or product, for "any size") has stock again; untracked stock counts as back.
  const rows = await db
    .selectFrom("stock_alerts as a")
    .innerJoin("products as p", "p.id", "a.product_id")
    .leftJoin("product_sizes as s", "s.id", "a.size_id")
    .select(["a.id", "a.email", "a.product_id", "a.size_id", "p.name", "p.slug", "s.label", "s.code"])
    .where("a.status", "=", "waiting")
    .where((eb) =>
      eb.or([
        eb.and([eb("a.size_id", "is not", null), eb("s.hidden", "=", 0), eb.or([eb("s.stock", "is", null), eb("s.stock", ">", 0)])]),
        eb.and([eb("a.size_id", "is", null), eb.or([eb("p.stock", "is", null), eb("p.stock", ">", 0)])]),
      ]),
    )
    .orderBy("a.created_at")
    .orderBy("a.id")
    .limit(options.limit * 4 + 1)
    .execute();
  // One e-mail per person and product, naming every size of it they waited for that is back.
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    const key = `${r.email}\n${r.product_id}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  let sent = 0;
  for (const group of groups.values()) {
    if (sent >= options.limit) break;
    // The claim: the rows go before the e-mail is written. Whoever deleted them (this run or another) writes it.
    const deleted = await db.deleteFrom("stock_alerts").where("id", "in", group.map((r) => r.id)).returning(["id", "size_id"]).execute();
    if (deleted.length === 0) continue;
    const mine = group.filter((r) => deleted.some((d) => d.id === r.id));
    const first = mine[0]!;
    const labels = mine.map((r) => r.label).filter((l): l is string => !!l);
    const what = waitedFor(first.name, labels.length ? labels.join(", ") : null);
    const url = productUrl(first.slug, mine.length === 1 ? (first.code ?? null) : null);
    await sendMail(
      {
        to: first.email,
        subject: `${what} is back in stock`,
        text: [
          `Good news: ${what} is back in stock at ${env().SHOP_NAME}.`,
          "",
          url,
          "",
          "You asked us to tell you once. This is that e-mail: we have deleted your request and your address with it, and won't write about it again.",
        ].join("\n"),
        kind: "transactional",
      },
      db,
    );
    sent++;
  }
  return { sent, expired, more: rows.length > options.limit * 4 || groups.size > sent };
}

const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The notify-me form's fields (both the script's post and the plain form's): checked, then requestStockAlert. */
export function requestStockAlertFromForm(db: Queryable, fields: Record<string, string>, user: { id: string; email: string } | null, ip: string): Promise<StockAlertOutcome> {
  const productId = fields.productId ?? "";
  const sizeId = fields.sizeId ? fields.sizeId : null;
  if (!ID.test(productId) || (sizeId !== null && !ID.test(sizeId))) throw new DomainError(STOCK_ALERT_MESSAGES.unknown, 404);
  return requestStockAlert(db, { productId, sizeId, user, email: fields.email, ip });
}
