/**
 * Money-path constants and rules the browser needs (no zod here, so pages that use them stay light).
 * The zod schemas in orders.schema.ts build on these.
 */
export const MAX_LINE_QUANTITY = 100;
export const MAX_CART_LINES = 50;
export const CART_QUANTITY_CHOICES = [1, 2, 3, 4, 5, 6] as const;
export const EMPTY_CART_MESSAGE = "Your cart is empty";

/** The provinces and phone numbers of a South African address: app/utils/sa-address.ts (below every area). */
export { normalizeSaPhone, SA_PROVINCES } from "~/utils/sa-address";

/** SPEC §5, §9: the payment amount is at least 200 cents. */
export const MINIMUM_PAYMENT_CENTS = 200;

/** The checkout's messages (SPEC §8), shared by the page, the use case and the payment adapters. */
export const CHECKOUT_MESSAGES = {
  signIn: "Please sign in to continue",
  minimum: "Minimum order amount is R2.00",
  orderFailed: "Unable to process your order. Please try again.",
  paymentFailed: "Unable to process payment. Please try again.",
  initFailed: "Unable to initialize payment. Please try again.",
  unexpected: "An unexpected error occurred",
  checkFields: "Please check the highlighted fields",
  methodUnavailable: "That way of paying isn't available. Please choose another.",
} as const;
