/**
 * Flow: an account is deleted (docs/decisions/040, superseding 012) — by its owner (Profile → Delete my account) or an
 * admin (Admin → Users). deleteAccount below is the one way in; in ONE transaction, under the admin-role lock:
 *   1. accounts: the checks that keep the shop administrable (an admin deletes themself only from their profile,
 *      never an address in ADMIN_EMAILS, never the last owner; staff only with the staff permission);
 *   2. eraseAccountData: its unpaid orders closed (flows/order-closed-unpaid: coupon, credits, gift cards back), paid
 *      orders kept for the tax record with only what their invoice shows, then each area's personal data erased —
 *      gift cards unlinked, sample credits, cart and reminders, stock alerts, WhatsApp, wishlist, the account itself.
 * A step that fails rolls back every step before it: the account stays as it was. After the commit: every remembered
 * session forgotten (signed out everywhere), the storefront told when reviews went, the confirmation e-mail.
 */
import { findUser, type DeletedBy } from "~/modules/accounts/users-admin.server";
import { countOwners, staffPermissionsOf, withAdminRoleLock } from "~/modules/accounts/staff-membership.server";
import { can } from "~/modules/accounts/permissions";
import { PERMISSION_DENIED_MESSAGE } from "~/modules/accounts/session.server";
import { forgetUserSessions } from "~/modules/accounts/session-cache.server";
import { USER_ADMIN_MESSAGES } from "~/modules/accounts/users-admin.schema";
import { storefrontChanged } from "~/utils/storefront-changes.server";
/**
 * Deleting an account (POPIA s24; docs/decisions/040, which supersedes 012): what is erased, what is kept and why,
 * and the e-mail that tells the person. The one path both the person (Profile → Delete my account) and an admin
 * (Admin → Users) take is deleteAccount in app/modules/accounts/users-admin.server.ts: it checks who may be deleted
 * under the admin-role lock and calls eraseAccountData here inside that transaction.
 *
 * Erased: the account (password, sessions: signed out everywhere at once), preferences, reviews (removed, not
 * anonymised), contact messages and the e-mails the shop sent to the address, copies of the shop's own notices that
 * name the address, password-reset links, sign-in counters, review-request marks, and every order's notes. Orders
 * never paid: cancelled if still open (the coupon given back), and their name, telephone and address erased.
 * Kept, for the tax record (Tax Administration Act s29, VAT Act s20(4) and s55): each paid order, its lines and
 * amounts, its invoice number and date, and the name, address and telephone the invoice shows — no longer linked to
 * any account; the retention job erases those too once RETENTION_INVOICE_YEARS have passed. Consent records stay as
 * the proof that consent was given, with their e-mail address blanked; returns stay with their credit notes, without
 * the shopper's note.
 * The features of issue 33/34 (docs/decisions/053–057): the wishlist and its e-mail opt-in, the cart kept on the
 * server, back-in-stock requests under the account or its address, the WhatsApp number and every WhatsApp message,
 * and sample credits are deleted; reminders stay in the reminder figures without their items or the account. Gift
 * cards issued to the address keep their balance and ledger (the shopper's money and the shop's accounts): they stop
 * naming the person and keep paying with their code until they expire; the page and the e-mail list them first.
 */
import { sql } from "kysely";
import type { DB, Queryable } from "~/db/db.server";
import { limitAttempts, refund, type RateRule } from "~/modules/accounts/rate-limit.server";
import { getAuth } from "~/modules/accounts/auth.server";
import { giftCardsWithBalance, unlinkGiftCardsOfPerson } from "~/modules/gift-cards/gift-cards-privacy.server";
import { formatInvoiceNumber } from "~/modules/invoices/invoice.logic";
import { sendMail } from "~/modules/mail/mailer.server";
import { closeUnpaidOrder } from "./order-closed-unpaid.server";
import { eraseCartAndRemindersOfPerson } from "~/modules/reminders/reminders-privacy.server";
import { deleteSampleCreditsOfPerson, openSampleCredits } from "~/modules/samples/samples-privacy.server";
import { deleteStockAlertsOfPerson } from "~/modules/stock-alerts/stock-alerts-privacy.server";
import { deleteWhatsappOfPerson } from "~/modules/whatsapp/whatsapp-privacy.server";
import { deleteWishlistOfPerson } from "~/modules/wishlist/wishlist-privacy.server";
import { formatRand } from "~/utils/money";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId, shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { PRIVACY_MESSAGES } from "~/modules/privacy/privacy.schema";
import { eraseOrderDetails, retentionPolicy } from "~/modules/privacy/retention.server";
import { saDateTime } from "~/modules/privacy/export.logic";
import { forgetOrderNotes } from "~/modules/orders/order-writes.server";

