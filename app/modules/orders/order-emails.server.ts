import type { Queryable } from "~/db/db.server";
import { sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { formatRand } from "~/utils/money";
import { listOrderLines } from "./order-read.server";

/**
 * E-mails once a payment is verified: the customer's order confirmation (always sent, whatever their e-mail
 * preferences: the terms say order confirmations are not optional) and the shop's new-order notice.
 * Called after the payment transaction committed, only by the delivery that actually marked the order paid.
 */
export async function sendOrderPaidEmails(db: Queryable, orderId: string): Promise<void> {
  const order = await db
    .selectFrom("orders")
    .leftJoin("users", "users.id", "orders.user_id")
    .select([
      "orders.id",
      "orders.subtotal_cents",
      "orders.discount_amount_cents",
      "orders.shipping_cents",
      "orders.total_amount_cents",
      "orders.coupon_code",
      "orders.shipping_address",
      "users.email as email",
    ])
    .where("orders.id", "=", orderId)
    .executeTakeFirst();
  if (!order) return;
  const lines = await listOrderLines(db, orderId);

  const config = env();
  const short = shortOrderId(order.id);
  const address = order.shipping_address;
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const lineText = lines.map((l) => `- ${l.name}: ${l.quantity} x ${formatRand(l.unitPriceCents)} = ${formatRand(l.totalPriceCents)}`);
  const totals = [
    `Subtotal: ${formatRand(order.subtotal_cents)}`,
    ...(order.discount_amount_cents > 0 ? [`Discount${order.coupon_code ? ` (${order.coupon_code})` : ""}: -${formatRand(order.discount_amount_cents)}`] : []),
    `Shipping: ${order.shipping_cents === 0 ? "Free" : formatRand(order.shipping_cents)}`,
    `Total: ${formatRand(order.total_amount_cents)}`,
  ];
  const deliverTo = [address.name, address.street, address.suburb, address.city, address.postalCode, address.province].filter(Boolean).join(", ");

  if (order.email) {
    await safely(orderId, "customer confirmation", () =>
      sendMail(
        {
          to: order.email!,
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
        subject: `New order ${short}: ${formatRand(order.total_amount_cents)}`,
        text: [
          `A new order has been paid: ${short} (${order.id}).`,
          `Customer: ${address.name} <${order.email ?? "unknown"}>, ${address.telephone}`,
          "",
          ...lineText,
          "",
          ...totals,
          "",
          `Deliver to: ${deliverTo}`,
          "",
          `Manage it in ${base}/admin/orders`,
        ].join("\n"),
        ...(order.email ? { replyTo: order.email } : {}),
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
