/**
 * Coupons on the server: validation against the database row (the browser's idea of a coupon is never trusted),
 * and the redemption bookkeeping of the placement / payment lifecycle:
 *   RESERVED when the order is placed (conditional UPDATE, so max_redemptions holds under concurrency),
 *   CONFIRMED when the verified payment arrives, RELEASED when the order is cancelled or its payment fails.
 */
import type { Queryable } from "~/db/db.server";
import { newId } from "~/utils/ids";
import { checkCoupon, itemDiscountCents, normalizeCouponCode, COUPON_MESSAGES, type CouponTerms } from "./coupons.logic";
import type { CouponValidation } from "./coupons.schema";
import { loadShippingZonesOrFallback, freeDeliveryThresholdCents } from "~/modules/shipping/shipping.server";
import { chooseZone, shippingCostFor } from "~/modules/shipping/shipping.logic";

export interface CouponRecord extends CouponTerms {
  id: string;
}

export async function findCouponByCode(db: Queryable, code: string): Promise<CouponRecord | null> {
  const normalized = normalizeCouponCode(code);
  if (!normalized) return null;
  const row = await db.selectFrom("coupons").selectAll().where("code", "=", normalized).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    code: row.code,
    discountType: row.discount_type,
    discountValue: row.discount_value,
    minimumSpendCents: row.minimum_spend_cents,
    maxRedemptions: row.max_redemptions,
    timesRedeemed: row.times_redeemed,
    startDate: row.start_date,
    endDate: row.end_date,
    isActive: row.is_active,
    description: row.description,
  };
}

/**
 * Redemptions of this coupon held by this customer's own unpaid orders. Placing a new order with a limited coupon
 * closes those attempts and gives their reservations back (docs/decisions/015), so to this customer they are free.
 */
