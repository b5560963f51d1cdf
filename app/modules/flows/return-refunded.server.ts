/**
 * A return refunded (issue 21 point 8, docs/decisions/041 and 053), read top to bottom:
 *
 * 1. Checks, reading only: the return is received, the amount is within what is left of the order's payment, and
 *    where it goes (returns.logic splitRefund): a new gift card only when the shopper chose one; otherwise the
 *    provider pays back at most what it took and the gift cards that paid get the rest.
 * 2. The provider refund (payments), outside any transaction: a network call never holds a write lock. Its
 *    idempotency key is the return's id, so a retry after a later failure is the same refund there. Undo: none from
 *    here; a failure after it is logged loudly and the owner retries. An EFT refund is the owner's reference only.
 * 3. One transaction, where money moves: the return marked refunded with its credit note's number (returns), the
 *    order's gift cards credited (gift cards), a new gift card issued for the shopper's choice (gift cards), and what
 *    went to cards recorded on the return (returns), the reward points its goods earned taken back and those they
 *    spent given back (rewards). Undo: any refusal rolls all of it back, nothing is written.
 *    The return's e-mails and the refund on WhatsApp are queued in it (flows/reactions.server.ts).
 * 4. After the commit: those messages delivered; the new card's code in an e-mail of its own (never stored).
 */
