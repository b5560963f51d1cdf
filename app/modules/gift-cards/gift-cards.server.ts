/**
 * Gift cards and their ledger (docs/decisions/053). A card's balance is the sum of its ledger; `balance_cents` holds
 * that sum and is changed only by `appendEntry`, in the same statement order everywhere: one conditional UPDATE of the
 * card (`balance_cents + delta >= 0`), then the ledger row with the balance it left. The UPDATE is the authority under
 * concurrency, as for coupons (coupons.server.ts) and stock (order-stock.server.ts): on PostgreSQL a second UPDATE of
 * the same card waits for the first and re-checks its WHERE on the new balance; SQLite has one writer at a time.
 */
import { inTransaction } from "~/db/in-transaction.server";
import { sql } from "kysely";
import { containsInsensitive, isUniqueViolation, type Queryable, type Trx } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import type { GiftCardEntryKind } from "~/db/schema";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { formatGiftCardCode, lastFourOf } from "./gift-card-code.logic";
import { hashGiftCardCode, newGiftCardCode } from "./gift-card-code.server";
import { sealCode } from "./gift-card-seal.server";


export interface Actor {
  kind: "user" | "admin" | "system";
  id: string | null;
}

export const SYSTEM: Actor = { kind: "system", id: null };

export interface GiftCardRecord {
  id: string;
  last4: string;
  initialCents: number;
  balanceCents: number;
  status: "active" | "cancelled";
  recipientEmail: string | null;
  note: string | null;
  expiresAt: string;
  issuedByKind: "admin" | "system";
  createdAt: string;
}

type CardRow = {
  id: string;
  last4: string;
  initial_cents: number;
  balance_cents: number;
  status: "active" | "cancelled";
  recipient_email: string | null;
  note: string | null;
  expires_at: string;
  issued_by_kind: "admin" | "system";
  created_at: string;
};

const CARD_COLUMNS = ["id", "last4", "initial_cents", "balance_cents", "status", "recipient_email", "note", "expires_at", "issued_by_kind", "created_at"] as const;

function toRecord(r: CardRow): GiftCardRecord {
  return {
    id: r.id,
    last4: r.last4,
    initialCents: Number(r.initial_cents),
    balanceCents: Number(r.balance_cents),
    status: r.status,
    recipientEmail: r.recipient_email,
    note: r.note,
    expiresAt: r.expires_at,
    issuedByKind: r.issued_by_kind,
    createdAt: r.created_at,
  };
}

/** Is the card spendable at `now`? Active and not past its expiry. */
export function isUsable(card: Pick<GiftCardRecord, "status" | "expiresAt">, now: Date): boolean {
  return card.status === "active" && Date.parse(card.expiresAt) > now.getTime();
}

/** The expiry of a card issued at `now`: GIFT_CARD_EXPIRY_MONTHS later (36 by default, CPA s63). */
export function expiryFor(now: Date, months: number = env().GIFT_CARD_EXPIRY_MONTHS): string {
  const at = new Date(now.getTime());
  const day = at.getUTCDate();
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() + months);
  // The same day of the month, or the month's last day (29 February plus three years is 28 February, not 1 March).
  const lastDay = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
  at.setUTCDate(Math.min(day, lastDay));
  return at.toISOString();
}

/**
 * Moves a card's balance by `delta` cents and writes the ledger row, in the caller's transaction. A debit that would
 * take the balance below 0 changes nothing and returns null; otherwise the balance after.
 */
export async function appendEntry(
  trx: Queryable,
  cardId: string,
  kind: GiftCardEntryKind,
  delta: number,
  context: { actor: Actor; orderId?: string | null; note?: string | null; now?: Date; onlyUsable?: boolean },
): Promise<number | null> {
  if (!Number.isSafeInteger(delta) || delta === 0) throw new RangeError(`A ledger entry moves whole cents, got ${delta}`);
  const now = context.now ?? new Date();
  let update = trx
    .updateTable("gift_cards")
    .set((eb) => ({ balance_cents: eb("balance_cents", "+", delta), entry_count: eb("entry_count", "+", 1) }))
    .where("id", "=", cardId);
  if (delta < 0) update = update.where("balance_cents", ">=", -delta);
  if (context.onlyUsable) update = update.where("status", "=", "active").where("expires_at", ">", now.toISOString());
  const row = await update.returning(["balance_cents", "entry_count"]).executeTakeFirst();
  if (!row) return null;
  const after = Number(row.balance_cents);
  await trx
    .insertInto("gift_card_ledger")
    .values({
      id: newId(),
      gift_card_id: cardId,
      position: Number(row.entry_count),
      kind,
      amount_cents: delta,
      balance_after_cents: after,
      order_id: context.orderId ?? null,
      actor_kind: context.actor.kind,
      actor_id: context.actor.id,
      note: context.note ?? null,
      created_at: now.toISOString(),
    })
    .execute();
  return after;
}

