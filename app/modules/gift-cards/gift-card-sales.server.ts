/**
 * Gift cards sold as cart lines (docs/decisions/053 "Selling gift cards"): the owner's settings (one JSON value in
 * `settings`), the cart's gift card lines priced from them, the sale stored with the order, the cards issued once its
 * payment is confirmed (one per unit, unique per sale and unit, so a replay issues nothing more), their e-mails sent
 * once on their day, and the cards of a cancelled order cancelled.
 */
import { hasSavedSettings, loadSavedSettings, saveSettings } from "~/modules/settings/saved-settings.server";
import type { Queryable } from "~/db/db.server";
import { cartLineKey, type CartQuoteLine } from "~/modules/orders/cart-quote";
import type { CartLineInput } from "~/modules/orders/orders.schema";
import { sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId, shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { formatRand } from "~/utils/money";
import { saDay } from "~/utils/sa-days";
import { formatIssueDate } from "~/utils/dates";
import { formatGiftCardCode } from "./gift-card-code.logic";
import { giftCardFilename, renderGiftCardPdf } from "./gift-card-pdf.server";
import {
  checkGiftCardRequest,
  DEFAULT_GIFT_CARD_SALE_SETTINGS,
  giftCardLineLabel,
  giftCardLineName,
  parseGiftCardToken,
  type GiftCardRequest,
  type GiftCardSaleSettings,
} from "./gift-card-sales.logic";
import { openCode } from "./gift-card-seal.server";
import { appendEntry, issueGiftCard, SYSTEM, type Actor } from "./gift-cards.server";

const SETTINGS_KEY = "gift_card_sales";

export async function loadGiftCardSaleSettings(db: Queryable): Promise<GiftCardSaleSettings> {
  return loadSavedSettings(db, SETTINGS_KEY, DEFAULT_GIFT_CARD_SALE_SETTINGS, "gift card sales");
}

/** Has the owner ever saved them (the demo turns them on only for a shop that never chose)? */
export async function hasGiftCardSaleSettings(db: Queryable): Promise<boolean> {
  return hasSavedSettings(db, SETTINGS_KEY);
}

/** Saves checked settings (gift-cards-admin.schema.ts). The caller raises storefrontChanged: the page shows them. */
export async function saveGiftCardSaleSettings(db: Queryable, settings: GiftCardSaleSettings, now: Date = new Date()): Promise<void> {
  await saveSettings(db, SETTINGS_KEY, { ...settings, amountsCents: [...new Set(settings.amountsCents)].sort((a, b) => a - b) }, now);
}

/** A quoted gift card line: the cart's line shape plus what it asks for. */
export type QuotedGiftCardLine = CartQuoteLine & { isGiftCard: true; giftCardRequest: GiftCardRequest };

/**
 * Prices the cart's gift card lines: each card is its amount (no VAT, no delivery). A line whose token is not one,
 * whose amount the owner no longer sells, or with sales off, comes back in `missing` (like a deleted product). A day
 * already past (a cart kept overnight) is sent today.
 */
export async function quoteGiftCardLines(db: Queryable, lines: readonly CartLineInput[], now: Date = new Date()): Promise<{ lines: QuotedGiftCardLine[]; missing: string[] }> {
  if (lines.length === 0) return { lines: [], missing: [] };
  const settings = await loadGiftCardSaleSettings(db);
  const today = saDay(now);
  const out: QuotedGiftCardLine[] = [];
  const missing: string[] = [];
  for (const l of lines) {
    const token = parseGiftCardToken(l.sizeId);
    const checked =
      settings.enabled && token
        ? checkGiftCardRequest({ ...token, forSomeoneElse: token.recipientEmail !== null, sendOn: token.sendOn < today ? today : token.sendOn }, settings, now)
        : null;
    if (!checked?.ok) {
      missing.push(cartLineKey(l));
      continue;
    }
    const r = checked.request;
    out.push({
      productId: l.productId,
      sizeId: l.sizeId!,
      sizeLabel: giftCardLineLabel(r),
      sizeCode: "",
      key: cartLineKey(l),
      name: giftCardLineName(r),
      slug: "",
      image: null,
      quantity: l.quantity,
      basePriceCents: r.amountCents,
      wasPriceCents: null,
      unitPriceCents: r.amountCents,
      lineTotalCents: r.amountCents * l.quantity,
      tierApplied: false,
      nextTier: null,
      stockLeft: null,
      stockProblem: null,
      isGiftCard: true,
      giftCardRequest: r,
    });
  }
  return { lines: out, missing };
}

export const GIFT_CARD_SALE_MESSAGES = {
  notWithGiftCard: "A gift card can't be paid for with another gift card: remove the gift card code, or buy the gift card in an order of its own.",
  notFound: "Gift card not found",
  unreadable: "This gift card's printable card is no longer available: please contact us and we will reissue it.",
} as const;

/** Stores each gift card line's request with the order (in the placement's transaction). */
export async function storeGiftCardSales(trx: Queryable, orderId: string, lines: ReadonlyArray<{ lineId: string; quantity: number; giftCardRequest?: GiftCardRequest }>): Promise<void> {
  const rows = lines.filter((l) => l.giftCardRequest).map((l) => ({ lineId: l.lineId, quantity: l.quantity, r: l.giftCardRequest! }));
  if (rows.length === 0) return;
  await trx
    .insertInto("gift_card_sales")
    .values(
      rows.map(({ lineId, quantity, r }) => ({
        id: newId(),
        order_id: orderId,
        order_line_id: lineId,
        amount_cents: r.amountCents,
        quantity,
        recipient_name: r.recipientName,
        recipient_email: r.recipientEmail,
        sender_name: r.senderName,
        message: r.message,
        send_on: r.sendOn,
      })),
    )
    .execute();
}

/**
 * The order's payment is confirmed: issue each sold card (a ledger "issue" by the system, linked to the order), in the
 * payment's transaction. Units already issued are skipped (sale_id + sale_unit is unique), so a payment confirmed
 * again (the owner setting it back and forth) issues nothing more. Returns the cards issued now.
 */
export async function issueSoldGiftCards(trx: Queryable, orderId: string, now: Date = new Date()): Promise<number> {
  const sales = await trx
    .selectFrom("gift_card_sales as s")
    .innerJoin("orders as o", "o.id", "s.order_id")
    .leftJoin("users as u", "u.id", "o.user_id")
    .select(["s.id", "s.amount_cents", "s.quantity", "s.recipient_name", "s.recipient_email", "s.send_on", "u.email as buyer_email"])
    .where("s.order_id", "=", orderId)
    .orderBy("s.id")
    .execute();
  if (sales.length === 0) return 0;
  const issued = await trx.selectFrom("gift_cards").select(["sale_id", "sale_unit"]).where("sale_id", "in", sales.map((s) => s.id)).execute();
  const have = new Set(issued.map((c) => `${c.sale_id}#${c.sale_unit}`));
  let count = 0;
  for (const sale of sales) {
    for (let unit = 1; unit <= Number(sale.quantity); unit++) {
      if (have.has(`${sale.id}#${unit}`)) continue;
      await issueGiftCard(trx, {
        amountCents: Number(sale.amount_cents),
        recipientEmail: sale.recipient_email ?? sale.buyer_email ?? null,
        note: `Sold with order ${shortOrderId(orderId)}`,
        actor: SYSTEM,
        now,
        sale: { saleId: sale.id, unit, orderId, sendOn: sale.send_on, recipientName: sale.recipient_name },
      });
      count++;
    }
  }
  return count;
}

/**
 * A paid order that sold cards is cancelled (by the owner): each of its cards still active is cancelled, what is left
 * on it void (a cancel entry), and an unsent e-mail never goes. What was already spent stays spent: the owner sees it
 * on the card's ledger. In the caller's transaction. Returns the cents voided.
 */
export async function cancelSoldGiftCardsOfOrder(trx: Queryable, orderId: string, actor: Actor, now: Date = new Date()): Promise<number> {
  const cards = await trx
    .selectFrom("gift_cards as c")
    .innerJoin("gift_card_sales as s", "s.id", "c.sale_id")
    .select(["c.id"])
    .where("s.order_id", "=", orderId)
    .where("c.status", "=", "active")
    .orderBy("c.id")
    .execute();
  let voided = 0;
  for (const { id } of cards) {
    const changed = await trx.updateTable("gift_cards").set({ status: "cancelled" }).where("id", "=", id).where("status", "=", "active").returning("balance_cents").executeTakeFirst();
    const balance = Number(changed?.balance_cents ?? 0);
    if (balance > 0) {
      await appendEntry(trx, id, "cancel", -balance, { actor, orderId, now, note: "The order that bought it was cancelled" });
      voided += balance;
    }
  }
  return voided;
}

/** A sold card as its buyer sees it on the order: its recipient as it is now (the owner may have corrected it). */
export interface SoldGiftCard {
  id: string;
  last4: string;
  amountCents: number;
  balanceCents: number;
  status: "active" | "cancelled";
  recipientName: string | null;
  recipientEmail: string | null;
  sendOn: string | null;
  emailedAt: string | null;
}

export async function soldGiftCardsOfOrder(db: Queryable, orderId: string): Promise<SoldGiftCard[]> {
  const rows = await db
    .selectFrom("gift_cards as c")
    .innerJoin("gift_card_sales as s", "s.id", "c.sale_id")
    .select(["c.id", "c.last4", "c.initial_cents", "c.balance_cents", "c.status", "c.recipient_name", "c.recipient_email", "c.send_on", "c.emailed_at"])
    .where("s.order_id", "=", orderId)
    .orderBy("s.created_at")
    .orderBy("c.sale_unit")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    last4: r.last4,
    amountCents: Number(r.initial_cents),
    balanceCents: Number(r.balance_cents),
    status: r.status,
    recipientName: r.recipient_name,
    recipientEmail: r.recipient_email,
    sendOn: r.send_on,
    emailedAt: r.emailed_at,
  }));
}

