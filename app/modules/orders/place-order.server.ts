/**
 * Quoting the cart and placing the order. The browser sends product ids and quantities (and a coupon code and a
 * zone); everything with a price — products, bulk tiers, coupon, shipping, totals — is read from the database here.
 * Placing an order is one transaction: order, lines and the coupon reservation are stored together or not at all.
 */
import { cartLineKey, type CartQuoteLine } from "./cart-quote";
import { isPostgres, type DB, type Queryable, type Trx } from "~/db/db.server";
import type { DeliveryPointCopy, ShippingAddress } from "~/db/schema";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { tierFor, type PriceTier } from "~/modules/pricing/tiers.logic";
import { sizesForLines } from "~/modules/catalog/sizes.server";
import { lineName } from "~/modules/catalog/sizes.logic";
import { computeTotals, type Totals } from "~/modules/pricing/totals.logic";
import { checkCoupon, COUPON_MESSAGES, normalizeCouponCode } from "~/modules/coupons/coupons.logic";
import type { AppliedCoupon } from "~/modules/coupons/coupons.schema";
import { findCouponForCustomer, reserveCouponRedemption, type CouponRecord } from "~/modules/coupons/coupons.server";
import { zoneForOrder } from "~/modules/shipping/shipping.logic";
import { exceedsStock, stockShortMessage } from "~/modules/catalog/stock.logic";
import { shownWasPrice } from "~/modules/catalog/was-price.logic";
import type { PaymentMethod } from "~/modules/payments/provider";
import { freeDeliveryThresholdCents, loadShippingZonesOrFallback } from "~/modules/shipping/shipping.server";
import { CHECKOUT_MESSAGES, MINIMUM_PAYMENT_CENTS } from "./orders.logic";
import { closeUnpaidOrder } from "./order-payment.server";
import { EMPTY_CART_MESSAGE, MAX_LINE_QUANTITY, type CartLineInput } from "./orders.schema";
import type { CartQuote } from "./cart-quote";
import type { Order } from "./order.types";
import { itemDiscountCents } from "~/modules/coupons/coupons.logic";
import { isSampleLine, quoteSampleLines, type QuotedSamplePick } from "~/modules/samples/samples.server";
import { creditsForCart, reserveSampleCredits, SampleCreditTakenError, storeLineSamples } from "~/modules/samples/sample-orders.server";
import type { AppliedSampleCredit } from "~/modules/samples/samples.logic";
import { reserveGiftCardsForOrder } from "~/modules/gift-cards/gift-card-orders.server";
import { isGiftCardLine } from "~/modules/gift-cards/gift-card-sales.logic";
import { GIFT_CARD_SALE_MESSAGES, quoteGiftCardLines, storeGiftCardSales } from "~/modules/gift-cards/gift-card-sales.server";
import type { GiftCardRequest } from "~/modules/gift-cards/gift-card-sales.logic";

export const ITEMS_UNAVAILABLE_MESSAGE = "Some items in your cart are no longer available and have been removed. Please review your order.";

export interface QuoteInput {
  lines: CartLineInput[];
  couponCode?: string | null;
  zoneId?: string | null;
  /** the shopper's province: without a (known) zone chosen, the zone that serves it ships the order */
  province?: string | null;
  userId?: string | null;
  /** a courier option's price replaces the zone's rate (see computeTotals) */
  courier?: { priceCents: number; cheapestCents: number } | null;
}

/** A repriced line: the same shape the cart page shows (see cart-quote.ts); a sample line with its scents, a gift card with its request. */
export type QuotedLine = CartQuoteLine & { samplePicks?: QuotedSamplePick[]; giftCardRequest?: GiftCardRequest };

export interface Quote {
  lines: QuotedLine[];
  /** ids the browser sent that are not (any longer) products */
  missingProductIds: string[];
  totals: Totals;
  coupon: (AppliedCoupon & { id: string; maxRedemptions: number | null; discountValue: number }) | null;
  /** why the posted coupon code does not apply (null when none was posted or it applies) */
  couponError: string | null;
  /** every zone with what delivery to it costs this cart (0: free), so the shopper never picks blind */
  zones: QuoteZone[];
  zoneId: string | null;
  freeThresholdCents: number;
  /** the signed-in shopper's sample credits this cart uses (docs/decisions/054) */
  sampleCredits: AppliedSampleCredit[];
}

export interface QuoteZone {
  id: string;
  name: string;
  provinces: string[];
  /** what the shopper pays for delivery with this zone: 0 when free (threshold, a zero rate or a free-delivery coupon) */
  deliveryCents: number;
}

