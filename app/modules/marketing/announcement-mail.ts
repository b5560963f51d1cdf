/**
 * An announcement as an e-mail (text and HTML), before the footer: sendMail adds the marketing footer (who sends it,
 * why the person gets it, one-click unsubscribe, preferences, privacy notice) and the List-Unsubscribe headers.
 * Pure: the products come in already read, with their absolute links. The owner's text is plain text: it is escaped,
 * blank lines make paragraphs and single line breaks stay line breaks.
 */
import { escapeHtml } from "~/modules/contact/contact.logic";
import { formatRand } from "~/utils/money";

export interface MailProduct {
  name: string;
  priceCents: number;
  /** the product page, absolute */
  url: string;
  /** its main image, absolute; null: none */
  imageUrl: string | null;
  /** "Inspired by Dior Sauvage", when the product names one */
  inspiredBy: string | null;
}

export interface AnnouncementContent {
  shopName: string;
  subject: string;
  body: string;
  products: MailProduct[];
}

function paragraphs(body: string): string[] {
  return body
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
}

export function announcementMail(content: AnnouncementContent): { subject: string; text: string; html: string } {
  const { shopName, subject, body, products } = content;
  const text = [
    body,
    ...(products.length ? ["", ...products.flatMap((p) => [`${p.name}${p.inspiredBy ? ` (${p.inspiredBy})` : ""}: ${formatRand(p.priceCents)}`, p.url, ""])] : [""]),
    shopName,
  ].join("\n");

  const serif = "Georgia,'Times New Roman',serif";
  const sans = "Helvetica,Arial,sans-serif";
  const bodyHtml = paragraphs(body)
    .map((p) => `<p style="margin:0 0 16px;font-family:${sans};font-size:15px;line-height:1.65;color:#4a403a">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
  const productHtml = products
    .map(
      (p) => `<tr><td style="padding:8px 32px 16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-top:1px solid #e8e0d6"><tr>
${p.imageUrl ? `<td width="112" style="padding:16px 16px 0 0;vertical-align:top"><a href="${escapeHtml(p.url)}"><img src="${escapeHtml(p.imageUrl)}" width="96" height="96" alt="${escapeHtml(p.name)}" style="display:block;width:96px;height:96px;object-fit:cover;border:0;background:#f7f3ee"></a></td>` : ""}
<td style="padding:16px 0 0;vertical-align:top">
<p style="margin:0;font-family:${serif};font-size:19px;color:#1c1714"><a href="${escapeHtml(p.url)}" style="color:#1c1714;text-decoration:none">${escapeHtml(p.name)}</a></p>
${p.inspiredBy ? `<p style="margin:4px 0 0;font-family:${sans};font-size:12px;letter-spacing:1px;text-transform:uppercase;color:#6b625b">${escapeHtml(p.inspiredBy)}</p>` : ""}
<p style="margin:8px 0 0;font-family:${sans};font-size:15px;color:#1c1714">${escapeHtml(formatRand(p.priceCents))}</p>
<p style="margin:12px 0 0"><a href="${escapeHtml(p.url)}" style="display:inline-block;padding:10px 18px;background:#1c1714;color:#fbf8f4;font-family:${sans};font-size:12px;letter-spacing:2px;text-transform:uppercase;text-decoration:none">Discover</a></p>
</td></tr></table>
</td></tr>`,
    )
    .join("\n");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f7f3ee">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f7f3ee"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e8e0d6">
<tr><td style="padding:28px 32px 0;font-family:${sans};font-size:12px;letter-spacing:4px;text-transform:uppercase;color:#8a6d3b">${escapeHtml(shopName)}</td></tr>
<tr><td style="padding:12px 32px 8px;font-family:${serif};font-size:28px;line-height:1.25;color:#1c1714">${escapeHtml(subject)}</td></tr>
<tr><td style="padding:12px 32px 4px">
${bodyHtml}
</td></tr>
${productHtml}
<tr><td style="padding:8px 32px 28px;font-family:${serif};font-size:15px;color:#1c1714">${escapeHtml(shopName)}</td></tr>
</table>
</td></tr></table>
</body></html>`;
  return { subject, text, html };
}
