/**
 * The messages that follow an order's changes, sent after the change has committed (a failed message never undoes
 * it): the paid e-mails (customer and shop), the status e-mails, the WhatsApp updates (queued in their outbox), and
 * the e-mails of gift cards bought (gift cards' own due list). The flows queue them as reactions in their transaction
 * (flows/reactions.server.ts), which run these once it has committed.
 */
import { couponDiscountCents } from "~/modules/pricing/totals.logic";
import type { Queryable } from "~/db/db.server";
import type { OrderStatus } from "~/db/schema";
import { NO_SMTP_REASON, sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { formatRand } from "~/utils/money";
import { formatInvoiceNumber, invoicePath } from "~/modules/invoices/invoice.logic";
import { queueOrderUpdate } from "~/modules/whatsapp/outbox.server";
import { whatsappEmailLines } from "~/modules/whatsapp/stop-link.server";
import { readOrder } from "~/modules/samples/order-view.server";
import { sendDueGiftCardEmails } from "~/modules/gift-cards/gift-card-sales.server";

/**
 * E-mails once a payment is verified: the customer's order confirmation (always sent, whatever their e-mail
 * preferences: the terms say order confirmations are not optional) and the shop's new-order notice.
 * Called after the payment transaction committed, only by the delivery that actually marked the order paid.
 */
export async function sendOrderPaidEmails(db: Queryable, orderId: string): Promise<void> {
  const order = await readOrder(db, orderId);
  if (!order) return;
  const customer = order.userId ? await db.selectFrom("users").select("email").where("id", "=", order.userId).executeTakeFirst() : undefined;
  const email = customer?.email ?? null;
  const lines = order.lines;
  // A bank transfer the owner confirmed: the shopper has been waiting to hear that the money arrived.
  const byTransfer = (await db.selectFrom("orders").select("payment_method").where("id", "=", orderId).executeTakeFirst())?.payment_method === "eft";

  const config = env();
  const short = shortOrderId(order.id);
  const address = order.shippingAddress;
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const lineText = lines.map((l) => `- ${l.name}: ${l.quantity} x ${formatRand(l.unitPriceCents)} = ${formatRand(l.totalPriceCents)}`);
  const totals = [
    `Subtotal: ${formatRand(order.subtotalCents)}`,
    ...(couponDiscountCents(order) > 0 ? [`Discount${order.couponCode ? ` (${order.couponCode})` : ""}: -${formatRand(couponDiscountCents(order))}`] : []),
    ...(order.referralCents > 0 ? [`Friend's welcome reward: -${formatRand(order.referralCents)}`] : []),
    ...(order.sampleCreditCents > 0 ? [`${order.sampleCreditLabel ?? "Sample credit"}: -${formatRand(order.sampleCreditCents)}`] : []),
    ...(order.pointsCents > 0 ? [`Reward points (${order.pointsUsed}): -${formatRand(order.pointsCents)}`] : []),
    `Shipping: ${order.shippingCents === 0 ? "Free" : formatRand(order.shippingCents)}`,
    `Total: ${formatRand(order.totalAmountCents)}`,
  ];
  const deliverTo = [address.name, address.street, address.suburb, address.city, address.postalCode, address.province].filter(Boolean).join(", ");

  let confirmationId: string | undefined;
  if (email) {
    const whatsapp = await whatsappEmailLines(db, order.userId);
    await safely(orderId, "customer confirmation", async () =>
      ({ id: confirmationId } = await sendMail(
        {
          to: email,
          subject: byTransfer ? `${config.SHOP_NAME}: payment received for order ${short}` : `${config.SHOP_NAME}: order ${short} confirmed`,
          text: [
            `Hi ${address.name || "there"},`,
            "",
            byTransfer
              ? `Your bank transfer has reached us: thank you. Your order ${short} is now being prepared.`
              : `Thank you for your order. We have received your payment and your order ${short} is now being processed.`,
            "",
            ...lineText,
            "",
            ...totals,
            "",
            `Delivering to: ${deliverTo}`,
            "",
            "You will receive tracking details by e-mail once your order ships.",
            `Order details: ${base}/order-confirmation?id=${order.id}`,
            // Allocated in the payment's transaction, so a paid order has it (docs/decisions/019).
            ...(order.invoiceNumber !== null ? [`Your invoice: ${base}${invoicePath(order.id)}`] : []),
            ...whatsapp,
            "",
            config.SHOP_NAME,
          ].join("\n"),
          kind: "transactional",
        },
        db,
      )),
    );
  } else {
    logger.warn({ orderId }, "order paid but its customer has no e-mail address on record; confirmation not sent");
  }

  await safely(orderId, "shop notice", () =>
    sendMail(
      {
        to: config.CONTACT_EMAIL,
        subject: `New order ${short}: ${formatRand(order.totalAmountCents)}`,
        text: [
          `A new order has been paid: ${short} (${order.id}).`,
          `Customer: ${address.name} <${email ?? "unknown"}>, ${address.telephone}`,
          "",
          ...lineText,
          "",
          ...totals,
          "",
          `Deliver to: ${deliverTo}`,
          "",
          ...(order.invoiceNumber !== null ? [`Invoice ${formatInvoiceNumber(order.invoiceNumber, config.INVOICE_PREFIX)}: ${base}${invoicePath(order.id)}`] : []),
          `Manage it in ${base}/admin/orders`,
        ].join("\n"),
        ...(email ? { replyTo: email } : {}),
      },
      db,
    ),
  );
  // the same news on WhatsApp, for a customer who opted in; this e-mail covers it if it fails
  await queueOrderUpdate(db, orderId, "payment_received", { emailId: confirmationId });
  // Gift cards it bought for today go now; later ones on their day (the send-gift-cards job, which also retries these).
  await safely(orderId, "gift cards", () => sendDueGiftCardEmails(db, { orderId }));
}

async function safely(orderId: string, what: string, fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (error) {
    // The payment is recorded; a failed e-mail must not turn the webhook into a failure the provider retries.
    logger.error({ err: error, orderId }, `order e-mail failed: ${what}`);
  }
}

/** What the customer reads for each status (the spec's send-order-status-email). */
const STATUS_WORDS: Record<OrderStatus, { subject: string; body: string }> = {
  pending: { subject: "is waiting for payment", body: "We have your order, but its payment has not reached us yet." },
  processing: { subject: "is being prepared", body: "Your payment is confirmed and we are preparing your order." },
  shipped: { subject: "is on its way", body: "Your order has left us and is with the courier. Delivery takes 2 to 7 working days." },
  delivered: { subject: "has been delivered", body: "Your order has been delivered. We hope you love it. Damage must be reported within 48 hours of delivery." },
  cancelled: { subject: "has been cancelled", body: "Your order has been cancelled. If you paid for it, the refund follows; reply to this e-mail with any questions." },
};

/** Not sent: why, in the owner's words, and the HTTP status that fits (404 no order, 409 no address or no mail server configured, 502 the mail server failed). */
export type StatusEmailResult = { sent: true } | { sent: false; reason: string; status: 404 | 409 | 502 };

/**
 * The order's current status, to its customer (SPEC §7 send-order-status-email, old status 'manual' when the owner
 * presses the button; 'shipped' mails carry the tracking number). Order e-mails are not optional (the terms), so the
 * customer's notification preference is not consulted. Answers why it was not delivered, for the owner.
 */
export async function sendOrderStatusEmail(db: Queryable, orderId: string, options: { oldStatus: OrderStatus | "manual" }): Promise<StatusEmailResult> {
  const order = await db
    .selectFrom("orders")
    .leftJoin("users", "users.id", "orders.user_id")
    .select(["orders.id", "orders.status", "orders.tracking_number", "orders.total_amount_cents", "orders.shipping_address", "users.email"])
    .where("orders.id", "=", orderId)
    .executeTakeFirst();
  if (!order) return { sent: false, reason: "the order no longer exists", status: 404 };
  if (!order.email) return { sent: false, reason: "the customer has no e-mail address on record", status: 409 };
  const config = env();
  const short = shortOrderId(order.id);
  const words = STATUS_WORDS[order.status];
  const shipment = order.status === "shipped" ? await db.selectFrom("shipments").select(["tracking_url", "is_test"]).where("order_id", "=", order.id).where("status", "<>", "cancelled").executeTakeFirst() : undefined;
  const tracking =
    order.status === "shipped" && order.tracking_number
      ? [``, `Tracking number: ${order.tracking_number}`, ...(shipment?.tracking_url && !shipment.is_test ? [`Track it with the courier: ${shipment.tracking_url}`] : [])]
      : [];
  const result = await sendMail(
    {
      to: order.email,
      subject: `${config.SHOP_NAME}: your order ${short} ${words.subject}`,
      text: [
        `Hi ${order.shipping_address.name || "there"},`,
        "",
        words.body,
        ...tracking,
        "",
        `Order ${short}, total ${formatRand(Number(order.total_amount_cents))}.`,
        `Order details and tracking: ${config.PUBLIC_BASE_URL.replace(/\/+$/, "")}/order-confirmation?id=${order.id}`,
        "",
        config.SHOP_NAME,
      ].join("\n"),
      replyTo: config.CONTACT_EMAIL,
      // the footer links the e-mail preferences (mail-footer.ts)
      kind: "transactional",
    },
    db,
  );
  logger.info({ orderId, status: order.status, oldStatus: options.oldStatus, delivered: result.delivered }, "order status e-mail");
  if (result.delivered) return { sent: true };
  // No mail server configured is the shop's set-up, not a failure of the moment: 409, like a missing address.
  return { sent: false, reason: result.error ?? "the mail server refused it", status: result.error === NO_SMTP_REASON ? 409 : 502 };
}

/** A shipped order's e-mail (with its tracking number); a failure is logged: the change it follows stands. */
export async function sendShippedEmail(db: Queryable, orderId: string, oldStatus: OrderStatus): Promise<void> {
  try {
    const result = await sendOrderStatusEmail(db, orderId, { oldStatus });
    if (!result.sent) logger.warn({ orderId, reason: result.reason }, "shipped e-mail not delivered");
  } catch (error) {
    logger.error({ err: error, orderId }, "shipped e-mail failed");
  }
}