/** Same product and size twice (two tabs) → one line with the summed quantity. */
function mergeLines(lines: CartLineInput[]): CartLineInput[] {
  const merged = new Map<string, CartLineInput>();
  for (const l of lines) {
    const key = cartLineKey(l);
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, quantity: seen.quantity + l.quantity } : { ...l });
  }
  return [...merged.values()];
}

export async function quoteCart(db: Queryable, input: QuoteInput, now: Date = new Date()): Promise<Quote> {
  const merged = mergeLines(input.lines);
  for (const l of merged) {
    if (!Number.isInteger(l.quantity) || l.quantity < 1 || l.quantity > MAX_LINE_QUANTITY) {
      throw new DomainError("Quantity must be between 1 and 100", 400, "lines");
    }
  }
  // Samples and discovery sets are priced by the samples module (docs/decisions/054), gift cards by the gift card
  // module (docs/decisions/053); bottles here.
  const wanted = merged.filter((l) => !isSampleLine(l) && !isGiftCardLine(l));
  const sampled = await quoteSampleLines(db, merged.filter(isSampleLine));
  const gifts = await quoteGiftCardLines(db, merged.filter(isGiftCardLine), now);
  const ids = [...new Set(wanted.map((l) => l.productId))];
  const [products, chosen, zones] = await Promise.all([
    ids.length ? db.selectFrom("products").select(["id", "name", "slug", "images"]).where("id", "in", ids).execute() : [],
    sizesForLines(db, wanted),
    loadShippingZonesOrFallback(db),
  ]);
  const byId = new Map(products.map((p) => [p.id, p]));
  const sizeIds = chosen.filter((s) => s !== null).map((s) => s.id);
  const tiers = sizeIds.length
    ? await db.selectFrom("product_tiers").select(["size_id", "min_quantity", "max_quantity", "price_cents"]).where("size_id", "in", sizeIds).execute()
    : [];
  const tiersOf = (sizeId: string): PriceTier[] =>
    tiers
      .filter((t) => t.size_id === sizeId)
      .map((t) => ({ minQuantity: Number(t.min_quantity), maxQuantity: t.max_quantity === null ? null : Number(t.max_quantity), priceCents: Number(t.price_cents) }));

  const lines: QuotedLine[] = [];
  const missingProductIds: string[] = [];
  wanted.forEach((l, i) => {
    const p = byId.get(l.productId);
    const size = chosen[i];
    if (!p || !size) {
      missingProductIds.push(cartLineKey(l));
      return;
    }
    const sizeTiers = tiersOf(size.id);
    const tier = tierFor(sizeTiers, l.quantity);
    const unitPriceCents = tier?.priceCents ?? size.priceCents;
    const next = sizeTiers
      .filter((t) => t.minQuantity > l.quantity && t.priceCents < unitPriceCents)
      .sort((a, b) => a.minQuantity - b.minQuantity)[0];
    const name = lineName(p.name, size.label);
    lines.push({
      productId: p.id,
      sizeId: size.id,
      sizeLabel: size.label,
      sizeCode: size.code,
      key: cartLineKey(l),
      name: p.name,
      slug: p.slug,
      image: Array.isArray(p.images) && typeof p.images[0] === "string" ? p.images[0] : null,
      quantity: l.quantity,
      basePriceCents: size.priceCents,
      wasPriceCents: shownWasPrice(size.priceCents, size.wasPriceCents),
      unitPriceCents,
      lineTotalCents: unitPriceCents * l.quantity,
      tierApplied: !!tier,
      nextTier: next ? { minQuantity: next.minQuantity, priceCents: next.priceCents } : null,
      stockLeft: size.stock,
      stockProblem: exceedsStock(l.quantity, size.stock) ? stockShortMessage(name, size.stock ?? 0) : null,
    });
  });

  lines.push(...sampled.lines, ...gifts.lines);
  missingProductIds.push(...sampled.missing, ...gifts.missing);

  // The coupon (its minimum too) and the sample credits see the goods; gift cards sold are outside them (totals.logic.ts).
  const goodsCents = lines.reduce((s, l) => s + (l.isGiftCard ? 0 : l.lineTotalCents), 0);
  let coupon: CouponRecord | null = null;
  let couponError: string | null = null;
  const code = input.couponCode ? normalizeCouponCode(input.couponCode) : undefined;
  if (code) {
    const found = await findCouponForCustomer(db, code, input.userId);
    const check = checkCoupon(found, { subtotalCents: goodsCents, now });
    if (check.ok && found) coupon = found;
    else couponError = check.ok ? COUPON_MESSAGES.invalid : check.error;
  }

  const zone = zoneForOrder(zones, input.zoneId, input.province);
  const freeThresholdCents = freeDeliveryThresholdCents();
  // A signed-in shopper's sample credits go on their full bottles, after the coupon (docs/decisions/054).
  const itemsAfterCoupon = goodsCents - (coupon ? itemDiscountCents(coupon, goodsCents) : 0);
  const sampleCredits = await creditsForCart(db, input.userId, lines.filter((l) => !l.sampleKind && !l.isGiftCard), itemsAfterCoupon, now);
  const sampleCreditCents = sampleCredits.reduce((s, c) => s + c.amountCents, 0);
  const totals = computeTotals({ lines, coupon, zone, freeThresholdCents, courier: input.courier, sampleCreditCents });
  const zoneOptions = zones.map((z): QuoteZone => {
    const t = z.id === zone?.id ? totals : computeTotals({ lines, coupon, zone: z, freeThresholdCents });
    return { id: z.id, name: z.name, provinces: [...(z.provinces ?? [])], deliveryCents: t.deliveryFree ? 0 : t.shippingCents };
  });
  return {
    lines,
    missingProductIds,
    totals,
    coupon: coupon
      ? {
          id: coupon.id,
          maxRedemptions: coupon.maxRedemptions,
          discountValue: coupon.discountValue,
          code: coupon.code,
          discountType: coupon.discountType,
          discountAmount: totals.discountCents,
          description: coupon.description,
        }
      : null,
    couponError,
    zones: zoneOptions,
    zoneId: zone?.id ?? null,
    freeThresholdCents,
    sampleCredits,
  };
}

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
}

