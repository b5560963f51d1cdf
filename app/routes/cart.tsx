/**
 * /cart — the cart lives in browser storage (SPEC §3); every number on this page comes from the server's quote
 * (the loader answers GET /cart?quote=[…]&coupon=…): tier unit prices, subtotal, discount, shipping, total, VAT.
 */
import { attributeFromCookie, friendRewardForVisitor, referralCodeOf } from "~/modules/rewards/referral-cookie.server";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { useEffect, useState } from "react";
import { data } from "react-router";
import { CartCouponForm } from "~/components/cart-coupon-form";
import { CartLineItem } from "~/components/cart-line-item";
import { CartHeading, EmptyCart } from "~/components/cart-page-parts";
import { CartTotals, FreeDeliveryHint } from "~/components/cart-summary";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { WaitingForScript } from "~/components/waiting-for-script";
import { getDb } from "~/db/db.server";
import { getSessionUser } from "~/modules/accounts/session.server";
import { lineKeyOf, useCart, writeCart, readCart } from "~/modules/cart/cart.browser";
import { clearAppliedCoupon, useAppliedCoupon, writeAppliedCoupon } from "~/modules/cart/applied-coupon.browser";
import { linesInput, type CartQuote } from "~/modules/orders/cart-quote";
import { useCartQuote, useReconcileCart, useShownLines } from "~/modules/cart/cart-quote.browser";
import { cartLinesJsonSchema } from "~/modules/orders/orders.schema";
import { quoteCart, toCartQuote } from "~/modules/cart/cart-quote.server";
import { DomainError } from "~/utils/errors";
import type { Route } from "./+types/cart";
import { readQuery } from "~/utils/request.server";

export function meta() {
  return [{ title: "Your Cart | Scentara" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = readQuery(request);
  const raw = query.get("quote");
  if (raw === null) return { quote: null as CartQuote | null };
  const parsed = cartLinesJsonSchema.safeParse(raw);
  if (!parsed.success) return data({ quote: null as CartQuote | null, error: "Invalid cart" }, { status: 400 });
  const user = await getSessionUser(request);
  // came by a member's link and now signed in: attributed before the quote, which then shows the friend's reward (063)
  if (user) await attributeFromCookie(getDb(), request, user, () => requestMeta(request, context).ip);
  try {
    const quote = await quoteCart(getDb(), {
      lines: parsed.data,
      couponCode: query.get("coupon")?.slice(0, 50) || null,
      zoneId: query.get("zone") || null,
      userId: user?.id ?? null,
      rewardPoints: rewardPointsParam(query.get("points")),
    });
    const shown = toCartQuote(quote);
    // a visitor who came by a member's link: the reward waits for an account (docs/decisions/063)
    if (!user && referralCodeOf(request)) shown.friendReward = (await friendRewardForVisitor(getDb())) ?? undefined;
    return { quote: shown as CartQuote | null };
  } catch (error) {
    if (error instanceof DomainError) return data({ quote: null as CartQuote | null, error: error.message }, { status: error.status });
    throw error;
  }
}

/** The reward points asked for in the quote's address: a whole number, else none (docs/decisions/062). */
function rewardPointsParam(raw: string | null): number {
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

export default function CartPage() {
  const lines = useCart();
  const applied = useAppliedCoupon();
  const { quote, loading, error: quoteError } = useCartQuote(lines, applied?.code ?? null);
  const { notice, couponNotice, setCouponNotice } = useReconcileCart(quote);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // Lines in the order the shopper added them; the server's figures once they match what is stored.
  const shown = useShownLines(lines, quote);

  const setQuantity = (key: string, quantity: number) => writeCart(readCart().map((l) => (lineKeyOf(l) === key ? { ...l, quantity } : l)));
  const remove = (key: string) => writeCart(readCart().filter((l) => lineKeyOf(l) !== key));
  const clear = () => {
    writeCart([]);
    clearAppliedCoupon();
    setCouponNotice(null);
  };

  if (!hydrated) {
    return (
      <main className="container-page pt-28 pb-20 sm:pt-32">
        <CartHeading />
        <WaitingForScript loading="Loading your cart…" needsScript="Your cart is kept in this browser and is shown by its script." />
      </main>
    );
  }

  if (lines.length === 0) {
    return (
      <main className="container-page pt-28 pb-20 sm:pt-32">
        <CartHeading />
        {notice ? (
          <div className="mt-8 max-w-xl">
            <Notice tone="info">{notice}</Notice>
          </div>
        ) : null}
        <EmptyCart />
      </main>
    );
  }

  const count = lines.reduce((n, l) => n + l.quantity, 0);
  return (
    <main className="container-page pt-28 pb-20 sm:pt-32">
      <CartHeading count={count} />
      {notice ? (
        <div className="mt-6">
          <Notice tone="info">{notice}</Notice>
        </div>
      ) : null}
      <div className="mt-8 grid grid-cols-[minmax(0,1fr)] gap-10 lg:mt-12 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-14">
        <section aria-label="Items in your cart">
          <ul className="border-t border-line pt-6">
            {shown.map(({ line, pending }) => (
              <CartLineItem
                key={line.key}
                line={line}
                pending={pending}
                onQuantity={(q) => setQuantity(line.key, q)}
                onRemove={() => remove(line.key)}
              />
            ))}
          </ul>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-4">
            <ButtonLink to="/shop" variant="ghost" size="sm" className="-ml-3">
              ← Continue shopping
            </ButtonLink>
            <Button variant="ghost" size="sm" onClick={clear} className="text-muted hover:text-danger">
              Clear cart
            </Button>
          </div>
        </section>

        <aside aria-label="Order summary" className="h-fit border border-line bg-sand/60 p-6 sm:p-8 lg:sticky lg:top-28">
          <h2 className="font-display text-2xl text-ink">Order summary</h2>
          <div className="mt-6 space-y-6" aria-busy={loading}>
            {quote ? (
              <>
                <FreeDeliveryHint quote={quote} />
                <CartTotals quote={quote} shippingLabel={quote.zones.length ? `Shipping (${quote.zones.find((z) => z.id === quote.zoneId)?.name ?? "estimate"})` : "Shipping"} />
              </>
            ) : quoteError ? (
              <Notice tone="error">{quoteError}</Notice>
            ) : (
              <p className="text-sm text-muted">Calculating your total…</p>
            )}
            <CartCouponForm
              applied={applied}
              lines={linesInput(lines)}
              subtotalCents={quote?.subtotalCents ?? 0}
              notice={couponNotice}
              onApplied={(coupon) => {
                setCouponNotice(null);
                writeAppliedCoupon(coupon);
              }}
              onRemove={() => {
                setCouponNotice(null);
                clearAppliedCoupon();
              }}
            />
            <ButtonLink to="/checkout" size="lg" className="w-full">
              Proceed to Checkout
            </ButtonLink>
            <p className="text-center text-xs leading-relaxed text-muted">Secure card payment · Delivery in 2–7 working days</p>
          </div>
        </aside>
      </div>
    </main>
  );
}
