import type { Transporter } from "nodemailer";
import type { Queryable } from "~/db/db.server";
import { getDb } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { withMailFooter, type MailKind } from "./mail-footer";
import { logger } from "~/utils/logger.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /**
   * "transactional" (order, payment, delivery: the footer links the e-mail preferences) or "marketing" (needs
   * unsubscribe: sender and unsubscribe link in the footer, the List-Unsubscribe headers of RFC 8058); unset:
   * the privacy notice's link only. See mail-footer.ts.
   */
  kind?: MailKind;
  /**
   * a marketing e-mail's signed unsubscribe addresses (app/modules/marketing/unsubscribe.server.ts): the page the
   * footer links, and the one-click address of its List-Unsubscribe header
   */
  unsubscribe?: { pageUrl: string; oneClickUrl: string };
  /** a marketing e-mail's "why you receive this" line, when it isn't the news-and-offers opt-in (wishlist e-mails) */
  reason?: string;
  /** the outbox row's id, when the caller must know it before the message is written (the announcement sender) */
  id?: string;
  /** files sent with it over SMTP (a gift card's printable PDF); the outbox keeps the text, not the files */
  attachments?: Array<{ filename: string; content: Uint8Array; contentType: string }>;
  /**
   * a single-use secret in the text (a staff invitation's token): with a mail server configured the outbox keeps the
   * message without it, so the database holds no working link (without one the outbox is the only copy, and keeps it)
   */
  secret?: string;
}

export interface SendResult {
  id: string;
  /** true when SMTP accepted it; false when it only sits in the outbox (no SMTP configured, or SMTP failed). */
  delivered: boolean;
  /** why it was not delivered, in words an owner can act on */
  error?: string;
}

export const NO_SMTP_REASON = "no mail server is configured (SMTP_URL), so the message waits in the outbox";

let transporter: { url: string; transport: Transporter } | undefined;
async function smtp(): Promise<Transporter | undefined> {
  const url = env().SMTP_URL;
  if (!url) return undefined;
  // nodemailer is loaded with the first e-mail, not at start (~0.15 s of CPU per server process; a shop without
  // SMTP_URL never needs it). One pooled connection setup per SMTP address (a changed SMTP_URL, as in tests, gets a
  // new transport).
  if (transporter?.url !== url) {
    const { default: nodemailer } = await import("nodemailer");
    if (transporter?.url !== url) transporter = { url, transport: nodemailer.createTransport(url) };
  }
  return transporter.transport;
}

let warnedNoSmtp = false;

/**
 * Sends an e-mail, with the privacy notice's link as its footer. Every message is recorded in mail_outbox (admins can read it; tests read links from it);
 * with SMTP_URL set it is also sent through nodemailer and stamped sent_at. Without SMTP a warning is logged once
 * per process and per message, and the message waits in the outbox. When SMTP refuses it, the row keeps the error and
 * is tried again later (mail-retries.server.ts), unless what it sent is not all in the row (a single-use link kept out
 * of it, or attachments): then the error stays for the owner to see.
 */
export async function sendMail(composed: MailMessage, db: Queryable = getDb()): Promise<SendResult> {
  // Every e-mail ends with the link to the privacy notice (docs/decisions/037), and its kind's lines (decision 039);
  // the outbox keeps it as sent.
  const config = env();
  const footer = { baseUrl: config.PUBLIC_BASE_URL, shopName: config.SHOP_NAME, legalName: config.SHOP_LEGAL_NAME, address: config.SHOP_ADDRESS, contactEmail: config.CONTACT_EMAIL };
  const message = withMailFooter(composed, footer, composed.kind, composed.unsubscribe?.pageUrl, composed.reason);
  const unsubscribe = composed.kind === "marketing" ? (composed.unsubscribe?.oneClickUrl ?? null) : null;
  const id = composed.id ?? newId();
  const transport = await smtp();
  const kept = (text: string | undefined) => (transport && composed.secret && text ? text.replaceAll(composed.secret, "[removed: a single-use link]") : text);
  await db
    .insertInto("mail_outbox")
    .values({ id, to_address: message.to, subject: message.subject, text_body: kept(message.text)!, html_body: kept(message.html) ?? null, list_unsubscribe: unsubscribe, reply_to: message.replyTo ?? null })
    .execute();

  if (!transport) {
    if (!warnedNoSmtp) logger.warn("SMTP_URL is not configured: e-mails are kept in the mail_outbox table and not sent");
    warnedNoSmtp = true;
    logger.warn({ outboxId: id, subject: message.subject }, "e-mail stored in outbox, not sent (no SMTP configured)");
    return { id, delivered: false, error: NO_SMTP_REASON };
  }
  try {
    await smtpSend(transport, { to: message.to, subject: message.subject, text: message.text, html: message.html, replyTo: message.replyTo, unsubscribe, attachments: composed.attachments });
    await db.updateTable("mail_outbox").set({ sent_at: new Date().toISOString(), attempts: 1 }).where("id", "=", id).execute();
    return { id, delivered: true };
  } catch (error) {
    const reason = String((error as Error).message ?? error).slice(0, 500);
    const retryable = isTemporaryRefusal(error) && !composed.secret && !composed.attachments?.length;
    const retryAt = retryable ? nextMailRetryAt(1) : null;
    logger.error({ err: error, outboxId: id, retryAt }, retryAt ? "SMTP send failed; kept in the outbox and tried again later" : "SMTP send failed; message kept in outbox");
    await db.updateTable("mail_outbox").set({ error: reason, attempts: 1, retry_at: retryAt }).where("id", "=", id).execute();
    return { id, delivered: false, error: reason };
  }
}

/** What one SMTP send carries: a new message's fields, or a stored row's when it is tried again. */
export interface SmtpMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  replyTo?: string | null;
  /** the one-click unsubscribe address of a marketing e-mail */
  unsubscribe?: string | null;
  attachments?: MailMessage["attachments"];
}

/** Sends one message through the configured SMTP server, from MAIL_FROM; throws what SMTP answered. */
export async function smtpSend(transport: Transporter, m: SmtpMessage): Promise<void> {
  await transport.sendMail({
    from: env().MAIL_FROM,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html ?? undefined,
    replyTo: m.replyTo ?? undefined,
    attachments: m.attachments?.map((a) => ({ filename: a.filename, content: Buffer.from(a.content), contentType: a.contentType })),
    // RFC 8058 one-click unsubscribe: the mail program posts "List-Unsubscribe=One-Click" to this address.
    ...(m.unsubscribe ? { list: { unsubscribe: m.unsubscribe }, headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } } : {}),
  });
}

/** The configured SMTP transport, or undefined without SMTP_URL. */
export function smtpTransport(): Promise<Transporter | undefined> {
  return smtp();
}

/**
 * How long after its n-th failed try a message is tried again: a minute, 5, 15, an hour, 4 hours; after the sixth
 * try it is given up (its error stays, for the owner to see in Admin → Inbox). About 5½ hours in all: a mail server
 * down for an afternoon loses nothing.
 */
export const MAIL_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 4 * 60 * 60_000] as const;

/**
 * Worth trying again: the mail server could not be reached, or answered 4xx ("try again later": greylisting, a full
 * queue). A 5xx is its final word (no such mailbox, refused as spam): sending the same again would only be refused again.
 */
export function isTemporaryRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code !== "number" || (code >= 400 && code < 500);
}

/** When the try after `attempts` failed ones is due, or null once they are all used. */
export function nextMailRetryAt(attempts: number, now: Date = new Date()): string | null {
  const delay = MAIL_RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay).toISOString();
}
