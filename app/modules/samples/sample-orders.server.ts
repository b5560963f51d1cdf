/**
 * Samples on an order's life (docs/decisions/054), each step in the caller's transaction beside the order's own change:
 *   placed     → each sample line's scents stored (order_line_samples); the credits the quote applied RESERVED
 *   paid       → the reserved credits USED; each sample bought GRANTS a credit on a bottle of its scent; the samples'
 *                millilitres taken from their products' bulk (with the order's stock)
 *   closed     → (unpaid: failed, cancelled, expired, superseded) its reserved credits RELEASED (remembered, like a
 *                paid cancel's, so a late payment's reopening takes them again)
 *   cancelled after payment → the millilitres given back (with the order's stock); the credits it USED given back to
 *                the shopper (those not expired; `returned_by_order_id` remembers them); the credits it GRANTED taken
 *                back when unused (`revoked_at`; one used or held elsewhere meanwhile stays, and is logged)
 *   reopened   → the reverse, as gift cards and coupons do: the given-back credits taken again (one used elsewhere
 *                since: the order stays cancelled), the taken-back ones restored
 * A credit is held by at most one order: reserving is one conditional UPDATE (`reserved_order_id is null`), so of two
 * placements at once exactly one gets it (PostgreSQL: the second waits on the row and re-checks; SQLite: one writer).
 */
import { sql } from "kysely";
import type { Queryable, Trx } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import type { QuotedSamplePick } from "./samples.server";
import { loadSampleSettings } from "./samples.server";
import { chooseCredits, creditExpiry, SAMPLE_ML, type AppliedSampleCredit, type OpenCredit } from "./samples.logic";
import { setOrderLineStockShort } from "~/modules/orders/order-writes.server";

export const SAMPLE_CREDIT_TAKEN = "A sample credit in this order was just used by another of your orders. Nothing was placed: please check your total and try again.";

/** The credit the quote counted on is held by another order now: nothing is placed, the checkout re-quotes. */
export class SampleCreditTakenError extends DomainError {
  constructor() {
    super(SAMPLE_CREDIT_TAKEN, 409, "sampleCredit");
    this.name = "SampleCreditTakenError";
  }
}

