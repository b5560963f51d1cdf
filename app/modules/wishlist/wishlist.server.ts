/**
 * A signed-in shopper's wishlist on the server (issue 34 point 4, docs/decisions/057); a visitor's stays in their
 * browser (wishlist.browser.ts) and joins this one when they sign in (mergeWishlistAtSignIn).
 *
 * - add / remove / list: one row per shopper and product; adding twice keeps one row.
 * - the share link: signed, read-only, shows the products and nothing about the shopper.
 * - wishlist e-mails (opt-in, POPIA s69): sendWishlistAlerts, a job, writes one e-mail per opted-in shopper naming
 *   the items whose price dropped or that came back since they last knew; each item's "last known" is moved on in the
 *   same conditional update that claims it, so an item is never told twice for one change.
 */
import { inTransaction } from "~/db/in-transaction.server";
import type { Queryable } from "~/db/db.server";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { summarySelect, toSummary, type ProductSummary } from "~/modules/catalog/catalog.server";
import { recordConsent } from "~/modules/consent/consent.server";
import { sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { formatRand } from "~/utils/money";
import { parseWishlistIds, WISHLIST_ALERTS_CONSENT, WISHLIST_MAX_ITEMS, WISHLIST_MESSAGES, wishlistAlertsWording } from "./wishlist.logic";
import { signWishlistToken, verifyWishlistToken } from "./wishlist-token";

export const SHARE_PATH = "/wishlist/shared";
export const ALERTS_OFF_PATH = "/wishlist/alerts-off";

const inStock = (stock: number | null) => (stock === null || stock > 0 ? 1 : 0);

/** The shopper's saved product ids, newest first. */
export async function wishlistIds(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("wishlist_items").select("product_id").where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("product_id").execute();
  return rows.map((r) => r.product_id);
}

/** The shopper's saved products as cards show them, newest first. */
export async function listWishlist(db: Queryable, userId: string): Promise<ProductSummary[]> {
  const rows = await summarySelect(db)
    .innerJoin("wishlist_items as w", "w.product_id", "p.id")
    .where("w.user_id", "=", userId)
    .orderBy("w.created_at", "desc")
    .orderBy("p.id")
    .execute();
  return rows.map(toSummary);
}

/** These products as cards show them, in the order given (a visitor's list from their browser); unknown ids dropped. */
export async function productsByIds(db: Queryable, ids: readonly string[]): Promise<ProductSummary[]> {
  const wanted = parseWishlistIds([...ids]);
  if (wanted.length === 0) return [];
  const rows = await summarySelect(db).where("p.id", "in", wanted).execute();
  const byId = new Map(rows.map((r) => [r.id, toSummary(r)]));
  return wanted.map((id) => byId.get(id)).filter((p): p is ProductSummary => !!p);
}

/** Saves these products (existing ones ignored, unknown ids dropped); each remembers today's price and stock. */
export async function addToWishlist(db: Queryable, userId: string, productIds: readonly string[], now = new Date()): Promise<number> {
  const ids = parseWishlistIds([...productIds]);
  if (ids.length === 0) return 0;
  const have = await db.selectFrom("wishlist_items").select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", userId).executeTakeFirstOrThrow();
  const room = Math.max(0, WISHLIST_MAX_ITEMS - Number(have.n));
  const products = await db.selectFrom("products").select(["id", "price_cents", "stock"]).where("id", "in", ids).execute();
  const byId = new Map(products.map((p) => [p.id, p]));
  const rows = ids
    .map((id) => byId.get(id))
    .filter((p): p is NonNullable<typeof p> => !!p)
    .slice(0, room + ids.length) // existing rows don't take room; the insert below ignores them
    .map((p, i) => ({
      user_id: userId,
      product_id: p.id,
      // later items of one call a millisecond apart, so "newest first" keeps the order they were given in
      created_at: new Date(now.getTime() + i).toISOString(),
      alert_price_cents: Number(p.price_cents),
      alert_in_stock: inStock(p.stock === null ? null : Number(p.stock)),
    }));
  if (rows.length === 0) return 0;
  const inserted = await db
    .insertInto("wishlist_items")
    .values(rows)
    .onConflict((oc) => oc.columns(["user_id", "product_id"]).doNothing())
    .returning("product_id")
    .execute();
  return inserted.length;
}

export async function removeFromWishlist(db: Queryable, userId: string, productId: string): Promise<void> {
  await db.deleteFrom("wishlist_items").where("user_id", "=", userId).where("product_id", "=", productId).execute();
}

/**
 * Sign-in: the browser's list (as the login form carries it) joins the account's, every item of both kept. Beside the
 * cart's merge at sign-in (issue 34 point 2), which does the same for the cart.
 */
export async function mergeWishlistAtSignIn(db: Queryable, userId: string, browserList: unknown, now = new Date()): Promise<number> {
  return addToWishlist(db, userId, parseWishlistIds(browserList), now);
}

// ---------------------------------------------------------------------------------------------------- share link

export function wishlistShareUrl(userId: string, now = new Date()): string {
  const token = signWishlistToken("share", userId, { secret: authSecret(), now });
  return `${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}${SHARE_PATH}/${token}`;
}

/** The shared list behind a link, or why there is none (a changed link shows nothing). */
export async function sharedWishlist(db: Queryable, token: unknown, now = new Date()): Promise<{ ok: true; products: ProductSummary[] } | { ok: false; message: string }> {
  const verified = verifyWishlistToken("share", token, { secret: authSecret(), now });
  if (!verified.ok) return { ok: false, message: verified.reason === "expired" ? WISHLIST_MESSAGES.shareExpired : WISHLIST_MESSAGES.shareInvalid };
  return { ok: true, products: await listWishlist(db, verified.userId) };
}

// ---------------------------------------------------------------------------------------------------- e-mails

export async function wishlistAlertsOn(db: Queryable, userId: string): Promise<boolean> {
  return !!(await db.selectFrom("wishlist_alerts").select("user_id").where("user_id", "=", userId).executeTakeFirst());
}

/**
 * Turns a shopper's wishlist e-mails on or off, with its consent row, only when it changes. Turning them on moves every
 * item's "last known" to today: the e-mails tell what changes from now on.
 */
export async function setWishlistAlerts(db: Queryable, user: { id: string; email: string }, granted: boolean, options: { source: "wishlist" | "unsubscribe"; now?: Date }): Promise<boolean> {
  const now = options.now ?? new Date();
  const run = async (trx: Queryable) => {
    let changed: boolean;
    if (granted) {
      const row = await trx.insertInto("wishlist_alerts").values({ user_id: user.id, opted_in_at: now.toISOString() }).onConflict((oc) => oc.column("user_id").doNothing()).returning("user_id").executeTakeFirst();
      changed = !!row;
      if (changed) {
        const items = await trx.selectFrom("wishlist_items as w").innerJoin("products as p", "p.id", "w.product_id").select(["w.product_id", "p.price_cents", "p.stock"]).where("w.user_id", "=", user.id).execute();
        for (const i of items) {
          await trx.updateTable("wishlist_items").set({ alert_price_cents: Number(i.price_cents), alert_in_stock: inStock(i.stock === null ? null : Number(i.stock)) }).where("user_id", "=", user.id).where("product_id", "=", i.product_id).execute();
        }
      }
    } else {
      const result = await trx.deleteFrom("wishlist_alerts").where("user_id", "=", user.id).executeTakeFirst();
      changed = Number(result.numDeletedRows) > 0;
    }
    if (changed) {
      await recordConsent(trx, { userId: user.id, email: user.email, purpose: "wishlist_alerts", version: WISHLIST_ALERTS_CONSENT.version, wording: wishlistAlertsWording(granted), granted, source: options.source, now });
    }
    return changed;
  };
  return inTransaction(db, run);
}

/** The signed "turn wishlist e-mails off" address (the e-mail's footer and its List-Unsubscribe header). */
export function wishlistAlertsOffUrl(userId: string, now = new Date()): string {
  const token = signWishlistToken("alerts-off", userId, { secret: authSecret(), now });
  return `${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}${ALERTS_OFF_PATH}?token=${encodeURIComponent(token)}`;
}

/** The off link's owner, or null for a link that isn't one of ours (or expired). */
export async function alertsOffLinkUser(db: Queryable, token: unknown, now = new Date()): Promise<{ id: string; email: string } | null> {
  const verified = verifyWishlistToken("alerts-off", token, { secret: authSecret(), now });
  if (!verified.ok) return null;
  return (await db.selectFrom("users").select(["id", "email"]).where("id", "=", verified.userId).executeTakeFirst()) ?? null;
}

export interface WishlistAlertsRun {
  /** e-mails written */
  sent: number;
}

/** The job: one e-mail per opted-in shopper (at most `limit`) naming what dropped in price or came back. */
export async function sendWishlistAlerts(db: Queryable, options: { limit: number; now?: Date }): Promise<WishlistAlertsRun> {
  const now = options.now ?? new Date();
  const rows = await db
    .selectFrom("wishlist_items as w")
    .innerJoin("wishlist_alerts as a", "a.user_id", "w.user_id")
    .innerJoin("users as u", "u.id", "w.user_id")
    .innerJoin("products as p", "p.id", "w.product_id")
    .select(["w.user_id", "u.email", "w.product_id", "w.alert_price_cents", "w.alert_in_stock", "p.name", "p.slug", "p.price_cents", "p.stock"])
    .where((eb) =>
      eb.or([
        eb("p.price_cents", "<", eb.ref("w.alert_price_cents")),
        eb.and([eb("w.alert_in_stock", "=", 0), eb.or([eb("p.stock", "is", null), eb("p.stock", ">", 0)])]),
      ]),
    )
    .orderBy("w.user_id")
    .orderBy("w.created_at")
    .execute();
  const byUser = new Map<string, typeof rows>();
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r]);
  const base = env().PUBLIC_BASE_URL.replace(/\/+$/, "");
  let sent = 0;
  for (const [userId, items] of byUser) {
    if (sent >= options.limit) break;
    const lines: string[] = [];
    for (const i of items) {
      const price = Number(i.price_cents);
      const stock = i.stock === null ? null : Number(i.stock);
      const back = Number(i.alert_in_stock) === 0 && inStock(stock) === 1;
      const cheaper = price < Number(i.alert_price_cents);
      // the claim: only if nobody told this change yet (the row still says what it said when read)
      const claimed = await db
        .updateTable("wishlist_items")
        .set({ alert_price_cents: price, alert_in_stock: inStock(stock) })
        .where("user_id", "=", userId)
        .where("product_id", "=", i.product_id)
        .where("alert_price_cents", "=", Number(i.alert_price_cents))
        .where("alert_in_stock", "=", Number(i.alert_in_stock))
        .returning("product_id")
        .executeTakeFirst();
      if (!claimed) continue;
      const what = [cheaper ? `now ${formatRand(price)} (was ${formatRand(Number(i.alert_price_cents))})` : null, back ? "back in stock" : null].filter(Boolean).join(", ");
      lines.push(`${i.name}: ${what}`, `${base}/products/${i.slug}`, "");
    }
    if (lines.length === 0) continue;
    const off = wishlistAlertsOffUrl(userId, now);
    await sendMail(
      {
        to: items[0]!.email,
        subject: "News from your wishlist",
        text: [`Scents on your wishlist at ${env().SHOP_NAME} have changed:`, "", ...lines].join("\n"),
        kind: "marketing",
        reason: "You receive this because you asked for e-mails about your wishlist. The link below turns them off (your other e-mails stay as they are).",
        unsubscribe: { pageUrl: off, oneClickUrl: off },
      },
      db,
    );
    sent++;
  }
  return { sent };
}

/** A posted change (the hearts, the /wishlist page's buttons): add, remove or merge. False for anything else. */
export async function changeWishlist(db: Queryable, userId: string, fields: Record<string, string>): Promise<boolean> {
  const productId = parseWishlistIds([fields.productId ?? ""])[0];
  if (fields.intent === "add" && productId) await addToWishlist(db, userId, [productId]);
  else if (fields.intent === "remove" && productId) await removeFromWishlist(db, userId, productId);
  else if (fields.intent === "merge") await mergeWishlistAtSignIn(db, userId, fields.ids ?? "");
  else return false;
  return true;
}
