/**
 * The footer every e-mail of the shop ends with: a link to the privacy notice (POPIA s18; docs/decisions/037).
 * Added in one place, sendMail(), so no message can go out without it, and the outbox keeps what was sent.
 */
export interface MailBody {
  text: string;
  html?: string;
}

/** The plain-text footer: the standard signature separator ("-- "), then the link. */
export function privacyFooterText(baseUrl: string): string {
  return `-- \nHow we handle your personal information: ${privacyUrl(baseUrl)}`;
}

export function privacyUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/privacy`;
}

/** The body with the footer appended to its text and, when it has one, to its HTML (before </body> if present). */
export function withPrivacyFooter<T extends MailBody>(message: T, baseUrl: string): T {
  const url = privacyUrl(baseUrl);
  const text = `${message.text.replace(/\s+$/, "")}\n\n${privacyFooterText(baseUrl)}`;
  if (message.html === undefined) return { ...message, text };
  const footer = `<p style="margin-top:24px;border-top:1px solid #ddd;padding-top:12px;color:#777;font-size:12px">How we handle your personal information: <a href="${escapeAttr(url)}">our privacy notice</a></p>`;
  const html = /<\/body>/i.test(message.html) ? message.html.replace(/<\/body>/i, `${footer}\n</body>`) : `${message.html}\n${footer}`;
  return { ...message, text, html };
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * What an e-mail is, for its footer (docs/decisions/039):
 * - unset: the privacy notice's link only (account e-mails, the shop's own notices);
 * - "transactional" (order, payment, delivery): also the link to the person's e-mail preferences;
 * - "marketing": also who sends it and how to reach them (POPIA s69(4)(a)), why the person gets it, and the one-click
 *   unsubscribe link (s69(4)(b); the same address as its List-Unsubscribe header, RFC 8058).
 */
export type MailKind = "transactional" | "marketing";

export interface FooterContext {
  baseUrl: string;
  shopName: string;
  /** the registered name (SHOP_LEGAL_NAME), when set */
  legalName?: string;
  /** the shop's address lines (SHOP_ADDRESS) */
  address: string[];
  contactEmail: string;
}

export function preferencesUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/profile/preferences`;
}

/** Who sends a marketing e-mail: "Scentara (Pty) Ltd, trading as Scentara, 12 Main Road, Cape Town". */
export function senderIdentity(ctx: FooterContext): string {
  const name = ctx.legalName && ctx.legalName !== ctx.shopName ? `${ctx.legalName}, trading as ${ctx.shopName}` : ctx.shopName;
  return [name, ...ctx.address].join(", ");
}

/** The footer lines of a kind of e-mail, as text and as link-bearing parts (the privacy notice's line comes last). */
function footerLines(kind: MailKind | undefined, ctx: FooterContext, unsubscribeUrl?: string, reason?: string): Array<{ text: string; link?: { label: string; url: string } }> {
  const lines: Array<{ text: string; link?: { label: string; url: string } }> = [];
  if (kind === "marketing") {
    if (!unsubscribeUrl) throw new Error("a marketing e-mail needs its unsubscribe link");
    lines.push({ text: `Sent by ${senderIdentity(ctx)} (${ctx.baseUrl.replace(/\/+$/, "")}).` });
    lines.push({ text: reason ?? `You receive this because you asked for news and offers from ${ctx.shopName}.` });
    lines.push({ text: "Unsubscribe (one click, no sign-in):", link: { label: "unsubscribe", url: unsubscribeUrl } });
    lines.push({ text: `Or write to ${ctx.contactEmail} to stop these e-mails.` });
  }
  if (kind) lines.push({ text: "Your e-mail preferences:", link: { label: "your e-mail preferences", url: preferencesUrl(ctx.baseUrl) } });
  return lines;
}

/**
 * The body with its kind's footer: withPrivacyFooter's line, after the kind's own lines (see MailKind). For no kind it
 * is exactly withPrivacyFooter.
 */
export function withMailFooter<T extends MailBody>(message: T, ctx: FooterContext, kind?: MailKind, unsubscribeUrl?: string, reason?: string): T {
  const lines = footerLines(kind, ctx, unsubscribeUrl, reason);
  const withPrivacy = withPrivacyFooter(message, ctx.baseUrl);
  if (lines.length === 0) return withPrivacy;
  const textLines = lines.map((l) => (l.link ? `${l.text} ${l.link.url}` : l.text));
  const text = `${message.text.replace(/\s+$/, "")}\n\n-- \n${textLines.join("\n")}\n${privacyFooterText(ctx.baseUrl).slice("-- \n".length)}`;
  if (message.html === undefined) return { ...withPrivacy, text };
  const all = [...lines, { text: "How we handle your personal information:", link: { label: "our privacy notice", url: privacyUrl(ctx.baseUrl) } }];
  const html = all
    .map((l) => `<p style="margin:4px 0;color:#5f5a55;font-family:Helvetica,Arial,sans-serif;font-size:12px;line-height:1.5">${escapeText(l.text)}${l.link ? ` <a href="${escapeAttr(l.link.url)}" style="color:#1c1714;text-decoration:underline">${escapeText(l.link.label)}</a>` : ""}</p>`)
    .join("\n");
  const footer = `<div style="max-width:560px;margin:24px auto 0;border-top:1px solid #ddd;padding:12px 12px 24px">\n${html}\n</div>`;
  return { ...withPrivacy, text, html: /<\/body>/i.test(message.html) ? message.html.replace(/<\/body>/i, `${footer}\n</body>`) : `${message.html}\n${footer}` };
}

function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
