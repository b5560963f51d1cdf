/**
 * Inputs of the money path (browser-safe, shared by the cart/checkout forms and the server).
 * The browser sends product ids and quantities only; every price is decided on the server.
 */
import { z } from "zod";

import { normalizeCouponCode } from "~/modules/coupons/coupons.logic";
import { MAX_CART_LINES, MAX_LINE_QUANTITY, normalizeSaPhone, SA_PROVINCES } from "./orders.logic";

export { CART_QUANTITY_CHOICES, EMPTY_CART_MESSAGE, MAX_CART_LINES, MAX_LINE_QUANTITY, normalizeSaPhone, SA_PROVINCES } from "./orders.logic";

export const cartLineSchema = z.object({
  productId: z.string().trim().min(1).max(100),
  /**
   * the size (docs/decisions/049); absent on carts saved before sizes: the product's first size. A discovery set's
   * token names its scents (up to ten product ids, docs/decisions/054), a gift card's its recipient and message
   * (docs/decisions/053), hence the room.
   */
  sizeId: z.string().trim().min(1).max(1000).optional(),
  quantity: z.coerce
    .number()
    .int("Quantity must be between 1 and 100")
    .min(1, "Quantity must be between 1 and 100")
    .max(MAX_LINE_QUANTITY, "Quantity must be between 1 and 100"),
});
export type CartLineInput = z.infer<typeof cartLineSchema>;


/** Lines posted as a JSON text field (hidden input or fetcher body). Any price in them is ignored by construction. */
export const cartLinesJsonSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "Invalid cart" });
      return z.NEVER;
    }
  })
  .pipe(z.array(cartLineSchema).max(MAX_CART_LINES, "Too many items in the cart"));

const required = (label: string, max = 120) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} is too long`);

export const shippingAddressSchema = z.object({
  name: required("Name", 100),
  telephone: z
    .string({ error: "Telephone is required" })
    .trim()
    .min(1, "Telephone is required")
    .transform((v, ctx) => {
      const phone = normalizeSaPhone(v);
      if (!phone) {
        ctx.addIssue({ code: "custom", message: "Enter a South African phone number, e.g. 082 123 4567" });
        return z.NEVER;
      }
      return phone;
    }),
  street: required("Street address", 200),
  suburb: required("Suburb"),
  city: required("City"),
  postalCode: z
    .string({ error: "Postal code is required" })
    .trim()
    .min(1, "Postal code is required")
    .regex(/^\d{4}$/, "Postal code must be 4 digits"),
  province: z.enum(SA_PROVINCES, { error: "Please choose a province" }),
});
export type ShippingAddressInput = z.infer<typeof shippingAddressSchema>;

export const checkoutSchema = shippingAddressSchema.extend({
  lines: cartLinesJsonSchema,
  // An empty field is no coupon; a code is normalised like every coupon code (the server then checks it).
  couponCode: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? normalizeCouponCode(v) : undefined)),
  zoneId: z
    .string()
    .max(100)
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** card, instant_eft or eft; the server checks it is one the shop offers (default: the first it offers) */
  paymentMethod: z
    .enum(["card", "instant_eft", "eft"], { error: "Please choose how to pay" })
    .optional(),
  /** the delivery chosen (couriers): its kind, the courier's service code and, for lockers and points, the code */
  deliveryKind: z.enum(["door", "locker", "point"], { error: "Please choose how your order is delivered" }).optional(),
  deliveryService: z
    .string()
    .max(60)
    .optional()
    .transform((v) => (v ? v : undefined)),
  deliveryPoint: z
    .string()
    .max(60)
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** gift card codes paying the order, comma-separated, in the order entered (docs/decisions/053) */
  giftCardCodes: z
    .string()
    .max(200)
    .optional()
    .transform((v) => (v ? v.split(",").map((c) => c.trim()).filter(Boolean) : undefined)),
  /** reward points the shopper chose to spend (docs/decisions/062); none when empty */
  rewardPoints: z
    .string()
    .max(12)
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < 0) {
        ctx.addIssue({ code: "custom", message: "Points are spent in whole points." });
        return z.NEVER;
      }
      return n || undefined;
    }),
  /** one order per checkout click (see checkout.server.ts) */
  checkoutToken: z
    .string()
    .regex(/^[0-9a-f-]{36}$/i, "Please reload the page and try again")
    .optional(),
});
export type CheckoutInput = z.infer<typeof checkoutSchema>;
