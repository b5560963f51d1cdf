import { useEffect, useRef } from "react";
import type { Route } from "./+types/admin.categories";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher, useAdminResult } from "~/components/admin/admin-status";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { DataTable, type Column } from "~/components/admin/data-table";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { addCategory, deleteCategory, listAdminCategories } from "~/modules/catalog/catalog-admin.server";
import { CATEGORY_MESSAGES, categoryIntent, categorySlugFor } from "~/modules/catalog/catalog-admin.schema";
import { formatDateZA } from "~/utils/dates";
import { readQuery } from "~/utils/request.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "products.edit");
  const categories = await listAdminCategories(getDb());
  return { categories: categories.map((c) => ({ ...c, created: formatDateZA(c.createdAt) })), confirm: readQuery(request).get("confirm") ?? "" };
}

export const action = adminAction(
  categoryIntent,
  {
    add: async (db, { name }) => CATEGORY_MESSAGES.added((await addCategory(db, { name })).name),
    delete: async (db, { id }) => {
      const { name, moved } = await deleteCategory(db, id);
      return CATEGORY_MESSAGES.deleted(name, moved);
    },
  },
  { permission: "products.edit", record: { type: "category", find: "name" }, failure: { add: CATEGORY_MESSAGES.failedAdd, delete: CATEGORY_MESSAGES.failedDelete }, storefront: ["add", "delete"] },
);

export function meta() {
  return [{ title: "Categories | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["categories"][number];

export default function Categories({ loaderData }: Route.ComponentProps) {
  const { categories, confirm } = loaderData;
  const columns: Column<Row>[] = [
    { header: "Name", cell: (c) => <span className="font-medium text-ink">{c.name}</span> },
    { header: "Slug", cell: (c) => <code className="text-xs text-ink-soft">{c.slug}</code> },
    { header: "Products", cell: (c) => c.productCount, className: "tabular-nums md:text-right" },
    { header: "Created", cell: (c) => c.created, className: "whitespace-nowrap" },
    {
      header: "Actions",
      bare: true,
      className: "md:text-right",
      cell: (c) => (
        <ConfirmDelete
          id={c.id}
          name={c.name}
          what="category"
          confirmHref={`/admin/categories?confirm=${encodeURIComponent(c.id)}`}
          cancelHref="/admin/categories"
          openOnLoad={confirm === c.id}
          note={c.productCount > 0 ? `Its ${c.productCount} ${c.productCount === 1 ? "product stays in the shop" : "products stay in the shop"}, uncategorised.` : undefined}
        />
      ),
    },
  ];
  return (
    <AdminPage title="Categories" description="Group the catalogue for the shop's category filter and breadcrumbs." status={<AdminStatus />}>
      <AddCategoryForm />
      <DataTable<Row>
        rows={categories}
        columns={columns}
        rowKey={(c) => c.id}
        caption="Categories"
        empty={<p className="text-sm text-ink-soft">No categories yet. Add the first one above.</p>}
      />
    </AdminPage>
  );
}

function AddCategoryForm() {
  const fetcher = useAdminFetcher();
  const result = useAdminResult();
  const form = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "add";
  const error = result && !result.ok ? result.fieldErrors.name : undefined;
  // A category was added: empty the field for the next one.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok && fetcher.data.intent === "add") form.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return (
    <fetcher.Form ref={form} method="post" action="/admin/categories" className="border border-line bg-white p-4 sm:p-5">
      <h2 className="font-display text-xl text-ink">Add a category</h2>
      <input type="hidden" name="intent" value="add" />
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <Field label="Name" error={error} hint={`The slug is made from the name, e.g. "For Her" → ${categorySlugFor("For Her")}`}>
            {(props) => <input {...props} name="name" required maxLength={80} autoComplete="off" />}
          </Field>
        </div>
        <Button type="submit" disabled={busy} className="sm:mt-6">
          {busy ? "Adding…" : "Add Category"}
        </Button>
      </div>
    </fetcher.Form>
  );
}

