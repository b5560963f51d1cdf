/**
 * The owner's corrections to a sold card's e-mail (docs/decisions/053 addendum "Changing and resending a sold card"):
 * "I typed my sister's e-mail wrong", "send it on her birthday instead", "she never got it".
 *
 * - Not e-mailed yet: change the recipient's name, address and day, or send it now. One conditional UPDATE makes the
 *   change only while the card is active, unsent and not claimed by a sender (the `send-gift-cards` job, or another
 *   "Send now"), so a change never races a send: a card claimed or sent in between is refused ("use Resend"). "Send
 *   now" claims the card in that same UPDATE, exactly as the job does, so the card goes once.
 * - E-mailed already: resend it (the same code and PDF) to the recipient on record or a corrected address (which then
 *   is the one on record). The claim also requires the send count the owner's page showed, so the second post of a
 *   double click finds the count moved (or the claim held) and sends nothing.
 * - A hand-issued card keeps no code: nothing to send. A cancelled, spent or expired card is not sent again.
 *
 * Every change is a `gift_card_changes` row with who, when, and the recipient before and after; the ledger keeps only
 * money movements.
 */
import type { Queryable } from "~/db/db.server";
import type { GiftCardChangeKind } from "~/db/schema";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { saDay } from "~/utils/sa-days";
import { checkRecipientChange, checkResendAddress, type RecipientCheck } from "./gift-card-sales.logic";
import { claimLapsedBefore, sendClaimedCardEmail } from "./gift-card-sales.server";
import { openCode } from "./gift-card-seal.server";
import { giftCardState } from "./gift-card-state.logic";
import { GIFT_CARD_ADMIN_MESSAGES, type Actor } from "./gift-cards.server";
import { inTransaction } from "~/db/in-transaction.server";

export const GIFT_CARD_EMAIL_MESSAGES = {
  justSent: "This card's e-mail has just gone; use Resend",
  notSentYet: "This card's e-mail has not gone yet: change its recipient or send it now",
  handIssued: "This card was issued by hand: the shop keeps no copy of its code, so it can't be e-mailed. Cancel it and issue a new one if the code is lost.",
  inactive: (state: string) => `This card is ${state.toLowerCase()}: its e-mail is not sent again`,
  sending: "This card's e-mail is being sent right now: look again in a moment",
  alreadyResent: "This card's e-mail has just been sent again (it went once): reload the page to see it",
  unreadable: "This card's code can no longer be read (the shop's secret changed): cancel it and issue a new one",
  refused: "The mail server refused the e-mail, so nothing was sent. Try again in a few minutes.",
  refusedWillRetry: "Saved, but the mail server refused the e-mail: the card is sent on the next try, within 5 minutes.",
  nothingChanged: "Nothing to change: the recipient and the day are as they were",
  changed: "Recipient and day saved",
  sentNow: (to: string) => `Gift card e-mailed to ${to}`,
  resent: (to: string) => `Gift card e-mailed again to ${to}`,
} as const;

type CardRow = {
  id: string;
  status: "active" | "cancelled";
  balance_cents: number;
  expires_at: string;
  sale_id: string | null;
  code_sealed: string | null;
  recipient_name: string | null;
  recipient_email: string | null;
  send_on: string | null;
  emailed_at: string | null;
  email_claimed_at: string | null;
  email_count: number;
};

/** The card as a change needs it: a sold one, active, with a code that still opens; otherwise the refusal saying why. */
async function editableSoldCard(db: Queryable, cardId: string, now: Date): Promise<CardRow> {
  const row = await db
    .selectFrom("gift_cards")
    .select(["id", "status", "balance_cents", "expires_at", "sale_id", "code_sealed", "recipient_name", "recipient_email", "send_on", "emailed_at", "email_claimed_at", "email_count"])
    .where("id", "=", cardId)
    .executeTakeFirst();
  if (!row) throw new DomainError(GIFT_CARD_ADMIN_MESSAGES.notFound, 404);
  if (!row.code_sealed) throw new DomainError(GIFT_CARD_EMAIL_MESSAGES.handIssued, 409);
  const state = giftCardState({ status: row.status, balanceCents: Number(row.balance_cents), expiresAt: row.expires_at }, now);
  if (state !== "Active") throw new DomainError(GIFT_CARD_EMAIL_MESSAGES.inactive(state), 409);
  if (!openCode(row.code_sealed)) throw new DomainError(GIFT_CARD_EMAIL_MESSAGES.unreadable, 409);
  return { ...row, email_count: Number(row.email_count) };
}

