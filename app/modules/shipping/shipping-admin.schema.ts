import { z } from "zod";
import { SA_PROVINCES } from "~/utils/sa-address";
import { formatRand, parseRandToCents } from "~/utils/money";

/**
 * The shipping page (SPEC §2 Shipping, §3 zone / rule, §5: base rate, min total and rate ≥ 0 with step 0.01, max total
 * optional). Amounts are typed in rand and stored in cents. Browser-safe.
 */
export const SHIPPING_MAX_CENTS = 1_000_000_000; // R10 000 000.00: far above any order, inside every integer column

export const SHIPPING_ADMIN_MESSAGES = {
  zoneCreated: "Shipping zone created",
  zoneUpdated: "Shipping zone updated",
  zoneDeleted: "Shipping zone deleted",
  ruleAdded: "Shipping rule added",
  ruleUpdated: "Shipping rule updated",
  ruleDeleted: "Shipping rule deleted",
  failedSaveZone: "Failed to save shipping zone",
  failedDeleteZone: "Failed to delete shipping zone",
  failedSaveRule: "Failed to save shipping rule",
  failedDeleteRule: "Failed to delete shipping rule",
  nameRequired: "Zone name is required",
  nameTooLong: "Zone name can be at most 80 characters",
  nameTaken: "Another zone already has this name",
  baseRate: "Base rate must be an amount of R0.00 or more",
  minTotal: "Minimum total must be an amount of R0.00 or more",
  maxTotal: "Maximum total must be an amount of R0.00 or more, or empty for no maximum",
  maxBelowMin: "The maximum total can't be below the minimum total",
  rate: "Rate must be an amount of R0.00 or more",
  tooLarge: `Amounts can be at most ${formatRand(SHIPPING_MAX_CENTS)}`,
  provinces: "Choose provinces from the list",
  provinceTaken: (province: string, zone: string) => `${province} is already served by the zone "${zone}": a province belongs to one zone only. Remove it there first.`,
  provincesChanged: "Another zone has just taken one of these provinces. Reload the page to see it, then try again.",
  overlap: (range: string, rate: string) => `This range overlaps the zone's rule ${range} (rate ${rate}): a total may match one rule only`,
  zoneGone: "That shipping zone no longer exists",
  ruleGone: "That shipping rule no longer exists",
  none: "No shipping zones yet",
} as const;

const id = z.string().trim().min(1).max(100);

/** A rand amount as typed ('85', '85.00', 'R 1 299,50') → cents, at most SHIPPING_MAX_CENTS. */
const rand = (message: string) =>
  z.string({ error: message }).transform((v, ctx) => {
    const cents = parseRandToCents(v);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    if (cents > SHIPPING_MAX_CENTS) {
      ctx.addIssue({ code: "custom", message: SHIPPING_ADMIN_MESSAGES.tooLarge });
      return z.NEVER;
    }
    return cents;
  });

/** The ticked provinces, posted as a JSON list (see the route's `prepare`: checkboxes repeat the field). */
const provinces = z
  .string()
  .optional()
  .transform((v, ctx) => {
    try {
      return JSON.parse(v ?? "[]") as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: SHIPPING_ADMIN_MESSAGES.provinces });
      return z.NEVER;
    }
  })
  .pipe(z.array(z.enum(SA_PROVINCES, { error: SHIPPING_ADMIN_MESSAGES.provinces }), { error: SHIPPING_ADMIN_MESSAGES.provinces }).max(SA_PROVINCES.length * 2, SHIPPING_ADMIN_MESSAGES.provinces))
  .transform((list) => [...new Set(list)]);

export const zoneSaveSchema = z.object({
  intent: z.literal("saveZone"),
  id: id.optional(),
  name: z
    .string({ error: SHIPPING_ADMIN_MESSAGES.nameRequired })
    .trim()
    .min(1, SHIPPING_ADMIN_MESSAGES.nameRequired)
    .max(80, SHIPPING_ADMIN_MESSAGES.nameTooLong),
  baseRate: rand(SHIPPING_ADMIN_MESSAGES.baseRate),
  provinces,
});

export const ruleSaveSchema = z
  .object({
    intent: z.literal("saveRule"),
    id: id.optional(),
    zoneId: id,
    minTotal: rand(SHIPPING_ADMIN_MESSAGES.minTotal),
    /** empty: no maximum (unbounded) */
    maxTotal: z
      .string({ error: SHIPPING_ADMIN_MESSAGES.maxTotal })
      .optional()
      .transform((v) => v?.trim() ?? "")
      .pipe(z.union([z.literal(""), rand(SHIPPING_ADMIN_MESSAGES.maxTotal)], { error: SHIPPING_ADMIN_MESSAGES.maxTotal }))
      .transform((v) => (v === "" ? null : v)),
    rate: rand(SHIPPING_ADMIN_MESSAGES.rate),
  })
  .refine((r) => r.maxTotal === null || r.maxTotal >= r.minTotal, { message: SHIPPING_ADMIN_MESSAGES.maxBelowMin, path: ["maxTotal"] });

export const shippingAdminIntent = z.discriminatedUnion("intent", [
  zoneSaveSchema,
  z.object({ intent: z.literal("deleteZone"), id }),
  ruleSaveSchema,
  z.object({ intent: z.literal("deleteRule"), id }),
]);

export type ZoneSaveInput = z.output<typeof zoneSaveSchema>;
export type RuleSaveInput = z.output<typeof ruleSaveSchema>;
