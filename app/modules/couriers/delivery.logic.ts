/**
 * Delivery rules that need no I/O (browser-safe): the parcel an order makes, what the shopper pays for a courier's
 * rate under the owner's pricing, the free-delivery threshold, and how a window reads. Unit-tested in
 * delivery.logic.test.ts.
 */
import type { DeliveryKind, Parcel, ServiceRate } from "./courier";
import { MAX_PARCEL_WEIGHT_KG } from "./courier";
import { formatRand } from "~/utils/money";

/**
 * How the owner prices a delivery kind: by the shop's own zones and rules (SPEC §9; door delivery only, and its
 * default: docs/decisions/045), the courier's live rate plus a margin, or one flat price. However a door delivery is
 * priced, the courier books and tracks it.
 */
export type PricingMode = "zones" | "quote" | "flat";

export interface KindPricing {
  mode: PricingMode;
  /** added to the courier's rate (may be negative to absorb part of it; the price never goes below 0) */
  marginCents: number;
  /** the price when mode is flat */
  flatCents: number;
}

export interface DeliverySettings {
  /** where the courier collects: the shop's dispatch address */
  collection: { company: string; streetAddress: string; localArea: string; city: string; zone: string; code: string };
  collectionContact: { name: string; mobileNumber: string; email: string };
  /** the box the shop ships in (every order one box; heavier orders more boxes of it) */
  parcel: { lengthCm: number; widthCm: number; heightCm: number };
  /** a bottle's packed weight when the product doesn't say (grams) */
  bottleWeightGrams: number;
  /** the box, filling and paper (grams) */
  packagingGrams: number;
  pricing: Record<DeliveryKind, KindPricing>;
}

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  collection: { company: "Scentara", streetAddress: "12 Main Road", localArea: "Rondebosch", city: "Cape Town", zone: "Western Cape", code: "7700" },
  collectionContact: { name: "Scentara dispatch", mobileNumber: "0821234567", email: "hello@scentara.co.za" },
  parcel: { lengthCm: 25, widthCm: 18, heightCm: 12 },
  bottleWeightGrams: 350,
  packagingGrams: 250,
  pricing: {
    // The spec's zone table: a zone the owner adds is offered at checkout at once.
    door: { mode: "zones", marginCents: 0, flatCents: 9900 },
    locker: { mode: "quote", marginCents: 0, flatCents: 6000 },
    point: { mode: "quote", marginCents: 0, flatCents: 6000 },
  },
};

/** The modes each kind may be priced by: only door delivery goes to the shopper's address, which the zones price. */
export const PRICING_MODES: Record<DeliveryKind, readonly PricingMode[]> = { door: ["zones", "quote", "flat"], locker: ["quote", "flat"], point: ["quote", "flat"] };

/**
 * The pricing of each kind from the saved settings over the defaults, field by field (docs/decisions/045): a mode the
 * owner saved is kept; a kind or mode never saved (or not one the kind allows) takes the default, so a shop whose
 * saved settings name no door mode prices door delivery by its zones, as the spec does.
 */
export function savedPricing(defaults: DeliverySettings["pricing"], saved: Partial<Record<DeliveryKind, Partial<KindPricing>>> | undefined): DeliverySettings["pricing"] {
  const kind = (k: DeliveryKind): KindPricing => {
    const s = saved?.[k] ?? {};
    const mode = s.mode && PRICING_MODES[k].includes(s.mode) ? s.mode : defaults[k].mode;
    return {
      mode,
      marginCents: Number.isInteger(s.marginCents) ? s.marginCents! : defaults[k].marginCents,
      flatCents: Number.isInteger(s.flatCents) ? s.flatCents! : defaults[k].flatCents,
    };
  };
  return { door: kind("door"), locker: kind("locker"), point: kind("point") };
}

/** A box holds at most this much (kg), what every courier here takes per parcel (Pargo 15 kg, PUDO XL 20 kg); more goes in another box. */
export const BOX_LIMIT_KG = 15;

/**
 * The parcels for an order: its bottles (their own weight, else the default) packed into the shop's boxes, first fit
 * by weight, each box holding at most BOX_LIMIT_KG with its packaging. A bottle is never split: one heavier than a
 * box holds makes a box of its own, over the limit, which parcelProblem then names. Weights in kg (grams exact).
 */
export function parcelsFor(lines: ReadonlyArray<{ quantity: number; weightGrams: number | null }>, settings: Pick<DeliverySettings, "parcel" | "bottleWeightGrams" | "packagingGrams">): Parcel[] {
  const room = BOX_LIMIT_KG * 1000 - settings.packagingGrams;
  const items = lines.flatMap((l) => Array.from({ length: Math.max(0, l.quantity) }, () => Math.max(0, l.weightGrams ?? settings.bottleWeightGrams))).sort((a, b) => b - a);
  const boxes: number[] = [];
  for (const grams of items) {
    const fits = boxes.findIndex((used) => used + grams <= room);
    if (fits === -1) boxes.push(grams);
    else boxes[fits]! += grams;
  }
  if (!boxes.length) boxes.push(0);
  return boxes.map((grams) => ({ ...settings.parcel, weightKg: (grams + settings.packagingGrams) / 1000 }));
}

