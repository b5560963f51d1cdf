import { useId, useState } from "react";
import { useRootData } from "~/modules/settings/root-data";
import { STOCK_ALERT_PROMISE } from "~/modules/stock-alerts/stock-alerts.logic";
import { buttonClass } from "./ui/button";

/**
 * "Notify me" for a sold-out product or size (docs/decisions/057). The same HTML for everyone of a role (cached pages,
 * decisions 008 and 023): a signed-in shopper gets one button (their account's address), a visitor an e-mail field
 * (a confirmation link is e-mailed first: double opt-in). With JavaScript it posts to /api/stock-alerts and says the
 * answer here; without, the form posts to /stock-alerts, which shows the answer as a page.
 */
export function NotifyMe({ productId, sizeId = null, productName }: { productId: string; sizeId?: string | null; productName: string }) {
  const signedIn = useRootData().user !== null;
  const emailId = useId();
  const [state, setState] = useState<{ busy: boolean; ok?: boolean; message?: string }>({ busy: false });
  return (
    <section aria-labelledby={`${emailId}-heading`} className="mt-5 border border-line bg-sand/40 p-4 sm:p-5" data-testid="notify-me">
      <h2 id={`${emailId}-heading`} className="font-display text-xl text-ink">
        Notify me when it&rsquo;s back
      </h2>
      <form
        method="post"
        action="/stock-alerts"
        className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={async (event) => {
          event.preventDefault();
          setState({ busy: true });
          const body = new URLSearchParams(new FormData(event.currentTarget) as unknown as Record<string, string>);
          try {
            const response = await fetch("/api/stock-alerts", { method: "POST", body, headers: { Accept: "application/json" } });
            const answer = (await response.json()) as { ok?: boolean; message?: string; error?: string };
            setState({ busy: false, ok: response.ok, message: answer.message ?? answer.error ?? "Please try again." });
          } catch {
            setState({ busy: false, ok: false, message: "We couldn't reach the shop. Please try again." });
          }
        }}
      >
        <input type="hidden" name="productId" value={productId} />
        {sizeId ? <input type="hidden" name="sizeId" value={sizeId} /> : null}
        {signedIn ? null : (
          <div className="min-w-0 flex-1">
            <label htmlFor={emailId} className="filter-label">
              Your e-mail
            </label>
            <input
              id={emailId}
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              className="mt-2 block h-12 w-full min-w-0 rounded-none border border-ink/30 bg-white px-4 text-base text-ink focus:border-gold focus:outline-none"
            />
          </div>
        )}
        <button type="submit" disabled={state.busy} className={buttonClass("primary", "lg", "h-12 shrink-0")}>
          {state.busy ? "Sending…" : "Notify me"}
        </button>
      </form>
      <p className="mt-2 text-xs leading-relaxed text-ink-soft">
        {signedIn ? `We'll write to your account's address about ${productName}. ` : null}
        {STOCK_ALERT_PROMISE}
      </p>
      <div role="status" aria-live="polite" className="text-sm">
        {state.message ? <p className={`mt-2 ${state.ok ? "text-success" : "text-danger"}`}>{state.message}</p> : null}
      </div>
    </section>
  );
}
