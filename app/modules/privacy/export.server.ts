/**
 * "Download my data" (POPIA s23; docs/decisions/040): everything the shop holds about one account, read from every
 * table that holds it, as one ZIP file — my-data.json (complete, for computers), my-data.html (the same, to read)
 * and invoices/<number>.pdf for each paid order (the invoice the shop issued, drawn by the invoices module).
 *
 * Only ever the signed-in person's own account (or, from Admin → Privacy, the account an admin names to answer a
 * request that came by e-mail): the caller passes the user id from the session, never from the form. Each download
 * is counted (a few an hour: it reads a lot) and recorded in privacy_requests.
 */
import { REWARD_ENTRY_WORDS, rewardsOfPerson } from "~/modules/rewards/rewards-privacy.server";
import { lineNameSql } from "~/modules/catalog/sizes.server";
import type { DB, Queryable } from "~/db/db.server";
import type { ShippingAddress } from "~/db/schema";
import { limitAttempts, type RateRule } from "~/modules/accounts/rate-limit.server";
import { PURPOSE_LABELS, SOURCE_LABELS } from "~/modules/consent/consent.logic";
import { listConsents } from "~/modules/consent/consent.server";
import { LEDGER_KIND_LABELS } from "~/modules/gift-cards/gift-card-state.logic";
import { giftCardsOfPerson } from "~/modules/gift-cards/gift-cards-privacy.server";
import { cartAndRemindersOfPerson } from "~/modules/reminders/reminders-privacy.server";
import { KIND_LABELS, reasonLabel, RETURN_STATUS_LABELS } from "~/modules/returns/returns.logic";
import { sampleCreditsOfPerson } from "~/modules/samples/samples-privacy.server";
import { stockAlertsOfPerson } from "~/modules/stock-alerts/stock-alerts-privacy.server";
import { MESSAGE_STATUS_LABELS, TEMPLATES, type WhatsappEvent } from "~/modules/whatsapp/templates";
import { whatsappOfPerson } from "~/modules/whatsapp/whatsapp-privacy.server";
import { wishlistOfPerson } from "~/modules/wishlist/wishlist-privacy.server";
import { isListedAdmin } from "~/modules/accounts/session.server";
import { renderInvoicePdf } from "~/modules/invoices/invoice-pdf.server";
import { getInvoiceForViewer } from "~/modules/invoices/invoice.server";
import { formatInvoiceNumber } from "~/modules/invoices/invoice.logic";
import { env, type Env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId, shortOrderId } from "~/utils/ids";
import { archiveName, EXPORT_FORMAT, exportCounts, renderSummaryHtml, type ExportAddress, type ExportConsent, type PersonalData } from "./export.logic";
import { PRIVACY_MESSAGES } from "./privacy.schema";
import { zipArchive, type ZipEntry } from "./zip.server";

/** A few downloads an hour per account: enough for anyone, and a script can't make the shop render PDFs all day. */
export const DOWNLOAD_RATE_RULE: RateRule = { max: 5, windowMs: 60 * 60 * 1000 };
export const downloadRateKey = (userId: string) => `my-data:user:${userId}`;

const addressOf = (a: Partial<ShippingAddress> | null | undefined): ExportAddress => ({
  name: a?.name ?? "",
  telephone: a?.telephone ?? "",
  street: a?.street ?? "",
  suburb: a?.suburb ?? "",
  city: a?.city ?? "",
  postalCode: a?.postalCode ?? "",
  province: a?.province ?? "",
});

/** The consent history from the consent log (docs/decisions/039), oldest first, in the log's own words. */
async function consentHistory(db: Queryable, userId: string): Promise<ExportConsent[]> {
  return (await listConsents(db, userId)).map((c) => ({
    purpose: PURPOSE_LABELS[c.purpose] ?? c.purpose,
    granted: c.granted,
    version: c.version,
    wording: c.wording,
    source: SOURCE_LABELS[c.source] ?? c.source,
    at: c.createdAt,
  }));
}

