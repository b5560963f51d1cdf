import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { CartTotals } from "~/components/cart-summary";
import { Button } from "~/components/ui/button";
import { Field, Notice } from "~/components/ui/field";
import type { CartLine } from "~/modules/cart/cart.browser";
import { linesInput, type CartQuote } from "~/modules/orders/cart-quote";
import { lineName } from "~/modules/catalog/sizes.logic";
import type { ShippingAddress } from "~/db/schema";
import { addressLine } from "~/modules/orders/last-address.logic";
import { SA_PROVINCES } from "~/modules/orders/orders.logic";
import type { PaymentMethodChoice } from "~/modules/payments/payment-methods";
import type { PaymentMethod } from "~/modules/payments/provider";
import { formatRand } from "~/utils/money";
import type { DeliveryKind } from "~/modules/couriers/courier";
import { DeliveryChoice, type DeliverySelection } from "~/components/delivery-choice";
import { WhatsappOptIn } from "~/components/whatsapp-opt-in";
import { GiftCardField, useGiftCards } from "~/components/gift-card-field";
import { isGiftCardLine } from "~/modules/gift-cards/gift-card-sales.logic";
import { RewardPointsField } from "~/components/reward-points-field";

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
  lastAddress,
  deliveryKinds = [],
  whatsapp = false,
  rewardPoints = 0,
  onRewardPoints = () => undefined,
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
  /** where the customer's last order went (from the server), offered first; null for a first order */
  lastAddress: ShippingAddress | null;
  /** the courier kinds the shop offers (none: the zone table, as before couriers) */
  deliveryKinds?: DeliveryKind[];
  /** offer WhatsApp order updates (docs/decisions/055) */
  whatsapp?: boolean;
  /** reward points chosen (docs/decisions/062), and how the field changes them */
  rewardPoints?: number;
  onRewardPoints?: (points: number) => void;
}) {
  const [selection, setSelection] = useState<DeliverySelection | null>(null);
  // Gift cards alone: nothing to deliver, so no delivery to choose (docs/decisions/053); the address is the billing one.
  const giftOnly = lines.length > 0 && lines.every(isGiftCardLine);
  // A gift card is never paid for with another: the code field gives way to a word on why.
  const buysGiftCard = lines.some(isGiftCardLine);
  const couriers = deliveryKinds.length > 0 && !giftOnly;
  // With a courier option chosen, the summary shows the server's totals for it (the zone quote's delivery doesn't apply).
  const shown: CartQuote | null = quote && couriers ? (selection ? { ...quote, ...selection.totals } : null) : quote;
  const [method, setMethod] = useState<PaymentMethod>(methods[0]?.method ?? "card");
  // Gift cards pay first; what they leave is what the card or EFT pays (docs/decisions/053).
  const giftCards = useGiftCards(shown?.totalCents ?? null);
  const due = giftCards.split?.remainderCents ?? shown?.totalCents ?? null;
  const posted = JSON.stringify(linesInput(lines));
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
        <ShippingAddressFields lastAddress={lastAddress} fieldErrors={fieldErrors} province={province} onProvince={onProvince} legend={giftOnly ? "Billing address" : "Shipping address"} />

        {giftOnly ? (
          <p className="border-l-2 border-gold bg-sand/60 px-4 py-3 text-sm text-ink-soft" data-testid="gift-only-delivery">
            Nothing to deliver: gift cards are e-mailed, so there is no delivery charge.
          </p>
        ) : couriers ? (
          <DeliveryChoice kinds={deliveryKinds} lines={lines} couponCode={couponCode} zoneId={zoneId} onSelect={setSelection} error={fieldErrors.delivery} rewardPoints={rewardPoints} />
        ) : zones.length > 0 ? (
          <DeliveryZones zones={zones} zoneId={zoneId} onZone={onZone} province={province} quote={quote} />
        ) : null}
        <PaymentMethods methods={methods} method={method} onMethod={setMethod} error={fieldErrors.paymentMethod} />
        {whatsapp ? <WhatsappOptIn /> : null}
      </div>

      <aside aria-label="Order summary" className="h-fit border border-line bg-sand/60 p-6 sm:p-8 lg:sticky lg:top-28">
        <div className="flex items-baseline justify-between gap-4">
          <h2 className="font-display text-2xl text-ink">Your order</h2>
          {/* ECTA s43(2): the shopper can correct the order (or withdraw) before paying. */}
          <Link to="/cart" className="text-sm font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            Change cart
          </Link>
        </div>
        <ul className="mt-5 space-y-3 border-b border-line pb-5 text-sm">
          {(quote?.lines ?? []).map((l) => (
            <li key={l.key} className="flex justify-between gap-4">
              <span className="min-w-0 text-ink-soft">
                <span className="text-ink">{lineName(l.name, l.sizeLabel)}</span> × {l.quantity}
                <span className="block text-xs text-muted">{formatRand(l.unitPriceCents)} each</span>
              </span>
              <span className="shrink-0 text-ink">{formatRand(l.lineTotalCents)}</span>
            </li>
          ))}
        </ul>
        <div className="mt-5" aria-busy={loading}>
          {shown ? <CartTotals quote={shown} shippingLabel="Delivery" /> : <p className="text-sm text-muted">{couriers && quote ? "Choose your delivery to see your total." : "Calculating your total…"}</p>}
        </div>
        {quote?.points ? <RewardPointsField points={quote.points} chosen={rewardPoints} onChoose={onRewardPoints} error={fieldErrors.rewardPoints} /> : null}
        <input type="hidden" name="rewardPoints" value={quote?.points ? rewardPoints || "" : ""} />
        {buysGiftCard ? (
          <p className="mt-5 text-xs leading-relaxed text-muted">A gift card can't be paid for with another gift card.</p>
        ) : (
          <GiftCardField state={giftCards} error={fieldErrors.giftCardCodes} />
        )}
        <input type="hidden" name="lines" value={posted} />
        <input type="hidden" name="couponCode" value={couponCode} />
        <Button type="submit" size="lg" className="mt-6 w-full" disabled={submitting || !shown} aria-disabled={submitting || !shown}>
          {submitting ? "Processing…" : due === 0 ? "Pay with gift card" : method === "eft" ? `Place order${due !== null ? ` · ${formatRand(due)}` : ""}` : due !== null ? `Pay ${formatRand(due)}` : "Pay now"}
        </Button>
        <p className="mt-3 text-center text-xs leading-relaxed text-muted">
          {due === 0 ? "Your gift card pays it all: no card payment needed." : method === "eft" ? "Next you see our bank details and your payment reference." : "You will be taken to a secure payment page."} Prices include VAT.
        </p>
        <p className="mt-3 text-center text-xs leading-relaxed text-muted">
          Nothing is charged until you pay: you can still{" "}
          <Link to="/cart" className="text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            change your cart
          </Link>{" "}
          or leave. See our{" "}
          <Link to="/seller" className="text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            seller information
          </Link>
          , the{" "}
          <Link to="/terms" className="text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            terms
          </Link>{" "}
          (including your right to cancel) and our{" "}
          <Link to="/privacy" className="text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            privacy notice
          </Link>
          .
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

const ADDRESS_FIELDS = ["name", "telephone", "street", "suburb", "city", "postalCode", "province"] as const;

/**
 * The shipping address. A customer who ordered before sees where that order went, ready to use as it is (no typing on
 * a phone), with "Change" (the fields, filled in with it) and "New address" (the fields, empty). The server refusing
 * an address field opens the fields, so the error is next to what needs fixing.
 */
function ShippingAddressFields({
  lastAddress,
  fieldErrors,
  province,
  onProvince,
  legend = "Shipping address",
}: {
  lastAddress: ShippingAddress | null;
  fieldErrors: Record<string, string>;
  province: string;
  onProvince: (province: string) => void;
  legend?: string;
}) {
  const [mode, setMode] = useState<"last" | "change" | "new">(lastAddress ? "last" : "new");
  const addressRefused = ADDRESS_FIELDS.some((f) => fieldErrors[f]);
  useEffect(() => {
    if (addressRefused) setMode((m) => (m === "last" ? "change" : m));
  }, [addressRefused]);
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const choose = (next: "last" | "change" | "new") => {
    setMode(next);
    onProvince(next === "new" ? "" : (lastAddress?.province ?? ""));
    // Move focus to what replaced the pressed button (the first field, or the card's first button).
    requestAnimationFrame(() => fieldset.current?.querySelector<HTMLElement>(next === "last" ? "button" : "input")?.focus());
  };

  if (lastAddress && mode === "last") {
    return (
      <fieldset ref={fieldset} className="space-y-4">
        <legend className="font-display text-2xl text-ink">{legend}</legend>
        <div className="border border-ink/80 bg-white p-5 sm:p-6">
          <p className="text-[0.68rem] font-medium uppercase tracking-[0.18em] text-gold">Deliver to your last address</p>
          <address className="mt-2 not-italic text-sm leading-relaxed text-ink-soft" aria-label="Your last address">
            <span className="block font-medium text-ink">{lastAddress.name}</span>
            <span className="block break-words">{addressLine(lastAddress)}</span>
            <span className="block">{lastAddress.telephone}</span>
          </address>
          <div className="mt-5 flex flex-wrap items-center gap-x-6 gap-y-3">
            <Button variant="secondary" size="md" className="min-w-32" onClick={() => choose("change")} aria-label="Change this address">
              Change
            </Button>
            <button type="button" onClick={() => choose("new")} className="min-h-11 text-sm font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
              Use a new address
            </button>
          </div>
        </div>
        {ADDRESS_FIELDS.map((f) => (
          <input key={f} type="hidden" name={f} value={lastAddress[f]} />
        ))}
      </fieldset>
    );
  }

  const start = mode === "change" && lastAddress ? lastAddress : null;
  return (
    <fieldset ref={fieldset} className="space-y-5" key={mode}>
      <legend className="font-display text-2xl text-ink">{legend}</legend>
      {lastAddress ? (
        <p className="text-sm text-ink-soft">
          {mode === "change" ? "Your last address, ready to change. " : "A new address for this order. "}
          <button type="button" onClick={() => choose("last")} className="font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            Use my last address as it was
          </button>
        </p>
      ) : null}
      <Field label="Full name" error={fieldErrors.name}>
        {(p) => <input {...p} name="name" autoComplete="name" required maxLength={100} defaultValue={start?.name} />}
      </Field>
      <Field label="Telephone" error={fieldErrors.telephone} hint="South African number, e.g. 082 123 4567">
        {(p) => <input {...p} name="telephone" type="tel" inputMode="tel" autoComplete="tel" required maxLength={20} defaultValue={start?.telephone} />}
      </Field>
      <Field label="Street address" error={fieldErrors.street}>
        {(p) => <input {...p} name="street" autoComplete="address-line1" required maxLength={200} defaultValue={start?.street} />}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Suburb" error={fieldErrors.suburb}>
          {(p) => <input {...p} name="suburb" autoComplete="address-line2" required maxLength={120} defaultValue={start?.suburb} />}
        </Field>
        <Field label="City" error={fieldErrors.city}>
          {(p) => <input {...p} name="city" autoComplete="address-level2" required maxLength={120} defaultValue={start?.city} />}
        </Field>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Postal code" error={fieldErrors.postalCode}>
          {(p) => <input {...p} name="postalCode" inputMode="numeric" pattern="[0-9]{4}" maxLength={4} autoComplete="postal-code" required defaultValue={start?.postalCode} />}
        </Field>
        <Field label="Province" error={fieldErrors.province}>
          {(p) => (
            <select {...p} name="province" required value={province} onChange={(e) => onProvince(e.currentTarget.value)}>
              <option value="" disabled>
                Choose a province
              </option>
              {SA_PROVINCES.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
    </fieldset>
  );
}
