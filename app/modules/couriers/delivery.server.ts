/**
 * Delivery at checkout: the owner's delivery settings, the couriers' lockers and points, and live quotes — cached,
 * timed out, and replaced by the zone's table rate when a courier is slow or down, so a courier never stops a sale.
 */
import { saveSettings } from "~/modules/settings/saved-settings.server";
import { sizesForLines } from "~/modules/catalog/sizes.server";
import { sampleLineWeightGrams, sampleVialsOf } from "~/modules/samples/samples.logic";
import type { Queryable } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { zoneForOrder, zoneRateFor, zonesServing, type ShippingZone } from "~/modules/shipping/shipping.logic";
import { loadShippingZonesOrFallback } from "~/modules/shipping/shipping.server";
import type { CourierAddress, DeliveryKind, Parcel, PickupPoint, ServiceRate } from "./courier";
import { CourierError } from "./courier";
import { COURIER_OF_KIND, courierForKind } from "./couriers.server";
import { DEFAULT_DELIVERY_SETTINGS, parcelsFor, savedPricing, shopperPrice, windowLabel, type DeliverySettings } from "./delivery.logic";
import { nearestPoints, type NearPoint } from "./points.logic";

const SETTINGS_KEY = "delivery";

/** The owner's delivery settings (defaults for anything unset; the collection company and e-mail from the shop's). */
export async function loadDeliverySettings(db: Queryable): Promise<DeliverySettings> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", SETTINGS_KEY).executeTakeFirst();
  const config = env();
  const base: DeliverySettings = {
    ...DEFAULT_DELIVERY_SETTINGS,
    collection: { ...DEFAULT_DELIVERY_SETTINGS.collection, company: config.SHOP_LEGAL_NAME ?? config.SHOP_NAME },
    collectionContact: { ...DEFAULT_DELIVERY_SETTINGS.collectionContact, email: config.CONTACT_EMAIL },
  };
  if (!row) return base;
  try {
    const saved = JSON.parse(row.value) as Partial<DeliverySettings>;
    return {
      ...base,
      ...saved,
      collection: { ...base.collection, ...saved.collection },
      collectionContact: { ...base.collectionContact, ...saved.collectionContact },
      parcel: { ...base.parcel, ...saved.parcel },
      pricing: savedPricing(base.pricing, saved.pricing),
    };
  } catch {
    logger.error("couriers: the saved delivery settings are not readable; the defaults apply");
    return base;
  }
}

export async function saveDeliverySettings(db: Queryable, settings: DeliverySettings): Promise<void> {
  await saveSettings(db, SETTINGS_KEY, settings);
}

// ---------------------------------------------------------------------------------------------------------------
// Lockers and points: kept in courier_points, refreshed from the courier once a day (or when there are none), and
// held in each process for a few minutes (a checkout searches them on every keystroke).

const POINTS_FRESH_MS = 24 * 60 * 60 * 1000;
const POINTS_MEMORY_MS = 5 * 60 * 1000;
const pointsMemory = new Map<string, { at: number; points: PickupPoint[] }>();

export async function refreshPoints(db: Queryable, kind: "locker" | "point", now = new Date()): Promise<number> {
  const client = courierForKind(kind);
  if (!client.points) return 0;
  const points = await client.points(AbortSignal.timeout(15_000));
  const refreshedAt = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("courier_points").where("courier", "=", client.name).execute();
    for (let i = 0; i < points.length; i += 200) {
      await trx
        .insertInto("courier_points")
        .values(
          points.slice(i, i + 200).map((p) => ({
            courier: client.name,
            code: p.code,
            kind: p.kind,
            name: p.name,
            street_address: p.streetAddress,
            suburb: p.suburb,
            city: p.city,
            province: p.province,
            postal_code: p.postalCode,
            lat: p.lat,
            lng: p.lng,
            hours: JSON.stringify(p.hours),
            refreshed_at: refreshedAt,
          })),
        )
        .execute();
    }
  });
  pointsMemory.delete(client.name);
  logger.info({ courier: client.name, points: points.length }, "couriers: lockers / pick-up points refreshed");
  return points.length;
}

