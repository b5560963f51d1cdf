import { Form } from "react-router";
import { Button, ButtonLink } from "~/components/ui/button";
import { controlClass, Notice } from "~/components/ui/field";
import { KIND_LABELS, leftToReturn, NOTE_MAX, RETURN_REASONS, RETURN_STATUS_LABELS } from "~/modules/returns/returns.logic";
import type { returnPageFor } from "~/modules/returns/returns.server";
import { formatRand } from "~/utils/money";

/** The shopper's return page's pieces (app/routes/orders.return.tsx): their rights, the request form, their returns. */

type ReturnPage = NonNullable<Awaited<ReturnType<typeof returnPageFor>>>;
/** A return as the shopper reads it: its day, status and reason in words. */
type ShownReturn = ReturnPage["returns"][number] & { requestedOn: string; statusText: string; reasonText: string };

/** What is left to return, why, whether opened, where the refund goes, and a note (the form posts to the page). */
export function ReturnRequestForm({
  lines,
  windows,
  excludeOpened,
  failed,
  busy,
}: {
  lines: ReturnPage["lines"];
  windows: ReturnPage["windows"];
  excludeOpened: boolean;
  failed: { error: string; fieldErrors: Record<string, string | undefined> } | null;
  busy: boolean;
}) {
  return (
    <Form method="post" className="mt-10 space-y-8" noValidate>
      {failed ? <Notice tone="error">{failed.error}</Notice> : null}
      <fieldset>
        <legend className="text-xl text-ink">What would you like to return?</legend>
        <ul className="mt-4 divide-y divide-line border-y border-line">
          {lines.map((l) => {
            const left = leftToReturn(l);
            return (
              <li key={l.id} className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 py-4">
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-ink">{l.name}</p>
                  <p className="text-xs text-muted">
                    {l.quantity} × {formatRand(l.unitPriceCents)}
                    {l.returned ? ` · ${l.returned} already returned` : ""}
                  </p>
                </div>
                {left > 0 ? (
                  <label className="flex items-center gap-3 text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
                    Return
                    <select name={`qty.${l.id}`} defaultValue={lines.length === 1 ? String(left) : "0"} className={`${controlClass} w-20`} aria-label={`How many of ${l.name} to return`}>
                      {Array.from({ length: left + 1 }, (_, n) => (
                        <option key={n} value={n}>
                          {n}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : (
                  <span className="text-xs text-muted">Nothing left to return</span>
                )}
              </li>
            );
          })}
        </ul>
      </fieldset>

      <fieldset>
        <legend className="text-xl text-ink">Why are you returning them?</legend>
        <div className="mt-4 grid gap-2 sm:grid-cols-2">
          {RETURN_REASONS.map((r) => (
            <label key={r.id} className="flex cursor-pointer items-start gap-3 border border-line bg-white px-4 py-3 text-sm text-ink has-[:checked]:border-gold has-[:checked]:bg-sand/60">
              <input type="radio" name="reason" value={r.id} required className="mt-1 accent-[var(--color-ink)]" />
              <span>
                {r.label}
                <span className="block text-xs text-muted">{r.kind === "cooling_off" ? `Until ${windows.coolingOffUntil ?? "–"}` : `Until ${windows.faultyUntil ?? "–"}`}</span>
              </span>
            </label>
          ))}
        </div>
        {failed?.fieldErrors.reason ? <p className="mt-2 text-sm text-danger">{failed.fieldErrors.reason}</p> : null}
      </fieldset>

      <label className="flex items-start gap-3 text-sm text-ink">
        <input type="checkbox" name="opened" className="mt-1 h-4 w-4 accent-[var(--color-ink)]" />
        <span>
          I have opened one or more of these bottles
          {excludeOpened ? <span className="block text-xs text-muted">Opened bottles can be returned only if they are faulty.</span> : null}
        </span>
      </label>

      <fieldset className="space-y-2">
        <legend className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">Your refund</legend>
        {/* ECTA s44: the refund goes back to how you paid unless you choose otherwise; the gift card is never preselected. */}
        <label className="flex items-start gap-3 text-sm text-ink">
          <input type="radio" name="refundTo" value="original" defaultChecked className="mt-1 h-4 w-4 accent-[var(--color-ink)]" />
          <span>Back to how I paid</span>
        </label>
        <label className="flex items-start gap-3 text-sm text-ink">
          <input type="radio" name="refundTo" value="gift_card" className="mt-1 h-4 w-4 accent-[var(--color-ink)]" />
          <span>
            As a new gift card
            <span className="block text-xs text-muted">E-mailed to you once we refund, to spend on anything in the shop within three years.</span>
          </span>
        </label>
      </fieldset>

      <div className="space-y-1.5">
        <label htmlFor="return-note" className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
          Anything we should know? <span className="normal-case tracking-normal text-muted">(optional)</span>
        </label>
        <textarea id="return-note" name="note" rows={3} maxLength={NOTE_MAX} className={controlClass} />
      </div>

      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" disabled={busy}>
          {busy ? "Sending…" : "Request return"}
        </Button>
        <ButtonLink to="/profile/orders" variant="ghost">
          Back to my orders
        </ButtonLink>
      </div>
    </Form>
  );
}

export function Rights({ policy, windows }: { policy: ReturnPage["policy"]; windows: ReturnPage["windows"] }) {
  return (
    <section aria-labelledby="rights-heading" className="mt-8 border border-line bg-white/70 p-5 text-sm leading-relaxed text-ink-soft sm:p-6">
      <h2 id="rights-heading" className="eyebrow font-sans text-ink">
        Your rights
      </h2>
      <ul className="mt-3 space-y-2">
        <li>
          You may cancel without reason within {policy.windowDays} days after delivery
          {windows.coolingOffUntil ? <>: for this order, until <strong className="font-medium text-ink">{windows.coolingOffUntil}</strong></> : null} (ECTA s44). The only charge
          is the direct cost of sending the goods back.
        </li>
        <li>
          Faulty goods can be returned within six months of delivery
          {windows.faultyUntil ? <>, until <strong className="font-medium text-ink">{windows.faultyUntil}</strong></> : null} (CPA s56), at our cost.
        </li>
        <li>Your refund is paid within 30 days of your request (ECTA s44(3)).</li>
        {policy.exclusionReason ? <li>{policy.exclusionReason}</li> : null}
      </ul>
    </section>
  );
}

export function History({ returns }: { returns: ShownReturn[] }) {
  return (
    <section aria-labelledby="history-heading" className="mt-14">
      <h2 id="history-heading" className="text-2xl text-ink">
        Your returns for this order
      </h2>
      <ul className="mt-5 space-y-4">
        {returns.map((r) => (
          <li key={r.id} className="border border-line bg-white p-5">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="text-sm text-ink-soft">
                Requested {r.requestedOn} · {KIND_LABELS[r.kind]}
              </p>
              <span className={`inline-block border px-2 py-0.5 text-[0.7rem] uppercase tracking-[0.14em] ${r.status === "declined" ? "border-line text-muted" : "border-gold/40 text-gold"}`}>
                {RETURN_STATUS_LABELS[r.status]}
              </span>
            </div>
            <ul className="mt-3 text-sm text-ink">
              {r.lines.map((l) => (
                <li key={l.id}>
                  {l.quantity} × {l.name}
                </li>
              ))}
            </ul>
            <p className="mt-3 text-sm text-ink-soft">{r.statusText}</p>
            <p className="mt-1 text-xs text-muted">Reason: {r.reasonText}</p>
            {r.ownerMessage ? <p className="mt-3 border-l-2 border-gold/50 pl-3 text-sm italic text-ink-soft">{r.ownerMessage}</p> : null}
            {r.refundCents !== null ? (
              <p className="mt-3 text-sm text-ink">
                Refunded <span className="font-medium">{formatRand(r.refundCents)}</span>
                {r.creditNote ? (
                  <>
                    {" · "}
                    <a href={r.creditNote.href} download className="text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink hover:decoration-ink">
                      Credit note {r.creditNote.number}
                      <span className="sr-only"> as a PDF</span>
                      <span aria-hidden="true" className="text-ink-soft"> (PDF)</span>
                    </a>
                  </>
                ) : null}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

