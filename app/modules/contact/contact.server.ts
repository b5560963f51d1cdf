import { getDb, type Queryable } from "~/db/db.server";
import { addressKey, consume, type RateRule } from "~/modules/accounts/rate-limit.server";
import { sendMail } from "~/modules/mail/mailer.server";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { contactMail } from "./contact.logic";
import type { ContactInput } from "./contact.schema";

export interface ContactOptions {
  /** The shop's address (CONTACT_EMAIL). */
  to: string;
  shopName: string;
  now?: Date;
}

/**
 * Stores a validated contact message and e-mails it to the shop, with the sender as reply-to.
 * The message is stored first: once that succeeded the shop has it, even if the e-mail has to wait in the outbox.
 */
export async function submitContactMessage(db: Queryable, input: ContactInput, options: ContactOptions): Promise<{ id: string }> {
  const now = options.now ?? new Date();
  const id = newId();
  await db
    .insertInto("contact_messages")
    .values({ id, name: input.name, email: input.email, message: input.message, created_at: now.toISOString() })
    .execute();

  const mail = contactMail(input, now, options.shopName);
  try {
    await sendMail({ to: options.to, subject: mail.subject, text: mail.text, html: mail.html, replyTo: input.email }, db);
  } catch (error) {
    // The message is stored and visible to staff; a mail failure must not make the customer send it twice.
    logger.error({ err: error, contactMessageId: id }, "contact message stored but its e-mail could not be queued");
  }
  return { id };
}

/**
 * A small limit on contact messages per client address: a person never notices it, a script flooding the shop's inbox
 * does. Counted in the database (the rate_limits table's fixed-window counters, rate-limit.server.ts), so it holds
 * across every worker and server and over restarts. Beyond the limit the form shows its usual failure message.
 */
export const CONTACT_RATE_RULE: RateRule = { max: 8, windowMs: 10 * 60 * 1000 };

export const contactRateLimiter = {
  limit: CONTACT_RATE_RULE.max,
  windowMs: CONTACT_RATE_RULE.windowMs,
  /** Counts a message from this client address; false when it is over the limit. */
  async allow(ip: string, db: Queryable = getDb(), now = Date.now()): Promise<boolean> {
    const result = await consume(db, `contact:ip:${addressKey(ip)}`, CONTACT_RATE_RULE, now);
    return result.allowed;
  },
};
