import { useEffect, useRef, useState } from "react";
import { CartTotals } from "~/components/cart-summary";
import { Button } from "~/components/ui/button";
import { Field, Notice } from "~/components/ui/field";
import type { CartLine } from "~/modules/cart/cart.browser";
import type { CartQuote } from "~/modules/orders/cart-quote";
import { SA_PROVINCES } from "~/modules/orders/orders.logic";
import type { PaymentMethodChoice } from "~/modules/payments/payment-methods";
import type { PaymentMethod } from "~/modules/payments/provider";
import { formatRand } from "~/utils/money";

/**
 * The checkout form body: shipping address, delivery zone, order summary and the pay button. The hidden fields carry
 * only product ids, quantities and the coupon code — the server reprices everything.
 */
export function CheckoutForm({
  lines,
  quote,
  loading,
  zones,
  zoneId,
  onZone,
  province,
  onProvince,
  couponCode,
  fieldErrors,
  error,
  notices,
  submitting,
  methods,
}: {
  lines: CartLine[];
  quote: CartQuote | null;
  loading: boolean;
  zones: { id: string; name: string; provinces: string[] }[];
  zoneId: string | null;
  onZone: (id: string) => void;
  /** the province chosen in the address ("" until one is) */
  province: string;
  onProvince: (province: string) => void;
  couponCode: string;
  fieldErrors: Record<string, string>;
  error: string | null;
  notices: string[];
  submitting: boolean;
  /** the ways to pay the shop offers, in its order (the first is chosen to start with) */
  methods: PaymentMethodChoice[];
}) {
  const [method, setMethod] = useState<PaymentMethod>(methods[0]?.method ?? "card");
  const posted = JSON.stringify(lines.map((l) => ({ productId: l.id, quantity: l.quantity })));
  const root = useRef<HTMLDivElement>(null);
  // After a refused submit, take the shopper to what needs fixing (the Pay button may be far below on a phone).
  useEffect(() => {
    const el = root.current;
    if (!el || (!error && Object.keys(fieldErrors).length === 0 && notices.length === 0)) return;
    const invalid = el.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (invalid) invalid.focus();
    else el.querySelector<HTMLElement>('[role="alert"], [role="status"]')?.scrollIntoView({ block: "center" });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error, fieldErrors, notices.join("|")]);
  return (
    <div ref={root} className="grid grid-cols-[minmax(0,1fr)] gap-10 lg:grid-cols-[minmax(0,1fr)_24rem] lg:gap-14">
      <div className="space-y-10">
        {error ? <Notice tone="error">{error}</Notice> : null}
        {notices.map((n) => (
          <Notice key={n} tone="info">
            {n}
          </Notice>
        ))}
        <fieldset className="space-y-5">
          <legend className="font-display text-2xl text-ink">Shipping address</legend>
          <Field label="Full name" error={fieldErrors.name}>
            {(p) => <input {...p} name="name" autoComplete="name" required maxLength={100} />}
          </Field>
          <Field label="Telephone" error={fieldErrors.telephone} hint="South African number, e.g. 082 123 4567">
            {(p) => <input {...p} name="telephone" type="tel" inputMode="tel" autoComplete="tel" required maxLength={20} />}
          </Field>
          <Field label="Street address" error={fieldErrors.street}>
            {(p) => <input {...p} name="street" autoComplete="address-line1" required maxLength={200} />}
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Suburb" error={fieldErrors.suburb}>
              {(p) => <input {...p} name="suburb" autoComplete="address-line2" required maxLength={120} />}
            </Field>
            <Field label="City" error={fieldErrors.city}>
              {(p) => <input {...p} name="city" autoComplete="address-level2" required maxLength={120} />}
            </Field>
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Postal code" error={fieldErrors.postalCode}>
              {(p) => <input {...p} name="postalCode" inputMode="numeric" pattern="[0-9]{4}" maxLength={4} autoComplete="postal-code" required />}
            </Field>
            <Field label="Province" error={fieldErrors.province}>
              {(p) => (
                <select {...p} name="province" required defaultValue="" onChange={(e) => onProvince(e.currentTarget.value)}>
                  <option value="" disabled>
                    Choose a province
                  </option>
                  {SA_PROVINCES.map((province) => (
                    <option key={province} value={province}>
                      {province}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        </fieldset>

        {zones.length > 0 ? <DeliveryZones zones={zones} zoneId={zoneId} onZone={onZone} province={province} quote={quote} /> : null}
        <PaymentMethods methods={methods} method={method} onMethod={setMethod} error={fieldErrors.paymentMethod} />
      </div>

      <aside aria-label="Order summary" className="h-fit border border-line bg-sand/60 p-6 sm:p-8 lg:sticky lg:top-28">
        <h2 className="font-display text-2xl text-ink">Your order</h2>
        <ul className="mt-5 space-y-3 border-b border-line pb-5 text-sm">
          {(quote?.lines ?? []).map((l) => (
            <li key={l.productId} className="flex justify-between gap-4">
              <span className="min-w-0 text-ink-soft">
                <span className="text-ink">{l.name}</span> × {l.quantity}
                <span className="block text-xs text-muted">{formatRand(l.unitPriceCents)} each</span>
              </span>
              <span className="shrink-0 text-ink">{formatRand(l.lineTotalCents)}</span>
            </li>
          ))}
        </ul>
        <div className="mt-5" aria-busy={loading}>
          {quote ? <CartTotals quote={quote} /> : <p className="text-sm text-muted">Calculating your total…</p>}
        </div>
        <input type="hidden" name="lines" value={posted} />
        <input type="hidden" name="couponCode" value={couponCode} />
        <Button type="submit" size="lg" className="mt-6 w-full" disabled={submitting || !quote} aria-disabled={submitting || !quote}>
          {submitting ? "Processing…" : method === "eft" ? `Place order${quote ? ` · ${formatRand(quote.totalCents)}` : ""}` : quote ? `Pay ${formatRand(quote.totalCents)}` : "Pay now"}
        </Button>
        <p className="mt-3 text-center text-xs leading-relaxed text-muted">
          {method === "eft" ? "Next you see our bank details and your payment reference." : "You will be taken to a secure payment page."} Prices include VAT.
        </p>
      </aside>
    </div>
  );
}

/**
 * The delivery zones, each with what it costs this cart (from the server's quote), so nobody picks blind. The zone
 * that serves the chosen province is preselected by the page; a zone picked by hand that doesn't list the province
 * is allowed (a metro zone can be narrower than its province), with a word on which zone serves it.
 */
function DeliveryZones({
  zones,
  zoneId,
  onZone,
  province,
  quote,
}: {
  zones: { id: string; name: string; provinces: string[] }[];
  zoneId: string | null;
  onZone: (id: string) => void;
  province: string;
  quote: CartQuote | null;
}) {
  const priceOf = (id: string) => {
    const option = quote?.zones.find((z) => z.id === id);
    if (!option) return null;
    return option.deliveryCents === 0 ? "Free" : formatRand(option.deliveryCents);
  };
  const chosen = zones.find((z) => z.id === zoneId);
  const serving = province ? zones.find((z) => z.provinces.includes(province)) : undefined;
  return (
    <fieldset className="space-y-3">
      <legend className="font-display text-2xl text-ink">Delivery</legend>
      <p className="text-sm text-ink-soft">{province ? (serving ? `The zone for ${province} is selected.` : `No zone lists ${province}: choose the one that fits your address.`) : "Choose your province above and its zone is selected for you."}</p>
      <div className="divide-y divide-line border border-line bg-white">
        {zones.map((zone) => {
          const checked = zone.id === zoneId;
          const price = priceOf(zone.id);
          return (
            <label key={zone.id} className={`flex cursor-pointer items-center gap-3 px-4 py-4 transition-colors ${checked ? "bg-sand/70" : "hover:bg-sand/40"}`}>
              <input type="radio" name="zoneId" value={zone.id} checked={checked} onChange={() => onZone(zone.id)} className="h-4 w-4 shrink-0 accent-[var(--color-ink)]" />
              <span className="min-w-0 flex-1 text-sm text-ink">
                <span className="break-words">{zone.name}</span>
                {province && zone.provinces.includes(province) ? <span className="block text-[0.68rem] uppercase tracking-[0.14em] text-gold">Delivers to {province}</span> : null}
              </span>
              <span className="shrink-0 text-sm tabular-nums text-ink-soft" data-testid="zone-price">
                <span className="sr-only"> — </span>
                {price ?? <span className="text-muted">…</span>}
              </span>
            </label>
          );
        })}
      </div>
      {province && chosen && serving && chosen.id !== serving.id ? (
        <p className="text-xs text-muted">
          {chosen.name} doesn't list {province}; {serving.name} does. Keep {chosen.name} only if it is right for your address.
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * How to pay: one radio per method the shop offers (plain words, no logos). With a single method there is nothing to
 * choose, and it is posted as a hidden field.
 */
function PaymentMethods({ methods, method, onMethod, error }: { methods: PaymentMethodChoice[]; method: PaymentMethod; onMethod: (m: PaymentMethod) => void; error?: string }) {
  if (methods.length <= 1) return <input type="hidden" name="paymentMethod" value={methods[0]?.method ?? "card"} />;
  return (
    <fieldset className="space-y-3" aria-describedby={error ? "payment-method-error" : undefined}>
      <legend className="font-display text-2xl text-ink">How would you like to pay?</legend>
      {error ? (
        <p id="payment-method-error" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <ul className="space-y-2">
        {methods.map((m) => {
          const checked = m.method === method;
          return (
            <li key={m.method}>
              <label className={`flex cursor-pointer gap-3 border px-4 py-3.5 transition-colors ${checked ? "border-ink bg-white" : "border-line bg-white/60 hover:border-gold"}`}>
                <input type="radio" name="paymentMethod" value={m.method} checked={checked} onChange={() => onMethod(m.method)} className="mt-1 h-4 w-4 shrink-0 accent-[var(--color-ink)]" />
                <span className="min-w-0">
                  <span className="block text-sm font-medium text-ink">{m.label}</span>
                  <span className="mt-0.5 block text-xs leading-relaxed text-muted">{m.hint}</span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
