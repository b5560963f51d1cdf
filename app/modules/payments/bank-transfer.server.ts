/**
 * Manual EFT (issue 11): no provider. The order is placed pending / pending like any other (coupon reserved), marked
 * as waiting for a bank transfer, and the shopper is shown — and e-mailed — the shop's bank details with the order's
 * short id as the payment reference. The owner marks the payment Completed in the admin when the money shows on the
 * statement; an order still unpaid after EFT_HOLD_DAYS is cancelled by the expiry job (its hold is set per provider
 * in order-expiry.server.ts) and the shopper is told.
 */
import { amountDueOfRow } from "~/modules/gift-cards/gift-card-payments.logic";
import type { Queryable } from "~/db/db.server";
import { sendMail } from "~/modules/mail/mailer.server";
import { queueOrderUpdate } from "~/modules/whatsapp/outbox.server";
import { whatsappEmailLines } from "~/modules/whatsapp/stop-link.server";
import { isOrderId } from "~/modules/orders/order-read.server";
import { CHECKOUT_MESSAGES } from "~/modules/orders/orders.logic";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { formatRand } from "~/utils/money";
import { setOrderPaymentProvider } from "~/modules/orders/order-writes.server";

/** orders.payment_provider of a bank-transfer order (the expiry's per-provider hold is keyed on it). */
export const BANK_TRANSFER_PROVIDER = "eft";

export interface BankDetails {
  bank: string;
  accountName: string;
  accountNumber: string;
  branchCode: string;
  accountType: string;
}

export function bankDetails(): BankDetails {
  const c = env();
  return { bank: c.EFT_BANK_NAME ?? "", accountName: c.EFT_ACCOUNT_NAME ?? "", accountNumber: c.EFT_ACCOUNT_NUMBER ?? "", branchCode: c.EFT_BRANCH_CODE ?? "", accountType: c.EFT_ACCOUNT_TYPE };
}

export function bankTransferPath(orderId: string): string {
  return `/payment/eft/${encodeURIComponent(orderId)}`;
}

/** The reference the shopper types into their banking app, and the owner looks for on the statement. */
export function paymentReference(orderId: string): string {
  return shortOrderId(orderId).toUpperCase();
}

/** Until when the order is held for the transfer (placement + EFT_HOLD_DAYS). */
export function heldUntil(createdAt: string): Date {
  return new Date(new Date(createdAt).getTime() + env().EFT_HOLD_DAYS * 24 * 60 * 60 * 1000);
}

const holdDate = (d: Date) => d.toLocaleDateString("en-ZA", { weekday: "long", day: "numeric", month: "long", timeZone: "Africa/Johannesburg" });

/**
 * A just-placed order will be paid by bank transfer: marks it so (conditional on it still being pending/pending) and
 * sends the instructions. Answers the page the shopper goes to.
 */
export async function beginBankTransfer(
  db: Queryable,
  order: { id: string; totalAmountCents: number; createdAt: string },
  customer: { email: string; name: string },
): Promise<{ redirectUrl: string }> {
  // (below the minimum, the checkout flow has closed the order before this: flows/checkout.server.ts)
  const redirectUrl = bankTransferPath(order.id);
  const stored = await setOrderPaymentProvider(db, order.id, { provider: BANK_TRANSFER_PROVIDER, checkoutUrl: redirectUrl });
  if (!stored) throw new DomainError(CHECKOUT_MESSAGES.orderFailed, 409);
  logger.info({ orderId: order.id }, "payment: order placed for a bank transfer");
  const emailId = await sendSafely(order.id, () => sendBankTransferInstructions(db, order, customer));
  // the same news on WhatsApp, for a customer who opted in (the e-mail covers it if it fails)
  await queueOrderUpdate(db, order.id, "order_placed", { emailId });
  return { redirectUrl };
}

function bankLines(orderId: string, amountCents: number): string[] {
  const b = bankDetails();
  return [
    `Bank: ${b.bank}`,
    `Account name: ${b.accountName}`,
    `Account number: ${b.accountNumber}`,
    `Branch code: ${b.branchCode}`,
    `Account type: ${b.accountType}`,
    `Amount: ${formatRand(amountCents)}`,
    `Reference: ${paymentReference(orderId)}`,
  ];
}

