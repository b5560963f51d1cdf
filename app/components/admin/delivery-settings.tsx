import { useEffect, useId, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, Notice } from "~/components/ui/field";
import { isAdminResult, type AdminResult } from "~/modules/admin/admin-result";
import type { DeliveryKind } from "~/modules/couriers/courier";
import { BOX_LIMIT_KG, PRICING_MODES, type PricingMode } from "~/modules/couriers/delivery.logic";
import { FALLBACK_SHIPPING_CENTS } from "~/modules/shipping/shipping.logic";
import {
  BOX_SIDE_MAX_CM,
  DELIVERY_KIND_ORDER,
  DELIVERY_KIND_TITLES,
  DELIVERY_SETTINGS_FIELDS,
  FLAT_MAX_CENTS,
  formatGrams,
  formatSignedRand,
  MARGIN_LIMIT_CENTS,
  WEIGHT_MAX_GRAMS,
  PACKAGING_MAX_GRAMS,
} from "~/modules/couriers/delivery-settings.schema";
import { SA_PROVINCES } from "~/modules/orders/orders.logic";
import { useTransientMessage } from "./admin-status";
import { MoneyInput } from "./money-input";

/** What the shipping page's loader tells about one delivery kind right now (read-only: it comes from configuration). */
export interface DeliveryKindView {
  kind: DeliveryKind;
  /** the real service's name, or null when the shop's test courier stands in (no credentials set) */
  courier: string | null;
  /** whether checkout offers it (DELIVERY_KINDS) */
  offered: boolean;
}

const INTENT = "saveDelivery";
const OWN_FIELDS = new Set<string>(DELIVERY_SETTINGS_FIELDS);

/**
 * "Couriers and parcels" on the shipping page: the owner's delivery settings in one form (docs/decisions/031) — the
 * dispatch address and contact the couriers collect from, the box and weights that make the parcel they price, and
 * per kind the courier's price plus a margin or a flat price — with which courier serves each kind right now.
 *
 * Its own fetcher, not the page's shared one: the answer (and each field's message) shows beside this long form,
 * where the owner is, and the zone dialogs don't take it for theirs. Without JavaScript it is a plain post: the page's
 * status line says the outcome and the fields are marked from the action data.
 */
