/**
 * Delivery choices for a cart at checkout, and the chosen one priced on the server when the order is placed. The
 * browser's part is a request (a kind, a service code, a locker code); the price is the server's, from the same
 * cached quote the shopper was shown.
 */
import type { Queryable } from "~/db/db.server";
import type { DeliveryPointCopy } from "~/db/schema";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { computeTotals } from "~/modules/pricing/totals.logic";
import { quoteCart, toCartQuote, type Quote, type QuoteInput } from "~/modules/cart/cart-quote.server";
import { itemDiscountCents } from "~/modules/coupons/coupons.logic";
import type { CartQuote } from "~/modules/orders/cart-quote";
import type { DeliveryKind } from "./courier";
import { applyFreeDelivery, cheapestFor } from "./delivery.logic";
import { findPoint, loadDeliverySettings, optionsForKind, searchPoints, type DeliveryDestination, type DeliveryOption } from "./delivery.server";
import type { NearPoint } from "./points.logic";
import { isGiftCardLine } from "~/modules/gift-cards/gift-card-sales.logic";

export const DELIVERY_MESSAGES = {
  chooseKind: "Please choose how your order is delivered",
  choosePoint: "Please choose a locker or pick-up point",
  pointGone: "That locker or pick-up point is no longer available: please choose another",
  changed: "Delivery prices have changed: please check your delivery choice and total",
  unavailable: "That delivery option is not available for this order: please choose another",
} as const;

export function offeredKinds(): DeliveryKind[] {
  return env().DELIVERY_KINDS;
}

/** An option as the checkout shows it: what the shopper pays for it with this cart, and the totals if chosen. */
export interface PricedOption extends DeliveryOption {
  payCents: number;
  freed: boolean;
  totals: Pick<CartQuote, "shippingCents" | "discountCents" | "totalCents" | "vatIncludedCents" | "deliveryFree" | "freeDeliveryRemainingCents">;
}

export interface DeliveryChoices {
  kinds: Array<{ kind: DeliveryKind; options: PricedOption[]; note: string | null; points: NearPoint[]; pointCode: string | null }>;
  quote: CartQuote;
}

/** What /checkout/delivery answers (JSON): the choices, or none and why; the checkout's delivery choice reads it. */
export type DeliveryAnswer = { choices: DeliveryChoices | null; error?: string };

/**
 * Every offered kind's options for this cart, address and (for lockers and points) the chosen or nearest point,
 * the points near `pointQuery` (else the address), each option with the cart's totals if chosen.
 */
export async function deliveryChoices(
  db: Queryable,
  input: QuoteInput & { address: DeliveryDestination; pointCodes?: Partial<Record<"locker" | "point", string | null>>; pointQuery?: string | null },
): Promise<DeliveryChoices> {
  const base = await quoteCart(db, input);
  const settings = await loadDeliverySettings(db);
  const afterDiscount = afterItemDiscount(base);
  const kinds = await Promise.all(
    offeredKinds().map(async (kind) => {
      let points: NearPoint[] = [];
      let pointCode: string | null = null;
      if (kind !== "door") {
        const query = input.pointQuery?.trim() || `${input.address.suburb} ${input.address.postalCode} ${input.address.city}`;
        points = await searchPoints(db, kind, query);
        const wanted = input.pointCodes?.[kind] ?? null;
        pointCode = wanted && (points.some((p) => p.code === wanted) || (await findPoint(db, kind, wanted))) ? wanted : (points[0]?.code ?? null);
      }
      const found = await optionsForKind(db, kind, { address: input.address, pointCode, lines: base.lines, subtotalAfterDiscountCents: afterDiscount, zoneId: input.zoneId, settings });
      const free = afterDiscount >= base.freeThresholdCents;
      const options = applyFreeDelivery(found.options, free).map((o): PricedOption => {
        const t = computeTotals({ lines: base.lines, coupon: base.coupon, zone: null, freeThresholdCents: base.freeThresholdCents, courier: { priceCents: o.priceCents, cheapestCents: cheapestFor(o, found.options) }, sampleCreditCents: base.totals.sampleCreditCents, referralCents: base.totals.referralCents, pointsCents: base.totals.pointsCents });
        return { ...o, totals: { shippingCents: t.shippingCents, discountCents: t.discountCents, totalCents: t.totalCents, vatIncludedCents: t.vatIncludedCents, deliveryFree: t.deliveryFree, freeDeliveryRemainingCents: t.freeDeliveryRemainingCents } };
      });
      return { kind, options, note: found.note, points, pointCode };
    }),
  );
  return { kinds, quote: toCartQuote(base) };
}

