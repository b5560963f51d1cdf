import { useState, useSyncExternalStore } from "react";
import { buttonClass } from "~/components/ui/button";
import { addToCart } from "~/modules/cart/cart.browser";
import {
  checkGiftCardRequest,
  giftCardCartLine,
  GIFT_MESSAGE_MAX,
  GIFT_NAME_MAX,
  parseWholeRand,
  type GiftCardCheck,
  type GiftCardSaleSettings,
} from "~/modules/gift-cards/gift-card-sales.logic";
import { useRootData } from "~/modules/settings/root-data";
import { whatsappUrl } from "~/modules/settings/shop";
import { formatRand, formatWholeRand } from "~/utils/money";
import { AddedToCartNotice } from "~/components/added-to-cart-notice";

const noop = () => () => {};

/** What the form holds (the GET query's names): the page's loader reads the same fields without JavaScript. */
export interface GiftCardFormValues {
  amount: string;
  other: string;
  for: "me" | "someone";
  name: string;
  email: string;
  date: string;
  message: string;
  from: string;
}

/** The form's values as checkGiftCardRequest reads them: a pill's cents, or the "other amount" in whole rand. */
export function requestInput(v: GiftCardFormValues) {
  const amountCents = v.amount === "other" ? parseWholeRand(v.other) : Number.isSafeInteger(Number(v.amount)) && v.amount !== "" ? Number(v.amount) : null;
  return { amountCents, forSomeoneElse: v.for === "someone", recipientName: v.name, recipientEmail: v.email, senderName: v.from, message: v.message, sendOn: v.date };
}

/**
 * The gift card's order form (docs/decisions/053 "Selling gift cards"): the amount as pills (the size pills' look) and
 * "Other amount", for me or for someone else (name, e-mail, the day it is e-mailed, a message, from whom). A GET form
 * to /gift-cards: without JavaScript the page checks it and answers with the card ready (the cart lives in the browser
 * and needs the script); with it, "Add to cart" checks it here and adds the line. The server checks it all again and
 * prices it: the browser's price is for display only.
 */
