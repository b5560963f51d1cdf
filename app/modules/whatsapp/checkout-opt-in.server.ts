/**
 * The checkout's hook (docs/decisions/055): whether to offer the WhatsApp box, and the box's answer. Kept here so the
 * checkout's own route and form carry one line each.
 */
import type { Queryable } from "~/db/db.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { optInToWhatsapp } from "./subscriptions.server";
import { whatsappMode } from "./whatsapp.server";

export function whatsappOffered(): boolean {
  return whatsappMode() !== "off";
}

/**
 * A ticked box (`on`) with the checkout's telephone (already checked and normalised by the checkout's schema) turns the
 * person's updates on for that number and logs it (source checkout). Unticked: nothing — an earlier opt-in stands
 * until the person stops it. Never blocks the order: a failure here is logged.
 */
export async function optInFromCheckout(db: Queryable, userId: string, box: string | undefined, telephone: string): Promise<void> {
  if (box !== "on" || !whatsappOffered()) return;
  try {
    await optInToWhatsapp(db, { userId, phone: telephone, source: "checkout", shopName: env().SHOP_NAME });
  } catch (error) {
    logger.error({ err: error, userId }, "whatsapp: the checkout's opt-in was not recorded");
  }
}
