import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { giftCardLabel } from "~/modules/gift-cards/gift-card-code.logic";
import { GIFT_CARD_MESSAGES, MAX_GIFT_CARDS_PER_ORDER, remainderTooSmall, splitGiftCardPayment, type GiftCardCheck, type GiftCardSplit } from "~/modules/gift-cards/gift-card-payments.logic";
import { controlClass } from "~/components/ui/field";
import { formatRand } from "~/utils/money";

/**
 * Gift cards at checkout (docs/decisions/053): the shopper applies one or more codes; each shows what it pays of this
 * order and its balance; the rest is paid by card or EFT. Only the codes are posted (one hidden field): the server
 * looks the cards up again and takes what they pay inside the order's transaction.
 */
export interface AppliedGiftCard {
  code: string;
  last4: string;
  balanceCents: number;
}

export interface GiftCardsState {
  cards: AppliedGiftCard[];
  setCards: (update: (cards: AppliedGiftCard[]) => AppliedGiftCard[]) => void;
  /** how the cards split the total (null until the total is known) */
  split: GiftCardSplit | null;
}

export function useGiftCards(totalCents: number | null): GiftCardsState {
  const [cards, setCards] = useState<AppliedGiftCard[]>([]);
  const split = totalCents === null ? null : splitGiftCardPayment(totalCents, cards.map((c) => ({ key: c.code, balanceCents: c.balanceCents })));
  return { cards, setCards, split };
}

export function GiftCardField({ state, error }: { state: GiftCardsState; error?: string }) {
  const fetcher = useFetcher<GiftCardCheck>();
  const [typed, setTyped] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  // the server's refusal, once answered by a new Apply, is no longer shown
  const [answered, setAnswered] = useState<string | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  const { cards, setCards, split } = state;

  // The server refused the cards at placement (a balance changed, a card expired): start again from the codes.
  useEffect(() => {
    if (error) setCards(() => []);
  }, [error, setCards]);

  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== "idle") return;
    if (!answer.ok) {
      setMessage(answer.error);
      return;
    }
    setMessage(null);
    setAnswered(error);
    setTyped("");
    setCards((now) => (now.some((c) => c.code === answer.code) ? now : [...now, { code: answer.code, last4: answer.last4, balanceCents: answer.balanceCents }]));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data, fetcher.state, setCards]);

  const apply = () => {
    if (!typed.trim()) return;
    if (cards.length >= MAX_GIFT_CARDS_PER_ORDER) return setMessage(GIFT_CARD_MESSAGES.tooMany);
    fetcher.submit({ code: typed }, { method: "post", action: "/api/gift-cards/check" });
  };
  const shownError = message ?? (error && error !== answered ? error : null);
  const paid = new Map(split?.applied.map((a) => [a.key, a.amountCents]) ?? []);

  return (
    <section aria-labelledby="gift-card-heading" className="mt-6 border-t border-line pt-5" data-testid="gift-card-field">
      <h3 id="gift-card-heading" className="text-xs font-medium uppercase tracking-[0.18em] text-ink">
        Gift card
      </h3>
      {cards.length > 0 ? (
        <ul className="mt-3 space-y-2 text-sm">
          {cards.map((c) => (
            <li key={c.code} className="flex items-start justify-between gap-3" data-testid="applied-gift-card">
              <span className="min-w-0 text-ink-soft">
                <span className="text-ink">{giftCardLabel(c.last4)}</span>
                <span className="block text-xs text-muted">
                  {formatRand(paid.get(c.code) ?? 0)} of {formatRand(c.balanceCents)} applied
                </span>
              </span>
              <span className="flex shrink-0 flex-col items-end">
                <span className="tabular-nums text-ink">−{formatRand(paid.get(c.code) ?? 0)}</span>
                <button type="button" onClick={() => setCards((now) => now.filter((x) => x.code !== c.code))} className="min-h-8 text-xs text-ink underline decoration-gold underline-offset-4 hover:text-gold">
                  Remove<span className="sr-only"> {giftCardLabel(c.last4)}</span>
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {split && split.giftCardCents > 0 ? (
        <p className="mt-3 flex items-baseline justify-between gap-4 border-t border-line pt-3" data-testid="left-to-pay">
          <span className="text-xs font-medium uppercase tracking-[0.18em] text-ink">Left to pay</span>
          <span className="font-display text-xl tabular-nums text-ink">{formatRand(split.remainderCents)}</span>
        </p>
      ) : null}
      {split && remainderTooSmall(split.remainderCents) ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {GIFT_CARD_MESSAGES.remainderTooSmall(split.remainderCents)}
        </p>
      ) : null}
      <div className="mt-3 flex gap-2">
        <label htmlFor="gift-card-code" className="sr-only">
          Gift card code
        </label>
        <input
          ref={input}
          id="gift-card-code"
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          // Enter applies the code: it must not place the order.
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              apply();
            }
          }}
          placeholder="XXXX-XXXX-XXXX-XXXX"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? "gift-card-error" : undefined}
          className={`${controlClass} min-w-0 flex-1 font-mono text-sm uppercase`}
        />
        <button type="button" onClick={apply} disabled={fetcher.state !== "idle"} className="min-h-11 shrink-0 border border-ink px-4 text-xs font-medium uppercase tracking-[0.14em] text-ink hover:bg-ink hover:text-white disabled:opacity-60">
          {fetcher.state !== "idle" ? "Checking…" : "Apply"}
        </button>
      </div>
      {shownError ? (
        <p id="gift-card-error" role="alert" className="mt-2 text-sm text-danger">
          {shownError}
        </p>
      ) : null}
      <input type="hidden" name="giftCardCodes" value={cards.map((c) => c.code).join(",")} />
    </section>
  );
}
