/**
 * A reminder's content and its e-mail (docs/decisions/056). `ReminderContent` says what any channel needs (the shop,
 * the items with their sizes, the one link, and why); `reminderMail` renders it as an e-mail before the footer —
 * sendMail adds the marketing footer (who sends it, why, one-click unsubscribe, preferences, privacy notice) and the
 * List-Unsubscribe headers of RFC 8058. A WhatsApp reminder renders the same content as its template's parameters.
 * Pure: no I/O.
 */
import { escapeHtml } from "~/modules/contact/contact.logic";
import { formatRand } from "~/utils/money";

export interface ReminderItem {
  /** the name with its size: "Velvet Rose (50 ml)" */
  name: string;
  quantity: number;
  /** the line's price: today's for a cart, as placed for an order */
  lineTotalCents: number;
}

export interface ReminderContent {
  kind: "cart" | "order";
  shopName: string;
  /** the greeting's name; empty: "there" */
  name: string;
  items: ReminderItem[];
  /** the order's total as placed (order reminders) */
  totalCents: number | null;
  /** "#A1B2C3D4" (order reminders) */
  orderRef: string | null;
  /** restores the cart, or reopens the order's payment; absolute */
  url: string;
}

export function reminderSubject(content: ReminderContent): string {
  return content.kind === "cart"
    ? `${content.shopName}: your cart is saved for you`
    : `${content.shopName}: your order ${content.orderRef ?? ""} is waiting for payment`;
}

function wording(content: ReminderContent): { intro: string; button: string; after: string } {
  if (content.kind === "cart") {
    return {
      intro: "You left these in your cart. We kept them for you: the link below puts them back in your cart, on any device.",
      button: "Back to my cart",
      after: "Prices and stock are checked again in the cart, as always.",
    };
  }
  return {
    intro: `Your order ${content.orderRef ?? ""} is placed but not paid yet. It is held for you a little longer: the link below opens its payment again.`,
    button: "Pay for my order",
    after: "If you have paid already, thank you: there is nothing more to do.",
  };
}

export function reminderMail(content: ReminderContent): { subject: string; text: string; html: string } {
  const subject = reminderSubject(content);
  const w = wording(content);
  const itemLine = (i: ReminderItem) => `${i.quantity} × ${i.name}: ${formatRand(i.lineTotalCents)}`;
  const text = [
    `Hi ${content.name || "there"},`,
    "",
    w.intro,
    "",
    ...content.items.map((i) => `- ${itemLine(i)}`),
    ...(content.totalCents !== null ? [`Total: ${formatRand(content.totalCents)}`] : []),
    "",
    `${w.button}: ${content.url}`,
    "",
    w.after,
    "",
    content.shopName,
  ].join("\n");

  const serif = "Georgia,'Times New Roman',serif";
  const sans = "Helvetica,Arial,sans-serif";
  const rows = content.items
    .map(
      (i) =>
        `<tr><td style="padding:10px 0;border-top:1px solid #e8e0d6;font-family:${sans};font-size:15px;color:#1c1714">${i.quantity} × ${escapeHtml(i.name)}</td><td align="right" style="padding:10px 0;border-top:1px solid #e8e0d6;font-family:${sans};font-size:15px;color:#1c1714;white-space:nowrap">${escapeHtml(formatRand(i.lineTotalCents))}</td></tr>`,
    )
    .join("\n");
  const total =
    content.totalCents !== null
      ? `<tr><td style="padding:10px 0;border-top:1px solid #1c1714;font-family:${sans};font-size:15px;font-weight:bold">Total</td><td align="right" style="padding:10px 0;border-top:1px solid #1c1714;font-family:${sans};font-size:15px;font-weight:bold;white-space:nowrap">${escapeHtml(formatRand(content.totalCents))}</td></tr>`
      : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f7f3ee">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f7f3ee"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e8e0d6">
<tr><td style="padding:28px 32px 0;font-family:${sans};font-size:12px;letter-spacing:4px;text-transform:uppercase;color:#8a6d3b">${escapeHtml(content.shopName)}</td></tr>
<tr><td style="padding:12px 32px 8px;font-family:${serif};font-size:26px;line-height:1.25;color:#1c1714">${escapeHtml(subject)}</td></tr>
<tr><td style="padding:12px 32px 4px">
<p style="margin:0 0 16px;font-family:${sans};font-size:15px;line-height:1.65;color:#4a403a">Hi ${escapeHtml(content.name || "there")},</p>
<p style="margin:0 0 16px;font-family:${sans};font-size:15px;line-height:1.65;color:#4a403a">${escapeHtml(w.intro)}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
${rows}
${total}
</table>
<p style="margin:24px 0 8px"><a href="${escapeHtml(content.url)}" style="display:inline-block;padding:12px 22px;background:#1c1714;color:#fbf8f4;font-family:${sans};font-size:13px;letter-spacing:2px;text-transform:uppercase;text-decoration:none">${escapeHtml(w.button)}</a></p>
<p style="margin:8px 0 16px;font-family:${sans};font-size:13px;line-height:1.6;color:#6b625b">${escapeHtml(w.after)}</p>
</td></tr>
<tr><td style="padding:8px 32px 28px;font-family:${serif};font-size:15px;color:#1c1714">${escapeHtml(content.shopName)}</td></tr>
</table>
</td></tr></table>
</body></html>`;
  return { subject, text, html };
}