/** The items' total after the coupon's item discount: what the free-delivery threshold is measured on (gift cards sold are outside it). */
function afterItemDiscount(q: Quote): number {
  const goods = q.totals.subtotalCents - q.totals.giftCardLinesCents;
  return goods - (q.coupon ? itemDiscountCents(q.coupon, goods) : 0);
}

/**
 * The delivery the posted form asks for, priced now from the (cached) quotes: null when the shop offers no courier
 * kinds (the zone table applies, as before couriers). Refuses — changing nothing — a missing or unknown choice, a
 * locker that no longer exists, and a service whose price is no longer on offer (the page then shows the new ones).
 */
export async function resolveDeliveryChoice(
  db: Queryable,
  input: QuoteInput & { address: DeliveryDestination; kind?: DeliveryKind; serviceCode?: string; pointCode?: string },
): Promise<ChosenDelivery | null> {
  const kinds = offeredKinds();
  // Nothing to deliver (gift cards alone, docs/decisions/053): no courier, no delivery charge.
  if (!kinds.length || (input.lines.length > 0 && input.lines.every(isGiftCardLine))) return null;
  if (!input.kind || !kinds.includes(input.kind)) throw new DomainError(DELIVERY_MESSAGES.chooseKind, 400, "delivery");
  let point: DeliveryPointCopy | null = null;
  if (input.kind !== "door") {
    if (!input.pointCode) throw new DomainError(DELIVERY_MESSAGES.choosePoint, 400, "delivery");
    const found = await findPoint(db, input.kind, input.pointCode);
    if (!found) throw new DomainError(DELIVERY_MESSAGES.pointGone, 409, "delivery");
    point = { name: found.name, streetAddress: found.streetAddress, suburb: found.suburb, city: found.city, province: found.province, postalCode: found.postalCode, hours: found.hours };
  }
  const base = await quoteCart(db, input);
  const afterDiscount = afterItemDiscount(base);
  const found = await optionsForKind(db, input.kind, { address: input.address, pointCode: input.pointCode ?? null, lines: base.lines, subtotalAfterDiscountCents: afterDiscount, zoneId: input.zoneId });
  if (!found.options.length) throw new DomainError(found.note ?? DELIVERY_MESSAGES.unavailable, 409, "delivery");
  // Door delivery priced by zones: the zone posted (its radio), which must still serve the address; none posted, the
  // first (the preselected one, SPEC §2).
  const option = found.options.find((o) => o.serviceCode === input.serviceCode && (o.source !== "zone" || !input.zoneId || o.zoneId === input.zoneId));
  if (!option) throw new DomainError(DELIVERY_MESSAGES.changed, 409, "delivery");
  return {
    kind: input.kind,
    courier: option.courier,
    serviceCode: option.serviceCode,
    serviceName: option.serviceName,
    priceCents: option.priceCents,
    cheapestCents: cheapestFor(option, found.options),
    pointCode: input.kind === "door" ? null : input.pointCode!,
    point,
    deliveryFrom: option.deliveryFrom,
    deliveryTo: option.deliveryTo,
    source: option.source,
    zoneId: option.zoneId ?? null,
  };
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