/** Every locker (or pick-up point) of the kind's courier: fetched when there are none or they are a day old. */
export async function pointsOf(db: Queryable, kind: "locker" | "point", now = Date.now()): Promise<PickupPoint[]> {
  const courier = COURIER_OF_KIND[kind];
  const held = pointsMemory.get(courier);
  if (held && now - held.at < POINTS_MEMORY_MS) return held.points;
  let rows = await db.selectFrom("courier_points").selectAll().where("courier", "=", courier).execute();
  const stale = !rows.length || now - Date.parse(rows[0]!.refreshed_at) > POINTS_FRESH_MS;
  if (stale) {
    try {
      await refreshPoints(db, kind, new Date(now));
      rows = await db.selectFrom("courier_points").selectAll().where("courier", "=", courier).execute();
    } catch (error) {
      // The list we have (however old) is better than none; with none, the kind falls back to door / table delivery.
      logger.warn({ err: error, courier }, "couriers: refreshing lockers / pick-up points failed; using what is stored");
    }
  }
  const points = rows.map(
    (r): PickupPoint => ({
      courier: r.courier as PickupPoint["courier"],
      kind: r.kind,
      code: r.code,
      name: r.name,
      streetAddress: r.street_address,
      suburb: r.suburb,
      city: r.city,
      province: r.province,
      postalCode: r.postal_code,
      lat: Number(r.lat),
      lng: Number(r.lng),
      hours: Array.isArray(r.hours) ? r.hours : [],
    }),
  );
  pointsMemory.set(courier, { at: now, points });
  return points;
}

export async function findPoint(db: Queryable, kind: "locker" | "point", code: string): Promise<PickupPoint | null> {
  return (await pointsOf(db, kind)).find((p) => p.code === code) ?? null;
}

export async function searchPoints(db: Queryable, kind: "locker" | "point", query: string, limit = 8): Promise<NearPoint[]> {
  return nearestPoints(await pointsOf(db, kind), query, limit).points;
}

// ---------------------------------------------------------------------------------------------------------------
// Quotes

/** Live quotes are kept this long: a courier's prices change rarely, and a checkout must not wait for one. */
const QUOTE_TTL_MS = 6 * 60 * 60 * 1000;

export interface DeliveryDestination {
  street: string;
  suburb: string;
  city: string;
  province: string;
  postalCode: string;
}

export function courierAddressOf(a: DeliveryDestination): CourierAddress {
  return { type: "residential", streetAddress: a.street, localArea: a.suburb, city: a.city, zone: a.province, code: a.postalCode, country: "ZA" };
}

/** The cache key: courier, where from (a changed dispatch address prices anew), where to, and the parcels. */
function quoteKey(courier: string, from: string, destination: string, parcels: Parcel[]): string {
  const p = parcels.map((x) => `${x.lengthCm}x${x.widthCm}x${x.heightCm}@${x.weightKg}`).join("+");
  return `${courier}|${from.toLowerCase()}|${destination.toLowerCase()}|${p}`;
}

/**
 * The courier's service rates for these parcels to this end: from the shared cache, else asked live within
 * `timeoutMs`. Throws CourierError when there is no answer in time or the courier refused.
 */
