import type { Queryable } from "~/db/db.server";
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
 * A small sliding-window limit on contact messages per client address (in this process): a person never notices it,
 * a script flooding the shop's inbox does. Beyond the limit the form shows its usual failure message.
 */
export class ContactRateLimiter {
  private hits = new Map<string, number[]>();

  constructor(
    readonly limit = 8,
    readonly windowMs = 10 * 60 * 1000,
    private now: () => number = Date.now,
  ) {}

  /** Records an attempt from `key`; false when it is over the limit. */
  allow(key: string): boolean {
    const t = this.now();
    const recent = (this.hits.get(key) ?? []).filter((at) => t - at < this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return false;
    }
    recent.push(t);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.prune(t);
    return true;
  }

  private prune(t: number) {
    for (const [key, times] of this.hits) if (times.every((at) => t - at >= this.windowMs)) this.hits.delete(key);
  }
}

export const contactRateLimiter = new ContactRateLimiter();
