/**
 * The owner's delivery settings form (admin Shipping page, "Couriers and parcels"): the dispatch address and contact
 * the couriers collect from, the shop's box and weights, and how each delivery kind is priced. Browser-safe.
 *
 * The form posts flat fields (one per input), so every refusal lands on the input it belongs to; deliverySettingsOf
 * turns the parsed fields into the stored DeliverySettings. Amounts are typed in rand and stored in integer cents.
 */
import { z } from "zod";
import { SA_PROVINCES, normalizeSaPhone } from "~/utils/sa-address";
import { formatAmount, formatRand, parseRandToCents } from "~/utils/money";
import { MAX_PARCEL_WEIGHT_KG, type DeliveryKind } from "./courier";
import { PRICING_MODES, type DeliverySettings, type PricingMode } from "./delivery.logic";

/** The kinds in the order the form shows them, with the owner's names for them (the courier in brackets where it helps). */
export const DELIVERY_KIND_ORDER: readonly DeliveryKind[] = ["door", "locker", "point"];
export const DELIVERY_KIND_TITLES: Record<DeliveryKind, string> = {
  door: "Delivery to your door (The Courier Guy)",
  locker: "PUDO lockers",
  point: "Pargo pick-up points",
};

export const BOX_SIDE_MAX_CM = 100;
/**
 * The box, filling and paper: at most 5 kg, so a box (BOX_LIMIT_KG, 15 kg with its packaging) still holds bottles.
 */
export const PACKAGING_MAX_GRAMS = 5_000;

/** A bottle or the packaging can't weigh more than one parcel may (MAX_PARCEL_WEIGHT_KG): it could never ship. */
export const WEIGHT_MAX_GRAMS = MAX_PARCEL_WEIGHT_KG * 1000;
/** The margin may take part of the courier's price off (the shopper never pays below R0.00) but not more than this. */
export const MARGIN_LIMIT_CENTS = 50_000;
export const FLAT_MAX_CENTS = 100_000;

const KIND_WORDS: Record<DeliveryKind, string> = { door: "door delivery", locker: "PUDO lockers", point: "Pargo pick-up points" };

export const DELIVERY_SETTINGS_MESSAGES = {
  saved: "Delivery settings saved",
  failedSave: "Failed to save delivery settings",
  company: "Company name is required",
  companyTooLong: "Company name can be at most 100 characters",
  street: "Street address is required",
  streetTooLong: "Street address can be at most 200 characters",
  suburb: "Suburb is required",
  suburbTooLong: "Suburb can be at most 120 characters",
  city: "City is required",
  cityTooLong: "City can be at most 120 characters",
  province: "Choose the province from the list",
  postalCode: "Postal code must be 4 digits, e.g. 7700",
  contactName: "Contact name is required",
  contactNameTooLong: "Contact name can be at most 100 characters",
  contactMobile: "Enter a South African mobile number, e.g. 082 123 4567",
  contactEmail: "Enter the dispatch e-mail address, e.g. dispatch@scentara.co.za",
  box: (side: "Length" | "Width" | "Height") => `${side} must be a whole number of centimetres from 1 to ${BOX_SIDE_MAX_CM}`,
  bottleWeight: `Bottle weight must be a whole number of grams from 1 to ${formatGrams(WEIGHT_MAX_GRAMS)}`,
  packagingWeight: `Packaging weight must be a whole number of grams from 1 to ${formatGrams(PACKAGING_MAX_GRAMS)}`,
  mode: (kind: DeliveryKind) => `Choose how ${KIND_WORDS[kind]} is priced`,
  margin: (kind: DeliveryKind) => `The margin for ${KIND_WORDS[kind]} must be an amount from ${formatSignedRand(-MARGIN_LIMIT_CENTS)} to ${formatRand(MARGIN_LIMIT_CENTS)}`,
  flat: (kind: DeliveryKind) => `The flat price for ${KIND_WORDS[kind]} must be an amount from R0.00 to ${formatRand(FLAT_MAX_CENTS)}`,
} as const;

const M = DELIVERY_SETTINGS_MESSAGES;

/**
 * formatRand with a true minus sign (−R500.00): a hyphen-minus lets a line break between "-" and "R500.00" in a
 * narrow card; the minus sign keeps the amount whole. The form reads either back (parseSignedRandToCents).
 */
