/**
 * POST /api/coupons/validate — SPEC §7 validate_and_apply_coupon. Body (form or JSON): code, orderTotal (cents,
 * pre-discount) and optionally lines (JSON [{productId, quantity}]); with lines the total is recomputed here from the
 * database and the posted total is ignored. Visitors may validate (the user is passed when signed in).
 * Answer: { valid, code, discount_type, discount_amount (cents), description, error, message }.
 */
import { data } from "react-router";
import { z } from "zod";
import { assertSameOrigin, getSessionUser } from "~/modules/accounts/session.server";
import { COUPON_MESSAGES } from "~/modules/coupons/coupons.logic";
import { couponCodeSchema, type CouponValidation } from "~/modules/coupons/coupons.schema";
import { validateAndApplyCoupon } from "~/modules/coupons/coupons.server";
import { cartLinesJsonSchema } from "~/modules/orders/orders.schema";
import { quoteCart } from "~/modules/cart/cart-quote.server";
import { getDb } from "~/db/db.server";
import { formatAmount } from "~/utils/money";
import { logger } from "~/utils/logger.server";
import type { Route } from "./+types/api.coupons.validate";
import { readJsonOrForm } from "~/utils/request.server";

const inputSchema = z.object({
  code: z.string().max(200).default(""),
  orderTotal: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  lines: cartLinesJsonSchema.optional(),
  zoneId: z.string().max(100).optional(),
});

export type CouponValidateResponse = CouponValidation & { message: string };

function answer(result: CouponValidation, status = 200) {
  const message = result.valid ? COUPON_MESSAGES.applied(formatAmount(result.discount_amount)) : (result.error ?? COUPON_MESSAGES.invalid);
  return data<CouponValidateResponse>({ ...result, message }, { status, headers: { "Cache-Control": "no-store" } });
}

/** JSON (the cart page's call) or a form; a JSON `lines` array is checked by the same schema as the form's string. */
async function readBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readJsonOrForm(request);
  return Array.isArray(body.lines) ? { ...body, lines: JSON.stringify(body.lines) } : body;
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  assertSameOrigin(request);
  const empty = { valid: false, code: "", discount_type: null, discount_amount: 0, description: null } as const;
  try {
    const parsed = inputSchema.safeParse(await readBody(request));
    if (!parsed.success) return answer({ ...empty, error: COUPON_MESSAGES.invalid }, 400);
    const checked = couponCodeSchema.safeParse(parsed.data.code);
    if (!checked.success) return answer({ ...empty, error: checked.error.issues[0]?.message ?? COUPON_MESSAGES.invalid }, 400);
    const code = checked.data;
    const db = getDb();
    let orderTotalCents = parsed.data.orderTotal;
    if (parsed.data.lines) {
      const quote = await quoteCart(db, { lines: parsed.data.lines });
      orderTotalCents = quote.totals.subtotalCents;
    }
    const user = await getSessionUser(request);
    const result = await validateAndApplyCoupon(db, { code, orderTotalCents, userId: user?.id ?? null, zoneId: parsed.data.zoneId });
    return answer(result);
  } catch (error) {
    if (error instanceof Response) throw error;
    logger.error({ err: error }, "coupon validation failed");
    return answer({ ...empty, error: COUPON_MESSAGES.failed }, 500);
  }
}

export async function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