export function GiftCardBuy({ settings, today, initial, checked }: { settings: GiftCardSaleSettings; today: string; initial: GiftCardFormValues; checked: GiftCardCheck | null }) {
  const hydrated = useSyncExternalStore(noop, () => true, () => false);
  const [v, setV] = useState<GiftCardFormValues>(initial);
  const [errors, setErrors] = useState<Extract<GiftCardCheck, { ok: false }>["errors"]>(checked && !checked.ok ? checked.errors : {});
  const [added, setAdded] = useState(0);
  const set = (patch: Partial<GiftCardFormValues>) => setV((old) => ({ ...old, ...patch }));
  const range = settings.minCents !== null && settings.maxCents !== null;
  const shownCents = requestInput(v).amountCents;

  const add = () => {
    const result = checkGiftCardRequest(requestInput(v), settings, new Date());
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    addToCart(giftCardCartLine(result.request));
    setAdded((n) => n + 1);
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-10 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)] lg:gap-16">
      <div className="lg:sticky lg:top-28 lg:self-start">
        <GiftCardFace amountCents={shownCents} recipientName={v.for === "someone" ? v.name.trim() : ""} />
        <ul className="mt-6 space-y-2 text-sm text-ink-soft">
          <li>Spend it on any fragrance, at once or over several orders.</li>
          <li>Valid for three years. No VAT on the card: VAT is charged on what it buys.</li>
          <li>E-mailed with a printable card, on the day you choose.</li>
        </ul>
      </div>

      <form
        method="get"
        action="/gift-cards"
        noValidate
        className="min-w-0 space-y-9"
        onSubmit={(e) => {
          if (!hydrated) return;
          e.preventDefault();
          add();
        }}
      >
        <fieldset aria-describedby={errors.amount ? "gift-amount-error" : undefined}>
          <legend className="filter-label">Amount</legend>
          <div className="mt-3 flex flex-wrap gap-2">
            {settings.amountsCents.map((cents) => (
              <label key={cents}>
                <input type="radio" name="amount" value={String(cents)} checked={v.amount === String(cents)} onChange={() => set({ amount: String(cents) })} className="sr-only" />
                <span className="size-pill">
                  <span className="text-sm font-medium tracking-wide tabular-nums">{formatWholeRand(cents)}</span>
                </span>
              </label>
            ))}
            {range ? (
              <label>
                <input type="radio" name="amount" value="other" checked={v.amount === "other"} onChange={() => set({ amount: "other" })} className="sr-only" />
                <span className="size-pill">
                  <span className="text-sm font-medium tracking-wide">Other amount</span>
                </span>
              </label>
            ) : null}
          </div>
          {range ? (
            <div className={`mt-4 max-w-56 ${v.amount === "other" || !hydrated ? "" : "hidden"}`}>
              <label htmlFor="gift-other" className="filter-label">
                Other amount (R)
              </label>
              <div className="mt-1 flex items-baseline gap-2 border-b border-ink/25 focus-within:border-gold">
                <span aria-hidden="true" className="text-ink-soft">
                  R
                </span>
                <input
                  id="gift-other"
                  name="other"
                  inputMode="numeric"
                  autoComplete="off"
                  value={v.other}
                  onChange={(e) => set({ other: e.currentTarget.value, amount: "other" })}
                  placeholder={String(settings.minCents! / 100)}
                  className="h-11 w-full min-w-0 border-0 bg-transparent text-base text-ink tabular-nums focus:outline-none"
                  aria-describedby="gift-other-hint"
                />
              </div>
              <p id="gift-other-hint" className="mt-1.5 text-xs text-muted">
                Whole rand, {formatWholeRand(settings.minCents!)} to {formatWholeRand(settings.maxCents!)}
              </p>
            </div>
          ) : null}
          {errors.amount ? (
            <p id="gift-amount-error" className="mt-2 text-sm text-danger">
              {errors.amount}
            </p>
          ) : null}
        </fieldset>

        <fieldset>
          <legend className="filter-label">Who is it for?</legend>
          <div className="mt-3 flex flex-wrap gap-2">
            {(
              [
                ["someone", "Someone else"],
                ["me", "Me"],
              ] as const
            ).map(([value, label]) => (
              <label key={value}>
                <input type="radio" name="for" value={value} checked={v.for === value} onChange={() => set({ for: value })} className="sr-only" />
                <span className="size-pill">
                  <span className="text-sm font-medium tracking-wide">{label}</span>
                </span>
              </label>
            ))}
          </div>
          <p className="mt-2 text-xs text-muted">{v.for === "me" ? "The card comes to your own e-mail address once paid." : "We e-mail it to them on the day you choose, with your message."}</p>
        </fieldset>

        <div className={`space-y-6 ${v.for === "someone" || !hydrated ? "" : "hidden"}`}>
          <div className="grid gap-6 sm:grid-cols-2">
            <TextField label="Their name" name="name" value={v.name} onChange={(name) => set({ name })} error={errors.recipientName} autoComplete="off" maxLength={GIFT_NAME_MAX} />
            <TextField label="Their e-mail" name="email" type="email" value={v.email} onChange={(email) => set({ email })} error={errors.recipientEmail} autoComplete="off" maxLength={254} />
          </div>
          <div className="max-w-64">
            <TextField label="Send it on" name="date" type="date" value={v.date} min={today} onChange={(date) => set({ date })} error={errors.sendOn} hint="Today, or a day up to a year ahead" />
          </div>
        </div>

        <div className="space-y-6">
          <div>
            <label htmlFor="gift-message" className="filter-label">
              Message <span className="normal-case tracking-normal text-muted">(optional)</span>
            </label>
            <textarea
              id="gift-message"
              name="message"
              rows={3}
              maxLength={GIFT_MESSAGE_MAX}
              value={v.message}
              onChange={(e) => set({ message: e.currentTarget.value })}
              aria-describedby="gift-message-count"
              aria-invalid={errors.message ? true : undefined}
              className="mt-1 block w-full resize-y rounded-none border border-ink/20 bg-white/70 px-3 py-2.5 text-base text-ink focus:border-gold focus:outline-none"
              placeholder="Happy birthday! Something to remember this year by."
            />
            <p id="gift-message-count" className="mt-1.5 text-right text-xs tabular-nums text-muted">
              {[...v.message].length} / {GIFT_MESSAGE_MAX}
            </p>
            {errors.message ? <p className="text-sm text-danger">{errors.message}</p> : null}
          </div>
          <div className="max-w-80">
            <TextField label="From" name="from" value={v.from} onChange={(from) => set({ from })} error={errors.senderName} autoComplete="name" maxLength={GIFT_NAME_MAX} hint="Your name, as they will see it" />
          </div>
        </div>

        <div className="border-t border-line pt-6">
          {hydrated ? (
            <button type="submit" className={buttonClass("primary", "lg", "h-12 w-full sm:w-auto sm:min-w-64")}>
              Add to cart{shownCents ? ` · ${formatRand(shownCents)}` : ""}
            </button>
          ) : (
            <button type="submit" className={buttonClass("primary", "lg", "h-12 w-full sm:w-auto sm:min-w-64")}>
              Check my gift card
            </button>
          )}
          <AddedToCartNotice addedKey={added} className="mt-3" testId="gift-added">
            Your gift card is in your cart.
          </AddedToCartNotice>
          {!hydrated && checked?.ok ? <ReadyCard cents={checked.request.amountCents} /> : null}
        </div>
      </form>
    </div>
  );
}