export async function ownOpenReservations(db: Queryable, couponId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom("coupon_usage")
    .innerJoin("orders", "orders.id", "coupon_usage.order_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("coupon_usage.coupon_id", "=", couponId)
    .where("orders.user_id", "=", userId)
    .where("orders.status", "=", "pending")
    .where("orders.payment_status", "=", "pending")
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The coupon as this customer may use it: a limited coupon's times_redeemed leaves out the redemptions their own
 * unpaid attempts hold (a retry must not be told the coupon is used up by the attempt it replaces).
 */
export async function findCouponForCustomer(db: Queryable, code: string, userId: string | null | undefined): Promise<CouponRecord | null> {
  const coupon = await findCouponByCode(db, code);
  if (!coupon || !userId || coupon.maxRedemptions === null) return coupon;
  const own = await ownOpenReservations(db, coupon.id, userId);
  return own ? { ...coupon, timesRedeemed: Math.max(0, coupon.timesRedeemed - own) } : coupon;
}

/**
 * SPEC §7 validate_and_apply_coupon: is this code usable for a pre-discount order total (items, in cents)?
 * The discount for free_delivery is the shipping the total would cost in the chosen (or first) zone.
 * With `userId`, redemptions held by that customer's own unpaid attempts count as available (findCouponForCustomer).
 */
export async function validateAndApplyCoupon(
  db: Queryable,
  input: { code: string; orderTotalCents: number; userId: string | null; zoneId?: string | null; now?: Date },
): Promise<CouponValidation> {
  const code = normalizeCouponCode(input.code);
  const fail = (error: string): CouponValidation => ({ valid: false, code, discount_type: null, discount_amount: 0, description: null, error });
  if (!code) return fail(COUPON_MESSAGES.empty);
  const coupon = await findCouponForCustomer(db, code, input.userId);
  const check = checkCoupon(coupon, { subtotalCents: input.orderTotalCents, now: input.now ?? new Date() });
  if (!check.ok || !coupon) return fail(check.ok ? COUPON_MESSAGES.invalid : check.error);
  let discount = itemDiscountCents(coupon, input.orderTotalCents);
  if (coupon.discountType === "free_delivery") {
    const zones = await loadShippingZonesOrFallback(db);
    discount = shippingCostFor({ zone: chooseZone(zones, input.zoneId), totalAfterDiscountCents: input.orderTotalCents, freeThresholdCents: freeDeliveryThresholdCents() });
  }
  return { valid: true, code: coupon.code, discount_type: coupon.discountType, discount_amount: discount, description: coupon.description, error: null };
}

/**
 * Reserves one redemption for an order, inside the placement transaction. The conditional UPDATE is the authority:
 * 0 rows updated means no redemption is left (or the coupon is gone), and the caller must abort the placement.
 */
export async function reserveCouponRedemption(
  trx: Queryable,
  input: { couponId: string; orderId: string; userId: string | null; discountCents: number },
): Promise<boolean> {
  const result = await trx
    .updateTable("coupons")
    .set((eb) => ({ times_redeemed: eb("times_redeemed", "+", 1) }))
    .where("id", "=", input.couponId)
    .where("is_active", "=", true)
    .where((eb) => eb.or([eb("max_redemptions", "is", null), eb("times_redeemed", "<", eb.ref("max_redemptions"))]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await trx
    .insertInto("coupon_usage")
    .values({
      id: newId(),
      coupon_id: input.couponId,
      order_id: input.orderId,
      user_id: input.userId,
      discount_amount_cents: input.discountCents,
      created_at: new Date().toISOString(),
    })
    .execute();
  return true;
}

/**
 * The verified payment arrived: the reservation stands as a redemption. The counter was already incremented at
 * placement, so this only reports whether the order holds one (bookkeeping hook for the payments module).
 */
export async function confirmCouponRedemption(trx: Queryable, orderId: string): Promise<boolean> {
  const usage = await trx.selectFrom("coupon_usage").select("id").where("order_id", "=", orderId).executeTakeFirst();
  return !!usage;
}

/**
 * Gives an order's reserved redemption back (order cancelled, payment failed). Idempotent: the coupon_usage row is
 * the token, so a second call (a replayed event) changes nothing. Call it in the same transaction as the status change.
 */
export async function releaseCouponRedemption(trx: Queryable, orderId: string): Promise<boolean> {
  const removed = await trx.deleteFrom("coupon_usage").where("order_id", "=", orderId).returning("coupon_id").execute();
  if (removed.length === 0) return false;
  for (const { coupon_id } of removed) {
    await trx
      .updateTable("coupons")
      .set((eb) => ({ times_redeemed: eb("times_redeemed", "-", 1) }))
      .where("id", "=", coupon_id)
      .where("times_redeemed", ">", 0)
      .execute();
  }
  return true;
}

export type ReclaimOutcome = "reclaimed" | "full" | "no_coupon";

/**
 * A cancelled order comes back to life (the owner reopens it, or its late payment is confirmed): it takes its coupon
 * redemption back if the coupon still has room. Only the limit counts here, not the dates or the active flag: the
 * customer was given the discount when the coupon was valid. A coupon deleted since is simply no longer counted.
 * Call it in the same transaction as the status change; "full" means the caller must change nothing.
 */
export async function reclaimCouponRedemption(
  trx: Queryable,
  order: { id: string; userId: string | null; couponCode: string | null; discountCents: number },
): Promise<ReclaimOutcome> {
  if (!order.couponCode) return "no_coupon";
  const held = await trx.selectFrom("coupon_usage").select("id").where("order_id", "=", order.id).executeTakeFirst();
  if (held) return "reclaimed";
  const coupon = await trx.selectFrom("coupons").select("id").where("code", "=", order.couponCode).executeTakeFirst();
  if (!coupon) return "no_coupon";
  const result = await trx
    .updateTable("coupons")
    .set((eb) => ({ times_redeemed: eb("times_redeemed", "+", 1) }))
    .where("id", "=", coupon.id)
    .where((eb) => eb.or([eb("max_redemptions", "is", null), eb("times_redeemed", "<", eb.ref("max_redemptions"))]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return "full";
  await trx
    .insertInto("coupon_usage")
    .values({ id: newId(), coupon_id: coupon.id, order_id: order.id, user_id: order.userId, discount_amount_cents: order.discountCents, created_at: new Date().toISOString() })
    .execute();
  return "reclaimed";
}
