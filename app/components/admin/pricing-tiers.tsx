import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { controlClass } from "~/components/ui/field";
import type { AdminResult } from "~/modules/admin/admin-result";
import type { PricingRow } from "~/modules/pricing/pricing-page.server";
import { TIER_MESSAGES } from "~/modules/pricing/tiers-admin.schema";
import { useTransientMessage } from "./admin-status";
import { ConfirmDelete } from "./confirm-delete";

/** Admin → Pricing's product (app/routes/admin.pricing.tsx): each size's tiers, and the form that adds one. */

type Product = PricingRow;
type Size = Product["sizes"][number];

export function PricingProductTiers({ product, here, confirmHref, confirm }: { product: Product; here: string; confirmHref: (id: string) => string; confirm: string }) {
  const several = product.sizes.length > 1;
  return (
    <li className="border border-line bg-white">
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-line px-4 py-3">
        <h2 className="font-display text-xl text-ink">{product.name}</h2>
        <span className="text-sm text-ink-soft">
          {several ? "From" : "Base price"} <strong className="font-semibold text-ink tabular-nums">{product.price}</strong>
        </span>
      </div>
      <div className="px-4 py-3">
        {product.sizes.map((size) => (
          <SizeTiers key={size.id} product={product} size={size} several={several} here={here} confirmHref={confirmHref} confirm={confirm} />
        ))}
        <AddTierForm productId={product.id} productName={product.name} sizes={several ? product.sizes : []} action={here} />
      </div>
    </li>
  );
}

/** One size's tiers: under a heading naming the size when the product has several. */
function SizeTiers({ product, size, several, here, confirmHref, confirm }: { product: Product; size: Size; several: boolean; here: string; confirmHref: (id: string) => string; confirm: string }) {
  const name = several ? `${product.name} (${size.label || "standard"})` : product.name;
  return (
    <section aria-label={several ? `${size.label || "Standard"} tiers` : undefined} className={several ? "border-b border-dashed border-line py-3 first:pt-0 last:border-b-0" : ""}>
      {several ? (
        <h3 className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
          <span className="font-semibold text-ink">{size.label || "Standard"}</span>
          <span className="tabular-nums text-ink-soft">{size.price} each</span>
          {size.hidden ? <span className="bg-sand px-2 py-0.5 text-[0.62rem] font-semibold uppercase tracking-[0.14em] text-ink-soft">Hidden in the shop</span> : null}
        </h3>
      ) : null}
      {size.tiers.length === 0 ? (
        <p className={`text-sm text-muted ${several ? "mt-1" : ""}`}>{TIER_MESSAGES.noTiers}</p>
      ) : (
        <table className="w-full text-sm">
          <caption className="sr-only">Pricing tiers of {name}</caption>
          <thead>
            <tr className="text-left text-[0.68rem] uppercase tracking-[0.16em] text-ink-soft">
              <th scope="col" className="py-1.5 font-medium">
                Quantity
              </th>
              <th scope="col" className="py-1.5 font-medium">
                Price per unit
              </th>
              <th scope="col" className="py-1.5 text-right font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {size.tiers.map((t) => (
              <tr key={t.id} className="border-t border-line">
                <td className="py-2 tabular-nums">{t.range}</td>
                <td className="py-2 tabular-nums">{t.price}</td>
                <td className="py-2 text-right">
                  <ConfirmDelete id={t.id} name={`${name}: ${t.range} at ${t.price}`} what="tier" confirmHref={confirmHref(t.id)} cancelHref={here} openOnLoad={confirm === t.id} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Adds a tier to the product's one size, or (several) to the size chosen. */
function AddTierForm({ productId, productName, sizes, action }: { productId: string; productName: string; sizes: Size[]; action: string }) {
  // Its own fetcher (not the page's shared one), so the answer shows beside this product's form.
  const fetcher = useFetcher<AdminResult>();
  const form = useRef<HTMLFormElement>(null);
  const shown = useTransientMessage(fetcher.state === "idle" ? fetcher.data : undefined);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) form.current?.reset();
  }, [fetcher.state, fetcher.data]);
  const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
  return (
    <fetcher.Form ref={form} method="post" action={action} className="mt-3 border-t border-dashed border-line pt-3" aria-label={`Add a tier to ${productName}`}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      <div className={`grid grid-cols-2 gap-3 sm:items-end ${sizes.length ? "sm:grid-cols-[1.2fr_1fr_1fr_1fr_auto]" : "sm:grid-cols-[1fr_1fr_1fr_auto]"}`}>
        {sizes.length ? (
          <label className={`${label} col-span-2 sm:col-span-1`}>
            Size
            <select name="sizeId" className={`${controlClass} mt-1`}>
              {sizes.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label || "Standard"}
                  {s.hidden ? " (hidden)" : ""}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className={label}>
          From (qty)
          <input name="minQuantity" inputMode="numeric" required placeholder="2" className={`${controlClass} mt-1`} />
        </label>
        <label className={label}>
          To (optional)
          <input name="maxQuantity" inputMode="numeric" placeholder="no limit" className={`${controlClass} mt-1`} />
        </label>
        <label className={`${label} col-span-2 sm:col-span-1`}>
          Price per unit (R)
          <input name="price" inputMode="decimal" required placeholder="299.00" className={`${controlClass} mt-1`} />
        </label>
        <button type="submit" disabled={fetcher.state !== "idle"} className="col-span-2 h-[2.9rem] whitespace-nowrap border border-ink px-4 text-xs font-medium uppercase tracking-[0.14em] text-ink hover:bg-ink hover:text-ivory sm:col-span-1">
          {fetcher.state !== "idle" ? "Adding…" : "Add tier"}
        </button>
      </div>
      <div aria-live="polite" className="empty:hidden mt-2 text-sm">
        {shown ? shown.ok ? <p className="text-success">{shown.message}</p> : <p className="text-danger">{shown.error}</p> : null}
      </div>
    </fetcher.Form>
  );
}
