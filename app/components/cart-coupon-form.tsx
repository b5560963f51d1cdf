import { useState } from "react";
import { COUPON_INPUT_MAX, COUPON_MESSAGES, normalizeCouponCode } from "~/modules/coupons/coupons.logic";
import type { AppliedCoupon, CouponValidation } from "~/modules/coupons/coupons.schema";
import { Button } from "~/components/ui/button";
import { useTransient } from "~/components/ui/use-transient";
import { formatRand } from "~/utils/money";

/** The validation endpoint's answer: the spec's shape plus the message to show. */
export type CouponValidateAnswer = CouponValidation & { message?: string };

/**
 * Coupon entry (SPEC §5, §8): trimmed and upper-cased as typed, at most 50 characters, 'Please enter a coupon
 * code' when empty, validated on the server against the quoted (server-side) cart total.
 */
export function CartCouponForm({
  applied,
  lines,
  subtotalCents,
  notice,
  onApplied,
  onRemove,
}: {
  applied: AppliedCoupon | null;
  lines: { productId: string; quantity: number }[];
  subtotalCents: number;
  /** a message from outside (a stale coupon was dropped) */
  notice?: string | null;
  onApplied: (coupon: AppliedCoupon, message: string) => void;
  onRemove: () => void;
}) {
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  async function apply(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = normalizeCouponCode(code);
    if (!value) {
      setMessage({ tone: "error", text: COUPON_MESSAGES.empty });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const response = await fetch("/api/coupons/validate", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ code: value, orderTotal: subtotalCents, lines }),
      });
      const result = (await response.json()) as CouponValidateAnswer;
      if (result.valid && result.discount_type) {
        const text = result.message ?? COUPON_MESSAGES.applied((result.discount_amount / 100).toFixed(2));
        onApplied({ code: result.code, discountType: result.discount_type, discountAmount: result.discount_amount, description: result.description }, text);
        setMessage({ tone: "success", text });
        setCode("");
      } else {
        setMessage({ tone: "error", text: result.error || COUPON_MESSAGES.invalid });
      }
    } catch {
      setMessage({ tone: "error", text: COUPON_MESSAGES.failed });
    } finally {
      setBusy(false);
    }
  }

  const successShown = useTransient(message?.tone === "success" ? message : null);
  const current = message?.tone === "success" && !successShown ? null : message;
  const shown = current ?? (notice ? { tone: "error" as const, text: notice } : null);

  return (
    <div className="border-t border-line pt-5">
      {applied ? (
        <div className="flex items-start justify-between gap-3 border border-gold/40 bg-ivory px-4 py-3">
          <div className="min-w-0">
            <p className="eyebrow text-[0.65rem]">Coupon applied</p>
            <p className="mt-0.5 font-medium tracking-[0.08em] text-ink">{applied.code}</p>
            {applied.description ? <p className="mt-0.5 text-xs text-muted">{applied.description}</p> : null}
            {applied.discountAmount > 0 ? <p className="mt-0.5 text-xs text-success">You save {formatRand(applied.discountAmount)}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => {
              setMessage(null);
              onRemove();
            }}
            aria-label={`Remove coupon ${applied.code}`}
            className="shrink-0 text-xs uppercase tracking-[0.14em] text-muted underline underline-offset-4 hover:text-danger"
          >
            Remove
          </button>
        </div>
      ) : (
        <form onSubmit={apply} noValidate className="space-y-2">
          <label htmlFor="coupon-code" className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
            Coupon code
          </label>
          <div className="flex">
            <input
              id="coupon-code"
              name="code"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value.toUpperCase())}
              maxLength={COUPON_INPUT_MAX}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="Enter code"
              aria-describedby={shown ? "coupon-message" : undefined}
              className="h-11 min-w-0 flex-1 rounded-none border border-r-0 border-line bg-white px-3 text-base uppercase tracking-[0.08em] text-ink placeholder:normal-case placeholder:tracking-normal placeholder:text-muted focus:border-gold focus:outline-none"
            />
            <Button type="submit" variant="secondary" disabled={busy} className="shrink-0">
              {busy ? "Checking…" : "Apply"}
            </Button>
          </div>
        </form>
      )}
      <div aria-live="polite">
        {shown ? (
          <p id="coupon-message" role={shown.tone === "error" ? "alert" : "status"} className={`mt-2 text-sm ${shown.tone === "error" ? "text-danger" : "text-success"}`}>
            {shown.text}
          </p>
        ) : null}
      </div>
    </div>
  );
}