/** Everything held about the account `userId`, newest first within each kind. */
export async function collectPersonalData(db: Queryable, userId: string, config: Env = env(), now: Date = new Date()): Promise<PersonalData> {
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "created_at", "email_verified", "is_admin", "email_notifications", "email_marketing", "marketing_consent_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) throw new DomainError("That account no longer exists", 404);
  const email = user.email.toLowerCase();

  const [orders, lines, reviews, messages, mails, sessions, requests, consents, returns] = await Promise.all([
    db.selectFrom("orders").selectAll().where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id", "desc").execute(),
    db
      .selectFrom("order_lines")
      .innerJoin("orders", "orders.id", "order_lines.order_id")
      .select(["order_lines.order_id", "order_lines.quantity", "order_lines.unit_price_cents", "order_lines.total_price_cents"])
      .select(lineNameSql("order_lines").as("name"))
      .where("orders.user_id", "=", userId)
      .orderBy("order_lines.order_id")
      .orderBy("order_lines.position")
      .orderBy("order_lines.id")
      .execute(),
    db
      .selectFrom("reviews")
      .innerJoin("products", "products.id", "reviews.product_id")
      .select(["products.name as product", "reviews.rating", "reviews.comment", "reviews.created_at"])
      .where("reviews.user_id", "=", userId)
      .orderBy("reviews.created_at", "desc")
      .execute(),
    db.selectFrom("contact_messages").select(["name", "email", "message", "created_at"]).where((eb) => eb(eb.fn("lower", ["email"]), "=", email)).orderBy("created_at", "desc").execute(),
    db
      .selectFrom("mail_outbox")
      .select(["to_address", "subject", "text_body", "created_at", "sent_at"])
      .where((eb) => eb(eb.fn("lower", ["to_address"]), "=", email))
      .orderBy("created_at", "desc")
      .execute(),
    db.selectFrom("sessions").select(["created_at", "expires_at", "ip_address", "user_agent"]).where("user_id", "=", userId).orderBy("created_at", "desc").execute(),
    db.selectFrom("privacy_requests").select(["kind", "requested_by", "created_at"]).where("user_id", "=", userId).orderBy("created_at", "desc").execute(),
    consentHistory(db, userId),
    db
      .selectFrom("returns")
      .select(["order_id", "kind", "status", "reason", "note", "requested_at", "refund_cents", "refunded_at"])
      .where("user_id", "=", userId)
      .orderBy("requested_at", "desc")
      .execute(),
  ]);

  const [giftCards, sampleCredits, whatsapp, cart, wishlist, stockAlerts, rewards] = await Promise.all([
    giftCardsOfPerson(db, userId, email),
    sampleCreditsOfPerson(db, userId, now),
    whatsappOfPerson(db, userId),
    cartAndRemindersOfPerson(db, userId),
    wishlistOfPerson(db, userId),
    stockAlertsOfPerson(db, userId, email),
    rewardsOfPerson(db, userId),
  ]);
  const short = (id: string | null) => (id ? shortOrderId(id) : null);

  const linesByOrder = new Map<string, typeof lines>();
  for (const l of lines) linesByOrder.set(l.order_id, [...(linesByOrder.get(l.order_id) ?? []), l]);

  // The shop keeps no address book: a person's addresses are the ones on their orders, each listed once.
  const addresses = new Map<string, PersonalData["addresses"][number]>();
  for (const o of orders) {
    const a = addressOf(o.shipping_address);
    if (!a.name && !a.street && !a.telephone) continue; // erased
    const key = JSON.stringify([a.name, a.telephone, a.street, a.suburb, a.city, a.postalCode, a.province].map((v) => v.trim().toLowerCase()));
    const seen = addresses.get(key);
    if (seen) seen.usedOnOrders.push(shortOrderId(o.id));
    else addresses.set(key, { ...a, usedOnOrders: [shortOrderId(o.id)], lastUsedAt: o.created_at });
  }

  return {
    format: EXPORT_FORMAT,
    generatedAt: now.toISOString(),
    shop: {
      name: config.SHOP_NAME,
      legalName: config.SHOP_LEGAL_NAME ?? null,
      website: config.PUBLIC_BASE_URL.replace(/\/+$/, ""),
      contactEmail: config.CONTACT_EMAIL,
      informationOfficerEmail: config.SHOP_INFORMATION_OFFICER_EMAIL ?? null,
    },
    account: { id: user.id, email: user.email, createdAt: user.created_at, emailVerified: user.email_verified === true, admin: user.is_admin === true || isListedAdmin(user.email) },
    preferences: { orderAndAccountEmails: user.email_notifications === true, marketingEmails: user.email_marketing === true, marketingConsentAt: user.marketing_consent_at },
    consents,
    addresses: [...addresses.values()],
    orders: orders.map((o) => {
      const invoiced = o.invoice_number !== null && o.invoice_issued_at !== null && o.payment_status === "completed";
      const number = invoiced ? formatInvoiceNumber(Number(o.invoice_number), config.INVOICE_PREFIX) : null;
      return {
        id: o.id,
        shortId: shortOrderId(o.id),
        placedAt: o.created_at,
        status: o.status,
        paymentStatus: o.payment_status,
        paymentMethod: o.payment_method,
        lines: (linesByOrder.get(o.id) ?? []).map((l) => ({ name: l.name, quantity: l.quantity, unitPriceCents: Number(l.unit_price_cents), totalPriceCents: Number(l.total_price_cents) })),
        subtotalCents: Number(o.subtotal_cents),
        discountCents: Number(o.discount_amount_cents),
        couponCode: o.coupon_code,
        deliveryCents: Number(o.shipping_cents),
        totalCents: Number(o.total_amount_cents),
        deliverTo: addressOf(o.shipping_address),
        delivery: { kind: o.delivery_kind, service: o.delivery_service_name, point: o.delivery_point?.name ?? null, trackingNumber: o.tracking_number },
        invoice: number ? { number, issuedAt: o.invoice_issued_at!, file: `invoices/${number}.pdf` } : null,
      };
    }),
    reviews: reviews.map((r) => ({ product: r.product, rating: r.rating, comment: r.comment, writtenAt: r.created_at })),
    returns: returns.map((r) => ({
      order: shortOrderId(r.order_id),
      kind: KIND_LABELS[r.kind] ?? r.kind,
      status: RETURN_STATUS_LABELS[r.status] ?? r.status,
      reason: reasonLabel(r.reason),
      note: r.note,
      requestedAt: r.requested_at,
      refundCents: r.refund_cents === null ? null : Number(r.refund_cents),
      refundedAt: r.refunded_at,
    })),
    contactMessages: messages.map((m) => ({ name: m.name, email: m.email, message: m.message, sentAt: m.created_at })),
    emails: mails.map((m) => ({ to: m.to_address, subject: m.subject, text: m.text_body, createdAt: m.created_at, sentAt: m.sent_at })),
    sessions: sessions.map((s) => ({ signedInAt: s.created_at, expiresAt: s.expires_at, ipAddress: s.ip_address, browser: s.user_agent })),
    requests: requests.map((r) => ({ kind: r.kind, by: r.requested_by, at: r.created_at })),
    giftCards: giftCards.map((c) => ({
      last4: c.last4,
      issuedToYou: c.issuedToThem,
      amountCents: c.initialCents,
      balanceCents: c.balanceCents,
      status: c.status,
      issuedAt: c.issuedAt,
      expiresAt: c.expiresAt,
      entries: c.entries.map((x) => ({ kind: LEDGER_KIND_LABELS[x.kind] ?? x.kind, amountCents: x.amountCents, balanceAfterCents: x.balanceAfterCents, order: short(x.orderId), at: x.at })),
    })),
    sampleCredits: sampleCredits.map((c) => ({
      fragrance: c.fragrance,
      amountCents: c.amountCents,
      state: c.state,
      grantedAt: c.grantedAt,
      expiresAt: c.expiresAt,
      usedAt: c.usedAt,
      earnedOnOrder: shortOrderId(c.earnedOnOrderId),
      order: short(c.orderId),
    })),
    whatsapp: {
      subscription: whatsapp.subscription,
      messages: whatsapp.messages.map((m) => ({
        order: short(m.orderId),
        update: TEMPLATES[m.event as WhatsappEvent]?.label ?? m.event,
        status: MESSAGE_STATUS_LABELS[m.status] ?? m.status,
        phone: m.phone,
        createdAt: m.createdAt,
        sentAt: m.sentAt,
        deliveredAt: m.deliveredAt,
        readAt: m.readAt,
        failedAt: m.failedAt,
      })),
    },
    savedCart: cart.savedCart ? { items: cart.savedCart.items, changedAt: cart.savedCart.changedAt } : null,
    reminders: cart.reminders.map((r) => ({ kind: r.kind === "cart" ? "Cart" : "Unpaid order", status: r.status, order: short(r.orderId), items: r.items, at: r.claimedAt, sentAt: r.sentAt, restoredAt: r.restoredAt })),
    wishlist,
    stockAlerts,
    rewards: rewards
      ? {
          member: rewards.joinedAt !== null,
          joinedAt: rewards.joinedAt,
          availablePoints: rewards.availablePoints,
          pendingPoints: rewards.pendingPoints,
          owedPoints: rewards.owedPoints,
          entries: rewards.entries.map((x) => ({ what: REWARD_ENTRY_WORDS[x.kind], availablePoints: x.availableDelta, pendingPoints: x.pendingDelta, owedPoints: x.owedDelta, order: short(x.orderId), note: x.note, at: x.at })),
          referredBy: rewards.referredBy,
          friends: rewards.friends,
        }
      : null,
  };
}

