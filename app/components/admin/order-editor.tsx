import { useState } from "react";
import { controlClass } from "~/components/ui/field";
import { editedTotals } from "~/modules/orders/order-admin.logic";
import { ORDER_NOTES_MAX, TRACKING_NUMBER_MAX } from "~/modules/orders/order-admin.schema";
import { SA_PROVINCES } from "~/modules/orders/orders.logic";
import { formatAmount, formatRand, parseRandToCents } from "~/utils/money";
import type { OrderForOwner } from "./order-detail";
import { RowEditorForm } from "./row-editor";

const labelClass = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
const ADDRESS_FIELDS = [
  { name: "name", label: "Name", autoComplete: "name" },
  { name: "telephone", label: "Telephone", autoComplete: "tel" },
  { name: "street", label: "Street address", autoComplete: "street-address" },
  { name: "suburb", label: "Suburb", autoComplete: "address-level3" },
  { name: "city", label: "City", autoComplete: "address-level2" },
  { name: "postalCode", label: "Postal code", autoComplete: "postal-code" },
] as const;

/**
 * The inline edit of one order (SPEC §4, §5): each line's quantity (≥ 1) and unit price (≥ 0, step 0.01) with its
 * total following as you type, the address, notes and tracking number. The totals shown are a preview: the server
 * recomputes them from what it stores (lines − discount + delivery, decision 016).
 */
export function OrderEditor({ order, action, cancelHref, onCancel }: { order: OrderForOwner; action: string; cancelHref: string; onCancel: () => void }) {
  const [lines, setLines] = useState(() => order.lines.map((l) => ({ id: l.id, name: l.name, quantity: String(l.quantity), unitPrice: formatAmount(l.unitPriceCents) })));
  const parsed = lines.map((l) => ({ quantity: Math.max(0, Math.floor(Number(l.quantity)) || 0), unitPriceCents: parseRandToCents(l.unitPrice) ?? 0 }));
  const totals = editedTotals(parsed, { discountCents: order.discountCents, shippingCents: order.shippingCents, hadCoupon: order.couponCode !== null });
  const set = (index: number, change: Partial<(typeof lines)[number]>) => setLines((all) => all.map((l, i) => (i === index ? { ...l, ...change } : l)));
  const a = order.shippingAddress;
  return (
    <RowEditorForm id={order.id} action={action} cancelHref={cancelHref} onCancel={onCancel} label={`order ${order.shortId}`}>
      <fieldset className="min-w-0">
        <legend className={labelClass}>Items</legend>
        <ul className="mt-2 divide-y divide-line border-y border-line">
          {lines.map((l, i) => (
            <li key={l.id} className="grid grid-cols-2 items-end gap-3 py-3 sm:grid-cols-[minmax(0,1fr)_6rem_8rem_7rem]">
              <input type="hidden" name={`line.${i}.id`} value={l.id} />
              <p className="col-span-2 min-w-0 break-words text-sm text-ink sm:col-span-1 sm:self-center">{l.name}</p>
              <label className={labelClass}>
                Quantity
                <input
                  name={`line.${i}.quantity`}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  required
                  value={l.quantity}
                  onChange={(e) => set(i, { quantity: e.currentTarget.value })}
                  className={`${controlClass} mt-1 tabular-nums`}
                />
              </label>
              <label className={labelClass}>
                Unit price (R)
                <input
                  name={`line.${i}.unitPrice`}
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step={0.01}
                  required
                  value={l.unitPrice}
                  onChange={(e) => set(i, { unitPrice: e.currentTarget.value })}
                  className={`${controlClass} mt-1 tabular-nums`}
                />
              </label>
              <p className="col-span-2 text-right text-sm tabular-nums text-ink sm:col-span-1 sm:self-center" aria-live="polite">
                <span className="sr-only">Line total </span>
                {formatRand(totals.lineTotals[i] ?? 0)}
              </p>
            </li>
          ))}
        </ul>
        <dl className="ml-auto mt-3 max-w-xs space-y-1 text-sm">
          <Row term="Subtotal" value={formatRand(totals.subtotalCents)} />
          {order.couponCode || order.discountCents > 0 ? <Row term={`Discount${order.couponCode ? ` (${order.couponCode})` : ""}`} value={formatRand(-totals.discountCents)} /> : null}
          <Row term="Delivery" value={order.shippingCents === 0 ? "Free" : formatRand(order.shippingCents)} />
          <div className="flex justify-between border-t border-ink/70 pt-2 font-semibold text-ink">
            <dt>New total</dt>
            <dd className="tabular-nums" aria-live="polite">
              {formatRand(totals.totalAmountCents)}
            </dd>
          </div>
        </dl>
        {order.paymentStatus === "completed" && totals.totalAmountCents !== order.totalAmountCents ? (
          <p className="mt-2 text-xs text-amber-900">This order is paid: saving a new total doesn't charge or refund the customer. Settle the difference with them.</p>
        ) : null}
      </fieldset>
      <fieldset className="min-w-0">
        <legend className={labelClass}>Delivery address</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {ADDRESS_FIELDS.map((f) => (
            <label key={f.name} className={labelClass}>
              {f.label}
              <input name={f.name} defaultValue={a[f.name]} required autoComplete={`off ${f.autoComplete}`} className={`${controlClass} mt-1 normal-case tracking-normal`} />
            </label>
          ))}
          <label className={labelClass}>
            Province
            <select name="province" defaultValue={a.province} required className={`${controlClass} mt-1 normal-case tracking-normal`}>
              {SA_PROVINCES.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className={labelClass}>
          Tracking number
          <input name="trackingNumber" defaultValue={order.trackingNumber ?? ""} maxLength={TRACKING_NUMBER_MAX} className={`${controlClass} mt-1 font-mono normal-case tracking-normal`} />
        </label>
        <label className={labelClass}>
          Notes
          <textarea name="notes" defaultValue={order.notes ?? ""} rows={2} maxLength={ORDER_NOTES_MAX} className={`${controlClass} mt-1 normal-case tracking-normal`} />
        </label>
      </div>
    </RowEditorForm>
  );
}

function Row({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex justify-between gap-3 text-ink-soft">
      <dt>{term}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
