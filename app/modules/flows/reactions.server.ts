/**
 * What follows a flow's commit, by kind: the messages an order's payment, shipping, delivery, expiry or refund sends.
 * Each flow writes its reactions in its own transaction (reactions/reaction-queue.server.ts: a transactional outbox,
 * docs/decisions/061) and delivers them right after the commit with `deliverReactions`; the `deliver-reactions` job
 * (server/jobs.ts) delivers any a stopped process left, and tries a failed one again.
 *
 * A handler reads what it sends from the database when it runs, so a reaction row holds only the order or return
 * and a few facts of the change (a status before it, an amount): no message text, no address, no secret.
 */
import { getDb, type Queryable } from "~/db/db.server";
import type { OrderStatus } from "~/db/schema";
import { sendBankTransferExpired } from "~/modules/payments/bank-transfer.server";
import { enqueueReaction, runDueReactions, runReactions, type Reaction, type ReactionRun, type ReactionTicket } from "~/modules/reactions/reaction-queue.server";
import { sendReturnEmails } from "~/modules/returns/return-emails.server";
import { queueOrderUpdate } from "~/modules/whatsapp/outbox.server";
import { afterCommitAsync } from "~/utils/after-commit.server";
import { logger } from "~/utils/logger.server";
import { sendOrderPaidEmails, sendShippedEmail } from "./order-messages.server";

/** Each kind's work and the details it is queued with. */
interface ReactionKinds {
  /** a payment verified or confirmed by the owner: the confirmation, the shop's notice, WhatsApp, gift cards bought */
  order_paid: Record<string, never>;
  /** shipped with a tracking number (or the number added later): the customer's e-mail */
  order_shipped: { oldStatus: OrderStatus };
  /** delivered: the WhatsApp update, for a customer who opted in */
  order_delivered: { at: string };
  /** an unpaid bank transfer let go by the expiry: a word to the shopper */
  bank_transfer_expired: Record<string, never>;
  /** a return refunded: its e-mails and the refund on WhatsApp */
  return_refunded: { orderId: string; amountCents: number; how: string; at: string };
  /** the provider could not pay a refund: the owner pays it by EFT, the shopper hears so */
  refund_payout_failed: Record<string, never>;
}
export type ReactionKind = keyof ReactionKinds;

const HANDLERS: { [K in ReactionKind]: (db: Queryable, subjectId: string, details: ReactionKinds[K]) => Promise<void> } = {
  order_paid: (db, orderId) => sendOrderPaidEmails(db, orderId),
  order_shipped: (db, orderId, d) => sendShippedEmail(db, orderId, d.oldStatus),
  order_delivered: async (db, orderId, d) => void (await queueOrderUpdate(db, orderId, "delivered", {}, new Date(d.at))),
  bank_transfer_expired: (db, orderId) => sendBankTransferExpired(db, orderId),
  return_refunded: async (db, returnId, d) => {
    const emailId = await sendReturnEmails(db, returnId, "refunded");
    // the refund on WhatsApp, for a customer who opted in (the e-mail covers it if it fails)
    await queueOrderUpdate(db, d.orderId, "refunded", { returnId, amountCents: d.amountCents, how: d.how, emailId }, new Date(d.at));
  },
  refund_payout_failed: async (db, returnId) => void (await sendReturnEmails(db, returnId, "payout_failed")),
};

/** Writes a reaction in the flow's transaction (delivered after the commit by `deliverReactions`, or by the job). */
export function queueReaction<K extends ReactionKind>(trx: Queryable, kind: K, subjectId: string, details: ReactionKinds[K], now: Date = new Date()): Promise<ReactionTicket> {
  return enqueueReaction(trx, kind, subjectId, details, now);
}

async function handle(db: Queryable, reaction: Reaction): Promise<void> {
  const handler = HANDLERS[reaction.kind as ReactionKind] as ((db: Queryable, subjectId: string, details: unknown) => Promise<void>) | undefined;
  // a kind this version doesn't know (written by a newer one during a rolling deploy): fails, and is tried again later
  if (!handler) throw new Error(`no handler for the reaction kind "${reaction.kind}"`);
  await handler(db, reaction.subjectId, reaction.details);
}

/**
 * Delivers a flow's reactions once its change has committed: now, when the flow's transaction was its own; when the
 * admin's dispatcher holds the flow in its transaction (the change and its activity entry commit together), after that
 * commit. The change is committed whatever the messages do: a failure is tried again by the job.
 */
export async function deliverReactions(db: Queryable, tickets: ReadonlyArray<ReactionTicket | null | undefined>): Promise<void> {
  const due = tickets.filter((t): t is ReactionTicket => !!t);
  if (!due.length) return;
  const ran = await afterCommitAsync(db.isTransaction, () => runReactions(outsideOf(db), due, handle).then(() => undefined));
  // The caller holds a transaction of its own and nothing runs effects after it: the job delivers them.
  if (!ran) logger.info({ reactions: due.map((t) => t.id) }, "reactions queued inside the caller's transaction: the deliver-reactions job delivers them");
}

/**
 * Runs `effect` once the change has committed, with a handle on the database outside any transaction (see
 * deliverReactions). For the one message that can't be queued: a new gift card's code exists only in memory.
 */
export async function afterTheCommit(db: Queryable, effect: (committed: Queryable) => Promise<void>): Promise<void> {
  const ran = await afterCommitAsync(db.isTransaction, () => effect(outsideOf(db)));
  // nothing runs effects after the caller's transaction, and nothing else would send it: now, as before
  if (!ran) await effect(db);
}

/** The database outside the caller's transaction, for work after its commit. */
const outsideOf = (db: Queryable): Queryable => (db.isTransaction ? getDb() : db);

/** The job: every reaction due (a stopped process's, or a failed one's next try). */
export function deliverDueReactions(db: Queryable, now: Date = new Date()): Promise<ReactionRun> {
  return runDueReactions(db, handle, now);
}
