/**
 * South African suburbs with their postal code, province and approximate centre: what lets the checkout say how far
 * a locker or pick-up point is from "Rondebosch 7700" without calling a geocoding service. The list is a sample of
 * the places people live in across the nine provinces (the demo's and the fakes' lockers and points stand in these
 * suburbs); a suburb not on it is placed by its postal code's nearest listed neighbour (nearestPlace), else not at all.
 * Browser-safe and pure.
 */
export interface Place {
  suburb: string;
  city: string;
  province: string;
  postalCode: string;
  lat: number;
  lng: number;
}

export const PLACES: readonly Place[] = [
  // Western Cape
  { suburb: "Rondebosch", city: "Cape Town", province: "Western Cape", postalCode: "7700", lat: -33.9628, lng: 18.4734 },
  { suburb: "Claremont", city: "Cape Town", province: "Western Cape", postalCode: "7708", lat: -33.9803, lng: 18.4652 },
  { suburb: "Observatory", city: "Cape Town", province: "Western Cape", postalCode: "7925", lat: -33.9378, lng: 18.4722 },
  { suburb: "Sea Point", city: "Cape Town", province: "Western Cape", postalCode: "8005", lat: -33.9173, lng: 18.3864 },
  { suburb: "Cape Town City Centre", city: "Cape Town", province: "Western Cape", postalCode: "8001", lat: -33.9249, lng: 18.4241 },
  { suburb: "Bellville", city: "Cape Town", province: "Western Cape", postalCode: "7530", lat: -33.9022, lng: 18.6292 },
  { suburb: "Stellenbosch Central", city: "Stellenbosch", province: "Western Cape", postalCode: "7600", lat: -33.9346, lng: 18.8602 },
  { suburb: "George Central", city: "George", province: "Western Cape", postalCode: "6530", lat: -33.9630, lng: 22.4617 },
  // Gauteng
  { suburb: "Sandton", city: "Johannesburg", province: "Gauteng", postalCode: "2196", lat: -26.1076, lng: 28.0567 },
  { suburb: "Rosebank", city: "Johannesburg", province: "Gauteng", postalCode: "2196", lat: -26.1457, lng: 28.0413 },
  { suburb: "Braamfontein", city: "Johannesburg", province: "Gauteng", postalCode: "2001", lat: -26.1929, lng: 28.0341 },
  { suburb: "Soweto", city: "Johannesburg", province: "Gauteng", postalCode: "1804", lat: -26.2485, lng: 27.8540 },
  { suburb: "Randburg", city: "Johannesburg", province: "Gauteng", postalCode: "2194", lat: -26.0936, lng: 28.0064 },
  { suburb: "Hatfield", city: "Pretoria", province: "Gauteng", postalCode: "0083", lat: -25.7487, lng: 28.2380 },
  { suburb: "Centurion", city: "Pretoria", province: "Gauteng", postalCode: "0157", lat: -25.8603, lng: 28.1894 },
  { suburb: "Midrand", city: "Johannesburg", province: "Gauteng", postalCode: "1685", lat: -25.9992, lng: 28.1263 },
  // KwaZulu-Natal
  { suburb: "Umhlanga", city: "Durban", province: "KwaZulu-Natal", postalCode: "4320", lat: -29.7277, lng: 31.0820 },
  { suburb: "Durban Central", city: "Durban", province: "KwaZulu-Natal", postalCode: "4001", lat: -29.8587, lng: 31.0218 },
  { suburb: "Berea", city: "Durban", province: "KwaZulu-Natal", postalCode: "4001", lat: -29.8486, lng: 31.0003 },
  { suburb: "Pietermaritzburg Central", city: "Pietermaritzburg", province: "KwaZulu-Natal", postalCode: "3201", lat: -29.6006, lng: 30.3794 },
  // Eastern Cape
  { suburb: "Summerstrand", city: "Gqeberha", province: "Eastern Cape", postalCode: "6001", lat: -33.9942, lng: 25.6669 },
  { suburb: "Walmer", city: "Gqeberha", province: "Eastern Cape", postalCode: "6070", lat: -33.9808, lng: 25.5839 },
  { suburb: "Vincent", city: "East London", province: "Eastern Cape", postalCode: "5247", lat: -32.9861, lng: 27.9000 },
  { suburb: "Makhanda Central", city: "Makhanda", province: "Eastern Cape", postalCode: "6139", lat: -33.3042, lng: 26.5328 },
  // Free State
  { suburb: "Westdene", city: "Bloemfontein", province: "Free State", postalCode: "9301", lat: -29.1083, lng: 26.2061 },
  { suburb: "Bloemfontein Central", city: "Bloemfontein", province: "Free State", postalCode: "9301", lat: -29.1180, lng: 26.2230 },
  { suburb: "Welkom Central", city: "Welkom", province: "Free State", postalCode: "9459", lat: -27.9774, lng: 26.7351 },
  // Limpopo
  { suburb: "Polokwane Central", city: "Polokwane", province: "Limpopo", postalCode: "0699", lat: -23.9045, lng: 29.4689 },
  { suburb: "Thohoyandou", city: "Thohoyandou", province: "Limpopo", postalCode: "0950", lat: -22.9456, lng: 30.4850 },
  // Mpumalanga
  { suburb: "Mbombela Central", city: "Mbombela", province: "Mpumalanga", postalCode: "1200", lat: -25.4658, lng: 30.9853 },
  { suburb: "Witbank Central", city: "eMalahleni", province: "Mpumalanga", postalCode: "1035", lat: -25.8713, lng: 29.2332 },
  // Northern Cape
  { suburb: "Kimberley Central", city: "Kimberley", province: "Northern Cape", postalCode: "8301", lat: -28.7282, lng: 24.7499 },
  { suburb: "Upington Central", city: "Upington", province: "Northern Cape", postalCode: "8801", lat: -28.4478, lng: 21.2561 },
  // North West
  { suburb: "Rustenburg Central", city: "Rustenburg", province: "North West", postalCode: "0299", lat: -25.6676, lng: 27.2421 },
  { suburb: "Mahikeng Central", city: "Mahikeng", province: "North West", postalCode: "2745", lat: -25.8560, lng: 25.6403 },
  { suburb: "Potchefstroom Central", city: "Potchefstroom", province: "North West", postalCode: "2531", lat: -26.7145, lng: 27.0970 },
];

