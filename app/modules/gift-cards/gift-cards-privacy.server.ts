/**
 * A person's gift cards for "Download my data" and "Delete my account" (POPIA s23, s24; docs/decisions/040 and 053).
 *
 * A card is the person's when it was issued to their e-mail address; a card issued to someone else is theirs only
 * where they used it (its ledger entries on their orders, or written by them). Only the last four characters are
 * ever given out: the code is not stored, and its hash is no one's business.
 *
 * Deleting the account does not touch a card's money: a card is a voucher paid with its code (CPA s63 keeps it valid
 * for its term), and its ledger is the shop's record of money held and spent. So the card loses only its link to the
 * person (the e-mail address it was issued to, the owner's free-text notes about it) and their ledger entries lose
 * the account id; the balance and every money movement stay, and the card keeps paying with its code until it expires.
 */
import type { Queryable } from "~/db/db.server";
import type { GiftCardEntryKind } from "~/db/schema";

export interface PersonGiftCard {
  id: string;
  last4: string;
  /** issued to the person's address, or only used by them */
  issuedToThem: boolean;
  initialCents: number;
  balanceCents: number;
  status: "active" | "cancelled";
  issuedAt: string;
  expiresAt: string;
  /** oldest first; for a card issued to someone else, only the entries on the person's orders or by them */
  entries: Array<{ kind: GiftCardEntryKind; amountCents: number; balanceAfterCents: number; orderId: string | null; at: string }>;
}

/** The cards issued to `email` or used by the account `userId` (newest first), each with its ledger as above. */
export async function giftCardsOfPerson(db: Queryable, userId: string, email: string): Promise<PersonGiftCard[]> {
  const address = email.trim().toLowerCase();
  const ownOrders = db.selectFrom("orders").select("id").where("user_id", "=", userId);
  const cards = await db
    .selectFrom("gift_cards")
    .select(["id", "last4", "initial_cents", "balance_cents", "status", "recipient_email", "created_at", "expires_at"])
    .where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["recipient_email"]), "=", address),
        eb(
          "id",
          "in",
          eb
            .selectFrom("gift_card_ledger")
            .select("gift_card_id")
            .where((l) => l.or([l("order_id", "in", ownOrders), l.and([l("actor_kind", "=", "user"), l("actor_id", "=", userId)])])),
        ),
      ]),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  if (cards.length === 0) return [];
  const own = new Set((await ownOrders.execute()).map((o) => o.id));
  const entries = await db
    .selectFrom("gift_card_ledger")
    .select(["gift_card_id", "kind", "amount_cents", "balance_after_cents", "order_id", "actor_kind", "actor_id", "created_at"])
    .where("gift_card_id", "in", cards.map((c) => c.id))
    .orderBy("gift_card_id")
    .orderBy("position")
    .execute();
  return cards.map((c) => {
    const issuedToThem = (c.recipient_email ?? "").toLowerCase() === address;
    const mine = (e: (typeof entries)[number]) => (e.order_id !== null && own.has(e.order_id)) || (e.actor_kind === "user" && e.actor_id === userId);
    return {
      id: c.id,
      last4: c.last4,
      issuedToThem,
      initialCents: Number(c.initial_cents),
      balanceCents: Number(c.balance_cents),
      status: c.status,
      issuedAt: c.created_at,
      expiresAt: c.expires_at,
      entries: entries
        .filter((e) => e.gift_card_id === c.id && (issuedToThem || mine(e)))
        // another person's order on a card issued to this one (they gave the code away) is not theirs to see
        .map((e) => ({ kind: e.kind, amountCents: Number(e.amount_cents), balanceAfterCents: Number(e.balance_after_cents), orderId: e.order_id !== null && own.has(e.order_id) ? e.order_id : null, at: e.created_at })),
    };
  });
}

/** Cards issued to `email` that still hold money at `now` (shown before a deletion and in its confirmation). */
export async function giftCardsWithBalance(db: Queryable, email: string, now: Date = new Date()): Promise<Array<{ last4: string; balanceCents: number; expiresAt: string }>> {
  const rows = await db
    .selectFrom("gift_cards")
    .select(["last4", "balance_cents", "expires_at"])
    .where((eb) => eb(eb.fn("lower", ["recipient_email"]), "=", email.trim().toLowerCase()))
    .where("status", "=", "active")
    .where("balance_cents", ">", 0)
    .where("expires_at", ">", now.toISOString())
    .orderBy("expires_at")
    .execute();
  return rows.map((r) => ({ last4: r.last4, balanceCents: Number(r.balance_cents), expiresAt: r.expires_at }));
}

/**
 * The account is being deleted (in the caller's transaction): its cards stop naming it, their money stays (see the
 * file's comment). The owner's notes go as an order's notes do (free text that may name the person). Answers how many
 * cards were issued to the address.
 */
export async function unlinkGiftCardsOfPerson(trx: Queryable, userId: string, email: string): Promise<number> {
  const address = email.trim().toLowerCase();
  const theirs = trx.selectFrom("gift_cards").select("id").where((eb) => eb(eb.fn("lower", ["recipient_email"]), "=", address));
  await trx.updateTable("gift_card_ledger").set({ note: null }).where("gift_card_id", "in", theirs).where("actor_kind", "=", "admin").where("note", "is not", null).execute();
  // The owner's corrections to a card's e-mail name its recipients: the names on their cards and their address anywhere.
  await trx.updateTable("gift_card_changes").set({ before_name: null, after_name: null }).where("gift_card_id", "in", theirs).execute();
  for (const column of ["before_email", "after_email"] as const) {
    await trx.updateTable("gift_card_changes").set({ [column]: null }).where((eb) => eb(eb.fn("lower", [column]), "=", address)).execute();
  }
  const cards = await trx
    .updateTable("gift_cards")
    .set({ recipient_email: null, recipient_name: null, note: null })
    .where((eb) => eb(eb.fn("lower", ["recipient_email"]), "=", address))
    .executeTakeFirstOrThrow();
  await trx.updateTable("gift_card_ledger").set({ actor_id: null }).where("actor_kind", "=", "user").where("actor_id", "=", userId).execute();
  return Number(cards.numUpdatedRows);
}