export async function courierRates(
  db: Queryable,
  kind: DeliveryKind,
  to: { address: DeliveryDestination } | { pointCode: string },
  parcels: Parcel[],
  options: { settings: DeliverySettings; declaredValueCents: number; timeoutMs?: number; now?: number },
): Promise<ServiceRate[]> {
  const client = courierForKind(kind);
  const now = options.now ?? Date.now();
  const destination = "pointCode" in to ? `point:${to.pointCode}` : `${to.address.postalCode}:${to.address.suburb.trim()}`;
  const key = quoteKey(client.name, `${options.settings.collection.code}:${options.settings.collection.localArea.trim()}`, destination, parcels);
  const cached = await db.selectFrom("courier_quote_cache").select(["rates"]).where("key", "=", key).where("expires_at", ">", now).executeTakeFirst();
  if (cached) return (typeof cached.rates === "string" ? JSON.parse(cached.rates) : cached.rates) as ServiceRate[];
  const timeoutMs = options.timeoutMs ?? env().COURIER_QUOTE_TIMEOUT_MS;
  const s = options.settings;
  const collection: CourierAddress = { type: "business", company: s.collection.company, streetAddress: s.collection.streetAddress, localArea: s.collection.localArea, city: s.collection.city, zone: s.collection.zone, code: s.collection.code, country: "ZA" };
  const rates = await client.rates(
    { collection, delivery: "pointCode" in to ? { pointCode: to.pointCode } : { address: courierAddressOf(to.address) }, parcels, declaredValueCents: options.declaredValueCents },
    AbortSignal.timeout(timeoutMs),
  );
  if (!rates.length) throw new CourierError("The courier offered no service for this address.", "refused");
  await db
    .insertInto("courier_quote_cache")
    .values({ key, rates: JSON.stringify(rates), expires_at: now + QUOTE_TTL_MS })
    .onConflict((oc) => oc.column("key").doUpdateSet({ rates: JSON.stringify(rates), expires_at: now + QUOTE_TTL_MS }))
    .execute();
  return rates;
}

/**
 * Drops quotes past their expiry. A quote is never read after it expires, but its row would stay: one per postal code,
 * suburb and parcel ever quoted. The tracking job calls this each run; the table stays the size of a few hours' quotes.
 */