export function DeliverySettingsSection({ values, kinds, action }: { values: Record<string, string>; kinds: DeliveryKindView[]; action: string }) {
  const fetcher = useFetcher<AdminResult>();
  const actionData = useActionData();
  const form = useRef<HTMLFormElement>(null);
  const fromFetcher = fetcher.state === "idle" ? fetcher.data : undefined;
  // A no-JavaScript post answers as action data; the zone forms' answers are told apart by their fields.
  const posted = isAdminResult(actionData) && (actionData.ok ? actionData.intent === INTENT : Object.keys(actionData.fieldErrors).some((f) => OWN_FIELDS.has(f))) ? actionData : undefined;
  const result = fromFetcher ?? posted;
  const shown = useTransientMessage(fromFetcher);
  const errors = result && !result.ok ? result.fieldErrors : {};
  const busy = fetcher.state !== "idle";
  const invalidCount = Object.keys(errors).filter((f) => OWN_FIELDS.has(f)).length;

  // Refused: take the owner to the first field to fix (the long form may hide it above the button).
  useEffect(() => {
    if (fromFetcher && !fromFetcher.ok) form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [fromFetcher]);

  const v = (name: string) => values[name] ?? "";
  return (
    <section aria-labelledby="couriers-heading" className="min-w-0 space-y-5 border-t border-line pt-8">
      <div className="max-w-3xl">
        <h2 id="couriers-heading" className="font-display text-3xl text-ink">
          Couriers and parcels
        </h2>
        <p className="mt-2 text-sm text-ink-soft">
          Where the couriers collect, what a parcel measures and weighs, and what shoppers pay for each way of delivery. Door delivery is priced by the zones above unless you choose the
          courier's live price (when the courier doesn't answer in time, the zone rates apply) or a flat price; the courier collects and tracks every parcel either way.
        </p>
      </div>

      <fetcher.Form ref={form} method="post" action={action} noValidate aria-labelledby="couriers-heading" className="space-y-5">
        <input type="hidden" name="intent" value={INTENT} />
        {/* The fields are keyed on the saved values: after a save they show what was stored (a mobile number as +27…).
            The answer and the button stay outside, so the button keeps focus and the live region is announced. */}
        <div key={JSON.stringify(values)} className="space-y-5">
          <div className="grid gap-5 lg:grid-cols-2">
            <Card title="Collection address" id="collection" note="Where the courier collects parcels: your dispatch address.">
              <div className="grid gap-4 sm:grid-cols-2">
                <div className="sm:col-span-2">
                  <Field label="Company" error={errors.collectionCompany}>
                    {(p) => <input {...p} name="collectionCompany" defaultValue={v("collectionCompany")} maxLength={100} autoComplete="organization" />}
                  </Field>
                </div>
                <div className="sm:col-span-2">
                  <Field label="Street address" error={errors.collectionStreet}>
                    {(p) => <input {...p} name="collectionStreet" defaultValue={v("collectionStreet")} maxLength={200} autoComplete="address-line1" />}
                  </Field>
                </div>
                <Field label="Suburb" error={errors.collectionSuburb}>
                  {(p) => <input {...p} name="collectionSuburb" defaultValue={v("collectionSuburb")} maxLength={120} autoComplete="address-level3" />}
                </Field>
                <Field label="City" error={errors.collectionCity}>
                  {(p) => <input {...p} name="collectionCity" defaultValue={v("collectionCity")} maxLength={120} autoComplete="address-level2" />}
                </Field>
                <Field label="Province" error={errors.collectionProvince}>
                  {(p) => (
                    <select {...p} name="collectionProvince" defaultValue={v("collectionProvince")}>
                      {(SA_PROVINCES as readonly string[]).includes(v("collectionProvince")) ? null : <option value="">Choose a province</option>}
                      {SA_PROVINCES.map((province) => (
                        <option key={province} value={province}>
                          {province}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label="Postal code" error={errors.collectionCode}>
                  {(p) => <input {...p} name="collectionCode" defaultValue={v("collectionCode")} inputMode="numeric" maxLength={4} autoComplete="postal-code" placeholder="7700" />}
                </Field>
              </div>
            </Card>

            <Card title="Dispatch contact" id="contact" note="Who the courier calls or texts about a collection.">
              <div className="grid gap-4">
                <Field label="Name" error={errors.contactName}>
                  {(p) => <input {...p} name="contactName" defaultValue={v("contactName")} maxLength={100} autoComplete="off" />}
                </Field>
                <Field label="Mobile" error={errors.contactMobile} hint="A South African number, e.g. 082 123 4567.">
                  {(p) => <input {...p} name="contactMobile" type="tel" defaultValue={v("contactMobile")} maxLength={20} autoComplete="off" />}
                </Field>
                <Field label="E-mail" error={errors.contactEmail}>
                  {(p) => <input {...p} name="contactEmail" type="email" defaultValue={v("contactEmail")} maxLength={254} autoComplete="off" spellCheck={false} />}
                </Field>
              </div>
            </Card>
          </div>

          <Card
            title="Box and weights"
            id="parcel"
            note={`Every order ships in this box; one heavier than ${BOX_LIMIT_KG} kg goes in more of them. A product's own weight (set on the product) comes before the default bottle weight.`}
          >
            <div className="grid items-start gap-4 lg:grid-cols-2 lg:gap-6">
              {/* The unit said once for the three sides: "Length (cm)" wraps to two lines in a third of a phone. */}
              <div role="group" aria-labelledby="box-size" className="min-w-0">
                <p id="box-size" className="text-sm font-medium text-ink">
                  Box size (cm)
                </p>
                <div className="mt-2 grid grid-cols-3 gap-3">
                  <Field label="Length" error={errors.boxLength}>
                    {(p) => <input {...p} name="boxLength" defaultValue={v("boxLength")} inputMode="numeric" maxLength={6} autoComplete="off" className={`${p.className} tabular-nums`} />}
                  </Field>
                  <Field label="Width" error={errors.boxWidth}>
                    {(p) => <input {...p} name="boxWidth" defaultValue={v("boxWidth")} inputMode="numeric" maxLength={6} autoComplete="off" className={`${p.className} tabular-nums`} />}
                  </Field>
                  <Field label="Height" error={errors.boxHeight}>
                    {(p) => <input {...p} name="boxHeight" defaultValue={v("boxHeight")} inputMode="numeric" maxLength={6} autoComplete="off" className={`${p.className} tabular-nums`} />}
                  </Field>
                </div>
              </div>
              <div role="group" aria-labelledby="box-weights" className="min-w-0">
                <p id="box-weights" className="text-sm font-medium text-ink">
                  Weights (g)
                </p>
                <div className="mt-2 grid gap-4 sm:grid-cols-2 sm:gap-3">
                  <Field label="Bottle weight" error={errors.bottleWeight} hint="One bottle in its own box, when the product doesn't say.">
                    {(p) => <input {...p} name="bottleWeight" defaultValue={v("bottleWeight")} inputMode="numeric" maxLength={8} autoComplete="off" className={`${p.className} tabular-nums`} />}
                  </Field>
                  <Field label="Packaging weight" error={errors.packagingWeight} hint="The shipping box, filling and paper.">
                    {(p) => <input {...p} name="packagingWeight" defaultValue={v("packagingWeight")} inputMode="numeric" maxLength={8} autoComplete="off" className={`${p.className} tabular-nums`} />}
                  </Field>
                </div>
              </div>
            </div>
            <p className="mt-3 text-xs text-muted">
              Sides 1–{BOX_SIDE_MAX_CM} cm; a bottle 1–{formatGrams(WEIGHT_MAX_GRAMS)} g, the packaging 1–{formatGrams(PACKAGING_MAX_GRAMS)} g.
            </p>
          </Card>

          <div className="space-y-3">
            <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
              <h3 className="font-display text-2xl text-ink">What shoppers pay</h3>
              <p className="text-xs text-muted">The free-delivery threshold still makes the cheapest option of each kind free.</p>
            </div>
            {/* Side by side, each card's two parts share rows (subgrid): a title on two lines doesn't push its options down. */}
            <ul className="grid gap-4 lg:grid-cols-3 lg:gap-y-0">
              {DELIVERY_KIND_ORDER.map((kind) => (
                <KindPricing key={kind} view={kinds.find((k) => k.kind === kind) ?? { kind, courier: null, offered: false }} values={values} errors={errors} />
              ))}
            </ul>
            <p className="text-xs text-muted">
              Which courier serves a kind, and which kinds checkout offers, are set in the shop's configuration: a courier's credentials (SHIPLOGIC_API_KEY, PUDO_API_KEY, PARGO_USERNAME and
              PARGO_PASSWORD) and DELIVERY_KINDS.
            </p>
          </div>
        </div>

        <div className="flex flex-col gap-3 border-t border-line pt-5 sm:flex-row sm:items-center sm:justify-between">
          <div aria-live="polite" className="min-w-0 empty:hidden sm:flex-1">
            {shown ? (
              shown.ok ? (
                <Notice tone="success">{shown.message}</Notice>
              ) : (
                <Notice tone="error" title="Nothing was saved">
                  {shown.error}
                  {invalidCount > 1 ? ` — and ${invalidCount - 1} more ${invalidCount === 2 ? "field" : "fields"} to check, marked above.` : null}
                </Notice>
              )
            ) : null}
          </div>
          <Button type="submit" size="lg" disabled={busy} className="w-full shrink-0 sm:ml-auto sm:w-auto">
            {busy ? "Saving…" : "Save Delivery Settings"}
          </Button>
        </div>
      </fetcher.Form>
    </section>
  );
}

function Card({ title, id, note, children }: { title: string; id: string; note?: string; children: React.ReactNode }) {
  // A group named by its visible heading (not a fieldset's legend): the heading stays in the page's outline.
  return (
    <div role="group" aria-labelledby={`${id}-title`} aria-describedby={note ? `${id}-note` : undefined} className="min-w-0 border border-line bg-white p-4 sm:p-6">
      <h3 id={`${id}-title`} className="font-display text-2xl text-ink">
        {title}
      </h3>
      {note ? (
        <p id={`${id}-note`} className="mt-1 text-xs text-muted">
          {note}
        </p>
      ) : null}
      <div className="mt-4">{children}</div>
    </div>
  );
}

/** One kind: who delivers it now, whether checkout offers it, and how it is priced (by the zones, margin on the quote, or flat). */
function KindPricing({ view, values, errors }: { view: DeliveryKindView; values: Record<string, string>; errors: Record<string, string> }) {
  const { kind } = view;
  const modes = PRICING_MODES[kind];
  const saved = values[`${kind}Mode`] as PricingMode;
  const [mode, setMode] = useState<PricingMode>(modes.includes(saved) ? saved : modes[0]!);
  const headingId = useId();
  const title = DELIVERY_KIND_TITLES[kind];
  return (
    <li aria-labelledby={headingId} className="flex min-w-0 flex-col border border-line bg-white lg:row-span-2 lg:grid lg:grid-rows-subgrid">
      <div className="border-b border-line px-4 py-4 sm:px-5">
        <h4 id={headingId} className="font-display text-xl leading-tight text-ink">
          {title}
        </h4>
        <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
          <dt className="text-muted">Courier now</dt>
          <dd className="min-w-0">
            {view.courier ? <span className="text-ink">{view.courier}</span> : <span className="text-amber-900">Test courier (no credentials set)</span>}
          </dd>
          <dt className="text-muted">Checkout</dt>
          <dd className="min-w-0">{view.offered ? <span className="text-success">Offered</span> : <span className="text-ink-soft">Not offered</span>}</dd>
        </dl>
      </div>
      <fieldset className="min-w-0 flex-1 space-y-3 px-4 py-4 sm:px-5">
        <legend className="sr-only">How shoppers pay for {title}</legend>
        {errors[`${kind}Mode`] ? (
          <p role="alert" className="text-sm text-danger">
            {errors[`${kind}Mode`]}
          </p>
        ) : null}
        {modes.includes("zones") ? (
          <PricingOption
            kind={kind}
            mode="zones"
            chosen={mode === "zones"}
            onChoose={() => setMode("zones")}
            title="Price by my zones and rules"
            hint={
              <>
                The zones above that serve the shopper's province, each at the rule holding the order's total, else its base rate; <Amount cents={FALLBACK_SHIPPING_CENTS} /> where no zone serves it. The
                courier still collects.
              </>
            }
          />
        ) : null}
        <PricingOption
          kind={kind}
          mode="quote"
          chosen={mode === "quote"}
          onChoose={() => setMode("quote")}
          title="Courier's price plus a margin"
          hint={
            <>
              The courier's live price plus this. Negative (to <Amount cents={-MARGIN_LIMIT_CENTS} />) takes some off, never below <Amount cents={0} />.
            </>
          }
          amount={{ name: `${kind}Margin`, label: `Margin for ${title}`, value: values[`${kind}Margin`] ?? "", error: errors[`${kind}Margin`], allowNegative: true, placeholder: "0.00" }}
        />
        <PricingOption
          kind={kind}
          mode="flat"
          chosen={mode === "flat"}
          onChoose={() => setMode("flat")}
          title="A flat price"
          hint={
            <>
              One price, whatever the courier charges (up to <Amount cents={FLAT_MAX_CENTS} />).
            </>
          }
          amount={{ name: `${kind}Flat`, label: `Flat price for ${title}`, value: values[`${kind}Flat`] ?? "", error: errors[`${kind}Flat`], placeholder: "99.00" }}
        />
      </fieldset>
    </li>
  );
}

function PricingOption({
  kind,
  mode,
  chosen,
  onChoose,
  title,
  hint,
  amount,
}: {
  kind: DeliveryKind;
  mode: PricingMode;
  chosen: boolean;
  onChoose: () => void;
  title: string;
  hint: React.ReactNode;
  /** the amount this mode is priced with (none for the zones, which are priced above) */
  amount?: { name: string; label: string; value: string; error?: string; allowNegative?: boolean; placeholder: string };
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={`border p-3 transition-colors ${chosen ? "border-gold bg-sand/40" : "border-line"}`}>
      <label className="flex cursor-pointer items-start gap-3">
        <input type="radio" name={`${kind}Mode`} value={mode} defaultChecked={chosen} onChange={onChoose} aria-describedby={hintId} className="mt-1 h-4 w-4 shrink-0 accent-[var(--color-ink)]" />
        <span className="min-w-0">
          <span className="block text-sm font-medium text-ink">{title}</span>
          <span id={hintId} className="mt-0.5 block text-xs text-muted">
            {hint}
          </span>
        </span>
      </label>
      {amount ? (
        <div className="mt-2.5 pl-7">
          <label htmlFor={id} className="sr-only">
            {amount.label}
          </label>
          <MoneyInput
            id={id}
            name={amount.name}
            defaultValue={amount.value}
            placeholder={amount.placeholder}
            allowNegative={amount.allowNegative}
            maxLength={14}
            aria-invalid={amount.error ? true : undefined}
            aria-describedby={amount.error ? errorId : undefined}
            className={chosen ? "" : "opacity-60"}
          />
          {amount.error ? (
            <p id={errorId} className="mt-1.5 text-sm text-danger">
              {amount.error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** An amount that never breaks across lines ("R1 000.00" is grouped with a space). */
function Amount({ cents }: { cents: number }) {
  return <span className="whitespace-nowrap">{formatSignedRand(cents)}</span>;
}
