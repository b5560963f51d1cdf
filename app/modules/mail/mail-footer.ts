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