/** A delivery option as placed on the order (resolved and priced by couriers/checkout-delivery.server.ts). */
export interface ChosenDelivery {
  kind: "door" | "locker" | "point";
  courier: string;
  serviceCode: string;
  serviceName: string;
  priceCents: number;
  /** the cheapest option of the kind: what the free-delivery threshold takes off */
  cheapestCents: number;
  pointCode: string | null;
  point: DeliveryPointCopy | null;
  deliveryFrom: string | null;
  deliveryTo: string | null;
  source: "courier" | "table" | "flat" | "zone";
  /** door delivery priced by zones: the zone it was priced by (null: none serves the address, R70) */
  zoneId?: string | null;
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
  const order = await placeInTransaction(db, user, input, now, superseded);
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
      { lines: input.lines, couponCode: input.couponCode, zoneId: input.zoneId, province: input.shippingAddress.province, userId: user.id, courier: d ? { priceCents: d.priceCents, cheapestCents: d.cheapestCents } : null },
      now,
    );
    if (quote.missingProductIds.length) throw new CartChangedError(quote.missingProductIds);
    if (quote.lines.length === 0) throw new DomainError(EMPTY_CART_MESSAGE, 400, "lines");
    if (quote.couponError) throw new CouponRejectedError(quote.couponError);
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
    await trx
      .insertInto("orders")
      .values({
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
      })
      .execute();
    const lineIds = quote.lines.map(() => newId());
    await trx
      .insertInto("order_lines")
      .values(
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
      )
      .execute();
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

/** The quote as the browser sees it (no internal ids beyond products and zones). */
export function toCartQuote(q: Quote): CartQuote {
  return {
    lines: q.lines,
    missingProductIds: q.missingProductIds,
    subtotalCents: q.totals.subtotalCents,
    discountCents: q.totals.discountCents,
    shippingCents: q.totals.shippingCents,
    totalCents: q.totals.totalCents,
    vatIncludedCents: q.totals.vatIncludedCents,
    freeDeliveryRemainingCents: q.totals.freeDeliveryRemainingCents,
    freeThresholdCents: q.freeThresholdCents,
    deliveryFree: q.totals.deliveryFree,
    coupon: q.coupon ? { code: q.coupon.code, discountType: q.coupon.discountType, discountAmount: q.coupon.discountAmount, description: q.coupon.description } : null,
    couponError: q.couponError,
    sampleCreditCents: q.totals.sampleCreditCents,
    sampleCredits: q.sampleCredits.map((c) => ({ name: c.name, amountCents: c.amountCents })),
    zones: q.zones,
    zoneId: q.zoneId,
  };
}
