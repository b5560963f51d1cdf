import type { Queryable } from "~/db/db.server";
import { sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { formatRand } from "~/utils/money";
import { readOrder } from "./order-read.server";

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

  const config = env();
  const short = shortOrderId(order.id);
  const address = order.shippingAddress;
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const lineText = lines.map((l) => `- ${l.name}: ${l.quantity} x ${formatRand(l.unitPriceCents)} = ${formatRand(l.totalPriceCents)}`);
  const totals = [
    `Subtotal: ${formatRand(order.subtotalCents)}`,
    ...(order.discountCents > 0 ? [`Discount${order.couponCode ? ` (${order.couponCode})` : ""}: -${formatRand(order.discountCents)}`] : []),
    `Shipping: ${order.shippingCents === 0 ? "Free" : formatRand(order.shippingCents)}`,
    `Total: ${formatRand(order.totalAmountCents)}`,
  ];
  const deliverTo = [address.name, address.street, address.suburb, address.city, address.postalCode, address.province].filter(Boolean).join(", ");

  if (email) {
    await safely(orderId, "customer confirmation", () =>
      sendMail(
        {
          to: email,
          subject: `${config.SHOP_NAME}: order ${short} confirmed`,
          text: [
            `Hi ${address.name || "there"},`,
            "",
            `Thank you for your order. We have received your payment and your order ${short} is now being processed.`,
            "",
            ...lineText,
            "",
            ...totals,
            "",
            `Delivering to: ${deliverTo}`,
            "",
            "You will receive tracking details by e-mail once your order ships.",
            `Order details: ${base}/order-confirmation?id=${order.id}`,
            "",
            config.SHOP_NAME,
          ].join("\n"),
        },
        db,
      ),
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
          `Manage it in ${base}/admin/orders`,
        ].join("\n"),
        ...(email ? { replyTo: email } : {}),
      },
      db,
    ),
  );
}

async function safely(orderId: string, what: string, fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (error) {
    // The payment is recorded; a failed e-mail must not turn the webhook into a failure the provider retries.
    logger.error({ err: error, orderId }, `order e-mail failed: ${what}`);
  }
}
