/**
 * Flow: an order is placed — one transaction, in this order, each step undone by the rollback of the whole when a
 * later one refuses (nothing is stored: the shopper hears why and may try again with the same checkout token):
 *
 *   1. cart: the cart quoted again from the database (cart/cart-quote.server.ts: prices, tiers, coupon, delivery,
 *      sample credits, gift cards sold) — refused when a product vanished, the coupon no longer applies, a line asks
 *      for more than is left, or the total is below the provider minimum;
 *   2. orders: the order (pending / pending) and its lines stored;
 *   3. coupons (a limited coupon): the customer's earlier unpaid attempts with it closed (flows/order-closed-unpaid:
 *      docs/decisions/015), then its redemption reserved — refused when it is used up;
 *   4. samples: each sample line's scents stored; gift cards: each gift card line's request stored;
 *   5. samples: the sample credits the quote used held for this order — refused when another order took one;
 *   6. a friend's reward on a first order (docs/decisions/063): reserved — refused when it goes to the referrer's
 *      telephone or address (the refusal recorded after the rollback), or another order took it;
 *   6b. reward points it spends: taken from the member's points (docs/decisions/062) — refused when another order took them;
 *   7. gift cards paying it: what each pays reserved (docs/decisions/053) — refused when a card can't pay.
 *
 * After the commit: a log line per earlier attempt closed. The payment is started by the checkout flow
 * (flows/checkout.server.ts); stock is taken only when it is paid (flows/order-paid.server.ts).
 */
import { isPostgres, type DB, type Trx } from "~/db/db.server";
import type { ShippingAddress } from "~/db/schema";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { lineName } from "~/modules/catalog/sizes.logic";
import { COUPON_MESSAGES } from "~/modules/coupons/coupons.logic";
import { reserveCouponRedemption } from "~/modules/coupons/coupons.server";
import type { ChosenDelivery } from "~/modules/couriers/checkout-delivery.server";
import type { PaymentMethod } from "~/modules/payments/provider";
import { CHECKOUT_MESSAGES, MINIMUM_PAYMENT_CENTS } from "~/modules/orders/orders.logic";
import { EMPTY_CART_MESSAGE, type CartLineInput } from "~/modules/orders/orders.schema";
import type { Order } from "~/modules/orders/order.types";
import { ITEMS_UNAVAILABLE_MESSAGE, quoteCart, type QuotedLine } from "~/modules/cart/cart-quote.server";
import { reserveSampleCredits, SampleCreditTakenError, storeLineSamples } from "~/modules/samples/sample-orders.server";
import { reserveGiftCardsForOrder } from "~/modules/gift-cards/gift-card-orders.server";
import { GIFT_CARD_SALE_MESSAGES, storeGiftCardSales } from "~/modules/gift-cards/gift-card-sales.server";
import { closeUnpaidOrder } from "./order-closed-unpaid.server";
import { POINTS_TAKEN, reservePoints } from "~/modules/rewards/reward-orders.server";
import { ReferralRefusedError, refuseReferral, reserveFriendReward } from "~/modules/rewards/referrals.server";
import { insertOrder } from "~/modules/orders/order-writes.server";

export type { ChosenDelivery };

/** The coupon the browser holds no longer applies: nothing was placed; the browser drops it and shows why. */
export class CouponRejectedError extends DomainError {
  constructor(reason: string) {
    super(reason, 409, "couponCode");
    this.name = "CouponRejectedError";
  }
}

/**
 * Products in the cart no longer exist: nothing was placed; the browser removes them (fieldErrors.missing carries
 * their ids) and shows the message.
 */
export class CartChangedError extends DomainError {
  constructor(readonly missingProductIds: string[]) {
    super(ITEMS_UNAVAILABLE_MESSAGE, 409, "missing", missingProductIds.join(","));
    this.name = "CartChangedError";
  }
}

/**
 * A line asks for more than the product has left (docs/decisions/020): nothing was placed; the message names the
 * product and how many are left (fieldErrors.stock carries the product id).
 */
export class StockShortError extends DomainError {
  constructor(message: string, readonly productId: string) {
    super(message, 409, "stock", productId);
    this.name = "StockShortError";
  }
}