/** A customer's credits that can be applied now: not used, not held by an order, not expired. */
export async function openCredits(db: Queryable, userId: string, productIds: readonly string[], now: Date): Promise<OpenCredit[]> {
  if (productIds.length === 0) return [];
  const rows = await db
    .selectFrom("sample_credits")
    .select(["id", "product_id", "name", "amount_cents", "expires_at"])
    .where("user_id", "=", userId)
    .where("product_id", "in", [...productIds])
    .where("used_at", "is", null)
    .where("reserved_order_id", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .execute();
  return rows.map((r) => ({ id: r.id, productId: r.product_id, name: r.name, amountCents: Number(r.amount_cents), expiresAt: String(r.expires_at) }));
}

/**
 * The credits a signed-in shopper's cart uses, on its full-bottle lines: at most what is left to pay for the items
 * after the coupon (`capCents`). None for a visitor.
 */
export async function creditsForCart(
  db: Queryable,
  userId: string | null | undefined,
  bottleLines: ReadonlyArray<{ productId: string; quantity: number; lineTotalCents: number }>,
  capCents: number,
  now: Date,
): Promise<AppliedSampleCredit[]> {
  if (!userId || bottleLines.length === 0 || capCents <= 0) return [];
  const credits = await openCredits(db, userId, [...new Set(bottleLines.map((l) => l.productId))], now);
  return chooseCredits(credits, bottleLines, capCents);
}

/** Holds the applied credits for this order; false (and the caller aborts the placement) when one is gone. */
export async function reserveSampleCredits(trx: Trx, orderId: string, credits: readonly AppliedSampleCredit[], now: Date): Promise<boolean> {
  for (const c of [...credits].sort((a, b) => a.id.localeCompare(b.id))) {
    const held = await trx
      .updateTable("sample_credits")
      .set({ reserved_order_id: orderId })
      .where("id", "=", c.id)
      .where("reserved_order_id", "is", null)
      .where("used_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst();
    if (Number(held.numUpdatedRows) !== 1) return false;
  }
  return true;
}

/**
 * The order ended unpaid: the credits it held are free again (until they expire). Idempotent. `returned_by_order_id`
 * remembers them, as for a paid order's cancel: if the order's money arrives after all (a late EFT, the owner sets it
 * paid) the reopening takes them again, so a credit is never both on this order's bill and free to use.
 */
export async function releaseSampleCredits(trx: Queryable, orderId: string): Promise<number> {
  const r = await trx
    .updateTable("sample_credits")
    .set({ reserved_order_id: null, returned_by_order_id: orderId })
    .where("reserved_order_id", "=", orderId)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * The owner cancelled a PAID order (in the cancel's transaction): the credits it used come back to the shopper while
 * they have not expired, and the credits it granted are taken back if nobody has used or holds them (one that has is
 * left, and logged: the shopper already had its value). Answers what it did.
 */
export async function returnSampleCreditsOfPaidOrder(trx: Queryable, orderId: string, now: Date): Promise<{ givenBack: number; takenBack: number; left: number }> {
  const stamp = now.toISOString();
  const givenBack = await trx
    .updateTable("sample_credits")
    .set({ reserved_order_id: null, used_at: null, returned_by_order_id: orderId })
    .where("reserved_order_id", "=", orderId)
    .where("used_at", "is not", null)
    .where("expires_at", ">", stamp)
    .executeTakeFirst();
  const takenBack = await trx
    .updateTable("sample_credits")
    .set({ revoked_at: stamp })
    .where("source_order_id", "=", orderId)
    .where("revoked_at", "is", null)
    .where("used_at", "is", null)
    .where("reserved_order_id", "is", null)
    .executeTakeFirst();
  const left = await trx
    .selectFrom("sample_credits")
    .select(["id", "reserved_order_id"])
    .where("source_order_id", "=", orderId)
    .where("revoked_at", "is", null)
    .execute();
  if (left.length) logger.info({ orderId, credits: left.map((c) => ({ id: c.id, order: c.reserved_order_id })) }, "samples: credits this cancelled order granted were already used or held by another order, so they were left");
  return { givenBack: Number(givenBack.numUpdatedRows), takenBack: Number(takenBack.numUpdatedRows), left: left.length };
}

/**
 * The owner reopened an order cancelled after payment: it takes again the credits it had used (all of them, or the
 * order stays cancelled: a DomainError, as a gift card without the balance does) and restores the credits it had granted.
 */
export async function reclaimSampleCreditsOfOrder(trx: Queryable, orderId: string, now: Date, options: { paid: boolean }): Promise<void> {
  const returned = await trx.selectFrom("sample_credits").select(["id", "name"]).where("returned_by_order_id", "=", orderId).execute();
  const taken = await trx
    .updateTable("sample_credits")
    // held again; used when the reopened order is paid (now, or when its payment is confirmed later)
    .set({ reserved_order_id: orderId, used_at: options.paid ? now.toISOString() : null, returned_by_order_id: null })
    .where("returned_by_order_id", "=", orderId)
    .where("reserved_order_id", "is", null)
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== returned.length) {
    const gone = await trx.selectFrom("sample_credits").select("name").where("returned_by_order_id", "=", orderId).execute();
    throw new DomainError(`The sample credit for ${[...new Set(gone.map((g) => g.name))].join(", ")} this order used has been used by another order since, so the order stays cancelled.`, 409);
  }
  await trx.updateTable("sample_credits").set({ revoked_at: null }).where("source_order_id", "=", orderId).where("revoked_at", "is not", null).execute();
}

/** Stores each sample line's scents beside the order's lines (placement). */
export async function storeLineSamples(trx: Trx, lines: ReadonlyArray<{ lineId: string; picks: readonly QuotedSamplePick[] | undefined }>): Promise<void> {
  const rows = lines.flatMap(({ lineId, picks }) =>
    (picks ?? []).map((p, position) => ({ id: newId(), order_line_id: lineId, product_id: p.productId, name: p.name, ml: SAMPLE_ML, credit_cents: p.creditCents, position })),
  );
  if (rows.length) await trx.insertInto("order_line_samples").values(rows).execute();
}

/**
 * The order's payment is confirmed: the credits it held are used, and each sample it bought gives its buyer a credit
 * on a full bottle of that scent for the settings' window. A replayed confirmation grants nothing twice (one credit
 * per sample and unit, unique). Orders without a buyer (an account deleted since) grant nothing.
 */
export async function settleSamplesOnPayment(trx: Trx, orderId: string, now: Date): Promise<{ used: number; granted: number }> {
  const stamp = now.toISOString();
  const used = await trx.updateTable("sample_credits").set({ used_at: stamp }).where("reserved_order_id", "=", orderId).where("used_at", "is", null).executeTakeFirst();
  const samples = await trx
    .selectFrom("order_line_samples as s")
    .innerJoin("order_lines as l", "l.id", "s.order_line_id")
    .innerJoin("orders as o", "o.id", "l.order_id")
    .select(["s.id", "s.product_id", "s.name", "s.credit_cents", "l.quantity", "o.user_id"])
    .where("l.order_id", "=", orderId)
    .where("s.product_id", "is not", null)
    .where("s.credit_cents", ">", 0)
    .execute();
  let granted = 0;
  if (samples.length && samples[0].user_id) {
    const { creditDays } = await loadSampleSettings(trx);
    const expiresAt = creditExpiry(now, creditDays).toISOString();
    for (const s of samples) {
      for (let unit = 0; unit < Number(s.quantity); unit++) {
        const r = await trx
          .insertInto("sample_credits")
          .values({ id: newId(), user_id: s.user_id!, product_id: s.product_id!, name: s.name, amount_cents: Number(s.credit_cents), source_order_id: orderId, source_sample_id: s.id, unit, granted_at: stamp, expires_at: expiresAt })
          .onConflict((oc) => oc.columns(["source_sample_id", "unit"]).doNothing())
          .executeTakeFirst();
        granted += Number(r.numInsertedOrUpdatedRows ?? 0);
      }
    }
  }
  return { used: Number(used.numUpdatedRows), granted };
}

/**
 * Takes each sample's millilitres from its product's bulk (tracked bulks only): one conditional UPDATE per scent, in
 * product order, as order-stock.server.ts takes bottles. A bulk that has run dry records the shortfall on the scent
 * and on its line (stock_short, the owner's flag); the payment stands. Returns the products whose bulk changed.
 */
export async function takeSampleStock(trx: Trx, orderId: string): Promise<{ changed: string[]; short: Array<{ productId: string; name: string; quantity: number }> }> {
  const rows = await trx
    .selectFrom("order_line_samples as s")
    .innerJoin("order_lines as l", "l.id", "s.order_line_id")
    .select(["s.id", "s.product_id", "s.name", "s.ml", "l.id as line_id", "l.quantity"])
    .where("l.order_id", "=", orderId)
    .where("s.product_id", "is not", null)
    .where("s.ml_taken", "=", 0)
    .orderBy("s.product_id")
    .orderBy("s.id")
    .execute();
  const changed: string[] = [];
  const short: Array<{ productId: string; name: string; quantity: number }> = [];
  for (const r of rows) {
    const ml = Number(r.ml) * Number(r.quantity);
    const taken = await trx
      .updateTable("product_samples")
      .set((eb) => ({ bulk_ml: eb("bulk_ml", "-", ml) }))
      .where("product_id", "=", r.product_id!)
      .where("bulk_ml", "is not", null)
      .where("bulk_ml", ">=", ml)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) {
      await trx.updateTable("order_line_samples").set({ ml_taken: ml, ml_short: 0 }).where("id", "=", r.id).execute();
      changed.push(r.product_id!);
      continue;
    }
    const bulk = await trx.selectFrom("product_samples").select("bulk_ml").where("product_id", "=", r.product_id!).executeTakeFirst();
    if (!bulk || bulk.bulk_ml === null) continue;
    await trx.updateTable("order_line_samples").set({ ml_short: ml }).where("id", "=", r.id).execute();
    await setOrderLineStockShort(trx, r.line_id, Number(r.quantity));
    short.push({ productId: r.product_id!, name: `${r.name} (${ml} ml of samples)`, quantity: Number(r.quantity) });
  }
  if (short.length) logger.error({ orderId, short }, "samples: a paid order's sample bulk had run dry; the order is flagged for the owner");
  return { changed, short };
}

/** Gives back what the payment decanted (to bulks still counted) and clears the shortfalls. */
export async function giveBackSampleStock(trx: Trx, orderId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom("order_line_samples as s")
    .innerJoin("order_lines as l", "l.id", "s.order_line_id")
    .select(["s.id", "s.product_id", "s.ml_taken"])
    .where("l.order_id", "=", orderId)
    .where((eb) => eb.or([eb("s.ml_taken", ">", 0), eb("s.ml_short", ">", 0)]))
    .orderBy("s.product_id")
    .orderBy("s.id")
    .execute();
  const changed: string[] = [];
  for (const r of rows) {
    const ml = Number(r.ml_taken);
    if (ml > 0 && r.product_id) {
      const back = await trx
        .updateTable("product_samples")
        .set((eb) => ({ bulk_ml: eb("bulk_ml", "+", ml) }))
        .where("product_id", "=", r.product_id)
        .where("bulk_ml", "is not", null)
        .executeTakeFirst();
      if (Number(back.numUpdatedRows) === 1) changed.push(r.product_id);
    }
    await trx.updateTable("order_line_samples").set({ ml_taken: 0, ml_short: 0 }).where("id", "=", r.id).execute();
  }
  return changed;
}

/** The credits an order used or holds: its bill's "Sample credit" row names them. */
export async function creditsOnOrder(db: Queryable, orderId: string): Promise<Array<{ name: string; amountCents: number }>> {
  // a cancelled order still names the credits it used and gave back (its bill showed them)
  const rows = await db
    .selectFrom("sample_credits")
    .select(["name", "amount_cents"])
    .where((eb) => eb.or([eb("reserved_order_id", "=", orderId), eb("returned_by_order_id", "=", orderId)]))
    .orderBy("name")
    .execute();
  return rows.map((r) => ({ name: r.name, amountCents: Number(r.amount_cents) }));
}

export type CreditState = "open" | "held" | "used" | "expired";

export interface CustomerCredit {
  id: string;
  productId: string;
  slug: string | null;
  name: string;
  amountCents: number;
  expiresAt: string;
  state: CreditState;
}

/** A customer's credits for the profile, the ones still open first (soonest to expire first). */
export async function customerCredits(db: Queryable, userId: string, now: Date = new Date()): Promise<CustomerCredit[]> {
  const rows = await db
    .selectFrom("sample_credits as c")
    .leftJoin("products as p", "p.id", "c.product_id")
    .select(["c.id", "c.product_id", "p.slug", "c.name", "c.amount_cents", "c.expires_at", "c.used_at", "c.reserved_order_id"])
    .where("c.user_id", "=", userId)
    .where("c.revoked_at", "is", null)
    .orderBy(sql`case when c.used_at is null then 0 else 1 end`)
    .orderBy("c.expires_at")
    .orderBy("c.id")
    .execute();
  const at = now.toISOString();
  return rows.map((r) => ({
    id: r.id,
    productId: r.product_id,
    slug: r.slug ?? null,
    name: r.name,
    amountCents: Number(r.amount_cents),
    expiresAt: String(r.expires_at),
    state: r.used_at ? "used" : r.reserved_order_id ? "held" : String(r.expires_at) <= at ? "expired" : "open",
  }));
}
