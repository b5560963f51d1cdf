import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import type { AdminResult } from "~/modules/admin/admin-result";
import { listHref, type ListQuery } from "~/modules/admin/list-query";
import { SA_PROVINCES } from "~/modules/orders/orders.logic";
import { useTransientMessage } from "./admin-status";
import { ConfirmDelete } from "./confirm-delete";
import { FormDialog } from "./form-dialog";

/** A zone as the shipping page shows it (amounts already formatted by the loader; *Input: as typed in a form). */
export interface ZoneView {
  id: string;
  name: string;
  provinces: string[];
  baseRate: string;
  baseRateInput: string;
  rules: RuleView[];
}

export interface RuleView {
  id: string;
  range: string;
  rate: string;
  minInput: string;
  maxInput: string;
  rateInput: string;
}

const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
const link = "text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline";

/** One zone: name, base rate, provinces, its rules by min total (edit, delete), and a form to add a rule. */
export function ZoneCard({ zone, query, path, here, servedBy }: { zone: ZoneView; query: ListQuery; path: string; here: string; servedBy: Record<string, string> }) {
  const headingId = `zone-${zone.id}`;
  return (
    <li aria-labelledby={headingId} className="min-w-0 border border-line bg-white">
      <div className="flex flex-col gap-3 border-b border-line px-4 py-4 sm:flex-row sm:items-start sm:justify-between sm:px-5">
        <div className="min-w-0">
          <h2 id={headingId} className="break-words font-display text-2xl text-ink">
            {zone.name}
          </h2>
          <p className="mt-1 text-sm text-ink-soft">
            Base rate <strong className="font-semibold text-ink tabular-nums">{zone.baseRate}</strong>
            <span className="text-muted"> · when no rule matches</span>
          </p>
          <p className="mt-2 text-sm">
            {zone.provinces.length > 0 ? (
              <span className="flex flex-wrap gap-1.5" aria-label={`Provinces served by ${zone.name}`}>
                {zone.provinces.map((p) => (
                  <span key={p} className="bg-sand px-2 py-0.5 text-xs text-ink">
                    {p}
                  </span>
                ))}
              </span>
            ) : (
              <span className="text-muted">Serves no province: shoppers choose it by hand.</span>
            )}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-2">
          <ZoneDialog zone={zone} query={query} path={path} servedBy={servedBy} />
          <ConfirmDelete
            id={zone.id}
            name={zone.name}
            what="zone"
            intent="deleteZone"
            confirmHref={listHref(path, query, { confirm: zone.id })}
            cancelHref={here}
            openOnLoad={query.confirm === zone.id}
            note={`Its ${zone.rules.length === 1 ? "rule goes" : `${zone.rules.length} rules go`} with it${zone.provinces.length ? ` and ${zone.provinces.join(", ")} ${zone.provinces.length === 1 ? "is" : "are"} served by no zone` : ""}. Orders that shipped with it keep their delivery charge.`}
          />
        </div>
      </div>
      <div className="px-4 py-3 sm:px-5">
        {zone.rules.length === 0 ? (
          <p className="text-sm text-muted">No rules: every order below the free-delivery threshold pays the base rate.</p>
        ) : (
          <table className="w-full text-sm">
            <caption className="sr-only">Rules of {zone.name}</caption>
            <thead>
              <tr className="text-left text-[0.68rem] uppercase tracking-[0.16em] text-ink-soft">
                <th scope="col" className="py-1.5 pr-3 font-medium">
                  Order total
                </th>
                <th scope="col" className="py-1.5 pr-3 font-medium">
                  Rate
                </th>
                <th scope="col" className="py-1.5 text-right font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {zone.rules.map((r) => (
                <tr key={r.id} className="border-t border-line align-top">
                  <td className="py-2 pr-3 tabular-nums">{r.range}</td>
                  <td className="py-2 pr-3 tabular-nums">{r.rate}</td>
                  <td className="py-2 text-right">
                    <span className="flex flex-col items-end gap-2 sm:flex-row sm:justify-end sm:gap-4">
                      <RuleDialog zone={zone} rule={r} query={query} path={path} />
                      <ConfirmDelete
                        id={r.id}
                        name={`${zone.name}: ${r.range} at ${r.rate}`}
                        what="rule"
                        intent="deleteRule"
                        confirmHref={listHref(path, query, { confirm: r.id })}
                        cancelHref={here}
                        openOnLoad={query.confirm === r.id}
                      />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <AddRuleForm zone={zone} action={here} />
      </div>
    </li>
  );
}

/** Create (zone null) or edit a zone: name, base rate and the provinces it serves. */
export function ZoneDialog({ zone, query, path, servedBy }: { zone: ZoneView | null; query: ListQuery; path: string; servedBy: Record<string, string> }) {
  const key = zone?.id ?? "new";
  return (
    <FormDialog
      title={zone ? `Edit zone ${zone.name}` : "New shipping zone"}
      trigger={
        zone ? (
          <>
            Edit<span className="sr-only"> zone {zone.name}</span>
          </>
        ) : (
          "New Zone"
        )
      }
      triggerClassName={zone ? link : buttonClass("primary", "md")}
      openHref={listHref(path, query, { edit: key })}
      closeHref={listHref(path, query)}
      openOnLoad={query.edit === key}
      submitLabel={zone ? "Save Zone" : "Create Zone"}
    >
      <input type="hidden" name="intent" value="saveZone" />
      {zone ? <input type="hidden" name="id" value={zone.id} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <label className={label}>
          Zone name
          <input name="name" defaultValue={zone?.name ?? ""} required maxLength={80} autoComplete="off" className={`${controlClass} mt-1 normal-case tracking-normal`} />
        </label>
        <label className={label}>
          Base rate (R)
          <input name="baseRate" type="number" min={0} step={0.01} inputMode="decimal" defaultValue={zone?.baseRateInput ?? ""} required placeholder="85.00" className={`${controlClass} mt-1`} />
          <span className="mt-1 block text-xs normal-case tracking-normal text-muted">Charged when none of the zone's rules matches the total.</span>
        </label>
      </div>
      <fieldset>
        <legend className={label}>Provinces served</legend>
        <p className="mt-1 text-xs text-muted">A province belongs to one zone. Its shoppers get this zone preselected at checkout.</p>
        <div className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-2">
          {SA_PROVINCES.map((p) => {
            const owner = servedBy[p];
            const elsewhere = owner && owner !== zone?.name ? owner : null;
            return (
              <label key={p} className="flex min-h-10 items-center gap-2.5 text-sm text-ink">
                <input type="checkbox" name="provinces" value={p} defaultChecked={!!zone?.provinces.includes(p)} className="h-4 w-4 shrink-0 accent-[var(--color-ink)]" />
                <span className="min-w-0">
                  {p}
                  {elsewhere ? <span className="block text-xs text-muted">now in {elsewhere}</span> : null}
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
    </FormDialog>
  );
}

function RuleDialog({ zone, rule, query, path }: { zone: ZoneView; rule: RuleView; query: ListQuery; path: string }) {
  return (
    <FormDialog
      title={`Edit rule of ${zone.name}`}
      trigger={
        <>
          Edit<span className="sr-only"> rule {rule.range} of {zone.name}</span>
        </>
      }
      triggerClassName={link}
      openHref={listHref(path, query, { edit: rule.id })}
      closeHref={listHref(path, query)}
      openOnLoad={query.edit === rule.id}
      submitLabel="Save Rule"
    >
      <input type="hidden" name="intent" value="saveRule" />
      <input type="hidden" name="id" value={rule.id} />
      <input type="hidden" name="zoneId" value={zone.id} />
      <RuleFields rule={rule} />
    </FormDialog>
  );
}

function RuleFields({ rule }: { rule?: RuleView }) {
  return (
    <>
      <label className={label}>
        From total (R)
        <input name="minTotal" type="number" min={0} step={0.01} inputMode="decimal" defaultValue={rule?.minInput ?? ""} required placeholder="0.00" className={`${controlClass} mt-1`} />
      </label>
      <label className={label}>
        To total (R)
        <input name="maxTotal" type="number" min={0} step={0.01} inputMode="decimal" defaultValue={rule?.maxInput ?? ""} placeholder="no limit" className={`${controlClass} mt-1`} />
      </label>
      <label className={label}>
        Rate (R)
        <input name="rate" type="number" min={0} step={0.01} inputMode="decimal" defaultValue={rule?.rateInput ?? ""} required placeholder="60.00" className={`${controlClass} mt-1`} />
      </label>
    </>
  );
}

/** Adds a rule to this zone; its own fetcher, so the answer (an overlap named) shows beside this zone's form. */
function AddRuleForm({ zone, action }: { zone: ZoneView; action: string }) {
  const fetcher = useFetcher<AdminResult>();
  const form = useRef<HTMLFormElement>(null);
  const shown = useTransientMessage(fetcher.state === "idle" ? fetcher.data : undefined);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) form.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return (
    <fetcher.Form ref={form} method="post" action={action} noValidate className="mt-3 border-t border-dashed border-line pt-3" aria-label={`Add a rule to ${zone.name}`}>
      <input type="hidden" name="intent" value="saveRule" />
      <input type="hidden" name="zoneId" value={zone.id} />
      <p className="text-xs text-muted">Both ends count: R0.00 – R299.99 and R300.00 – R599.99 follow on without a gap. Leave "To" empty for no limit.</p>
      <div className="mt-2 grid grid-cols-2 items-end gap-3 sm:grid-cols-[1fr_1fr_1fr_auto] [&>label:nth-child(3)]:col-span-2 sm:[&>label:nth-child(3)]:col-span-1">
        <RuleFields />
        <button type="submit" disabled={fetcher.state !== "idle"} className="col-span-2 h-[2.9rem] border border-ink px-4 text-xs font-medium uppercase tracking-[0.14em] text-ink hover:bg-ink hover:text-ivory sm:col-span-1">
          {fetcher.state !== "idle" ? "Adding…" : "Add rule"}
        </button>
      </div>
      <div aria-live="polite" className="empty:hidden mt-2 text-sm">
        {shown ? shown.ok ? <p className="text-success">{shown.message}</p> : <p role="alert" className="text-danger">{shown.error}</p> : null}
      </div>
    </fetcher.Form>
  );
}