/** Great-circle distance in kilometres (haversine), rounded to 0.1 km. */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return Math.round(6371 * 2 * Math.asin(Math.min(1, Math.sqrt(h))) * 10) / 10;
}

const norm = (s: string) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();

/**
 * Where a shopper's words put them: "Rondebosch 7700", "7700", "rondebosch", "Sea Point, Cape Town". A listed suburb
 * named in the text wins (with its postal code when both are given); else a postal code matches exactly, else the
 * listed postal code numerically nearest in the same first digit (South African codes run by region), else null.
 */
export function locate(text: string, places: readonly Place[] = PLACES): Place | null {
  const words = norm(text);
  if (!words) return null;
  const code = /\b(\d{4})\b/.exec(words)?.[1] ?? null;
  const bySuburb = places.filter((p) => (" " + words + " ").includes(" " + norm(p.suburb) + " "));
  if (bySuburb.length) return bySuburb.find((p) => p.postalCode === code) ?? bySuburb[0]!;
  const byCity = places.filter((p) => (" " + words + " ").includes(" " + norm(p.city) + " "));
  if (!code && byCity.length) return byCity[0]!;
  if (!code) return null;
  const exact = places.find((p) => p.postalCode === code);
  if (exact) return exact;
  const region = places.filter((p) => p.postalCode[0] === code[0]);
  if (!region.length) return null;
  return region.reduce((best, p) => (Math.abs(Number(p.postalCode) - Number(code)) < Math.abs(Number(best.postalCode) - Number(code)) ? p : best));
}
