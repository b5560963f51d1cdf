import { env } from "~/utils/env.server";
import type { ShopInfo } from "./shop";

/** The shop's public facts, from configuration (SHOP_NAME, WHATSAPP_NUMBER, CONTACT_EMAIL): never hard-coded. */
export function getShopInfo(): ShopInfo {
  const config = env();
  return {
    name: config.SHOP_NAME,
    whatsappNumber: config.WHATSAPP_NUMBER,
    contactEmail: config.CONTACT_EMAIL,
    freeDeliveryThresholdCents: config.FREE_DELIVERY_THRESHOLD_CENTS,
  };
}

/** The public origin of the shop, without a trailing slash (for canonical URLs, sitemaps, Open Graph). */
export function getBaseUrl(): string {
  return env().PUBLIC_BASE_URL.replace(/\/+$/, "");
}