export interface IssuedGiftCard {
  id: string;
  /** the full code, formatted: shown once (to the owner issuing it, or in the e-mail); never stored */
  code: string;
  last4: string;
  expiresAt: string;
}

/** A new card with its first ledger entry (issue). The code exists only in what this returns. */
export async function issueGiftCard(
  db: Queryable,
  input: {
    amountCents: number;
    recipientEmail?: string | null;
    note?: string | null;
    actor: Actor;
    now?: Date;
    /** a sold card (docs/decisions/053 "Selling gift cards"): its sale and unit, the order, its e-mail's day; code kept sealed */
    sale?: { saleId: string; unit: number; orderId: string; sendOn: string; recipientName: string | null };
  },
): Promise<IssuedGiftCard> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new DomainError("A gift card's amount must be more than R0.00", 400, "amount");
  const now = input.now ?? new Date();
  for (let attempt = 0; ; attempt++) {
    const code = newGiftCardCode();
    const id = newId();
    const expiresAt = expiryFor(now);
    try {
      await inTransaction(db, async (trx) => {
        await trx
          .insertInto("gift_cards")
          .values({
            id,
            code_hash: hashGiftCardCode(code),
            last4: lastFourOf(code),
            initial_cents: input.amountCents,
            balance_cents: 0,
            status: "active",
            recipient_email: input.recipientEmail?.trim().toLowerCase() || null,
            note: input.note?.trim() || null,
            expires_at: expiresAt,
            issued_by_kind: input.actor.kind === "admin" ? "admin" : "system",
            issued_by: input.actor.id,
            created_at: now.toISOString(),
            ...(input.sale ? { sale_id: input.sale.saleId, sale_unit: input.sale.unit, send_on: input.sale.sendOn, recipient_name: input.sale.recipientName, code_sealed: sealCode(code) } : {}),
          })
          .execute();
        await appendEntry(trx, id, "issue", input.amountCents, { actor: input.actor, note: input.note?.trim() || null, now, orderId: input.sale?.orderId ?? null });
      });
      return { id, code: formatGiftCardCode(code), last4: lastFourOf(code), expiresAt };
    } catch (error) {
      // Two equal 80-bit codes: never in practice, but a clash must not lose the issue.
      if (isUniqueViolation(error) && attempt < 3) continue;
      throw error;
    }
  }
}

/** The card with this (normalised) code, usable or not; null when there is none. */
export async function findGiftCardByCode(db: Queryable, code: string): Promise<GiftCardRecord | null> {
  const row = await db.selectFrom("gift_cards").select(CARD_COLUMNS).where("code_hash", "=", hashGiftCardCode(code)).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findGiftCard(db: Queryable, id: string): Promise<GiftCardRecord | null> {
  const row = await db.selectFrom("gift_cards").select(CARD_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export interface LedgerEntry {
  id: string;
  kind: GiftCardEntryKind;
  amountCents: number;
  balanceAfterCents: number;
  orderId: string | null;
  actorKind: Actor["kind"];
  actorId: string | null;
  /** the admin's or shopper's e-mail, when the actor is a person whose account still exists */
  actorEmail: string | null;
  note: string | null;
  createdAt: string;
}

/** A card's ledger, oldest first. */
export async function giftCardLedger(db: Queryable, cardId: string): Promise<LedgerEntry[]> {
  const rows = await db
    .selectFrom("gift_card_ledger as l")
    .leftJoin("users as u", "u.id", "l.actor_id")
    .select(["l.id", "l.kind", "l.amount_cents", "l.balance_after_cents", "l.order_id", "l.actor_kind", "l.actor_id", "u.email", "l.note", "l.created_at"])
    .where("l.gift_card_id", "=", cardId)
    .orderBy("l.position")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    amountCents: Number(r.amount_cents),
    balanceAfterCents: Number(r.balance_after_cents),
    orderId: r.order_id,
    actorKind: r.actor_kind,
    actorId: r.actor_id,
    actorEmail: r.email ?? null,
    note: r.note,
    createdAt: r.created_at,
  }));
}

