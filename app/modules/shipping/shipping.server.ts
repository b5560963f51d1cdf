import type { Queryable } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { sortProvinces, type ShippingZone } from "./shipping.logic";

/**
 * Every shipping zone with its rules and the provinces it serves: zones by name (the first is preselected when no
 * zone serves the shopper's province), rules by min total, provinces in the order of SA_PROVINCES.
 */
export async function loadShippingZones(db: Queryable): Promise<ShippingZone[]> {
  const zones = await db.selectFrom("shipping_zones").select(["id", "name", "base_rate_cents"]).orderBy("name").orderBy("id").execute();
  if (zones.length === 0) return [];
  const ids = zones.map((z) => z.id);
  const [rules, provinces] = await Promise.all([
    db
      .selectFrom("shipping_rules")
      .select(["zone_id", "min_total_cents", "max_total_cents", "rate_cents"])
      .where("zone_id", "in", ids)
      .orderBy("min_total_cents")
      .execute(),
    db.selectFrom("shipping_zone_provinces").select(["zone_id", "province"]).where("zone_id", "in", ids).execute(),
  ]);
  return zones.map((z) => ({
    id: z.id,
    name: z.name,
    baseRateCents: z.base_rate_cents,
    rules: rules
      .filter((r) => r.zone_id === z.id)
      .map((r) => ({ minTotalCents: r.min_total_cents, maxTotalCents: r.max_total_cents, rateCents: r.rate_cents })),
    provinces: sortProvinces(provinces.filter((p) => p.zone_id === z.id).map((p) => p.province)),
  }));
}

/**
 * Zones for the shopper; a failure to load them falls back to the fixed shipping cost (SPEC §8), so the cart and
 * checkout still work (with R70) rather than failing.
 */
export async function loadShippingZonesOrFallback(db: Queryable): Promise<ShippingZone[]> {
  try {
    return await loadShippingZones(db);
  } catch {
    return [];
  }
}

export function freeDeliveryThresholdCents(): number {
  return env().FREE_DELIVERY_THRESHOLD_CENTS;
}
