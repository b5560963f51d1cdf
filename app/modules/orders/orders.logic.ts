/**
 * Money-path constants and rules the browser needs (no zod here, so pages that use them stay light).
 * The zod schemas in orders.schema.ts build on these.
 */
export const MAX_LINE_QUANTITY = 100;
export const MAX_CART_LINES = 50;
export const CART_QUANTITY_CHOICES = [1, 2, 3, 4, 5, 6] as const;
export const EMPTY_CART_MESSAGE = "Your cart is empty";

export const SA_PROVINCES = [
  "Eastern Cape",
  "Free State",
  "Gauteng",
  "KwaZulu-Natal",
  "Limpopo",
  "Mpumalanga",
  "Northern Cape",
  "North West",
  "Western Cape",
] as const;

/**
 * A South African phone number as people write it (082 123 4567, 0821234567, +27 82 123 4567, 27821234567,
 * (082) 123-4567) normalised to +27XXXXXXXXX; null when it is not one.
 */
export function normalizeSaPhone(input: string): string | null {
  const compact = input.replace(/[\s\-().]/g, "");
  let national: string | null = null;
  if (/^0\d{9}$/.test(compact)) national = compact.slice(1);
  else if (/^\+27\d{9}$/.test(compact)) national = compact.slice(3);
  else if (/^27\d{9}$/.test(compact)) national = compact.slice(2);
  else if (/^\+270\d{9}$/.test(compact)) national = compact.slice(4);
  if (!national || national.startsWith("0")) return null;
  return `+27${national}`;
}

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
