import { activityItems, recordHistory } from "~/modules/activity/activity-admin.server";
import type { Queryable } from "~/db/db.server";
import { formatDateTimeZA, formatDateZA } from "~/utils/dates";
import { shortOrderId } from "~/utils/ids";
import { formatRand } from "~/utils/money";
import { addDays, saDay } from "~/utils/sa-days";
import { giftCardChanges, giftCardEmailView } from "./gift-card-email-changes.server";
import { GIFT_SEND_DAYS_AHEAD_MAX } from "./gift-card-sales.logic";
import { describeGiftCardChange, giftCardState, LEDGER_KIND_LABELS } from "./gift-card-state.logic";
import { giftCardLedger, type Actor, type findGiftCard } from "./gift-cards.server";

/**
 * Admin → Gift cards → one card (app/routes/admin.gift-cards.$id.tsx), in words: its figures and state, its e-mail
 * (where and when, what may be done about it, the changes made), its ledger and its activity history.
 */
export async function giftCardPage(db: Queryable, card: NonNullable<Awaited<ReturnType<typeof findGiftCard>>>, now = new Date()) {
  const [ledger, email, changes] = await Promise.all([giftCardLedger(db, card.id), giftCardEmailView(db, card.id, now), giftCardChanges(db, card.id)]);
  const history = activityItems(await recordHistory(db, "gift-card", card.id));
  const state = giftCardState(card, now);
  const today = saDay(now);
  return {
    card: { id: card.id, last4: card.last4, recipientEmail: card.recipientEmail, note: card.note, balance: formatRand(card.balanceCents), initial: formatRand(card.initialCents), issued: formatDateZA(card.createdAt), expires: formatDateZA(card.expiresAt), state, cancellable: card.status === "active" },
    email: email && {
      ...email,
      sendOnText: email.sendOn ? formatDateZA(`${email.sendOn}T10:00:00.000Z`) : null,
      emailedText: email.emailedAt ? formatDateTimeZA(email.emailedAt) : null,
      firstDay: today,
      lastDay: addDays(today, GIFT_SEND_DAYS_AHEAD_MAX),
    },
    changes: changes.map((c) => ({ id: c.id, ...describeGiftCardChange(c), who: actorLabel(c.actorKind, c.actorEmail), when: formatDateTimeZA(c.createdAt) })),
    history,
    ledger: ledger.map((e) => ({
      id: e.id,
      what: LEDGER_KIND_LABELS[e.kind],
      amount: e.amountCents > 0 ? `+${formatRand(e.amountCents)}` : formatRand(e.amountCents),
      after: formatRand(e.balanceAfterCents),
      order: e.orderId ? { id: e.orderId, shortId: shortOrderId(e.orderId) } : null,
      who: actorLabel(e.actorKind, e.actorEmail),
      when: formatDateTimeZA(e.createdAt),
      note: e.note,
    })),
  };
}

function actorLabel(kind: Actor["kind"], email: string | null): string {
  return kind === "system" ? "System" : `${kind === "admin" ? "Admin" : "Shopper"}${email ? ` ${email}` : ""}`;
}

export type GiftCardPage = Awaited<ReturnType<typeof giftCardPage>>;