export interface PlaceOrderInput {
  /** the checkout form's token: at most one order per token and user (see checkout.server.ts) */
  checkoutToken?: string | null;
  lines: CartLineInput[];
  couponCode?: string | null;
  zoneId?: string | null;
  shippingAddress: ShippingAddress;
  /** how the shopper pays (default card) */
  paymentMethod?: PaymentMethod;
  /** the courier option the shopper chose, priced on the server (null: the zone's table rate, as before couriers) */
  delivery?: ChosenDelivery | null;
  /** gift cards paying the order, in the order the shopper entered them (ids from resolveGiftCardCodes) */
  giftCardIds?: string[];
  /** reward points the shopper chose to spend (docs/decisions/062) */
  rewardPoints?: number;
}

/** A just-placed order: the one order shape, pending / pending, with the chosen shipping zone. */
export interface PlacedOrder extends Order {
  userId: string;
  status: "pending";
  paymentStatus: "pending";
  shippingZoneId: string | null;
  /** what gift cards pay of the total (docs/decisions/053): the provider is asked for the rest */
  giftCardCents: number;
}

/**
 * A customer holds at most this many unpaid orders with the same limited coupon (docs/decisions/015): a new attempt
 * closes their earlier unpaid ones with that coupon, so retries never use up a coupon meant for several customers.
 */
export const OPEN_ATTEMPTS_PER_LIMITED_COUPON = 1;

/**
 * Places the order for a signed-in user in one transaction: reprices from the database, refuses an empty cart,
 * vanished products and a coupon that no longer applies (changing nothing), stores the order (pending / pending)
 * with its lines and reserves the coupon redemption. Below R2.00 nothing is stored (the provider minimum).
 * With a coupon that has max_redemptions, the customer's earlier unpaid orders holding it are closed first (their
 * reservations released) in the same transaction: a customer holds one unpaid attempt per limited coupon.
 */
export async function placeOrder(db: DB, user: { id: string }, input: PlaceOrderInput, now: Date = new Date()): Promise<PlacedOrder> {
  if (input.lines.length === 0) throw new DomainError(EMPTY_CART_MESSAGE, 400, "lines");
  const superseded: string[] = [];
  let order: PlacedOrder;
  try {
    order = await placeInTransaction(db, user, input, now, superseded);
  } catch (error) {
    // The friend's reward refused while placing: recorded now (the rollback undid it), so the next quote leaves it out.
    if (error instanceof ReferralRefusedError) await refuseReferral(db, error.referralId, error.reason);
    throw error;
  }
  for (const earlier of superseded) {
    logger.info({ orderId: earlier, supersededBy: order.id, couponCode: order.couponCode, userId: user.id }, "orders: earlier unpaid attempt with the same coupon closed by a new one");
  }
  return order;
}

/**
 * Closes this customer's unpaid orders that hold a reservation of this coupon (all but the newest `keep - 1`; with
 * keep = 1, all of them: the order being placed is the one attempt kept). On PostgreSQL the customer's row is locked
 * first (FOR NO KEY UPDATE: it doesn't block inserts referencing the user), so two placements by the same customer
 * at once run this one after the other and the second sees the first's order; SQLite runs one transaction at a time.
 * Lock order stays order rows before coupon rows, as in every other close, so this cannot deadlock with an expiry.
 */
async function closeEarlierAttempts(trx: Trx, input: { userId: string; couponId: string; exceptOrderId: string; now: Date }): Promise<string[]> {
  const open = await trx
    .selectFrom("coupon_usage")
    .innerJoin("orders", "orders.id", "coupon_usage.order_id")
    .select(["orders.id", "orders.created_at"])
    .where("coupon_usage.coupon_id", "=", input.couponId)
    .where("orders.user_id", "=", input.userId)
    .where("orders.status", "=", "pending")
    .where("orders.payment_status", "=", "pending")
    .where("orders.id", "!=", input.exceptOrderId)
    .orderBy("orders.created_at", "desc")
    .orderBy("orders.id", "desc")
    .execute();
  const closed: string[] = [];
  for (const earlier of open.slice(OPEN_ATTEMPTS_PER_LIMITED_COUPON - 1)) {
    const result = await closeUnpaidOrder(trx, earlier.id, "superseded", { now: input.now, userId: input.userId });
    if (result.closed) closed.push(earlier.id);
  }
  return closed;
}

