/**
 * A person's sample credits for "Download my data" and "Delete my account" (POPIA s23, s24; docs/decisions/040 and
 * 054). A credit belongs to the account that bought the sample and can be used only by it, so it goes with the
 * account: an unused one ends there (the deletion page says so first). An order that used one keeps its amount
 * (orders.sample_credit_cents) for the tax record.
 */
import type { Queryable } from "~/db/db.server";
import type { CreditState } from "./sample-orders.server";

export interface PersonSampleCredit {
  fragrance: string;
  amountCents: number;
  state: CreditState;
  grantedAt: string;
  expiresAt: string;
  usedAt: string | null;
  earnedOnOrderId: string;
  /** the order it is held by or was used on */
  orderId: string | null;
}

export async function sampleCreditsOfPerson(db: Queryable, userId: string, now: Date = new Date()): Promise<PersonSampleCredit[]> {
  const rows = await db
    .selectFrom("sample_credits")
    .select(["name", "amount_cents", "granted_at", "expires_at", "used_at", "reserved_order_id", "source_order_id"])
    .where("user_id", "=", userId)
    .orderBy("granted_at", "desc")
    .orderBy("id")
    .execute();
  const at = now.toISOString();
  return rows.map((r) => ({
    fragrance: r.name,
    amountCents: Number(r.amount_cents),
    state: r.used_at ? "used" : r.reserved_order_id ? "held" : String(r.expires_at) <= at ? "expired" : "open",
    grantedAt: r.granted_at,
    expiresAt: r.expires_at,
    usedAt: r.used_at,
    earnedOnOrderId: r.source_order_id,
    orderId: r.reserved_order_id,
  }));
}

/** Credits the account can still use at `now` (shown before a deletion: they end with it). */
export async function openSampleCredits(db: Queryable, userId: string, now: Date = new Date()): Promise<number> {
  const row = await db
    .selectFrom("sample_credits")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The account is being deleted (in the caller's transaction): its credits go. Answers how many. */
export async function deleteSampleCreditsOfPerson(trx: Queryable, userId: string): Promise<number> {
  return Number((await trx.deleteFrom("sample_credits").where("user_id", "=", userId).executeTakeFirstOrThrow()).numDeletedRows);
}