function isClaimed(row: Pick<CardRow, "email_claimed_at">, now: Date): boolean {
  return row.email_claimed_at !== null && Date.parse(row.email_claimed_at) >= Date.parse(claimLapsedBefore(now));
}

/** The checked value, or the first field's message as the refusal (the form marks that field). */
function checked<T>(result: RecipientCheck<T>): T {
  if (result.ok) return result.value;
  const [field, message] = Object.entries(result.errors)[0]!;
  throw new DomainError(message, 400, field);
}

async function recordChange(db: Queryable, cardId: string, kind: GiftCardChangeKind, before: Pick<CardRow, "recipient_name" | "recipient_email" | "send_on">, after: Pick<CardRow, "recipient_name" | "recipient_email" | "send_on">, actor: Actor, now: Date) {
  await db
    .insertInto("gift_card_changes")
    .values({
      id: newId(),
      gift_card_id: cardId,
      kind,
      before_name: before.recipient_name,
      before_email: before.recipient_email,
      before_send_on: before.send_on,
      after_name: after.recipient_name,
      after_email: after.recipient_email,
      after_send_on: after.send_on,
      actor_kind: actor.kind,
      actor_id: actor.id,
      created_at: now.toISOString(),
    })
    .execute();
}

/**
 * A card not e-mailed yet: its recipient and day corrected (`sendNow`: and sent at once, its day today). Refused with
 * "use Resend" when its e-mail left, or is leaving, in the meantime. Answers the message for the owner; a send the mail
 * server refused leaves the change made and the card due today, so the job sends it on its next run.
 */
export async function changeGiftCardRecipient(
  db: Queryable,
  cardId: string,
  input: { recipientName?: string | null; recipientEmail?: string | null; sendOn?: string | null },
  options: { actor: Actor; sendNow?: boolean; now?: Date },
): Promise<string> {
  const now = options.now ?? new Date();
  const card = await editableSoldCard(db, cardId, now);
  if (card.emailed_at !== null || isClaimed(card, now)) throw new DomainError(GIFT_CARD_EMAIL_MESSAGES.justSent, 409);
  const wanted = checked(checkRecipientChange(input, { named: card.recipient_name !== null, currentSendOn: card.send_on ?? saDay(now) }, now));
  const after = { recipient_name: wanted.recipientName, recipient_email: wanted.recipientEmail, send_on: options.sendNow ? saDay(now) : wanted.sendOn };
  const changed = after.recipient_name !== card.recipient_name || after.recipient_email !== card.recipient_email || after.send_on !== card.send_on;
  if (!changed && !options.sendNow) throw new DomainError(GIFT_CARD_EMAIL_MESSAGES.nothingChanged, 400);
  await inTransaction(db, async (trx) => {
    const lapsed = claimLapsedBefore(now);
    const updated = await trx
      .updateTable("gift_cards")
      .set({ ...after, ...(options.sendNow ? { email_claimed_at: now.toISOString() } : {}) })
      .where("id", "=", cardId)
      .where("status", "=", "active")
      .where("emailed_at", "is", null)
      .where((eb) => eb.or([eb("email_claimed_at", "is", null), eb("email_claimed_at", "<", lapsed)]))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new DomainError(GIFT_CARD_EMAIL_MESSAGES.justSent, 409);
    if (changed) await recordChange(trx, cardId, "recipient", card, after, options.actor, now);
  });
  if (!options.sendNow) return GIFT_CARD_EMAIL_MESSAGES.changed;
  if (!(await sendClaimedCardEmail(db, cardId))) throw new DomainError(GIFT_CARD_EMAIL_MESSAGES.refusedWillRetry, 502);
  await recordChange(db, cardId, "sent_now", after, after, options.actor, new Date());
  return GIFT_CARD_EMAIL_MESSAGES.sentNow(after.recipient_email);
}

/**
 * A card already e-mailed: the same e-mail (code and PDF) again, to the recipient on record or to a corrected address,
 * which becomes the one on record. `seenCount` is how many times it had gone when the owner's page was drawn: the claim
 * requires it, so two posts of one page send once.
 */