/** Wrong passwords on the deletion form: the same allowance as the password change (8 in 15 minutes). */
export const DELETE_PASSWORD_RULE: RateRule = { max: 8, windowMs: 15 * 60 * 1000 };
export const deleteRateKey = (userId: string) => `account-delete:user:${userId}`;

/**
 * The deletion form's password, checked against the account's own (better-auth's hash): a session left open on a
 * shared computer is not enough to delete an account. Wrong: 400 on the password field; too many: 429.
 */
export async function confirmPassword(db: Queryable, userId: string, password: string): Promise<void> {
  const key = deleteRateKey(userId);
  await limitAttempts(db, [{ key, rule: DELETE_PASSWORD_RULE }]);
  const ctx = await getAuth().$context;
  const account = await ctx.internalAdapter.findCredentialAccount(userId);
  const ok = !!account?.password && (await ctx.password.verify({ hash: account.password, password }));
  if (!ok) throw new DomainError(PRIVACY_MESSAGES.passwordWrong, 400, "password");
  await refund(db, key);
}

/** A kept order, as the person is told about it (page, e-mail). */
export interface KeptOrder {
  id: string;
  shortId: string;
  invoiceNumber: string | null;
  placedAt: string;
}

/** What deleting this account would do: shown on the deletion page before the person confirms. */
export interface ErasurePreview {
  keptOrders: KeptOrder[];
  /** unpaid orders still open: deleting cancels them */
  openOrders: number;
  /** paid orders not delivered yet: still delivered, without e-mail updates */
  onTheirWay: number;
  reviews: number;
  invoiceYears: number;
  /** gift cards issued to the address that still hold money: kept, usable with their code (docs/decisions/053) */
  giftCards: GiftCardKept[];
  /** sample credits still open: they end with the account */
  openSampleCredits: number;
}

export interface GiftCardKept {
  last4: string;
  balanceCents: number;
  expiresAt: string;
}

const isKept = (o: { invoice_number: number | null; payment_status: string }) => o.invoice_number !== null || o.payment_status === "completed";

