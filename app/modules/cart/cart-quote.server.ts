/**
 * Quoting the cart. The browser sends product ids and quantities (and a coupon code and a zone); everything with a
 * price — products, bulk tiers, coupon, shipping, sample credits, gift cards sold, totals — is read from the database
 * here, for the cart page, the checkout's delivery options and the order being placed (flows/order-placed.server.ts),
 * which quotes again inside its transaction.
 */
import { cartLineKey, type CartQuoteLine } from "~/modules/orders/cart-quote";
import type { Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { tierFor, type PriceTier } from "~/modules/pricing/tiers.logic";
import { sizesForLines } from "~/modules/catalog/sizes.server";
import { lineName } from "~/modules/catalog/sizes.logic";
import { computeTotals, type Totals } from "~/modules/pricing/totals.logic";
import { checkCoupon, COUPON_MESSAGES, normalizeCouponCode } from "~/modules/coupons/coupons.logic";
import type { AppliedCoupon } from "~/modules/coupons/coupons.schema";
import { findCouponForCustomer, type CouponRecord } from "~/modules/coupons/coupons.server";
import { zoneForOrder } from "~/modules/shipping/shipping.logic";
import { exceedsStock, stockShortMessage } from "~/modules/catalog/stock.logic";
import { shownWasPrice } from "~/modules/catalog/was-price.logic";
import { freeDeliveryThresholdCents, loadShippingZonesOrFallback } from "~/modules/shipping/shipping.server";
import { MAX_LINE_QUANTITY, type CartLineInput } from "~/modules/orders/orders.schema";
import type { CartQuote } from "~/modules/orders/cart-quote";
import { itemDiscountCents } from "~/modules/coupons/coupons.logic";
import { isSampleLine, quoteSampleLines, type QuotedSamplePick } from "~/modules/samples/samples.server";
import { creditsForCart } from "~/modules/samples/sample-orders.server";
import type { AppliedSampleCredit } from "~/modules/samples/samples.logic";
import { isGiftCardLine } from "~/modules/gift-cards/gift-card-sales.logic";
import { quoteGiftCardLines } from "~/modules/gift-cards/gift-card-sales.server";
import type { GiftCardRequest } from "~/modules/gift-cards/gift-card-sales.logic";
import { MINIMUM_PAYMENT_CENTS } from "~/modules/orders/orders.logic";
import { pointsForCart, type PointsForCart } from "~/modules/rewards/reward-orders.server";
import { loadRewardSettings } from "~/modules/rewards/rewards.server";
import { friendRewardForCart, type FriendReward } from "~/modules/rewards/referrals.server";

/** The friend's reward as the totals applied it (capped at the goods left after the coupon and the sample credits). */
const totalsReferral = (q: Quote) => q.totals.referralCents;

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
  /** reward points a signed-in member wants to spend (docs/decisions/062) */
  rewardPoints?: number;
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
  /** a member's reward points: what they have, may and do spend (docs/decisions/062); null: off, or not a member */
  points: PointsForCart | null;
  /** a friend's reward on their first order (docs/decisions/063), or why it doesn't apply; null: none */
  friendReward: FriendReward;
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
  // A friend's reward on a first order (docs/decisions/063), then reward points on the goods left after it, never
  // below the provider's minimum to pay (docs/decisions/062).
  const rewards = input.userId ? await loadRewardSettings(db) : null;
  const friendReward = rewards ? await friendRewardForCart(db, input.userId, goodsCents, rewards) : null;
  const referralCents = friendReward && "cents" in friendReward ? friendReward.cents : 0;
  const before = computeTotals({ lines, coupon, zone, freeThresholdCents, courier: input.courier, sampleCreditCents, referralCents });
  const points = rewards ? await pointsForCart(db, input.userId, input.rewardPoints ?? 0, Math.min(before.rewardBaseCents, before.totalCents - MINIMUM_PAYMENT_CENTS), rewards) : null;
  const totals = points?.cents ? computeTotals({ lines, coupon, zone, freeThresholdCents, courier: input.courier, sampleCreditCents, referralCents, pointsCents: points.cents }) : before;
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
    points,
    friendReward,
  };
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
    ...(q.points ? { points: { available: q.points.available, most: q.points.most, used: q.points.used, cents: q.points.cents, refusal: q.points.refusal } } : {}),
    ...(q.friendReward ? { friendReward: "cents" in q.friendReward ? { cents: totalsReferral(q), refusal: null } : { cents: 0, refusal: q.friendReward.refusal } } : {}),
    zones: q.zones,
    zoneId: q.zoneId,
  };
}
