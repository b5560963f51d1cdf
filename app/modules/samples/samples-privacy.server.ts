/**
 * A person's sample credits for "Download my data" and "Delete my account" (POPIA s23, s24; docs/decisions/040 and
 * 054). A credit belongs to the account that bought the sample and can be used only by it, so it goes with the
 * account: an unused one ends there (the deletion page says so first). An order that used one keeps its amount
 * (orders.sample_credit_cents) and its bill's words (orders.sample_credit_label) for the tax record.
 */
import type { Queryable } from "~/db/db.server";
import { creditsOnOrder, type CreditState } from "./sample-orders.server";
import { creditLabel } from "./samples.logic";
import { setOrderSampleCreditLabel } from "~/modules/orders/order-writes.server";

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

/**
 * The account is being deleted (in the caller's transaction): its credits go. Answers how many. An order that used or
 * held one keeps its bill's words first ("Sample credit (Velvet Rose)", `orders.sample_credit_label`): a scent's name
 * is no personal information, and a kept tax invoice must read as it did.
 */
export async function deleteSampleCreditsOfPerson(trx: Queryable, userId: string): Promise<number> {
  const onOrders = await trx
    .selectFrom("sample_credits")
    .select(["reserved_order_id", "returned_by_order_id"])
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("reserved_order_id", "is not", null), eb("returned_by_order_id", "is not", null)]))
    .execute();
  const orderIds = new Set(onOrders.flatMap((c) => [c.reserved_order_id, c.returned_by_order_id]).filter((id): id is string => id !== null));
  for (const orderId of orderIds) {
    const names = (await creditsOnOrder(trx, orderId)).map((c) => c.name);
    await setOrderSampleCreditLabel(trx, orderId, creditLabel(names));
  }
  return Number((await trx.deleteFrom("sample_credits").where("user_id", "=", userId).executeTakeFirstOrThrow()).numDeletedRows);
}