export async function erasurePreview(db: Queryable, user: { id: string; email: string }, now: Date = new Date()): Promise<ErasurePreview> {
  const userId = user.id;
  const orders = await db
    .selectFrom("orders")
    .select(["id", "status", "payment_status", "invoice_number", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
  const reviews = await db.selectFrom("reviews").select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", userId).executeTakeFirstOrThrow();
  const prefix = env().INVOICE_PREFIX;
  return {
    keptOrders: orders.filter(isKept).map((o) => ({ id: o.id, shortId: shortOrderId(o.id), invoiceNumber: o.invoice_number !== null ? formatInvoiceNumber(Number(o.invoice_number), prefix) : null, placedAt: o.created_at })),
    openOrders: orders.filter((o) => o.status === "pending" && o.payment_status === "pending").length,
    onTheirWay: orders.filter((o) => isKept(o) && (o.status === "processing" || o.status === "shipped")).length,
    reviews: Number(reviews.n),
    invoiceYears: retentionPolicy().invoiceYears,
    giftCards: await giftCardsWithBalance(db, user.email, now),
    openSampleCredits: await openSampleCredits(db, userId, now),
  };
}

/** What a deletion did, as counts (the privacy_requests record) and the kept orders (for the e-mail). */
export interface ErasureResult {
  email: string;
  summary: {
    ordersKept: number;
    ordersErased: number;
    openOrdersCancelled: number;
    reviewsRemoved: number;
    contactMessagesDeleted: number;
    emailsDeleted: number;
    emailsRedacted: number;
    sessionsEnded: number;
    consentsKept: number;
    returnsKept: number;
    giftCardsUnlinked: number;
    sampleCreditsDeleted: number;
    whatsappMessagesDeleted: number;
    savedCartsDeleted: number;
    remindersAnonymised: number;
    wishlistItemsDeleted: number;
    stockAlertsDeleted: number;
  };
  keptOrders: KeptOrder[];
  giftCards: GiftCardKept[];
}

/** `%` and `_` are wildcards in LIKE: an address with `_` in it must match only itself. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** column LIKE pattern with `\` as the escape on both databases (SQLite has no default escape character). */
function likeEscaped(column: string, pattern: string, lowered = true) {
  return lowered ? sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'` : sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/**
 * Erases the account `user` inside the caller's transaction (deleteAccount's, which holds the admin-role lock and
 * has checked that this account may go). Ends with the users row itself: the database cascades its sessions, its
 * password account and its reviews, and unlinks its orders, coupon uses and requests (foreign keys, migrations 0001
 * and 0025). Records the erasure, naming nobody, in privacy_requests.
 */
export async function eraseAccountData(trx: Queryable, user: { id: string; email: string }, by: { kind: "self" } | { kind: "admin"; adminId: string }, now: Date = new Date()): Promise<ErasureResult> {
  const email = user.email.toLowerCase();
  const stamp = now.toISOString();

  // Open checkouts end: a payment can no longer be matched to a person, and the coupon goes back.
  const open = await trx.selectFrom("orders").select("id").where("user_id", "=", user.id).where("status", "=", "pending").where("payment_status", "=", "pending").execute();
  let openOrdersCancelled = 0;
  for (const o of open) if ((await closeUnpaidOrder(trx, o.id, "payment_cancelled", { now, userId: user.id })).closed) openOrdersCancelled++;

  const orders = await trx.selectFrom("orders").select(["id", "shipping_address", "invoice_number", "payment_status", "created_at"]).where("user_id", "=", user.id).orderBy("created_at", "desc").execute();
  const prefix = env().INVOICE_PREFIX;
  const keptOrders: KeptOrder[] = [];
  let ordersErased = 0;
  for (const o of orders) {
    if (isKept(o)) {
      // The tax record: exactly what the invoice shows stays (lines, amounts, number, name, address, telephone).
      await forgetOrderNotes(trx, o.id, now);
      keptOrders.push({ id: o.id, shortId: shortOrderId(o.id), invoiceNumber: o.invoice_number !== null ? formatInvoiceNumber(Number(o.invoice_number), prefix) : null, placedAt: o.created_at });
    } else {
      ordersErased += await eraseOrderDetails(trx, o.id, o.shipping_address, now);
    }
  }

  const count = async (table: "reviews" | "sessions") =>
    Number((await trx.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", user.id).executeTakeFirstOrThrow()).n);
  const reviewsRemoved = await count("reviews");
  const sessionsEnded = await count("sessions");

  const contact = await trx.deleteFrom("contact_messages").where((eb) => eb(eb.fn("lower", ["email"]), "=", email)).executeTakeFirstOrThrow();
  const mails = await trx.deleteFrom("mail_outbox").where((eb) => eb(eb.fn("lower", ["to_address"]), "=", email)).executeTakeFirstOrThrow();
  // The shop's own notices that name the person (a new order's notice, a contact message's copy): their text goes.
  const pattern = `%${likeLiteral(email)}%`;
  const redacted = await trx
    .updateTable("mail_outbox")
    .set({ text_body: "", html_body: null })
    .where((eb) => eb.or([likeEscaped("text_body", pattern), likeEscaped("html_body", pattern)]))
    .executeTakeFirstOrThrow();

  await trx.deleteFrom("review_requests").where("user_id", "=", user.id).execute();
  await trx.deleteFrom("verifications").where((eb) => eb.or([eb("value", "=", user.id), eb("identifier", "=", email)])).execute();
  await trx
    .deleteFrom("rate_limits")
    .where((eb) => eb.or([likeEscaped("key", `%:${likeLiteral(email)}`, false), likeEscaped("key", `%:user:${likeLiteral(user.id)}`, false)]))
    .execute();

  const consentsKept = await blankConsentEmails(trx, user.id);
  // Returns stay with their orders and credit notes (the tax record); the shopper's own words on them go.
  const returns = await trx.updateTable("returns").set({ note: "" }).where("user_id", "=", user.id).executeTakeFirstOrThrow();

  // The features of docs/decisions/053–057 (see the file's comment): the money on gift cards stays, the rest goes.
  const giftCards = await giftCardsWithBalance(trx, email, now);
  const giftCardsUnlinked = await unlinkGiftCardsOfPerson(trx, user.id, email);
  const sampleCreditsDeleted = await deleteSampleCreditsOfPerson(trx, user.id);
  const whatsapp = await deleteWhatsappOfPerson(trx, user.id);
  const cart = await eraseCartAndRemindersOfPerson(trx, user.id);
  const wishlistItemsDeleted = await deleteWishlistOfPerson(trx, user.id);
  const stockAlertsDeleted = await deleteStockAlertsOfPerson(trx, user.id, email);

  await trx.deleteFrom("users").where("id", "=", user.id).execute();

  const summary = {
    ordersKept: keptOrders.length,
    ordersErased,
    openOrdersCancelled,
    reviewsRemoved,
    contactMessagesDeleted: Number(contact.numDeletedRows),
    emailsDeleted: Number(mails.numDeletedRows),
    emailsRedacted: Number(redacted.numUpdatedRows),
    sessionsEnded,
    consentsKept,
    returnsKept: Number(returns.numUpdatedRows),
    giftCardsUnlinked,
    sampleCreditsDeleted,
    whatsappMessagesDeleted: whatsapp.messages,
    savedCartsDeleted: cart.savedCarts,
    remindersAnonymised: cart.reminders,
    wishlistItemsDeleted,
    stockAlertsDeleted,
  };
  await trx
    .insertInto("privacy_requests")
    .values({
      id: newId(),
      kind: "erasure",
      requested_by: by.kind,
      user_id: null,
      actor_user_id: by.kind === "admin" ? by.adminId : null,
      summary: JSON.stringify(summary),
      created_at: stamp,
    })
    .execute();
  return { email: user.email, summary, keptOrders, giftCards };
}

/**
 * The consent log's rows (docs/decisions/039) stay as the record that consent was given or withdrawn, when and in
 * which words; the address on them is blanked (their user_id goes null with the account). Answers how many stay.
 */
async function blankConsentEmails(trx: Queryable, userId: string): Promise<number> {
  const result = await trx.updateTable("consents").set({ email: null }).where("user_id", "=", userId).executeTakeFirstOrThrow();
  return Number(result.numUpdatedRows);
}

/** The confirmation e-mail (after the commit): what was erased, what is kept and why, and whom to ask. */
export async function sendErasureConfirmation(db: DB, result: ErasureResult, by: { kind: "self" } | { kind: "admin" }, now: Date = new Date()): Promise<void> {
  const config = env();
  const policy = retentionPolicy(config);
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const ask = config.SHOP_INFORMATION_OFFICER_EMAIL ?? config.CONTACT_EMAIL;
  const kept = result.keptOrders.map((o) => `- Order #${o.shortId}${o.invoiceNumber ? `, invoice ${o.invoiceNumber}` : ""}`);
  const text = [
    "Hello,",
    "",
    by.kind === "self"
      ? `As you asked, your ${config.SHOP_NAME} account (${result.email}) was deleted on ${saDateTime(now.toISOString())}.`
      : `Your ${config.SHOP_NAME} account (${result.email}) was deleted by the shop on ${saDateTime(now.toISOString())}.`,
    "",
    "What we erased: your sign-in and password (you are signed out everywhere), your e-mail preferences, your reviews, the messages you sent us and the e-mails we sent you, your wishlist, your cart, your back-in-stock requests, your WhatsApp number and messages, and your sample credits.",
    ...(result.summary.openOrdersCancelled === 1 ? ["Your unpaid order was cancelled."] : result.summary.openOrdersCancelled > 1 ? [`Your ${result.summary.openOrdersCancelled} unpaid orders were cancelled.`] : []),
    "",
    ...(kept.length
      ? [
          `What we keep: the South African tax law (Tax Administration Act, section 29) requires us to keep the records of what we sold for ${policy.invoiceYears} years. These orders and their invoices stay, with only what the invoice shows (the name, delivery address and telephone number on the order, what was bought and the amounts), no longer linked to an account:`,
          ...kept,
          `After those ${policy.invoiceYears} years we erase the name, address and telephone number on them too.`,
        ]
      : ["We keep nothing that names you: you had no paid orders."]),
    ...(result.giftCards.length
      ? [
          "",
          "Your gift cards keep their money: they are no longer linked to you, and they still pay with their code at checkout (from any account) until they expire:",
          ...result.giftCards.map((c) => `- Gift card ending ${c.last4}: ${formatRand(c.balanceCents)}, until ${saDateTime(c.expiresAt)}`),
        ]
      : []),
    "",
    `If you did not ask for this, or have a question, write to ${ask}.`,
    "",
    config.SHOP_NAME,
    base,
  ].join("\n");
  try {
    await sendMail({ to: result.email, subject: `Your ${config.SHOP_NAME} account has been deleted`, text }, db);
  } catch (error) {
    // The account is gone either way; a mail that could not even be queued is logged, not turned into a failure.
    logger.error({ err: error }, "account deleted, but its confirmation e-mail could not be queued");
  }
}

/**
 * delete_user_account from Admin → Users: the same path as the owner's own deletion (deleteAccount).
 */
export async function deleteUserByAdmin(db: DB, actorId: string, id: string): Promise<ErasureResult> {
  return deleteAccount(db, id, { kind: "admin", adminId: actorId });
}

/**
 * THE way an account is deleted, whoever asks (docs/decisions/040, superseding 012). Under the admin-role lock (two
 * admins can't remove each other, nor the last admin go while an admin deletes themself): the checks that keep the
 * shop administrable — an admin deletes themself only from their profile, never an address in ADMIN_EMAILS, never
 * the last admin — then the erasure (app/modules/privacy/erasure.server.ts: personal data erased, paid orders kept
 * for the tax record with only what their invoice shows), in one transaction. After the commit: every remembered
 * session forgotten in every process (signed out everywhere), the storefront told when reviews went, and the
 * confirmation e-mail.
 */
export async function deleteAccount(db: DB, id: string, by: DeletedBy, now: Date = new Date()): Promise<ErasureResult> {
  const result = await withAdminRoleLock(db, async (trx) => {
    const user = await findUser(trx, id);
    const self = by.kind === "self";
    if (!self && user.id === by.adminId) throw new DomainError(USER_ADMIN_MESSAGES.selfDelete, 409);
    if (user.listedAdmin) throw new DomainError(self ? PRIVACY_MESSAGES.listedAdminSelf : USER_ADMIN_MESSAGES.listedAdmin, 409);
    // An admin deletes a member of staff's account only with the staff permission (a manager can't delete the owner).
    if (!self && user.isAdmin && !can(await staffPermissionsOf(trx, by.adminId), "staff")) throw new DomainError(PERMISSION_DENIED_MESSAGE, 403);
    if (user.isOwner && (await countOwners(trx)) <= 1) throw new DomainError(self ? PRIVACY_MESSAGES.lastAdminSelf : USER_ADMIN_MESSAGES.lastAdmin, 409);
    return eraseAccountData(trx, { id: user.id, email: user.email }, by, now);
  });
  forgetUserSessions(id); // after the commit: a lookup racing it can't remember the account again
  // Their reviews left the product pages (text, count, average): visitors' cached copies go.
  if (result.summary.reviewsRemoved > 0) storefrontChanged("account deleted: reviews removed");
  await sendErasureConfirmation(db, result, by, now);
  return result;
}
