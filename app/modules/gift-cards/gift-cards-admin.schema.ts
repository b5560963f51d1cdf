import { z } from "zod";
import { parseRandToCents } from "~/utils/money";

/** The owner's gift card forms (browser-safe): issue one by hand, cancel one, correct or resend a sold card's e-mail. */
export const GIFT_CARD_ADMIN_TEXT = {
  issued: (code: string, amount: string) => `Gift card ${code} issued for ${amount}. Copy the code now: it is shown only this once.`,
  cancelled: "Gift card cancelled: its remaining balance is void",
  failedIssue: "Failed to issue the gift card",
  failedCancel: "Failed to cancel the gift card",
  amount: "Enter an amount from R1.00 to R50 000.00",
  email: "Enter a valid e-mail address, or leave it empty",
  none: "No gift cards yet",
  noMatches: "No gift cards match your search",
  amounts: "Enter up to 8 amounts in whole rand, separated by commas, e.g. 250, 500, 1000",
  range: "Enter both ends of the range in whole rand (the lower first), or leave both empty",
  nothingToSell: "Offer at least one amount or a range",
  salesSaved: "Gift card sales saved",
  failedSales: "Failed to save gift card sales",
  failedRecipient: "Failed to change the gift card's recipient",
  failedSend: "Failed to send the gift card",
} as const;

/** A goodwill card of more than R50 000 is a typing slip, not a gesture. */
export const MAX_GIFT_CARD_CENTS = 5_000_000;

const id = z.string().trim().min(1).max(100);

const optionalNote = z
  .string()
  .trim()
  .max(300, "A note can be at most 300 characters")
  .optional()
  .transform((v) => v || undefined);

const cancel = z.object({ intent: z.literal("cancel"), id, note: optionalNote });

/** Whole rand as the owner types it ("1 000", "R500"), in cents; "" = none. */
function wholeRand(v: string): number | null | undefined {
  const t = v.trim().replace(/^R\s*/i, "").replace(/[\s\u00a0]/g, "");
  if (!t) return null;
  return /^\d{1,6}$/.test(t) && Number(t) > 0 ? Number(t) * 100 : undefined;
}

/**
 * Selling gift cards (docs/decisions/053): on or off, the amounts offered as pills ("250, 500, 1000") and the range of
 * any other whole-rand amount (both empty: none). At least one amount or a range.
 */
const sales = z
  .object({
    intent: z.literal("sales"),
    enabled: z
      .string()
      .optional()
      .transform((v) => v === "on" || v === "true"),
    amounts: z
      .string()
      .max(200)
      .default("")
      .transform((v, ctx) => {
        const parts = v.split(/[,;]/).map((p) => p.trim()).filter(Boolean);
        const cents = parts.map(wholeRand);
        if (cents.some((c) => c === undefined || c === null || c > MAX_GIFT_CARD_CENTS) || cents.length > 8) {
          ctx.addIssue({ code: "custom", message: GIFT_CARD_ADMIN_TEXT.amounts });
          return z.NEVER;
        }
        return [...new Set(cents as number[])].sort((a, b) => a - b);
      }),
    min: z.string().default(""),
    max: z.string().default(""),
  })
  .transform((v, ctx) => {
    const [min, max] = [wholeRand(v.min), wholeRand(v.max)];
    const noRange = min === null && max === null;
    if (!noRange && (min === undefined || max === undefined || min === null || max === null || min > max || max > MAX_GIFT_CARD_CENTS)) {
      ctx.addIssue({ code: "custom", message: GIFT_CARD_ADMIN_TEXT.range, path: ["min"] });
      return z.NEVER;
    }
    if (v.amounts.length === 0 && noRange) {
      ctx.addIssue({ code: "custom", message: GIFT_CARD_ADMIN_TEXT.nothingToSell, path: ["amounts"] });
      return z.NEVER;
    }
    return { intent: v.intent, enabled: v.enabled, amountsCents: v.amounts, minCents: noRange ? null : (min as number), maxCents: noRange ? null : (max as number) };
  });

/** The recipient's fields as typed; the rules (the shop form's) are checked with the card in hand (checkRecipientChange). */
const typed = (max: number) => z.string().max(max, "That is longer than any name, address or date").optional();
const recipientFields = { id, recipientName: typed(200), recipientEmail: typed(300), sendOn: typed(20) };

/** The card's own page: cancel it; a sold card's recipient and day changed, sent now, or its e-mail sent again. */
export const giftCardPageIntent = z.discriminatedUnion("intent", [
  cancel,
  z.object({ intent: z.literal("recipient"), ...recipientFields }),
  z.object({ intent: z.literal("send-now"), ...recipientFields }),
  z.object({
    intent: z.literal("resend"),
    id,
    recipientEmail: typed(300),
    /** how many times it had been e-mailed when the page was drawn: a double click's second post sends nothing */
    sent: z.coerce.number().int().min(0).max(1_000_000),
  }),
]);

/** The list: issue one, cancel one. */
export const giftCardAdminIntent = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("issue"),
    amount: z.string().transform((v, ctx) => {
      const cents = parseRandToCents(v.trim());
      if (cents === null || cents < 100 || cents > MAX_GIFT_CARD_CENTS) {
        ctx.addIssue({ code: "custom", message: GIFT_CARD_ADMIN_TEXT.amount });
        return z.NEVER;
      }
      return cents;
    }),
    recipientEmail: z
      .string()
      .trim()
      .max(254)
      .optional()
      .transform((v) => v || undefined)
      .pipe(z.email(GIFT_CARD_ADMIN_TEXT.email).optional()),
    note: optionalNote,
  }),
  cancel,
  sales,
]);
