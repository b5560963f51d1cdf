import { Link } from "react-router";
import { useAdminPermissions } from "~/components/admin/use-admin-permissions";
import type { Route } from "./+types/admin.products";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { DataTable, type Column } from "~/components/admin/data-table";
import { FilterBar } from "~/components/admin/filter-bar";
import { ButtonLink, buttonClass } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { hasActiveFilters, listHref, parseListQuery } from "~/modules/admin/list-query";
import { deleteProduct, listAdminProducts } from "~/modules/catalog/catalog-admin.server";
import { productListIntent, UNCATEGORISED } from "~/modules/catalog/catalog-admin.schema";
import { listCategories } from "~/modules/catalog/catalog.server";
import { PRODUCT_MESSAGES } from "~/modules/catalog/product-admin.text";
import { PLACEHOLDER_IMAGE, sizedImage } from "~/modules/media/images";
import { formatDateZA } from "~/utils/dates";
import { pricedFrom } from "~/modules/catalog/sizes.logic";
import { formatRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";
import { waitingCounts } from "~/modules/stock-alerts/stock-alerts.server";

const PATH = "/admin/products";
const filters = { q: { kind: "text" }, category: { kind: "text", max: 100 } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, ["products.edit", "products.io"]);
  const query = parseListQuery(readQuery(request), filters);
  const db = getDb();
  const [list, categories] = await Promise.all([listAdminProducts(db, { ...query.filters, page: query.page }), listCategories(db)]);
  // how many shoppers wait for each product to come back (confirmed back-in-stock requests, docs/decisions/057)
  const waiting = await waitingCounts(db, list.rows.map((p) => p.id));
  return {
    query,
    categories,
    list: { ...list, rows: list.rows.map((p) => ({ ...p, price: `${pricedFrom(p.priceCents, p.maxPriceCents) ? "from " : ""}${formatRand(p.priceCents)}`, created: formatDateZA(p.createdAt), waiting: waiting.get(p.id) ?? 0 })) },
  };
}

export const action = adminAction(
  productListIntent,
  { delete: async (db, { id }) => (await deleteProduct(db, id), PRODUCT_MESSAGES.deleted) },
  { permission: "products.edit", record: "product", failure: { delete: PRODUCT_MESSAGES.deleteFailed }, storefront: ["delete"] },
);

export function meta() {
  return [{ title: "Products | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["list"]["rows"][number];

function Thumb({ src }: { src: string | null }) {
  return <img src={src ? sizedImage(src, 400) : PLACEHOLDER_IMAGE} alt="" width={56} height={56} loading="lazy" className="h-14 w-14 shrink-0 border border-line bg-sand object-cover" />;
}

export default function Products({ loaderData }: Route.ComponentProps) {
  const { query, list, categories } = loaderData;
  const here = listHref(PATH, query);
  // Exporting and importing (products.io) and editing (products.edit) are separate permissions: only what the role
  // allows is offered.
  const staff = useAdminPermissions();
  const edit = staff.can("products.edit");
  const io = staff.can("products.io");
  const columns: Column<Row>[] = [
    { header: "Image", bare: true, phone: "hide", cell: (p) => <Thumb src={p.image} /> },
    {
      header: "Name",
      bare: true,
      cell: (p) => (
        <span className="flex min-w-0 items-center gap-3 text-left">
          <span className="md:hidden">
            <Thumb src={p.image} />
          </span>
          <span className="min-w-0">
            <span className="block font-medium text-ink">{p.name}</span>
            <span className="block break-all text-xs text-muted">{p.slug}</span>
            {p.waiting ? (
              <span className="block text-xs font-medium text-gold" data-testid="waiting-for-stock">
                {p.waiting === 1 ? "1 shopper waits" : `${p.waiting} shoppers wait`} for it to come back
              </span>
            ) : null}
          </span>
        </span>
      ),
    },
    { header: "Category", cell: (p) => p.categoryName ?? <span className="text-muted">Uncategorised</span> },
    {
      header: "Price",
      cell: (p) => (
        <>
          {p.price}
          {p.sizeCount > 1 ? <span className="block text-xs text-muted">{p.sizeCount} sizes</span> : null}
        </>
      ),
      className: "whitespace-nowrap tabular-nums md:text-right",
    },
    { header: "Created", cell: (p) => p.created, className: "whitespace-nowrap", phone: "hide" },
    {
      header: "Actions",
      bare: true,
      className: "md:text-right",
      cell: (p) => (
        <span className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2">
          <a href={`/products/${p.slug}`} target="_blank" rel="noreferrer" className="text-xs font-medium uppercase tracking-[0.14em] text-ink underline-offset-4 hover:underline">
            View<span className="sr-only"> {p.name} (opens in a new tab)</span>
          </a>
          {edit ? (
            <>
              <Link to={`/admin/products/edit/${p.id}`} className="text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline">
                Edit<span className="sr-only"> {p.name}</span>
              </Link>
              <ConfirmDelete id={p.id} name={p.name} what="product" confirmHref={listHref(PATH, query, { confirm: p.id })} cancelHref={here} openOnLoad={query.confirm === p.id} note="Its pricing tiers and reviews are deleted with it; orders keep their lines." />
            </>
          ) : null}
        </span>
      ),
    },
  ];
  const empty =
    list.total === 0 ? (
      <>
        <p className="font-display text-2xl text-ink">{PRODUCT_MESSAGES.noProducts}</p>
        {edit ? (
          <ButtonLink to="/admin/products/add" className="mt-5">
            Add New Product
          </ButtonLink>
        ) : null}
      </>
    ) : (
      <>
        <p className="font-display text-2xl text-ink">{PRODUCT_MESSAGES.noMatches}</p>
        <ButtonLink to={PATH} variant="secondary" className="mt-5">
          Clear All Filters
        </ButtonLink>
      </>
    );
  return (
    <AdminPage
      title="Products"
      description="The catalogue: add, edit and remove products."
      actions={
        // one row beside the title on a desktop (the title's lines wrap instead); wrapped on a phone
        <div className="flex flex-wrap gap-2 lg:shrink-0 lg:flex-nowrap [&>*]:whitespace-nowrap">
          {io ? (
            <>
              <a href="/admin/products/export.csv" download className={buttonClass("secondary")}>
                Export CSV
              </a>
              <ButtonLink to="/admin/products/import" variant="secondary">
                Import CSV
              </ButtonLink>
            </>
          ) : null}
          {edit ? <ButtonLink to="/admin/products/add">Add New Product</ButtonLink> : null}
        </div>
      }
      stats={[
        { label: "All products", value: list.total },
        { label: hasActiveFilters(query) ? "Matching" : "Shown", value: list.matching },
        { label: "Categories", value: categories.length, to: edit ? "/admin/categories" : undefined },
      ]}
      status={<AdminStatus />}
    >
      <FilterBar
        path={PATH}
        query={query}
        fields={[
          { name: "q", label: "Search by name", kind: "search", placeholder: "e.g. Amber" },
          { name: "category", label: "Category", kind: "select", allLabel: "All Categories", options: [...categories.map((c) => ({ value: c.id, label: c.name })), { value: UNCATEGORISED, label: "Uncategorised" }] },
        ]}
      />
      <DataTable<Row>
        rows={list.rows}
        columns={columns}
        rowKey={(p) => p.id}
        caption="Products"
        empty={empty}
        page={{ page: list.page, pageCount: list.pageCount, hrefFor: (page) => listHref(PATH, query, { page }) }}
      />
    </AdminPage>
  );
}