export interface DataArchive {
  filename: string;
  bytes: Uint8Array;
  counts: Record<string, number>;
}

/** The ZIP: my-data.json, my-data.html and each paid order's invoice PDF (as the invoice download draws it). */
export async function buildDataArchive(db: Queryable, userId: string, config: Env = env(), now: Date = new Date()): Promise<DataArchive> {
  const data = await collectPersonalData(db, userId, config, now);
  const files: ZipEntry[] = [
    { name: "my-data.json", data: `${JSON.stringify(data, null, 2)}\n` },
    { name: "my-data.html", data: renderSummaryHtml(data) },
  ];
  for (const order of data.orders) {
    if (!order.invoice) continue;
    const lookup = await getInvoiceForViewer(db, order.id, { id: userId, isAdmin: false }, config);
    if (lookup.state === "found") files.push({ name: order.invoice.file, data: await renderInvoicePdf(lookup.invoice) });
  }
  return { filename: archiveName(config.SHOP_NAME, now), bytes: zipArchive(files, now), counts: exportCounts(data) };
}

/**
 * One download, counted and recorded: `subjectId` is the account (the session's user, or the account an admin
 * named); `by` says who asked. Over DOWNLOAD_RATE_RULE it is refused with 429 and nothing is built or recorded.
 */
export async function downloadPersonalData(db: DB, subjectId: string, by: { kind: "self" } | { kind: "admin"; adminId: string }, now: Date = new Date()): Promise<DataArchive> {
  try {
    await limitAttempts(db, [{ key: downloadRateKey(subjectId), rule: DOWNLOAD_RATE_RULE }], now.getTime());
  } catch (error) {
    if (error instanceof DomainError && error.status === 429) throw new DomainError(PRIVACY_MESSAGES.tooManyDownloads, 429);
    throw error;
  }
  const archive = await buildDataArchive(db, subjectId, env(), now);
  await db
    .insertInto("privacy_requests")
    .values({
      id: newId(),
      kind: "export",
      requested_by: by.kind,
      user_id: subjectId,
      actor_user_id: by.kind === "admin" ? by.adminId : null,
      summary: JSON.stringify(archive.counts),
      created_at: now.toISOString(),
    })
    .execute();
  return archive;
}
