import { describe, expect, it } from "vitest";
import { applyFreeDelivery, BOX_LIMIT_KG, COURIER_WAITING_COUNT_CAP, courierWaitingLabel, DEFAULT_DELIVERY_SETTINGS, parcelProblem, parcelsFor, savedPricing, shopperPrice, windowLabel } from "./delivery.logic";
import { distanceKm, locate, PLACES } from "./places";
import { nearestPoints } from "./points.logic";
import type { PickupPoint } from "./courier";

const settings = DEFAULT_DELIVERY_SETTINGS;

describe("parcelsFor", () => {
  it("one bottle: one box, the bottle and the packaging", () => {
    expect(parcelsFor([{ quantity: 1, weightGrams: null }], settings)).toEqual([{ ...settings.parcel, weightKg: (settings.bottleWeightGrams + settings.packagingGrams) / 1000 }]);
  });
  it("a product's own weight wins over the default", () => {
    expect(parcelsFor([{ quantity: 2, weightGrams: 500 }], settings)[0]!.weightKg).toBe((1000 + settings.packagingGrams) / 1000);
  });
  it("100 bottles go in as few boxes as hold them, none over the box limit, no gram lost", () => {
    const parcels = parcelsFor([{ quantity: 100, weightGrams: 350 }], settings);
    expect(parcels.length).toBe(3);
    for (const p of parcels) expect(p.weightKg).toBeLessThanOrEqual(BOX_LIMIT_KG);
    const goods = parcels.reduce((g, p) => g + Math.round(p.weightKg * 1000) - settings.packagingGrams, 0);
    expect(goods).toBe(35_000);
  });
  it("a bottle is never split: one of 30 kg makes a box over the couriers' limit, which is named", () => {
    const parcels = parcelsFor([{ quantity: 1, weightGrams: 30_000 }], settings);
    expect(parcels).toHaveLength(1);
    expect(parcelProblem(parcels[0]!)).toMatch(/30\.25 kg is over the couriers' limit of 25 kg/);
  });
  it("an empty order still makes one (packaging-only) box rather than none", () => {
    expect(parcelsFor([], settings)).toHaveLength(1);
  });
});

describe("what the shopper pays", () => {
  it("quote plus margin, never below 0; or the flat price", () => {
    expect(shopperPrice(9900, { mode: "quote", marginCents: 1500, flatCents: 0 })).toBe(11400);
    expect(shopperPrice(9900, { mode: "quote", marginCents: -20000, flatCents: 0 })).toBe(0);
    expect(shopperPrice(9900, { mode: "flat", marginCents: 1500, flatCents: 6000 })).toBe(6000);
  });
  it("at the threshold the cheapest service is free and a faster one costs the difference", () => {
    const options = [{ priceCents: 9900 }, { priceCents: 18900 }];
    expect(applyFreeDelivery(options, true).map((o) => o.payCents)).toEqual([0, 9000]);
    expect(applyFreeDelivery(options, false).map((o) => o.payCents)).toEqual([9900, 18900]);
  });
  it("at the threshold every zone is free in full: a zone is where the parcel goes, not a faster service", () => {
    const zones = [{ priceCents: 8500, source: "zone" }, { priceCents: 12000, source: "zone" }];
    expect(applyFreeDelivery(zones, true).map((o) => o.payCents)).toEqual([0, 0]);
    expect(applyFreeDelivery(zones, false).map((o) => o.payCents)).toEqual([8500, 12000]);
  });
});

describe("the saved pricing over the defaults (docs/decisions/045)", () => {
  const defaults = DEFAULT_DELIVERY_SETTINGS.pricing;
  it("a fresh install prices door delivery by the zones, lockers and points by their courier", () => {
    expect(savedPricing(defaults, undefined)).toEqual(defaults);
    expect([defaults.door.mode, defaults.locker.mode, defaults.point.mode]).toEqual(["zones", "quote", "quote"]);
  });
  it("a mode the owner saved is kept, the courier's price with its margin or a flat price", () => {
    expect(savedPricing(defaults, { door: { mode: "quote", marginCents: -500, flatCents: 9900 } }).door).toEqual({ mode: "quote", marginCents: -500, flatCents: 9900 });
    expect(savedPricing(defaults, { door: { mode: "flat", marginCents: 0, flatCents: 4500 } }).door.mode).toBe("flat");
  });
  it("no door mode saved, or one a kind can't have: the default; saved amounts are kept", () => {
    expect(savedPricing(defaults, { locker: { mode: "flat", marginCents: 0, flatCents: 5000 } })).toEqual({ ...defaults, locker: { mode: "flat", marginCents: 0, flatCents: 5000 } });
    expect(savedPricing(defaults, { door: { marginCents: 700 } }).door).toEqual({ mode: "zones", marginCents: 700, flatCents: 9900 });
    expect(savedPricing(defaults, { locker: { mode: "zones" } }).locker.mode).toBe("quote");
  });
});

describe("windowLabel", () => {
  it("one day or a range, in South African short dates", () => {
    expect(windowLabel({ deliveryFrom: "2026-11-27", deliveryTo: "2026-11-27" })).toBe("Arrives Fri 27 Nov");
    expect(windowLabel({ deliveryFrom: "2026-11-27", deliveryTo: "2026-12-01" })).toBe("Arrives Fri 27 Nov – Tue 1 Dec");
    expect(windowLabel({ deliveryFrom: null, deliveryTo: null })).toBeNull();
  });
});

describe("places and nearest points", () => {
  it("locates a suburb with its postal code, a bare postal code, a city, and nothing for nonsense", () => {
    expect(locate("Rondebosch 7700")?.suburb).toBe("Rondebosch");
    expect(locate("7708")?.suburb).toBe("Claremont");
    expect(locate("sea point, cape town")?.suburb).toBe("Sea Point");
    expect(locate("Durban")?.city).toBe("Durban");
    expect(locate("7701")?.province).toBe("Western Cape");
    expect(locate("zzzz")).toBeNull();
    expect(locate("x".repeat(10_000))).toBeNull();
  });
  it("every listed place is in South Africa", () => {
    for (const p of PLACES) {
      expect(p.lat).toBeGreaterThan(-35);
      expect(p.lat).toBeLessThan(-22);
      expect(p.lng).toBeGreaterThan(16);
      expect(p.lng).toBeLessThan(33);
    }
  });
  it("Rondebosch to Claremont is about 2 km; Cape Town to Johannesburg about 1 260 km", () => {
    const [r, c] = [locate("Rondebosch")!, locate("Claremont")!];
    expect(distanceKm(r, c)).toBeGreaterThan(1.5);
    expect(distanceKm(r, c)).toBeLessThan(2.5);
    expect(distanceKm(locate("8001")!, locate("2001")!)).toBeGreaterThan(1200);
  });
  const point = (code: string, suburb: string, lat: number, lng: number): PickupPoint => ({ courier: "pudo", kind: "locker", code, name: `${suburb} locker`, streetAddress: "1 Main Rd", suburb, city: "Cape Town", province: "Western Cape", postalCode: "7700", lat, lng, hours: [] });
  it("sorts points by distance from where the words put the shopper; unplaced words filter by name", () => {
    const points = [{ ...point("A", "Bellville", -33.9022, 18.6292), streetAddress: "Voortrekker Road" }, point("B", "Rondebosch", -33.963, 18.474), point("C", "Claremont", -33.98, 18.465)];
    expect(nearestPoints(points, "Rondebosch 7700").points.map((p) => p.code)).toEqual(["B", "C", "A"]);
    expect(nearestPoints(points, "Bellville").points.map((p) => p.code)).toEqual(["A", "B", "C"]);
    expect(nearestPoints(points, "voortrekker").points.map((p) => [p.code, p.distanceKm])).toEqual([["A", null]]);
    expect(nearestPoints(points, "Bellvile nowhere").points).toEqual([]);
  });
});

describe("courierWaitingLabel", () => {
  it("says how many paid orders wait for a courier, and 'more than 1 000' once the count reached its cap", () => {
    expect(courierWaitingLabel(1)).toBe("1 paid order waits for a courier.");
    expect(courierWaitingLabel(37)).toBe("37 paid orders wait for a courier.");
    expect(courierWaitingLabel(COURIER_WAITING_COUNT_CAP)).toBe("1 000 paid orders wait for a courier.");
    expect(courierWaitingLabel(COURIER_WAITING_COUNT_CAP + 1)).toBe("More than 1 000 paid orders wait for a courier.");
  });
});