export function formatSignedRand(cents: number): string {
  return formatRand(cents).replace(/^-/, "\u2212");
}

/** 25000 → "25 000" (grouped like the shop's money). */
export function formatGrams(grams: number): string {
  return String(grams).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

const text = (required: string, tooLong: string, max: number) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** A whole number typed with an optional unit ("25", "25 cm", "25 000 g") in [1, max]; anything else is refused. */
const whole = (unit: "cm" | "g", max: number, message: string) =>
  z.string({ error: message }).transform((v, ctx) => {
    const value = v.trim().replace(new RegExp(`\\s*${unit}$`, "i"), "").replace(/[\s\u00a0]/g, "");
    const n = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
    if (!(n >= 1 && n <= max)) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return n;
  });

/**
 * A rand amount that may be negative ("-20", "R -20.50", "−20" with a typographic minus) → cents; null for anything
 * else. parseRandToCents takes only amounts of R0.00 or more, so the sign is read here.
 */
export function parseSignedRandToCents(input: string): number | null {
  const text = input.trim().replace(/^R\s*/i, "");
  const negative = /^[-\u2212]/.test(text);
  const cents = parseRandToCents(text.replace(/^[-+\u2212]\s*/, ""));
  if (cents === null) return null;
  return negative && cents !== 0 ? -cents : cents;
}

/**
 * An amount of a kind's pricing, in cents within [min, max]. Empty is null: allowed for the amount of the mode not
 * chosen (the cross-check below asks for the chosen one), so the owner may leave the other one blank.
 */
const amount = (min: number, max: number, message: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const typed = (v ?? "").trim();
      if (typed === "") return null;
      const cents = parseSignedRandToCents(typed);
      if (cents === null || cents < min || cents > max) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return cents;
    });

/** Door delivery may also be priced by the zones (PRICING_MODES); lockers and points only by their courier's price or flat. */
const mode = (kind: DeliveryKind) => z.enum(PRICING_MODES[kind] as [PricingMode, ...PricingMode[]], { error: M.mode(kind) });

export const deliverySettingsSchema = z
  .object({
    intent: z.literal("saveDelivery"),
    collectionCompany: text(M.company, M.companyTooLong, 100),
    collectionStreet: text(M.street, M.streetTooLong, 200),
    collectionSuburb: text(M.suburb, M.suburbTooLong, 120),
    collectionCity: text(M.city, M.cityTooLong, 120),
    collectionProvince: z.enum(SA_PROVINCES, { error: M.province }),
    collectionCode: z.string({ error: M.postalCode }).trim().regex(/^\d{4}$/, M.postalCode),
    contactName: text(M.contactName, M.contactNameTooLong, 100),
    // Stored as +27…: the couriers text this number about the collection.
    contactMobile: z.string({ error: M.contactMobile }).transform((v, ctx) => {
      const phone = normalizeSaPhone(v.trim());
      if (!phone) {
        ctx.addIssue({ code: "custom", message: M.contactMobile });
        return z.NEVER;
      }
      return phone;
    }),
    contactEmail: z.string({ error: M.contactEmail }).trim().max(254, M.contactEmail).pipe(z.email({ error: M.contactEmail })),
    boxLength: whole("cm", BOX_SIDE_MAX_CM, M.box("Length")),
    boxWidth: whole("cm", BOX_SIDE_MAX_CM, M.box("Width")),
    boxHeight: whole("cm", BOX_SIDE_MAX_CM, M.box("Height")),
    bottleWeight: whole("g", WEIGHT_MAX_GRAMS, M.bottleWeight),
    packagingWeight: whole("g", PACKAGING_MAX_GRAMS, M.packagingWeight),
    doorMode: mode("door"),
    doorMargin: amount(-MARGIN_LIMIT_CENTS, MARGIN_LIMIT_CENTS, M.margin("door")),
    doorFlat: amount(0, FLAT_MAX_CENTS, M.flat("door")),
    lockerMode: mode("locker"),
    lockerMargin: amount(-MARGIN_LIMIT_CENTS, MARGIN_LIMIT_CENTS, M.margin("locker")),
    lockerFlat: amount(0, FLAT_MAX_CENTS, M.flat("locker")),
    pointMode: mode("point"),
    pointMargin: amount(-MARGIN_LIMIT_CENTS, MARGIN_LIMIT_CENTS, M.margin("point")),
    pointFlat: amount(0, FLAT_MAX_CENTS, M.flat("point")),
  })
  .superRefine(
    (v, ctx) => {
      // The flat price is the price when flat is chosen: it can't be left empty then. (An empty margin is no margin.)
      for (const kind of DELIVERY_KIND_ORDER) {
        if (v[`${kind}Mode` as const] === "flat" && v[`${kind}Flat` as const] === null) ctx.addIssue({ code: "custom", path: [`${kind}Flat`], message: M.flat(kind) });
      }
    },
    // Runs even when other fields failed, so every field's message comes back at once. It compares only values that
    // parsed (null is only what an empty amount parses to), so a field that failed can't set it off by mistake.
    { when: () => true },
  );