async function sendBankTransferInstructions(db: Queryable, order: { id: string; totalAmountCents: number; createdAt: string }, customer: { email: string; name: string }) {
  const config = env();
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const placed = await db.selectFrom("orders").select("user_id").where("id", "=", order.id).executeTakeFirst();
  const whatsapp = await whatsappEmailLines(db, placed?.user_id ?? null);
  const sent = await sendMail(
    {
      to: customer.email,
      subject: `${config.SHOP_NAME}: pay for order ${shortOrderId(order.id)} by bank transfer`,
      text: [
        `Hi ${customer.name || "there"},`,
        "",
        "Thank you for your order. Please pay by EFT into this account, with the reference exactly as shown, so we can match your payment:",
        "",
        ...bankLines(order.id, order.totalAmountCents),
        "",
        `We hold your order until ${holdDate(heldUntil(order.createdAt))}. We ship as soon as the money reaches us (a transfer between banks can take 1–2 working days), and we e-mail you when it has.`,
        "",
        `These details are also on your order's page: ${base}${bankTransferPath(order.id)}`,
        ...whatsapp,
        "",
        config.SHOP_NAME,
      ].join("\n"),
      replyTo: config.CONTACT_EMAIL,
      kind: "transactional",
    },
    db,
  );
  return sent.id;
}

/** An unpaid bank-transfer order was cancelled by the expiry: a short word to the shopper. */
export async function sendBankTransferExpired(db: Queryable, orderId: string): Promise<void> {
  const row = await db
    .selectFrom("orders")
    .leftJoin("users", "users.id", "orders.user_id")
    .select(["orders.id", "orders.shipping_address", "users.email"])
    .where("orders.id", "=", orderId)
    .executeTakeFirst();
  if (!row?.email) return;
  const config = env();
  await sendSafely(orderId, () =>
    sendMail(
      {
        to: row.email!,
        subject: `${config.SHOP_NAME}: order ${shortOrderId(orderId)} cancelled (no payment received)`,
        text: [
          `Hi ${row.shipping_address.name || "there"},`,
          "",
          `We didn't receive a bank transfer for order ${shortOrderId(orderId)} within ${config.EFT_HOLD_DAYS} ${config.EFT_HOLD_DAYS === 1 ? "day" : "days"}, so we have cancelled it.`,
          "If you did pay, reply to this e-mail with your proof of payment and we will sort it out at once.",
          `You are welcome to order again: ${config.PUBLIC_BASE_URL.replace(/\/+$/, "")}/shop`,
          "",
          config.SHOP_NAME,
        ].join("\n"),
        replyTo: config.CONTACT_EMAIL,
        kind: "transactional",
      },
      db,
    ),
  );
}

async function sendSafely<T>(orderId: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (error) {
    // The order stands; a failed e-mail is logged (the page shows the same details).
    logger.error({ err: error, orderId }, "bank transfer e-mail failed");
    return undefined;
  }
}

/** What the bank-transfer page shows: the shopper's own order (or any, for an admin). */
export async function bankTransferView(db: Queryable, orderId: string, viewer: { id: string; isAdmin: boolean }) {
  if (!isOrderId(orderId)) throw new DomainError("Order not found", 404);
  const order = await db
    .selectFrom("orders")
    .select(["id", "user_id", "status", "payment_status", "payment_method", "total_amount_cents", "gift_card_cents", "created_at"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order || order.payment_method !== "eft" || (!viewer.isAdmin && order.user_id !== viewer.id)) throw new DomainError("Order not found", 404);
  return {
    id: order.id,
    shortId: shortOrderId(order.id),
    reference: paymentReference(order.id),
    // what the bank transfer pays: the total less what gift cards paid (docs/decisions/053)
    amountCents: amountDueOfRow(order),
    status: order.status,
    paymentStatus: order.payment_status,
    heldUntil: holdDate(heldUntil(order.created_at)),
    bank: bankDetails(),
  };
}