export async function purgeExpiredQuotes(db: Queryable, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom("courier_quote_cache").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** One way to deliver that the shopper can choose. */
export interface DeliveryOption {
  kind: DeliveryKind;
  courier: string;
  /**
   * the courier's service code; "table" when the shop prices it (the zone's rate standing in for a courier that
   * didn't answer, or door delivery priced by zones): booking then takes the courier's cheapest service
   */
  serviceCode: string;
  /** door delivery priced by zones: the zone this option is (null: no zone serves the address, the R70 fallback) */
  zoneId?: string | null;
  serviceName: string;
  /** what this option costs before the free-delivery threshold */
  priceCents: number;
  window: string | null;
  deliveryFrom: string | null;
  deliveryTo: string | null;
  source: "courier" | "table" | "flat" | "zone";
  test: boolean;
}

export interface KindOptions {
  kind: DeliveryKind;
  options: DeliveryOption[];
  /** said when the options are not the courier's own: why, and what applies instead */
  note: string | null;
}

const COURIER_TITLES: Record<DeliveryKind, string> = { door: "The Courier Guy", locker: "PUDO", point: "Pargo" };

/** The window the terms promise (SPEC §9), said where the shop prices a delivery and the courier gives no dates. */
const TERMS_WINDOW = "Arrives in 2–7 working days";

export const ZONE_MESSAGES = { chooseProvince: "Choose your province above to see delivery to your door and its price." } as const;

/**
 * Door delivery priced by the shop's zones (SPEC §9, docs/decisions/045): one option per zone serving the province
 * (zonesServing: the province's own zone first, preselected), each at its rate for the total — a rule whose range holds
 * it, else the zone's base rate, else R70. No zone serves it (or there are none): one standard delivery at R70, the
 * spec's no-zone price, so checkout never dead-ends. The courier isn't asked: it books the parcel after payment.
 */
async function zoneOptions(db: Queryable, province: string, totalCents: number, client: { name: string; test: boolean }): Promise<KindOptions> {
  if (!province) return { kind: "door", options: [], note: ZONE_MESSAGES.chooseProvince };
  const zones = zonesServing(await loadShippingZonesOrFallback(db), province);
  const option = (zone: ShippingZone | null): DeliveryOption => ({
    kind: "door",
    courier: client.name,
    serviceCode: "table",
    zoneId: zone?.id ?? null,
    serviceName: zone?.name ?? "Standard delivery",
    priceCents: zoneRateFor(zone, totalCents),
    window: TERMS_WINDOW,
    deliveryFrom: null,
    deliveryTo: null,
    source: "zone",
    test: client.test,
  });
  return { kind: "door", options: zones.length ? zones.map(option) : [option(null)], note: null };
}

/**
 * The options of one kind for this cart and destination. A courier that answers gives its service levels (priced by
 * the owner's pricing); one that is slow, down or talking nonsense gives the zone's table rate with a note saying so.
 */
export async function optionsForKind(
  db: Queryable,
  kind: DeliveryKind,
  input: {
    address: DeliveryDestination;
    pointCode?: string | null;
    lines: ReadonlyArray<{ productId: string; sizeId?: string; quantity: number; unitPriceCents: number }>;
    subtotalAfterDiscountCents: number;
    zoneId?: string | null;
    settings?: DeliverySettings;
    timeoutMs?: number;
  },
): Promise<KindOptions> {
  const settings = input.settings ?? (await loadDeliverySettings(db));
  const client = courierForKind(kind);
  const pricing = settings.pricing[kind];
  if (kind === "door" && pricing.mode === "zones") return zoneOptions(db, input.address.province, input.subtotalAfterDiscountCents, client);
  // Each line weighs what its size weighs packed (docs/decisions/049); a sample or set line its vials (054).
  const sizes = await sizesForLines(db, input.lines);
  const weightOf = (l: (typeof input.lines)[number], i: number) => {
    const sample = sampleVialsOf(l);
    return sample.kind ? sampleLineWeightGrams(sample.kind, sample.vials) : (sizes[i]?.weightGrams ?? null);
  };
  const parcels = parcelsFor(input.lines.map((l, i) => ({ quantity: l.quantity, weightGrams: weightOf(l, i) })), settings);
  const to = kind === "door" ? { address: input.address } : input.pointCode ? { pointCode: input.pointCode } : null;
  const tableOption = async (): Promise<DeliveryOption> => {
    const zones = await loadShippingZonesOrFallback(db);
    const zone = zoneForOrder(zones, input.zoneId, input.address.province);
    return {
      kind,
      courier: client.name,
      serviceCode: "table",
      serviceName: "Standard delivery",
      priceCents: pricing.mode === "flat" ? pricing.flatCents : zoneRateFor(zone, input.subtotalAfterDiscountCents),
      window: TERMS_WINDOW,
      deliveryFrom: null,
      deliveryTo: null,
      source: pricing.mode === "flat" ? "flat" : "table",
      test: client.test,
    };
  };
  if (!to) return { kind, options: [], note: null };
  try {
    const rates = await courierRates(db, kind, to, parcels, { settings, declaredValueCents: input.subtotalAfterDiscountCents, timeoutMs: input.timeoutMs });
    return {
      kind,
      options: rates
        .map((r) => ({
          kind,
          courier: client.name,
          serviceCode: r.serviceCode,
          serviceName: r.serviceName,
          priceCents: shopperPrice(r.priceCents, pricing),
          window: windowLabel(r),
          deliveryFrom: r.deliveryFrom,
          deliveryTo: r.deliveryTo,
          source: pricing.mode === "flat" ? ("flat" as const) : ("courier" as const),
          test: client.test,
        }))
        .sort((a, b) => a.priceCents - b.priceCents),
      note: null,
    };
  } catch (error) {
    const refused = error instanceof CourierError && error.reason === "refused";
    logger.warn({ err: error, courier: client.name, kind }, "couriers: no live quote; the table rate applies");
    if (refused && kind !== "door") return { kind, options: [], note: `${COURIER_TITLES[kind]} can't take this order: ${error.message}` };
    return {
      kind,
      options: [await tableOption()],
      note: refused
        ? `${COURIER_TITLES[kind]} could not price this address (${error.message}), so our standard delivery rate applies.`
        : `Live prices from ${COURIER_TITLES[kind]} are unavailable right now, so our standard delivery rate applies.`,
    };
  }
}
