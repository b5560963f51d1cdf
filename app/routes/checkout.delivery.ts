/**
 * /checkout/delivery — the delivery choices for the checkout's cart and address (a resource route, JSON, GET so that
 * asking never revalidates the page): each offered kind's options with what the cart costs if chosen, and the lockers
 * and pick-up points nearest the shopper (or their search). Signed-in shoppers only; prices are the server's.
 */
import { data } from "react-router";
import { z } from "zod";
import { getDb } from "~/db/db.server";
import { getSessionUser } from "~/modules/accounts/session.server";
import { deliveryChoices, type DeliveryAnswer } from "~/modules/couriers/checkout-delivery.server";
import { cartLinesJsonSchema } from "~/modules/orders/orders.schema";
import { SA_PROVINCES } from "~/modules/orders/orders.logic";
import { DomainError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { readQuery } from "~/utils/request.server";
import type { Route } from "./+types/checkout.delivery";

const text = (max: number) => z.string().trim().max(max).default("");
const querySchema = z.object({
  lines: cartLinesJsonSchema,
  coupon: z.string().max(50).optional(),
  zone: z.string().max(100).optional(),
  street: text(200),
  suburb: text(120),
  city: text(120),
  postalCode: z.string().trim().regex(/^\d{4}$/, "Postal code must be 4 digits"),
  province: z.enum(SA_PROVINCES).or(z.literal("")).default(""),
  locker: z.string().max(60).optional(),
  point: z.string().max(60).optional(),
  near: text(120),
  /** reward points the shopper chose to spend (docs/decisions/062) */
  points: z.coerce.number().int().min(0).max(100_000_000).optional().catch(undefined),
});

export async function loader({ request }: Route.LoaderArgs) {
  const headers = { "Cache-Control": "private, no-store" };
  const user = await getSessionUser(request);
  if (!user) return data<DeliveryAnswer>({ choices: null, error: "Please sign in to continue" }, { status: 401, headers });
  const parsed = querySchema.safeParse(Object.fromEntries(readQuery(request)));
  if (!parsed.success) return data<DeliveryAnswer>({ choices: null, error: parsed.error.issues[0]?.message ?? "Please check your address" }, { status: 400, headers });
  const q = parsed.data;
  try {
    const choices = await deliveryChoices(getDb(), {
      lines: q.lines,
      couponCode: q.coupon,
      zoneId: q.zone,
      province: q.province || null,
      userId: user.id,
      address: { street: q.street, suburb: q.suburb, city: q.city, province: q.province, postalCode: q.postalCode },
      pointCodes: { locker: q.locker ?? null, point: q.point ?? null },
      pointQuery: q.near || null,
      rewardPoints: q.points ?? 0,
    });
    return data<DeliveryAnswer>({ choices }, { headers });
  } catch (error) {
    if (error instanceof DomainError) return data<DeliveryAnswer>({ choices: null, error: error.message }, { status: error.status, headers });
    logger.error({ err: error }, "checkout: delivery choices failed");
    return data<DeliveryAnswer>({ choices: null, error: "Delivery options could not be loaded. Please try again." }, { status: 500, headers });
  }
}