async function placeInTransaction(db: DB, user: { id: string }, input: PlaceOrderInput, now: Date, superseded: string[]): Promise<PlacedOrder> {
  return db.transaction().execute(async (trx) => {
    // The zone the shopper chose, even if it doesn't list their province (docs/decisions/018); none chosen: their
    // province's zone, else the first.
    const d = input.delivery ?? null;
    const quote = await quoteCart(
      trx,
      {
        lines: input.lines,
        couponCode: input.couponCode,
        zoneId: input.zoneId,
        province: input.shippingAddress.province,
        userId: user.id,
        courier: d ? { priceCents: d.priceCents, cheapestCents: d.cheapestCents } : null,
        rewardPoints: input.rewardPoints,
      },
      now,
    );
    if (quote.missingProductIds.length) throw new CartChangedError(quote.missingProductIds);
    if (quote.lines.length === 0) throw new DomainError(EMPTY_CART_MESSAGE, 400, "lines");
    if (quote.couponError) throw new CouponRejectedError(quote.couponError);
    // Points asked for that can't be spent (fewer than the minimum, more than the goods): said, nothing placed.
    if (quote.points?.refusal) throw new DomainError(quote.points.refusal, 409, "rewardPoints");
    // Stock is taken when the payment is confirmed; an order can't be placed for more than is left now.
    const short = quote.lines.find((l) => l.stockProblem);
    if (short) throw new StockShortError(short.stockProblem!, short.productId);
    const { totals } = quote;
    if (totals.totalCents < MINIMUM_PAYMENT_CENTS) throw new DomainError(CHECKOUT_MESSAGES.minimum, 400);

    const id = newId();
    const createdAt = now.toISOString();
    const order: PlacedOrder = {
      id,
      userId: user.id,
      status: "pending",
      paymentStatus: "pending",
      subtotalCents: totals.subtotalCents,
      discountCents: totals.discountCents,
      shippingCents: totals.shippingCents,
      totalAmountCents: totals.totalCents,
      originalTotalCents: totals.originalTotalCents,
      couponCode: quote.coupon?.code ?? null,
      // Priced by a zone: that zone (none when R70 stood in for it); otherwise the zone the table would use.
      shippingZoneId: d?.source === "zone" ? (d.zoneId ?? null) : quote.zoneId,
      giftCardCents: 0,
      shippingAddress: input.shippingAddress,
      lines: quote.lines.map((l) => ({
        ...sampleLineIds(l),
        sizeLabel: l.sizeLabel || null,
        name: lineName(l.name, l.sizeLabel),
        quantity: l.quantity,
        unitPriceCents: l.unitPriceCents,
        totalPriceCents: l.lineTotalCents,
      })),
      createdAt,
    };
    const lineIds = quote.lines.map(() => newId());
    // the order and its lines (undone by the transaction's rollback when a later step refuses)
    await insertOrder(
      trx,
      {
        id,
        user_id: user.id,
        status: "pending",
        payment_status: "pending",
        subtotal_cents: order.subtotalCents,
        discount_amount_cents: order.discountCents,
        shipping_cents: order.shippingCents,
        total_amount_cents: order.totalAmountCents,
        original_total_cents: order.originalTotalCents,
        coupon_code: order.couponCode,
        shipping_zone_id: order.shippingZoneId,
        shipping_address: JSON.stringify(order.shippingAddress),
        sample_credit_cents: totals.sampleCreditCents,
        points_used: quote.points?.used ?? 0,
        points_cents: totals.pointsCents,
        referral_cents: totals.referralCents,
        reward_base_cents: totals.rewardBaseCents,
        checkout_token: input.checkoutToken ?? null,
        payment_method: input.paymentMethod ?? "card",
        delivery_kind: d?.kind ?? null,
        delivery_courier: d?.courier ?? null,
        delivery_service_code: d?.serviceCode ?? null,
        delivery_service_name: d?.serviceName ?? null,
        delivery_point_code: d?.pointCode ?? null,
        delivery_point: d?.point ? JSON.stringify(d.point) : null,
        delivery_window_from: d?.deliveryFrom ?? null,
        delivery_window_to: d?.deliveryTo ?? null,
        delivery_price_source: d?.source ?? null,
        created_at: createdAt,
        updated_at: createdAt,
      },
      quote.lines.map((l, position) => ({
        id: lineIds[position],
        order_id: id,
        product_id: sampleLineIds(l).productId,
        size_id: sampleLineIds(l).sizeId,
        sample_kind: l.sampleKind ?? null,
        gift_card: l.isGiftCard ? 1 : 0,
        size_label: l.sizeLabel || null,
        name: l.name,
        quantity: l.quantity,
        unit_price_cents: l.unitPriceCents,
        total_price_cents: l.lineTotalCents,
        position,
      })),
    );
    if (quote.coupon) {
      if (quote.coupon.maxRedemptions !== null) {
        // One unpaid attempt per customer and limited coupon (docs/decisions/015): this customer's placements queue here.
        if (isPostgres(trx)) await trx.selectFrom("users").select("id").where("id", "=", user.id).forNoKeyUpdate().execute();
        superseded.push(...(await closeEarlierAttempts(trx, { userId: user.id, couponId: quote.coupon.id, exceptOrderId: id, now })));
      }
      const reserved = await reserveCouponRedemption(trx, { couponId: quote.coupon.id, orderId: id, userId: user.id, discountCents: totals.discountCents });
      if (!reserved) throw new CouponRejectedError(COUPON_MESSAGES.exhausted);
    }
    // Samples (docs/decisions/054): each sample line's scents, and the sample credits held for this order.
    await storeLineSamples(trx, quote.lines.map((l, i) => ({ lineId: lineIds[i], picks: l.samplePicks })));
    await storeGiftCardSales(trx, id, quote.lines.map((l, i) => ({ lineId: lineIds[i], quantity: l.quantity, giftCardRequest: l.giftCardRequest })));
    if (!(await reserveSampleCredits(trx, id, quote.sampleCredits, now))) throw new SampleCreditTakenError();
    // A friend's reward on a first order (docs/decisions/063): held for this order, like a coupon.
    const friend = quote.friendReward && "referralId" in quote.friendReward ? quote.friendReward : null;
    if (friend && totals.referralCents > 0) {
      await reserveFriendReward(trx, { referralId: friend.referralId, referrerId: friend.referrerId, orderId: id, cents: totals.referralCents, address: input.shippingAddress });
    }
    // Reward points (docs/decisions/062): taken now, like a coupon; gone meanwhile (another tab's order): nothing placed.
    if (quote.points?.used && !(await reservePoints(trx, { orderId: id, userId: user.id, points: quote.points.used, cents: totals.pointsCents, now }))) {
      throw new DomainError(POINTS_TAKEN, 409, "rewardPoints");
    }
    // Gift cards pay what they can of the total, reserved now (docs/decisions/053); refused: nothing is placed. A gift
    // card is never paid for with another (the common rule: cards can't be laundered or topped up with each other).
    if (input.giftCardIds?.length && quote.lines.some((l) => l.isGiftCard)) throw new DomainError(GIFT_CARD_SALE_MESSAGES.notWithGiftCard, 400, "giftCardCodes");
    if (input.giftCardIds?.length) {
      const split = await reserveGiftCardsForOrder(trx, { orderId: id, cardIds: input.giftCardIds, totalCents: totals.totalCents, actor: { kind: "user", id: user.id }, now });
      order.giftCardCents = split.giftCardCents;
    }
    return order;
  });
}

/**
 * What an order line points at: a bottle its product and size; a sample its product only (no size: it is decanted
 * from the bulk); a discovery set neither (its scents are in order_line_samples).
 */
function sampleLineIds(l: QuotedLine): { productId: string | null; sizeId: string | null } {
  if (l.sampleKind === "set" || l.isGiftCard) return { productId: null, sizeId: null };
  if (l.sampleKind === "sample") return { productId: l.productId, sizeId: null };
  return { productId: l.productId, sizeId: l.sizeId };
}