import type { Queryable } from "~/db/db.server";
import { inTransaction } from "~/db/in-transaction.server";
import { refundToCardsOfOrder } from "~/modules/gift-cards/gift-card-orders.server";
import { issueGiftCard } from "~/modules/gift-cards/gift-cards.server";
import { formatCreditNoteNumber } from "~/modules/invoices/credit-note.logic";
import { getPaymentProvider } from "~/modules/payments/payments.server";
import { PaymentProviderError, type ProviderName } from "~/modules/payments/provider";
import { refundSplitWords } from "~/modules/returns/return-emails.server";
import {
  assertRefundable,
  getAdminReturn,
  providerRefundTarget,
  recordReturnGiftCardRefund,
  recordReturnRefunded,
  refundSplitFor,
  sendRefundCardEmail,
} from "~/modules/returns/returns-admin.server";
import { RETURN_MESSAGES } from "~/modules/returns/returns.logic";
import { refundedGoodsOfOrder } from "~/modules/returns/returns.server";
import { goodsCentsOfOrder } from "~/modules/orders/order-read.server";
import { giveBackSpent, reverseEarned } from "~/modules/rewards/reward-orders.server";
import { cancelReferralOfOrder } from "~/modules/rewards/referrals.server";
import { afterTheCommit, deliverReactions, queueReaction } from "./reactions.server";
import { env, type Env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";

export interface RefundInput {
  amountCents: number;
  /** provider: through the order's payment provider; eft: the owner has paid it by bank transfer */
  method: "provider" | "eft";
  /** the owner's EFT reference (optional) */
  reference: string;
}

/**
 * Refunds a received return (the steps above). A refusal — too much, the wrong state, the provider saying no —
 * changes nothing. Answers the owner's message, with the credit note's number.
 */
export async function refundReturn(db: Queryable, id: string, input: RefundInput, now: Date = new Date(), config: Env = env()): Promise<string> {
  // 1. checks and the split
  const detail = await getAdminReturn(db, id, now, config);
  if (!detail) throw new DomainError(RETURN_MESSAGES.returnNotFound, 404);
  assertRefundable(detail.ret.status, input.amountCents, detail.refund.maxCents);
  const split = await refundSplitFor(db, id, detail.order.id, input.amountCents);

  // 2. the provider refund, outside the write lock
  let provider: ProviderName | null = null;
  let reference: string | null = input.reference.trim() || null;
  let payout: "paid" | "pending" = "paid";
  // null: nothing paid back through the provider or the EFT (all of it to gift cards)
  const method: "provider" | "eft" | null = split.providerCents > 0 ? input.method : null;
  if (method === "provider") {
    const capability = detail.capability;
    if (!capability.provider) throw new DomainError(capability.why ?? RETURN_MESSAGES.providerUnavailable(capability.label), 409);
    provider = capability.provider;
    const target = await providerRefundTarget(db, detail.order.id, provider);
    try {
      const result = await getPaymentProvider(provider).refund!({
        ...target,
        amountCents: split.providerCents,
        currency: "ZAR",
        reason: `Return of order ${detail.order.shortId}`,
        idempotencyKey: `refund-${id}`,
        metadata: { orderId: detail.order.id, returnId: id },
      });
      reference = result.refundId;
      payout = result.status === "succeeded" ? "paid" : "pending";
    } catch (error) {
      if (error instanceof PaymentProviderError) throw new DomainError(error.message, 502);
      throw error;
    }
  }

  // 3. one transaction: the return refunded with its credit note, the gift cards credited or issued
  let newCard: { code: string; last4: string; email: string } | null = null;
  const { creditNote: number, how, told } = await inTransaction(db, async (trx) => {
    const { orderId, creditNote } = await recordReturnRefunded(
      trx,
      id,
      { amountCents: input.amountCents, method, provider, reference, payout, credit: { goodsCents: detail.refund.goodsCents, discountCents: detail.refund.discountCents, deliveryCents: detail.refund.deliveryCents } },
      now,
    );
    const actor = { kind: "admin" as const, id: null };
    let giftCardId: string | null = null;
    if (split.cardsCents > 0) await refundToCardsOfOrder(trx, orderId, split.cardsCents, actor, now);
    if (split.newCardCents > 0) {
      const email = detail.order.customerEmail;
      const issued = await issueGiftCard(trx, { amountCents: split.newCardCents, recipientEmail: email, note: `Refund of a return on order ${detail.order.shortId}`, actor, now });
      giftCardId = issued.id;
      if (email) newCard = { code: issued.code, last4: issued.last4, email };
    }
    if (split.cardsCents + split.newCardCents > 0) await recordReturnGiftCardRefund(trx, id, split.cardsCents + split.newCardCents, giftCardId);
    // Reward points (docs/decisions/062): what the refunded goods earned taken back, what they spent given back, each
    // in proportion to every refund of the order so far (this one included), so a whole order in parts comes out exact.
    const refunded = await refundedGoodsOfOrder(trx, orderId);
    await reverseEarned(trx, orderId, refunded.paidCents, actor, now);
    await giveBackSpent(trx, orderId, refunded.goodsCents, await goodsCentsOfOrder(trx, orderId), actor, now);
    // A friend's first order refunded while the referrer's points wait for its return window: both cancelled (063).
    await cancelReferralOfOrder(trx, orderId, "refunded", now);
    // the return's e-mails and the refund on WhatsApp, queued with the refund
    const how = refundSplitWords(split, method, provider);
    const told = await queueReaction(trx, "return_refunded", id, { orderId, amountCents: input.amountCents, how, at: now.toISOString() }, now);
    return { creditNote, how, told };
  }).catch((error) => {
    // The provider has already been asked: say so loudly. The same return's retry is the same refund there
    // (idempotency key), so the owner can simply try again.
    if (provider) logger.error({ err: error, returnId: id, provider, reference }, "returns: the provider accepted a refund the shop could not record; retry the refund");
    throw error;
  });
  logger.info({ returnId: id, amountCents: input.amountCents, method, provider, payout, split }, "returns: refunded");

  // 4. after the commit: the messages
  await deliverReactions(db, [told]);
  // The new card's code exists only now (its hash is stored): it goes to the shopper in an e-mail of its own, never
  // queued, so no row holds a working code.
  const card = newCard as { code: string; last4: string; email: string } | null;
  if (card) await afterTheCommit(db, (committed) => sendRefundCardEmail(committed, card, split.newCardCents, detail.order.shortId));
  return RETURN_MESSAGES.refunded(input.amountCents, how, formatCreditNoteNumber(number, config.CREDIT_NOTE_PREFIX));
}
