import nodemailer, { type Transporter } from "nodemailer";
import type { Queryable } from "~/db/db.server";
import { getDb } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { withPrivacyFooter } from "./mail-footer";
import { logger } from "~/utils/logger.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
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
function smtp(): Transporter | undefined {
  const url = env().SMTP_URL;
  if (!url) return undefined;
  // One pooled connection setup per SMTP address (a changed SMTP_URL, as in tests, gets a new transport).
  if (transporter?.url !== url) transporter = { url, transport: nodemailer.createTransport(url) };
  return transporter.transport;
}

let warnedNoSmtp = false;

/**
 * Sends an e-mail, with the privacy notice's link as its footer. Every message is recorded in mail_outbox (admins can read it; tests read links from it);
 * with SMTP_URL set it is also sent through nodemailer and stamped sent_at. Without SMTP a warning is logged once
 * per process and per message, and the message waits in the outbox.
 */
export async function sendMail(composed: MailMessage, db: Queryable = getDb()): Promise<SendResult> {
  // Every e-mail ends with the link to the privacy notice (docs/decisions/037); the outbox keeps it as sent.
  const message = withPrivacyFooter(composed, env().PUBLIC_BASE_URL);
  const id = newId();
  await db
    .insertInto("mail_outbox")
    .values({ id, to_address: message.to, subject: message.subject, text_body: message.text, html_body: message.html ?? null })
    .execute();

  const transport = smtp();
  if (!transport) {
    if (!warnedNoSmtp) logger.warn("SMTP_URL is not configured: e-mails are kept in the mail_outbox table and not sent");
    warnedNoSmtp = true;
    logger.warn({ outboxId: id, subject: message.subject }, "e-mail stored in outbox, not sent (no SMTP configured)");
    return { id, delivered: false, error: NO_SMTP_REASON };
  }
  try {
    await transport.sendMail({ from: env().MAIL_FROM, to: message.to, subject: message.subject, text: message.text, html: message.html, replyTo: message.replyTo });
    await db.updateTable("mail_outbox").set({ sent_at: new Date().toISOString() }).where("id", "=", id).execute();
    return { id, delivered: true };
  } catch (error) {
    logger.error({ err: error, outboxId: id }, "SMTP send failed; message kept in outbox");
    const reason = String((error as Error).message ?? error).slice(0, 500);
    await db.updateTable("mail_outbox").set({ error: reason }).where("id", "=", id).execute();
    return { id, delivered: false, error: reason };
  }
}