/** A parcel a courier won't carry: its weight over the limit, or a side of 0 or less. The message says which. */
export function parcelProblem(parcel: Parcel): string | null {
  if (!(parcel.weightKg > 0)) return "The parcel has no weight.";
  if (parcel.weightKg > MAX_PARCEL_WEIGHT_KG) return `A parcel of ${parcel.weightKg} kg is over the couriers' limit of ${MAX_PARCEL_WEIGHT_KG} kg per parcel: split the order into more boxes.`;
  if (!(parcel.lengthCm > 0 && parcel.widthCm > 0 && parcel.heightCm > 0)) return "The parcel's size is missing: set the box size in delivery settings.";
  return null;
}

/** What the shopper is charged for a courier rate under the owner's pricing for its kind (never below 0). */
export function shopperPrice(rateCents: number, pricing: KindPricing): number {
  return pricing.mode === "flat" ? pricing.flatCents : Math.max(0, rateCents + pricing.marginCents);
}

/**
 * The free-delivery threshold with several service levels (docs/decisions/031): reaching it makes the cheapest
 * service of each kind free; a faster service (overnight) still costs its price less that cheapest one, so free
 * delivery is never a reason to pay more for the same speed and never a free upgrade.
 */
export function applyFreeDelivery<R extends PricedChoice>(options: R[], free: boolean): Array<R & { payCents: number; freed: boolean }> {
  return options.map((o) => (free ? { ...o, payCents: o.priceCents - cheapestFor(o, options), freed: true } : { ...o, payCents: o.priceCents, freed: false }));
}

type PricedChoice = { priceCents: number; source?: string };

/**
 * What the free-delivery threshold takes off an option: its kind's cheapest service. A zone's rate (door delivery
 * priced by zones) is not a speed but where the parcel goes, so each zone is its own cheapest: free in full at the
 * threshold, as SPEC §9 and docs/decisions/017 have it.
 */
export function cheapestFor(option: PricedChoice, options: readonly PricedChoice[]): number {
  return option.source === "zone" ? option.priceCents : Math.min(...options.map((o) => o.priceCents));
}

const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
function day(iso: string): string {
  const d = new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso);
  return `${DAY_NAMES[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** "Thu 27 Nov", "Thu 27 – Mon 1 Dec" style window; null when the courier gave none. */
export function windowLabel(rate: Pick<ServiceRate, "deliveryFrom" | "deliveryTo">): string | null {
  if (!rate.deliveryFrom && !rate.deliveryTo) return null;
  const from = rate.deliveryFrom ?? rate.deliveryTo!;
  const to = rate.deliveryTo ?? rate.deliveryFrom!;
  return from.slice(0, 10) === to.slice(0, 10) ? `Arrives ${day(from)}` : `Arrives ${day(from)} – ${day(to)}`;
}

/** "R99.00", or "Free" (with the saving said elsewhere). */
export function priceLabel(cents: number): string {
  return cents === 0 ? "Free" : formatRand(cents);
}

/** The kinds as the shopper reads them. */
export const KIND_LABELS: Record<DeliveryKind, { title: string; hint: string }> = {
  door: { title: "Delivery to your door", hint: "The Courier Guy brings it to your address." },
  locker: { title: "Collect from a PUDO locker", hint: "Open the locker with a PIN, any time it is open — no waiting in for a courier." },
  point: { title: "Collect from a Pargo pick-up point", hint: "Collect at the counter of a shop near you, with the code we send you." },
};

/** A parcel as its shopper follows it on the order page (shipments.server.ts deliveryViewForOrder makes it). */
export interface TrackingView {
  courier: string;
  trackingReference: string | null;
  trackingUrl: string | null;
  status: string;
  collectionPin: string | null;
  test: boolean;
  point: { name: string; streetAddress: string; suburb: string; hours: string[] } | null;
  events: Array<{ label: string; at: string; message: string; location: string | null }>;
}

/**
 * The orders list counts the paid orders waiting for a courier up to this many and no further: each count probes the
 * shipments of every order it counts, so a shop with a backlog of 100 000 paid orders took 250–310 ms a page for an
 * exact figure (issue 39 point 5); past this many the owner reads "more than 1 000" (the batch button books 100 at a
 * time anyway).
 */
export const COURIER_WAITING_COUNT_CAP = 1000;

/** "3 paid orders wait for a courier.", or "More than 1 000 …" once the count reached its cap. */
export function courierWaitingLabel(waiting: number): string {
  const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  if (waiting > COURIER_WAITING_COUNT_CAP) return `More than ${grouped(COURIER_WAITING_COUNT_CAP)} paid orders wait for a courier.`;
  return `${grouped(waiting)} paid ${waiting === 1 ? "order waits" : "orders wait"} for a courier.`;
}
