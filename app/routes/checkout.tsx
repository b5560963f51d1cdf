/**
 * /checkout — signed-in customers only (a visitor goes to login and comes back); an empty stored cart goes to /cart.
 * The form posts the address, the chosen zone, the cart lines (ids and quantities) and the coupon code; the action
 * reprices everything on the server, places the order (one transaction) and redirects to the payment provider.
 */
import { useEffect, useMemo, useState } from "react";
import { data, Form, redirect, useActionData, useNavigate, useNavigation } from "react-router";
import { CheckoutForm } from "~/components/checkout-form";
import { WaitingForScript } from "~/components/waiting-for-script";
import { getDb } from "~/db/db.server";
import { assertSameOrigin, getSessionUser, requireUser } from "~/modules/accounts/session.server";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { attributeFromCookie } from "~/modules/rewards/referral-cookie.server";
import { readCart, useCart, writeCart } from "~/modules/cart/cart.browser";
import { clearAppliedCoupon, readAppliedCoupon, useAppliedCoupon } from "~/modules/cart/applied-coupon.browser";
import { checkoutSchema } from "~/modules/orders/orders.schema";
import { checkout, CheckoutAttemptClosedError } from "~/modules/flows/checkout.server";
import { lastShippingAddress } from "~/modules/orders/last-address.server";
import { CHECKOUT_MESSAGES } from "~/modules/orders/orders.logic";
import { preselectZone } from "~/modules/shipping/shipping.logic";
import { loadShippingZonesOrFallback } from "~/modules/shipping/shipping.server";
import { paymentMethodChoice } from "~/modules/payments/payment-methods";
import { env } from "~/utils/env.server";
import { offeredKinds } from "~/modules/couriers/checkout-delivery.server";
import { DomainError, fieldErrorsOf, formError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { useCartQuote, useReconcileCart } from "~/modules/cart/cart-quote.browser";
import type { Route } from "./+types/checkout";
import { readFields } from "~/utils/request.server";
import { formatRand } from "~/utils/money";
import { optInFromCheckout, whatsappOffered } from "~/modules/whatsapp/checkout-opt-in.server";

export { CHECKOUT_MESSAGES };

export function meta() {
  return [{ title: "Checkout | Scentara" }, { name: "robots", content: "noindex" }];
}

/** The page carries the customer's e-mail and last address: never kept by a shared cache. */
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request);
  // came by a member's link: attributed now, so the quote shows the friend's reward (docs/decisions/063)
  await attributeFromCookie(getDb(), request, user, () => requestMeta(request, context).ip);
  const [zones, lastAddress] = await Promise.all([loadShippingZonesOrFallback(getDb()), lastShippingAddress(getDb(), user.id)]);
  // One token per page view; after a refusal the action's answer names the token to use next (see action).
  const config = env();
  return {
    email: user.email,
    // Offered first on the form (the customer's own most recent order only).
    lastAddress,
    zones: zones.map((z) => ({ id: z.id, name: z.name, provinces: [...(z.provinces ?? [])] })),
    methods: config.PAYMENT_METHODS.map((m) => paymentMethodChoice(m, config.PAYMENT_PROVIDER, config.EFT_HOLD_DAYS)),
    checkoutToken: crypto.randomUUID(),
    deliveryKinds: offeredKinds(),
    whatsapp: whatsappOffered(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await getSessionUser(request);
  const fields = await readFields(request);
  // React Router doesn't rerun the loader after a 4xx/5xx answer, so every refusal carries the token for the next
  // submission: the posted one while its attempt stored nothing (or is still in progress), a new one once it is spent.
  const posted = checkoutSchema.shape.checkoutToken.safeParse(fields.checkoutToken);
  const token = (posted.success && posted.data) || crypto.randomUUID();
  const refuse = (answer: ReturnType<typeof formError>, checkoutToken = token) => data({ ...answer.data, checkoutToken }, answer.init ?? undefined);
  if (!user) return refuse(formError(CHECKOUT_MESSAGES.signIn, 401));
  const parsed = checkoutSchema.safeParse(fields);
  if (!parsed.success) return refuse(formError(invalidFormMessage(fieldErrorsOf(parsed.error.issues)), 400, fieldErrorsOf(parsed.error.issues)));
  try {
    // the WhatsApp box, ticked: logged before the order is placed, so its first update (order placed) already goes
    await optInFromCheckout(getDb(), user.id, fields.whatsappUpdates, parsed.data.telephone);
    return redirect((await checkout(getDb(), user, parsed.data, requestMeta(request, context))).redirectTo);
  } catch (error) {
    if (error instanceof CheckoutAttemptClosedError) return refuse(error.toFormError(), crypto.randomUUID());
    if (error instanceof DomainError) return refuse(error.toFormError());
    logger.error({ err: error, userId: user.id }, "checkout: unexpected error");
    return refuse(formError(CHECKOUT_MESSAGES.unexpected, 500));
  }
}

/** Bad cart lines are a cart problem, not the shopper's typing; otherwise the one message, or "check the fields". */
function invalidFormMessage(fieldErrors: Record<string, string>): string {
  if (fieldErrors.lines) return CHECKOUT_MESSAGES.orderFailed;
  const messages = Object.values(fieldErrors);
  return messages.length === 1 ? messages[0]! : CHECKOUT_MESSAGES.checkFields;
}

export default function CheckoutPage({ loaderData }: Route.ComponentProps) {
  const lines = useCart();
  const applied = useAppliedCoupon();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  // The first zone until the shopper picks a province; then the zone that serves it (still the first when none does).
  // Choosing a zone by hand afterwards is respected (docs/decisions/018); changing the province preselects again.
  // A customer who ordered before starts from that order's address, so from its province's zone.
  const [province, setProvince] = useState(loaderData.lastAddress?.province ?? "");
  const [zoneId, setZoneId] = useState<string | null>(preselectZone(loaderData.zones, province)?.id ?? null);
  const onProvince = (next: string) => {
    setProvince(next);
    setZoneId(preselectZone(loaderData.zones, next)?.id ?? null);
  };
  // Reward points the shopper chose to spend (docs/decisions/062): the quote prices them, the form posts them.
  const [rewardPoints, setRewardPoints] = useState(0);
  const { quote, loading } = useCartQuote(lines, applied?.code ?? null, zoneId, rewardPoints);
  const { notice, couponNotice, setCouponNotice } = useReconcileCart(quote);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // An empty stored cart has nothing to check out (read storage directly: the hook starts empty while hydrating).
  useEffect(() => {
    if (readCart().length === 0) navigate("/cart", { replace: true });
  }, [lines, navigate]);

  // The server refused the coupon or some products: fix the stored cart so the next submit is what is shown.
  const fieldErrors = useMemo<Record<string, string>>(() => (actionData && "fieldErrors" in actionData ? actionData.fieldErrors : {}), [actionData]);
  useEffect(() => {
    if (!actionData || actionData.ok !== false) return;
    if (actionData.fieldErrors.couponCode) {
      const stored = readAppliedCoupon();
      clearAppliedCoupon();
      setCouponNotice(`Your coupon${stored ? ` ${stored.code}` : ""} was removed: ${actionData.fieldErrors.couponCode}. Nothing was charged — please check your new total and place your order again.`);
    }
    if (actionData.fieldErrors.missing) {
      const gone = new Set(actionData.fieldErrors.missing.split(","));
      writeCart(readCart().filter((l) => !gone.has(l.id)));
    }
  }, [actionData, setCouponNotice]);

  const submitting = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const error = actionData && actionData.ok === false && !actionData.fieldErrors.couponCode ? actionData.error : null;

  return (
    <main className="container-page pt-28 pb-20 sm:pt-32">
      <header>
        <p className="eyebrow">Secure checkout</p>
        <h1 className="mt-2 font-display text-4xl text-ink sm:text-5xl">Checkout</h1>
        <p className="mt-2 text-sm text-muted">Signed in as {loaderData.email}</p>
        {/* On a phone the order summary sits below the form: the total is said here first. */}
        {/* With couriers the total waits for the delivery choice: the summary says it once chosen. */}
        {hydrated && quote && loaderData.deliveryKinds.length === 0 ? (
          <p className="mt-4 flex items-baseline justify-between gap-4 border-y border-line py-3 lg:hidden" data-testid="checkout-top-total">
            <span className="text-xs font-medium uppercase tracking-[0.18em] text-ink">Total</span>
            <span className="font-display text-2xl text-ink">
              {formatRand(quote.totalCents)}
              <span className="ml-2 font-sans text-xs text-muted">
                {lines.reduce((n, l) => n + l.quantity, 0)} {lines.reduce((n, l) => n + l.quantity, 0) === 1 ? "item" : "items"}, delivery included
              </span>
            </span>
          </p>
        ) : null}
      </header>
      {hydrated && lines.length > 0 ? (
        <Form method="post" className="mt-8 lg:mt-12" noValidate>
          <input type="hidden" name="checkoutToken" value={actionData?.checkoutToken ?? loaderData.checkoutToken} />
          <CheckoutForm
            lines={lines}
            quote={quote}
            loading={loading}
            zones={loaderData.zones}
            zoneId={zoneId}
            onZone={setZoneId}
            province={province}
            onProvince={onProvince}
            couponCode={applied?.code ?? ""}
            fieldErrors={fieldErrors}
            error={error}
            notices={[notice, couponNotice].filter((n): n is string => !!n)}
            submitting={submitting}
            methods={loaderData.methods}
            lastAddress={loaderData.lastAddress}
            deliveryKinds={loaderData.deliveryKinds}
            whatsapp={loaderData.whatsapp}
            rewardPoints={rewardPoints}
            onRewardPoints={setRewardPoints}
          />
        </Form>
      ) : (
        <WaitingForScript loading="Loading your order…" needsScript="Checkout reads your cart, which is kept in this browser, and prices it as you go." />
      )}
    </main>
  );
}
