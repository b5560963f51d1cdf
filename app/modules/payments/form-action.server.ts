import { env } from "~/utils/env.server";
import { ozowPayUrl, payfastBaseUrl } from "./provider-hosts.server";

/**
 * Browsers apply CSP form-action to the redirect that follows a form post, and PayFast and Ozow are themselves form
 * posts, so every enabled provider's checkout origin must be allowed for checkout to work.
 */
export function paymentFormActionOrigins(): string[] {
  const config = env();
  const origins: string[] = [];
  if (config.PAYMENT_METHODS.includes("card") && config.PAYMENT_PROVIDER === "yoco") origins.push("https://*.yoco.com", new URL(config.YOCO_API_BASE).origin);
  if (config.PAYMENT_METHODS.includes("card") && config.PAYMENT_PROVIDER === "payfast") origins.push(new URL(payfastBaseUrl()).origin);
  if (config.PAYMENT_METHODS.includes("instant_eft")) origins.push(new URL(ozowPayUrl()).origin);
  return origins;
}