/** The sum of a card's ledger (what balance_cents must always equal). */
export async function ledgerSum(db: Queryable, cardId: string): Promise<number> {
  const row = await db
    .selectFrom("gift_card_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount_cents"), sql<number>`0`).as("sum"))
    .where("gift_card_id", "=", cardId)
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}

export const GIFT_CARD_ADMIN_MESSAGES = {
  notFound: "That gift card no longer exists",
  alreadyCancelled: "That gift card is already cancelled",
} as const;

/** The owner cancels a card: it can't be spent again and its remaining balance is void (a cancel entry). */
export async function cancelGiftCard(db: Queryable, cardId: string, input: { actor: Actor; note?: string | null; now?: Date }): Promise<void> {
  const now = input.now ?? new Date();
  await inTransaction(db, async (trx) => {
    const changed = await trx
      .updateTable("gift_cards")
      .set({ status: "cancelled" })
      .where("id", "=", cardId)
      .where("status", "=", "active")
      .returning("balance_cents")
      .executeTakeFirst();
    if (!changed) {
      const exists = await findGiftCard(trx, cardId);
      throw new DomainError(exists ? GIFT_CARD_ADMIN_MESSAGES.alreadyCancelled : GIFT_CARD_ADMIN_MESSAGES.notFound, exists ? 409 : 404);
    }
    const balance = Number(changed.balance_cents);
    if (balance > 0) await appendEntry(trx, cardId, "cancel", -balance, { actor: input.actor, note: input.note ?? null, now });
  });
}

/**
 * Cards past their expiry with a balance left: the balance expires (an expiry entry, by the system). Run by the
 * jobs runner; a card given money back after it expired (an order released) is swept again on the next run.
 */
export async function expireGiftCards(db: Queryable, now: Date = new Date(), limit = 500): Promise<number> {
  const due = await db
    .selectFrom("gift_cards")
    .select(["id", "balance_cents"])
    .where("status", "=", "active")
    .where("expires_at", "<=", now.toISOString())
    .where("balance_cents", ">", 0)
    .orderBy("expires_at")
    .limit(limit)
    .execute();
  let expired = 0;
  for (const card of due) {
    // The balance as it is inside the transaction (a release may have added to it since it was read).
    const done = await inTransaction(db, async (trx) => {
      const current = await trx.selectFrom("gift_cards").select("balance_cents").where("id", "=", card.id).executeTakeFirst();
      const balance = Number(current?.balance_cents ?? 0);
      return balance > 0 ? (await appendEntry(trx, card.id, "expiry", -balance, { actor: SYSTEM, now })) !== null : false;
    });
    if (done) expired++;
  }
  return expired;
}

// ---------------------------------------------------------------- the owner's list

export const ADMIN_GIFT_CARDS_PAGE_SIZE = 25;

/** Cards newest first; `q` is a card's last four (any case, with or without the code's dashes) or part of an e-mail. */
export async function listGiftCards(db: Queryable, input: { q: string; page: number }): Promise<Page<GiftCardRecord> & { totals: { cards: number; outstandingCents: number } }> {
  let query = db.selectFrom("gift_cards").select(CARD_COLUMNS);
  const q = input.q.trim();
  if (q) {
    const four = q.toUpperCase().replace(/[\s-]/g, "");
    query = query.where((eb) => eb.or([...(four.length === 4 ? [eb("last4", "=", four)] : []), containsInsensitive("recipient_email", q), containsInsensitive("note", q)]));
  }
  const [page, totals] = await Promise.all([
    paginate(query.orderBy("created_at", "desc").orderBy("id", "desc"), { page: input.page, pageSize: ADMIN_GIFT_CARDS_PAGE_SIZE }),
    db
      .selectFrom("gift_cards")
      .select((eb) => [eb.fn.countAll<number>().as("cards"), eb.fn.coalesce(eb.fn.sum<number>("balance_cents"), sql<number>`0`).as("outstanding")])
      .where("status", "=", "active")
      .executeTakeFirstOrThrow(),
  ]);
  return { ...page, rows: page.rows.map(toRecord), totals: { cards: Number(totals.cards), outstandingCents: Number(totals.outstanding) } };
}

/** Cards issued to this e-mail address (the shopper's profile), newest first. */
export async function giftCardsForEmail(db: Queryable, email: string): Promise<GiftCardRecord[]> {
  const rows = await db
    .selectFrom("gift_cards")
    .select(CARD_COLUMNS)
    .where("recipient_email", "=", email.trim().toLowerCase())
    .orderBy("created_at", "desc")
    .limit(50)
    .execute();
  return rows.map(toRecord);
}
