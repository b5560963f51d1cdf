import { z } from "zod";
import { parseRandToCents } from "~/utils/money";
import { MAX_CART_LINES, MAX_LINE_QUANTITY } from "./orders.logic";
import { ORDER_STATUSES, PAYMENT_STATUSES } from "./order-admin.logic";
import { shippingAddressSchema } from "./orders.schema";

/** The admin orders page's forms (SPEC §2, §4, §5 order edit), browser-safe. */
export const ORDER_NOTES_MAX = 2000;
export const TRACKING_NUMBER_MAX = 100;

const id = z.string().trim().min(1).max(100);

export const editedLineSchema = z.object({
  id,
  quantity: z.coerce
    .number({ error: "Quantity must be a whole number of at least 1" })
    .int("Quantity must be a whole number of at least 1")
    .min(1, "Quantity must be a whole number of at least 1")
    .max(MAX_LINE_QUANTITY * 10, "Quantity is too large"),
  unitPriceCents: z.string().transform((v, ctx) => {
    const cents = parseRandToCents(v);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: "Unit price must be R0.00 or more, with at most 2 decimals" });
      return z.NEVER;
    }
    return cents;
  }),
});

/**
 * Lines arrive as line.0.id, line.0.quantity, line.0.unitPrice … (a plain form: the editor works without
 * JavaScript); `gatherLines` turns them into one JSON field before validation.
 */
const linesField = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "Invalid order lines" });
      return z.NEVER;
    }
  })
  .pipe(z.array(editedLineSchema).min(1, "An order keeps at least one line").max(MAX_CART_LINES));

export function gatherLines(fields: Record<string, string>): Record<string, string> {
  const lines: Array<Record<string, string>> = [];
  for (const [name, value] of Object.entries(fields)) {
    const match = /^line\.(\d{1,3})\.(id|quantity|unitPrice)$/.exec(name);
    if (!match) continue;
    const index = Number(match[1]);
    const key = match[2] === "unitPrice" ? "unitPriceCents" : match[2]!;
    (lines[index] ??= {})[key] = value;
  }
  if (lines.length === 0) return fields;
  return { ...fields, lines: JSON.stringify(lines.filter(Boolean)) };
}

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} can be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : null));

export const orderAdminIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("status"), id, status: z.enum(ORDER_STATUSES, { error: "Choose a status" }) }),
  z.object({ intent: z.literal("payment"), id, paymentStatus: z.enum(PAYMENT_STATUSES, { error: "Choose a payment status" }) }),
  shippingAddressSchema.extend({
    intent: z.literal("update"),
    id,
    lines: linesField,
    notes: optionalText(ORDER_NOTES_MAX, "Notes"),
    trackingNumber: optionalText(TRACKING_NUMBER_MAX, "Tracking number"),
  }),
  z.object({ intent: z.literal("email"), id }),
  // couriers: book the shopper's choice (or another kind), cancel a booking, book every paid order for one collection
  z.object({
    intent: z.literal("book"),
    id,
    // empty: as the shopper chose
    kind: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["door", "locker", "point"], { error: "Choose door, locker or point" }).optional()),
  }),
  z.object({ intent: z.literal("cancelBooking"), id }),
  z.object({ intent: z.literal("bookAll") }),
  z.object({ intent: z.literal("delete"), id }),
]);
export type OrderAdminInput = z.infer<typeof orderAdminIntent>;
export type OrderEditInput = Extract<OrderAdminInput, { intent: "update" }>;
