import { z } from "zod";
import { parseRandToCents } from "~/utils/money";

/** The owner's gift card forms (browser-safe): issue one by hand, cancel one. */
export const GIFT_CARD_ADMIN_TEXT = {
  issued: (code: string, amount: string) => `Gift card ${code} issued for ${amount}. Copy the code now: it is shown only this once.`,
  cancelled: "Gift card cancelled: its remaining balance is void",
  failedIssue: "Failed to issue the gift card",
  failedCancel: "Failed to cancel the gift card",
  amount: "Enter an amount from R1.00 to R50 000.00",
  email: "Enter a valid e-mail address, or leave it empty",
  none: "No gift cards yet",
  noMatches: "No gift cards match your search",
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

/** The card's own page: cancel it. */
export const giftCardCancelIntent = z.discriminatedUnion("intent", [cancel]);

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
]);
