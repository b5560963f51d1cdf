import type { Route } from "./+types/admin.products.edit";
import { AdminPage } from "~/components/admin/admin-page";
import { ProductForm } from "~/components/admin/product-form";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { getAdminProduct } from "~/modules/catalog/catalog-admin.server";
import { listCategories } from "~/modules/catalog/catalog.server";
import { productFormAction } from "~/modules/catalog/product-form.server";
import { env } from "~/utils/env.server";
import { formatAmount } from "~/utils/money";
import { routeId } from "~/utils/request.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = getDb();
  const product = await getAdminProduct(db, routeId(params.id));
  if (!product) throw new Response("Product not found", { status: 404 });
  return { product, categories: await listCategories(db), shopName: env().SHOP_NAME };
}

export const action = productFormAction;

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.product.name ?? "Edit Product"} | Admin | Scentara` }];
}

export default function EditProduct({ loaderData }: Route.ComponentProps) {
  const { product } = loaderData;
  return (
    <AdminPage
      title="Edit Product"
      description={product.name}
      actions={
        <ButtonLink to={`/products/${product.slug}`} target="_blank" rel="noreferrer" variant="secondary">
          View in shop
        </ButtonLink>
      }
    >
      <ProductForm
        key={product.id}
        product={{ ...product, price: formatAmount(product.priceCents), categoryId: product.categoryId ?? "", stock: product.stock === null ? "" : String(product.stock), sizeMl: product.sizeMl === null ? "" : String(product.sizeMl) }}
        categories={loaderData.categories}
        shopName={loaderData.shopName}
        action={`/admin/products/edit/${product.id}`}
      />
    </AdminPage>
  );
}
