import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { Route } from "./+types/admin.pricing";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useTransientMessage } from "~/components/admin/admin-status";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { FilterBar } from "~/components/admin/filter-bar";
import { Pagination } from "~/components/pagination";
import { ButtonLink } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import type { AdminResult } from "~/modules/admin/admin-result";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { addTier, deleteTier, listPricing } from "~/modules/pricing/tiers-admin.server";
import { TIER_MESSAGES, tierIntent } from "~/modules/pricing/tiers-admin.schema";
import { tierRangeLabel } from "~/modules/pricing/tiers.logic";
import { formatRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/pricing";
const filters = { q: { kind: "text" } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "products.edit");
  const query = parseListQuery(readQuery(request), filters);
  const list = await listPricing(getDb(), { q: query.filters.q, page: query.page });
  return {
    query,
    list: {
      ...list,
      rows: list.rows.map((p) => ({
        ...p,
        price: formatRand(p.priceCents),
        sizes: p.sizes.map((s) => ({ ...s, price: formatRand(s.priceCents), tiers: s.tiers.map((t) => ({ ...t, range: tierRangeLabel(t), price: formatRand(t.priceCents) })) })),
      })),
    },
  };
}

export const action = adminAction(
  tierIntent,
  {
    add: async (db, input) => (await addTier(db, input), TIER_MESSAGES.added),
    delete: async (db, { id }) => (await deleteTier(db, id), TIER_MESSAGES.deleted),
  },
  { permission: "products.edit", record: { add: { type: "product", id: "productId" }, delete: { type: "product", partOf: "tier" } }, failure: { add: TIER_MESSAGES.failedAdd, delete: TIER_MESSAGES.failedDelete }, storefront: ["add", "delete"] },
);

export function meta() {
  return [{ title: "Pricing | Admin | Scentara" }];
}

type Product = Route.ComponentProps["loaderData"]["list"]["rows"][number];

export default function Pricing({ loaderData: d }: Route.ComponentProps) {
  const { query, list } = d;
  return (
    <AdminPage title="Pricing" description="Quantity pricing per size: buy more, pay less per bottle. The shop and the cart use a new tier at once." status={<AdminStatus />}>
      <FilterBar path={PATH} query={query} fields={[{ name: "q", label: "Search products", kind: "search", placeholder: "e.g. Oud" }]} />
      {list.total === 0 ? (
        <div className="border border-dashed border-line bg-white/60 px-6 py-12 text-center">
          <p className="font-display text-2xl text-ink">{TIER_MESSAGES.noProducts}</p>
          <ButtonLink to="/admin/products/add" className="mt-5">
            Add New Product
          </ButtonLink>
        </div>
      ) : list.rows.length === 0 ? (
        <p className="border border-dashed border-line bg-white/60 px-6 py-12 text-center text-sm text-ink-soft">No products match your search.</p>
      ) : (
        <ul className="space-y-4">
          {list.rows.map((p) => (
            <ProductTiers key={p.id} product={p} here={listHref(PATH, query)} confirmHref={(id) => listHref(PATH, query, { confirm: id })} confirm={query.confirm} />
          ))}
        </ul>
      )}
      <Pagination page={list.page} pageCount={list.pageCount} hrefFor={(page) => listHref(PATH, query, { page })} className="mt-8" label="Pages" />
    </AdminPage>
  );
}

type Size = Product["sizes"][number];

function ProductTiers({ product, here, confirmHref, confirm }: { product: Product; here: string; confirmHref: (id: string) => string; confirm: string }) {
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
