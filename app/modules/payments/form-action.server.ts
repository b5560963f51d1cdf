import { env } from "~/utils/env.server";

/**
 * Browsers apply CSP form-action to the redirect that follows a form post, so the payment provider's checkout
 * origin must be allowed for checkout to work without JavaScript.
 */
export function paymentFormActionOrigins(): string[] {
  const config = env();
  if (config.PAYMENT_PROVIDER === "yoco") return ["https://*.yoco.com", new URL(config.YOCO_API_BASE).origin];
  return [];
}