export type DeliverySettingsInput = z.output<typeof deliverySettingsSchema>;

/**
 * The stored settings from the parsed form. The amount of the mode not chosen, when left empty, keeps the value it
 * had (`current`), so switching back later finds the owner's old price rather than R0.00.
 */
export function deliverySettingsOf(input: DeliverySettingsInput, current: DeliverySettings): DeliverySettings {
  const pricing = (kind: DeliveryKind) => {
    const mode = input[`${kind}Mode` as const];
    return {
      mode,
      marginCents: input[`${kind}Margin` as const] ?? (mode === "quote" ? 0 : current.pricing[kind].marginCents),
      flatCents: input[`${kind}Flat` as const] ?? current.pricing[kind].flatCents,
    };
  };
  return {
    collection: {
      company: input.collectionCompany,
      streetAddress: input.collectionStreet,
      localArea: input.collectionSuburb,
      city: input.collectionCity,
      zone: input.collectionProvince,
      code: input.collectionCode,
    },
    collectionContact: { name: input.contactName, mobileNumber: input.contactMobile, email: input.contactEmail },
    parcel: { lengthCm: input.boxLength, widthCm: input.boxWidth, heightCm: input.boxHeight },
    bottleWeightGrams: input.bottleWeight,
    packagingGrams: input.packagingWeight,
    pricing: { door: pricing("door"), locker: pricing("locker"), point: pricing("point") },
  };
}

/** The settings as the form shows them (amounts in rand as typed: "-20.00"; numbers as text). */
export function deliverySettingsFormValues(s: DeliverySettings): Record<string, string> {
  const values: Record<string, string> = {
    collectionCompany: s.collection.company,
    collectionStreet: s.collection.streetAddress,
    collectionSuburb: s.collection.localArea,
    collectionCity: s.collection.city,
    collectionProvince: s.collection.zone,
    collectionCode: s.collection.code,
    contactName: s.collectionContact.name,
    contactMobile: s.collectionContact.mobileNumber,
    contactEmail: s.collectionContact.email,
    boxLength: String(s.parcel.lengthCm),
    boxWidth: String(s.parcel.widthCm),
    boxHeight: String(s.parcel.heightCm),
    bottleWeight: String(s.bottleWeightGrams),
    packagingWeight: String(s.packagingGrams),
  };
  for (const kind of DELIVERY_KIND_ORDER) {
    values[`${kind}Mode`] = s.pricing[kind].mode;
    values[`${kind}Margin`] = formatAmount(s.pricing[kind].marginCents);
    values[`${kind}Flat`] = formatAmount(s.pricing[kind].flatCents);
  }
  return values;
}

/** Every field name of the form: the page tells its own answers (field errors) from the zone forms' by them. */
export const DELIVERY_SETTINGS_FIELDS = [
  "collectionCompany",
  "collectionStreet",
  "collectionSuburb",
  "collectionCity",
  "collectionProvince",
  "collectionCode",
  "contactName",
  "contactMobile",
  "contactEmail",
  "boxLength",
  "boxWidth",
  "boxHeight",
  "bottleWeight",
  "packagingWeight",
  ...DELIVERY_KIND_ORDER.flatMap((k) => [`${k}Mode`, `${k}Margin`, `${k}Flat`]),
] as const;
