/**
 * Finding lockers and pick-up points near a shopper (pure, browser-safe): where their words put them (places.ts),
 * then every point by distance from there; words that place nowhere filter points by name, suburb, city or code.
 */
import type { PickupPoint } from "./courier";
import { distanceKm, locate, type Place } from "./places";

export type NearPoint = PickupPoint & { distanceKm: number | null };

export function nearestPoints(points: readonly PickupPoint[], query: string, limit = 8): { anchor: Place | null; points: NearPoint[] } {
  const text = query.slice(0, 120);
  const anchor = locate(text);
  if (anchor) {
    const near = points.map((p) => ({ ...p, distanceKm: distanceKm(anchor, p) })).sort((a, b) => a.distanceKm - b.distanceKm || a.name.localeCompare(b.name));
    return { anchor, points: near.slice(0, limit) };
  }
  const words = text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1);
  if (!words.length) return { anchor: null, points: [] };
  const hay = (p: PickupPoint) => `${p.name} ${p.suburb} ${p.city} ${p.postalCode} ${p.code} ${p.streetAddress}`.toLowerCase();
  return { anchor: null, points: points.filter((p) => words.every((w) => hay(p).includes(w))).slice(0, limit).map((p) => ({ ...p, distanceKm: null })) };
}
