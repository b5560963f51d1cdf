/**
 * The returns forms (browser-safe): the shopper's request and the owner's steps. Quantities arrive as one field per
 * line (`qty.<lineId>`, `restock.<returnLineId>`): a plain form, so both pages work without JavaScript; `gather`
 * turns them into one JSON field before validation.
 */
import { z } from "zod";
import { parseRandToCents } from "~/utils/money";
import { NOTE_MAX, OWNER_MESSAGE_MAX, RETURN_REASON_IDS } from "./returns.logic";

const id = z.string().trim().min(1).max(100);
const MAX_LINES = 100;
const MAX_UNITS = 1000;

const quantities = z
  .string()
  .default("{}")
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "Invalid quantities" });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(
      z.string().min(1).max(100),
      z.coerce
        .number({ error: "Quantities are whole numbers" })
        .int("Quantities are whole numbers")
        .min(0, "Quantities are whole numbers")
        .max(MAX_UNITS, "Quantity is too large"),
    ),
  )
  .refine((r) => Object.keys(r).length <= MAX_LINES, "Too many lines");

/** Collects `<prefix>.<id>` fields into one JSON field named `into` (absent fields: none). */
export function gather(fields: Record<string, string>, prefix: string, into: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith(`${prefix}.`)) continue;
    const key = name.slice(prefix.length + 1);
    if (key) out[key] = value.trim() === "" ? "0" : value;
  }
  return { ...fields, [into]: JSON.stringify(out) };
}

export const returnRequestSchema = z.object({
  reason: z.enum(RETURN_REASON_IDS, { error: "Choose why you are returning the items" }),
  lines: quantities,
  opened: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "true"),
  note: z.string().trim().max(NOTE_MAX, `Keep the note under ${NOTE_MAX} characters`).default(""),
  /** the refund to the payment is the default (ECTA s44); a new gift card only when the shopper picks it */
  refundTo: z.enum(["original", "gift_card"], { error: "Choose how you want your refund" }).default("original"),
});
export type ReturnRequestForm = z.infer<typeof returnRequestSchema>;

const message = z.string().trim().max(OWNER_MESSAGE_MAX, `Keep the message under ${OWNER_MESSAGE_MAX} characters`).default("");

export const returnAdminIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), id, message }),
  z.object({ intent: z.literal("decline"), id, message }),
  z.object({ intent: z.literal("receive"), id, restock: quantities }),
  z.object({
    intent: z.literal("refund"),
    id,
    amount: z.string().transform((v, ctx) => {
      const cents = parseRandToCents(v);
      if (cents === null || cents <= 0) {
        ctx.addIssue({ code: "custom", message: "Enter the refund in rand, more than R0.00, with at most 2 decimals." });
        return z.NEVER;
      }
      return cents;
    }),
    method: z.enum(["provider", "eft"], { error: "Choose how the refund is paid" }),
    reference: z.string().trim().max(100, "Keep the reference under 100 characters").default(""),
  }),
  z.object({ intent: z.literal("eftPaid"), id, reference: z.string().trim().max(100, "Keep the reference under 100 characters").default("") }),
]);
