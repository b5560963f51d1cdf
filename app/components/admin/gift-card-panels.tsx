import { buttonClass } from "~/components/ui/button";
import { controlClass, Field } from "~/components/ui/field";
import { listHref, type ListQuery } from "~/modules/admin/list-query";
import type { GiftCardPage } from "~/modules/gift-cards/gift-card-page.server";
import { GIFT_NAME_MAX, type GiftCardSaleSettings } from "~/modules/gift-cards/gift-card-sales.logic";
import { AdminStatus, useAdminFetcher, useAdminResult } from "./admin-status";
import { DataTable, type Column } from "./data-table";
import { FormDialog } from "./form-dialog";

/**
 * The forms of Admin → Gift cards (app/routes/admin.gift-cards.tsx: issue a card, the sales settings) and of one card
 * (app/routes/admin.gift-cards.$id.tsx: cancel it, and its e-mail).
 */

type EmailView = NonNullable<GiftCardPage["email"]>;
type Change = GiftCardPage["changes"][number];

export function CancelCard({ id, last4 }: { id: string; last4: string }) {
  const fetcher = useAdminFetcher();
  return (
    <fetcher.Form method="post" className="mt-10 max-w-xl border border-line bg-white p-5">
      <h2 className="font-display text-xl text-ink">Cancel this card</h2>
      <p className="mt-1 text-sm text-ink-soft">It can't be used again and its remaining balance is void. Orders it already paid keep their payment.</p>
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="id" value={id} />
      <label className="mt-4 block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
        Reason (optional)
        <input name="note" maxLength={300} className={`${controlClass} mt-1 normal-case tracking-normal`} />
      </label>
      <button type="submit" className={`${buttonClass("secondary", "md")} mt-4`}>
        Cancel card ···· {last4}
      </button>
    </fetcher.Form>
  );
}

/** The card's e-mail: where and when it goes (or went), what the owner may do about it, and the changes made so far. */
export function CardEmail({ id, state, email, changes }: { id: string; state: string; email: EmailView; changes: Change[] }) {
  const columns: Column<Change>[] = [
    { header: "When", cell: (c) => c.when, className: "whitespace-nowrap" },
    {
      header: "What",
      cell: (c) => (
        <span className="block">
          {c.what}
          {c.detail ? <span className="block break-all text-xs text-muted">{c.detail}</span> : null}
        </span>
      ),
    },
    { header: "Who", cell: (c) => <span className="break-all">{c.who}</span>, phone: "hide" },
  ];
  return (
    <section aria-labelledby="card-email-heading" className="mt-10 max-w-3xl border border-line bg-white p-5" data-testid="gift-card-email">
      <h2 id="card-email-heading" className="font-display text-xl text-ink">
        E-mail to the recipient
      </h2>
      {email.kind === "hand" ? (
        <p className="mt-1 text-sm text-ink-soft">Issued by hand: the shop keeps no copy of its code, so it can't be e-mailed or resent. Cancel it and issue a new one if the code is lost.</p>
      ) : (
        <>
          <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            <dt className="text-ink-soft">To</dt>
            <dd className="break-all text-ink" data-testid="gift-card-recipient">
              {email.recipientName ? `${email.recipientName} · ` : ""}
              {email.recipientEmail ?? "no address"}
            </dd>
            <dt className="text-ink-soft">{email.emailedText ? "E-mailed" : "Goes on"}</dt>
            <dd className="text-ink">{email.emailedText ? `${email.emailedText}${email.emailCount > 1 ? ` (${email.emailCount} times)` : ""}` : (email.sendOnText ?? "not dated")}</dd>
          </dl>
          {email.offer === "change" ? <ChangeRecipient id={id} email={email} /> : null}
          {email.offer === "resend" ? <Resend id={id} email={email} /> : null}
          {email.offer === "none" ? (
            <p className="mt-3 text-sm text-ink-soft">{state === "Active" ? "Its e-mail is being sent right now." : `This card is ${state.toLowerCase()}: its e-mail is not sent again.`}</p>
          ) : null}
        </>
      )}
      {changes.length ? (
        <div className="mt-5">
          <DataTable<Change> rows={changes} columns={columns} rowKey={(c) => c.id} caption="E-mail changes" empty={null} />
        </div>
      ) : null}
    </section>
  );
}

/** Field errors of this page's last answer (the shared admin fetcher's). */
function useFieldErrors(): Record<string, string> {
  const result = useAdminResult();
  return result && !result.ok ? result.fieldErrors : {};
}

function ChangeRecipient({ id, email }: { id: string; email: EmailView }) {
  const fetcher = useAdminFetcher();
  const errors = useFieldErrors();
  return (
    <fetcher.Form method="post" className="mt-5 space-y-4 border-t border-line pt-5">
      <h3 className="font-sans text-[0.68rem] font-semibold uppercase tracking-[0.16em] text-ink">Change the recipient or the day</h3>
      <input type="hidden" name="id" value={id} />
      {email.recipientName !== null ? (
        <Field label="Their name" error={errors.recipientName}>
          {(p) => <input {...p} name="recipientName" defaultValue={email.recipientName ?? ""} maxLength={GIFT_NAME_MAX} required autoComplete="off" />}
        </Field>
      ) : null}
      <Field label="Their e-mail" error={errors.recipientEmail}>
        {(p) => <input {...p} name="recipientEmail" type="email" defaultValue={email.recipientEmail ?? ""} maxLength={254} required autoComplete="off" />}
      </Field>
      <Field label="Send it on" error={errors.sendOn} hint="Today up to a year ahead (South African time).">
        {(p) => <input {...p} name="sendOn" type="date" defaultValue={email.sendOn ?? email.firstDay} min={email.firstDay} max={email.lastDay} />}
      </Field>
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value="recipient" className={buttonClass("primary", "md")}>
          Save changes
        </button>
        <button type="submit" name="intent" value="send-now" className={buttonClass("secondary", "md")}>
          Save and send now
        </button>
      </div>
    </fetcher.Form>
  );
}

