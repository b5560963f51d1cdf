import type { Route } from "./+types/admin.pricing";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { FilterBar } from "~/components/admin/filter-bar";
import { Pagination } from "~/components/pagination";
import { PricingProductTiers } from "~/components/admin/pricing-tiers";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { pricingPage } from "~/modules/pricing/pricing-page.server";
import { addTier, deleteTier } from "~/modules/pricing/tiers-admin.server";
import { TIER_MESSAGES, tierIntent } from "~/modules/pricing/tiers-admin.schema";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/pricing";
const filters = { q: { kind: "text" } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "products.edit");
  const query = parseListQuery(readQuery(request), filters);
  return { query, list: await pricingPage(getDb(), { q: query.filters.q, page: query.page }) };
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
            <PricingProductTiers key={p.id} product={p} here={listHref(PATH, query)} confirmHref={(id) => listHref(PATH, query, { confirm: id })} confirm={query.confirm} />
          ))}
        </ul>
      )}
      <Pagination page={list.page} pageCount={list.pageCount} hrefFor={(page) => listHref(PATH, query, { page })} className="mt-8" label="Pages" />
    </AdminPage>
  );
}