export async function resendGiftCardEmail(db: Queryable, cardId: string, input: { recipientEmail?: string | null; seenCount: number }, options: { actor: Actor; now?: Date }): Promise<string> {
  const now = options.now ?? new Date();
  const card = await editableSoldCard(db, cardId, now);
  if (card.emailed_at === null) throw new DomainError(isClaimed(card, now) ? GIFT_CARD_EMAIL_MESSAGES.sending : GIFT_CARD_EMAIL_MESSAGES.notSentYet, 409);
  const to = checked(checkResendAddress(input.recipientEmail, card.recipient_email));
  const lapsed = claimLapsedBefore(now);
  const claimed = await db
    .updateTable("gift_cards")
    .set({ email_claimed_at: now.toISOString(), recipient_email: to })
    .where("id", "=", cardId)
    .where("status", "=", "active")
    .where("balance_cents", ">", 0)
    .where("expires_at", ">", now.toISOString())
    .where("emailed_at", "is not", null)
    .where("email_count", "=", input.seenCount)
    .where((eb) => eb.or([eb("email_claimed_at", "is", null), eb("email_claimed_at", "<", lapsed)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    const again = await editableSoldCard(db, cardId, now);
    throw new DomainError(isClaimed(again, now) ? GIFT_CARD_EMAIL_MESSAGES.sending : GIFT_CARD_EMAIL_MESSAGES.alreadyResent, 409);
  }
  const after = { ...card, recipient_email: to };
  if (!(await sendClaimedCardEmail(db, cardId))) {
    // The corrected address stays the one on record (the owner asked for it), and says so in the card's history.
    if (to !== card.recipient_email) await recordChange(db, cardId, "recipient", card, after, options.actor, now);
    throw new DomainError(GIFT_CARD_EMAIL_MESSAGES.refused, 502);
  }
  await recordChange(db, cardId, "resent", card, after, options.actor, new Date());
  return GIFT_CARD_EMAIL_MESSAGES.resent(to);
}

export interface GiftCardChange {
  id: string;
  kind: GiftCardChangeKind;
  before: { name: string | null; email: string | null; sendOn: string | null };
  after: { name: string | null; email: string | null; sendOn: string | null };
  actorKind: Actor["kind"];
  /** the admin's e-mail while their account exists */
  actorEmail: string | null;
  createdAt: string;
}

/** A card's e-mail changes, oldest first. */
export async function giftCardChanges(db: Queryable, cardId: string): Promise<GiftCardChange[]> {
  const rows = await db
    .selectFrom("gift_card_changes as g")
    .leftJoin("users as u", "u.id", "g.actor_id")
    .select(["g.id", "g.kind", "g.before_name", "g.before_email", "g.before_send_on", "g.after_name", "g.after_email", "g.after_send_on", "g.actor_kind", "u.email", "g.created_at"])
    .where("g.gift_card_id", "=", cardId)
    .orderBy("g.created_at")
    .orderBy("g.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    before: { name: r.before_name, email: r.before_email, sendOn: r.before_send_on },
    after: { name: r.after_name, email: r.after_email, sendOn: r.after_send_on },
    actorKind: r.actor_kind,
    actorEmail: r.email ?? null,
    createdAt: r.created_at,
  }));
}

/** What the card's page shows of its e-mail and offers to do with it. */
export interface GiftCardEmailView {
  /** sold: the shop keeps its code and can send it; hand: issued by hand, nothing to send */
  kind: "sold" | "hand";
  recipientName: string | null;
  recipientEmail: string | null;
  sendOn: string | null;
  emailedAt: string | null;
  emailCount: number;
  /** change (not e-mailed yet), resend (e-mailed), or none (not active, or being sent right now) */
  offer: "change" | "resend" | "none";
}

export async function giftCardEmailView(db: Queryable, cardId: string, now: Date = new Date()): Promise<GiftCardEmailView | null> {
  const row = await db
    .selectFrom("gift_cards")
    .select(["status", "balance_cents", "expires_at", "code_sealed", "recipient_name", "recipient_email", "send_on", "emailed_at", "email_claimed_at", "email_count"])
    .where("id", "=", cardId)
    .executeTakeFirst();
  if (!row) return null;
  const active = giftCardState({ status: row.status, balanceCents: Number(row.balance_cents), expiresAt: row.expires_at }, now) === "Active";
  const offer = !row.code_sealed || !active || isClaimed(row, now) ? "none" : row.emailed_at === null ? "change" : "resend";
  return {
    kind: row.code_sealed ? "sold" : "hand",
    recipientName: row.recipient_name,
    recipientEmail: row.recipient_email,
    sendOn: row.send_on,
    emailedAt: row.emailed_at,
    emailCount: Number(row.email_count),
    offer,
  };
}