function TextField({
  label,
  name,
  value,
  onChange,
  error,
  hint,
  type = "text",
  ...rest
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  type?: string;
  autoComplete?: string;
  maxLength?: number;
  min?: string;
}) {
  const id = `gift-${name}`;
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="filter-label">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined}
        className="filter-control"
        {...rest}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The card itself, drawn in CSS: ink ground, a fine gold double frame, the wordmark, and the amount as it is chosen.
 * Its proportions are a bank card's (85.6 × 54 mm).
 */
export function GiftCardFace({ amountCents, recipientName }: { amountCents: number | null; recipientName: string }) {
  const { shop } = useRootData();
  return (
    <figure aria-label="The gift card" className="relative mx-auto aspect-[1.586] w-full max-w-md overflow-hidden rounded-2xl bg-ink text-ivory shadow-[0_30px_60px_-30px_rgba(28,23,20,0.55)]" data-testid="gift-card-face">
      <div aria-hidden="true" className="absolute inset-0 bg-[radial-gradient(120%_90%_at_100%_0%,rgba(176,138,74,0.35),transparent_55%),radial-gradient(90%_70%_at_0%_100%,rgba(176,138,74,0.18),transparent_60%)]" />
      <div aria-hidden="true" className="absolute inset-2.5 rounded-xl border border-gold/60 sm:inset-3" />
      <div aria-hidden="true" className="absolute inset-3.5 rounded-[0.6rem] border border-gold/25 sm:inset-4" />
      <div className="relative flex h-full flex-col justify-between p-6 sm:p-8">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="truncate font-display text-xl uppercase tracking-[0.22em] sm:text-2xl">{shop.name || "Scentara"}</p>
            <p className="mt-1 text-[0.55rem] uppercase tracking-[0.3em] text-gold sm:text-[0.6rem]">Parfums · South Africa</p>
          </div>
          <p className="shrink-0 text-[0.6rem] uppercase tracking-[0.3em] text-gold sm:text-[0.65rem]">Gift card</p>
        </div>
        <div className="min-w-0">
          <p className="font-display text-5xl leading-none tabular-nums sm:text-6xl" data-testid="gift-card-amount">
            {amountCents ? formatWholeRand(amountCents) : "R —"}
          </p>
          <p className="mt-3 truncate text-[0.65rem] uppercase tracking-[0.25em] text-ivory/75">{recipientName ? `For ${recipientName}` : "A fragrance of their choosing"}</p>
        </div>
      </div>
    </figure>
  );
}

/** Without JavaScript: the card checked, and how to order it (the cart lives in the browser and needs the script). */
function ReadyCard({ cents }: { cents: number }) {
  const { shop } = useRootData();
  return (
    <section aria-labelledby="gift-ready" className="mt-6 border border-gold/50 bg-white/80 p-5 sm:p-6" data-testid="gift-ready">
      <h2 id="gift-ready" className="font-display text-2xl text-ink">
        Your gift card is ready: {formatRand(cents)}
      </h2>
      <p className="mt-3 text-sm text-ink-soft">
        The cart needs JavaScript, which is off in this browser: turn it on and reload to add the card, or{" "}
        <a href={whatsappUrl(shop.whatsappNumber, `Hello ${shop.name}, I'd like a gift card of ${formatRand(cents)}.`)} className="font-medium text-ink underline decoration-gold underline-offset-4">
          order it on WhatsApp
        </a>
        .
      </p>
    </section>
  );
}
