import type { Route } from "./+types/admin.products.add";
import { AdminPage } from "~/components/admin/admin-page";
import { ProductForm } from "~/components/admin/product-form";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { listCategories } from "~/modules/catalog/catalog.server";
import { productFormAction } from "~/modules/catalog/product-form.server";
import { loadDeliverySettings } from "~/modules/couriers/delivery.server";
import { env } from "~/utils/env.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "products.edit");
  const db = getDb();
  const [categories, delivery] = await Promise.all([listCategories(db), loadDeliverySettings(db)]);
  // "Add another size" without JavaScript (?sizes=add): the sizes table from the start
  const sizesTable = new URL(request.url).searchParams.get("sizes") === "add";
  return { categories, shopName: env().SHOP_NAME, defaultWeightGrams: delivery.bottleWeightGrams, sizesTable };
}

export const action = productFormAction;

export function meta() {
  return [{ title: "Add Product | Admin | Scentara" }];
}

const EMPTY = { name: "", slug: "", description: "", price: "", wasPrice: "", categoryId: "", metaTitle: "", metaDesc: "", images: [], stock: "", inspiredHouse: "", inspiredFragrance: "", sizeMl: "", weightGrams: "", sku: "", sizes: [] };

export default function AddProduct({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Add New Product" description="A new fragrance for the shop: it appears in the catalogue as soon as it is saved.">
      <ProductForm
        key={String(loaderData.sizesTable)}
        product={EMPTY}
        categories={loaderData.categories}
        shopName={loaderData.shopName}
        defaultWeightGrams={loaderData.defaultWeightGrams}
        action="/admin/products/add"
        sizesTable={loaderData.sizesTable}
        addSizeHref="/admin/products/add?sizes=add#product-sizes"
      />
    </AdminPage>
  );
}