/** Where the buyer downloads a sold card's printable PDF. */
export function giftCardPdfPath(orderId: string, cardId: string): string {
  return `/orders/${encodeURIComponent(orderId)}/gift-cards/${encodeURIComponent(cardId)}/card.pdf`;
}

async function printableCard(db: Queryable, cardId: string) {
  const row = await db
    .selectFrom("gift_cards as c")
    .innerJoin("gift_card_sales as s", "s.id", "c.sale_id")
    .select(["c.id", "c.last4", "c.initial_cents", "c.code_sealed", "c.expires_at", "c.status", "c.recipient_email", "c.send_on", "s.order_id", "c.recipient_name", "s.sender_name", "s.message"])
    .where("c.id", "=", cardId)
    .executeTakeFirst();
  if (!row) return null;
  const code = row.code_sealed ? openCode(row.code_sealed) : null;
  return { row, code: code ? formatGiftCardCode(code) : null };
}

async function cardPdf(found: NonNullable<Awaited<ReturnType<typeof printableCard>>>) {
  const config = env();
  return renderGiftCardPdf({
    shopName: config.SHOP_NAME,
    shopUrl: config.PUBLIC_BASE_URL.replace(/^https?:\/\//, "").replace(/\/+$/, ""),
    amountCents: Number(found.row.initial_cents),
    code: found.code!,
    recipientName: found.row.recipient_name,
    senderName: found.row.sender_name,
    message: found.row.message,
    expiresAt: found.row.expires_at,
  });
}

/**
 * A sold card's printable PDF for its buyer (or an admin): anyone else, a card of another order, or a cancelled card
 * gets "not found", exactly as for a card that does not exist.
 */
export async function giftCardPdfForViewer(db: Queryable, orderId: string, cardId: string, viewer: { id: string; isAdmin: boolean }): Promise<{ pdf: Uint8Array<ArrayBuffer>; filename: string }> {
  const order = await db.selectFrom("orders").select(["user_id"]).where("id", "=", orderId).executeTakeFirst();
  if (!order || (!viewer.isAdmin && order.user_id !== viewer.id)) throw new DomainError(GIFT_CARD_SALE_MESSAGES.notFound, 404);
  const found = await printableCard(db, cardId);
  if (!found || found.row.order_id !== orderId || found.row.status !== "active") throw new DomainError(GIFT_CARD_SALE_MESSAGES.notFound, 404);
  if (!found.code) throw new DomainError(GIFT_CARD_SALE_MESSAGES.unreadable, 410);
  return { pdf: await cardPdf(found), filename: giftCardFilename(env().SHOP_NAME, found.row.last4) };
}

/** How long a claimed e-mail waits before another run may try it (a process that died mid-send). */
const CLAIM_LAPSES_MS = 15 * 60 * 1000;

/**
 * E-mails each sold card whose day has come (South African calendar), which has not been e-mailed and still holds
 * money, once: a
 * conditional UPDATE claims the card (unclaimed, or claimed longer ago than a send takes) before it is sent, so two
 * runners never send the same card (nor the owner's "Send now", which claims it the same way); delivered (or kept in
 * the outbox with no mail server configured) stamps it e-mailed; refused by the mail server, the claim is dropped and
 * the next run tries again. `orderId` narrows it to
 * one order (right after its payment). Returns how many were sent.
 */
export async function sendDueGiftCardEmails(db: Queryable, options: { now?: Date; orderId?: string; limit?: number } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const stamp = now.toISOString();
  const lapsed = claimLapsedBefore(now);
  let q = db
    .selectFrom("gift_cards as c")
    .innerJoin("gift_card_sales as s", "s.id", "c.sale_id")
    .select(["c.id"])
    .where("c.emailed_at", "is", null)
    .where("c.status", "=", "active")
    // a card spent before its day (the buyer printed it and used it) would reach its recipient empty: it is not sent
    .where("c.balance_cents", ">", 0)
    .where("c.send_on", "<=", saDay(now))
    .where((eb) => eb.or([eb("c.email_claimed_at", "is", null), eb("c.email_claimed_at", "<", lapsed)]));
  if (options.orderId) q = q.where("s.order_id", "=", options.orderId);
  const due = await q.orderBy("c.send_on").orderBy("c.id").limit(options.limit ?? 100).execute();
  let sent = 0;
  for (const { id } of due) {
    const claimed = await db
      .updateTable("gift_cards")
      .set({ email_claimed_at: stamp })
      .where("id", "=", id)
      .where("emailed_at", "is", null)
      // read again at the claim: the owner may have cancelled the card or moved its day since the list was read
      .where("status", "=", "active")
      .where("balance_cents", ">", 0)
      .where("send_on", "<=", saDay(now))
      .where((eb) => eb.or([eb("email_claimed_at", "is", null), eb("email_claimed_at", "<", lapsed)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    if (await sendClaimedCardEmail(db, id)) sent++;
  }
  return sent;
}

/** When a claim on a card's e-mail has lapsed (a process that died mid-send): before this, nobody else may send it. */
export function claimLapsedBefore(now: Date): string {
  return new Date(now.getTime() - CLAIM_LAPSES_MS).toISOString();
}

/**
 * Sends the e-mail of a card the caller has claimed (`email_claimed_at` set by its conditional UPDATE) to the
 * recipient on record now. Delivered: stamped e-mailed, counted, the claim dropped; refused by the mail server: only
 * the claim dropped, so it can be tried again. True when it left.
 */
export async function sendClaimedCardEmail(db: Queryable, id: string): Promise<boolean> {
  try {
    const delivered = await sendCardEmail(db, id);
    await db
      .updateTable("gift_cards")
      .set((eb) => (delivered ? { emailed_at: new Date().toISOString(), email_claimed_at: null, email_count: eb("email_count", "+", 1) } : { email_claimed_at: null }))
      .where("id", "=", id)
      .execute();
    return delivered;
  } catch (error) {
    logger.error({ err: error, giftCardId: id }, "gift cards: e-mail failed; tried again on the next run");
    await db.updateTable("gift_cards").set({ email_claimed_at: null }).where("id", "=", id).execute();
    return false;
  }
}

/** True when the message left (or waits in the outbox with no mail server configured); false to try again later. */
async function sendCardEmail(db: Queryable, cardId: string): Promise<boolean> {
  const found = await printableCard(db, cardId);
  if (!found?.code || !found.row.recipient_email) {
    logger.error({ giftCardId: cardId }, "gift cards: a sold card without a readable code or an address is not e-mailed");
    return true;
  }
  const config = env();
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const { row, code } = found;
  const forSomeone = row.recipient_name !== null;
  const amount = formatRand(Number(row.initial_cents));
  const from = row.sender_name ?? "Someone";
  const text = [
    forSomeone ? `Hi ${row.recipient_name ?? "there"},` : "Hi,",
    "",
    forSomeone ? `${from} sent you a ${config.SHOP_NAME} gift card of ${amount}.` : `Here is your ${config.SHOP_NAME} gift card of ${amount}.`,
    ...(row.message ? ["", ...row.message.split("\n").map((l) => `  ${l}`), ...(row.sender_name ? [`  - ${row.sender_name}`] : [])] : []),
    "",
    `Your gift card code: ${code}`,
    `Valid until ${formatIssueDate(row.expires_at)}.`,
    "",
    `Choose your fragrance at ${base}/shop and enter the code at checkout. Spend it at once or over several orders: what you don't spend stays on the card.`,
    "The printable card is attached.",
    "",
    config.SHOP_NAME,
  ].join("\n");
  const result = await sendMail(
    {
      to: row.recipient_email!,
      subject: forSomeone ? `${from} sent you a ${config.SHOP_NAME} gift card` : `Your ${config.SHOP_NAME} gift card of ${amount}`,
      text,
      kind: "transactional",
      attachments: [{ filename: giftCardFilename(config.SHOP_NAME, row.last4), content: await cardPdf(found), contentType: "application/pdf" }],
    },
    db,
  );
  // No mail server configured: the message waits in the outbox as every other e-mail does; trying again adds nothing.
  return result.delivered || !config.SMTP_URL;
}