function Resend({ id, email }: { id: string; email: EmailView }) {
  const fetcher = useAdminFetcher();
  const errors = useFieldErrors();
  return (
    <fetcher.Form method="post" className="mt-5 space-y-4 border-t border-line pt-5">
      <h3 className="font-sans text-[0.68rem] font-semibold uppercase tracking-[0.16em] text-ink">Resend the e-mail</h3>
      <p className="text-sm text-ink-soft">The same code and printable card. A corrected address becomes the one on record.</p>
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="sent" value={email.emailCount} />
      <Field label="To" error={errors.recipientEmail}>
        {(p) => <input {...p} name="recipientEmail" type="email" defaultValue={email.recipientEmail ?? ""} maxLength={254} required autoComplete="off" />}
      </Field>
      <button type="submit" className={buttonClass("primary", "md")}>
        Resend the e-mail
      </button>
    </fetcher.Form>
  );
}

/** A just-issued card's code stays on the page (the transient status would take it away after 3 s). */
export function IssuedOrStatus() {
  const result = useAdminResult();
  if (result?.ok && result.intent === "issue") {
    return (
      <div role="status" className="border border-success/40 bg-success/5 px-4 py-3 text-sm text-ink" data-testid="issued-gift-card">
        {result.message}
      </div>
    );
  }
  return <AdminStatus />;
}

export function IssueDialog({ path, query }: { path: string; query: ListQuery }) {
  const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
  return (
    <FormDialog
      title="Issue a gift card"
      trigger="Issue gift card"
      triggerClassName={`${buttonClass("primary", "md")} whitespace-nowrap`}
      openHref={listHref(path, query, { edit: "new" })}
      closeHref={listHref(path, query)}
      openOnLoad={query.edit === "new"}
      submitLabel="Issue gift card"
    >
      <input type="hidden" name="intent" value="issue" />
      <div className="grid gap-4 sm:grid-cols-2">
        <label className={label}>
          Amount (R)
          <input name="amount" inputMode="decimal" required placeholder="500.00" className={`${controlClass} mt-1`} />
        </label>
        <label className={label}>
          Recipient's e-mail (optional)
          <input name="recipientEmail" type="email" autoComplete="off" maxLength={254} className={`${controlClass} mt-1 normal-case tracking-normal`} />
          <span className="mt-1 block text-xs normal-case tracking-normal text-muted">They see the card and its balance in their profile.</span>
        </label>
      </div>
      <label className={label}>
        Note (optional)
        <input name="note" maxLength={300} placeholder="Sorry about the late parcel" className={`${controlClass} mt-1 normal-case tracking-normal`} />
      </label>
    </FormDialog>
  );
}

/** Selling gift cards at /gift-cards (docs/decisions/053): on or off, the amounts as pills, and any amount in a range. */
export function SalesDialog({ path, query, sales }: { path: string; query: ListQuery; sales: GiftCardSaleSettings }) {
  const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
  const rand = (c: number | null) => (c === null ? "" : String(c / 100));
  return (
    <FormDialog
      title="Sell gift cards"
      trigger={sales.enabled ? "Gift card sales: on" : "Gift card sales: off"}
      triggerClassName={`${buttonClass("secondary", "md")} whitespace-nowrap`}
      openHref={listHref(path, query, { edit: "sales" })}
      closeHref={listHref(path, query)}
      openOnLoad={query.edit === "sales"}
      submitLabel="Save"
    >
      <input type="hidden" name="intent" value="sales" />
      <label className="flex items-center gap-3 text-sm text-ink">
        <input type="checkbox" name="enabled" defaultChecked={sales.enabled} className="h-4 w-4 accent-[var(--color-ink)]" />
        Sell gift cards at /gift-cards (no VAT on the card: it is charged when the card is spent)
      </label>
      <label className={label}>
        Amounts (R, whole rand)
        <input name="amounts" defaultValue={sales.amountsCents.map((c) => c / 100).join(", ")} placeholder="250, 500, 1000" className={`${controlClass} mt-1`} />
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        <label className={label}>
          Any amount from (R)
          <input name="min" inputMode="numeric" defaultValue={rand(sales.minCents)} placeholder="100" className={`${controlClass} mt-1`} />
        </label>
        <label className={label}>
          To (R)
          <input name="max" inputMode="numeric" defaultValue={rand(sales.maxCents)} placeholder="5000" className={`${controlClass} mt-1`} />
        </label>
      </div>
      <p className="text-xs text-muted">Leave the range empty to sell only the amounts above.</p>
    </FormDialog>
  );
}
