import type { Route } from "./+types/admin.products.edit";
import { AdminPage } from "~/components/admin/admin-page";
import { ProductForm } from "~/components/admin/product-form";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { getAdminProduct } from "~/modules/catalog/catalog-admin.server";
import { listCategories } from "~/modules/catalog/catalog.server";
import { productFormAction } from "~/modules/catalog/product-form.server";
import { loadDeliverySettings } from "~/modules/couriers/delivery.server";
import { env } from "~/utils/env.server";
import { formatAmount } from "~/utils/money";
import { routeId } from "~/utils/request.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = getDb();
  const product = await getAdminProduct(db, routeId(params.id));
  if (!product) throw new Response("Product not found", { status: 404 });
  const [categories, delivery] = await Promise.all([listCategories(db), loadDeliverySettings(db)]);
  return { product, categories, shopName: env().SHOP_NAME, defaultWeightGrams: delivery.bottleWeightGrams };
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
        product={{ ...product, price: formatAmount(product.priceCents), wasPrice: product.wasPriceCents === null ? "" : formatAmount(product.wasPriceCents), categoryId: product.categoryId ?? "", stock: product.stock === null ? "" : String(product.stock), sizeMl: product.sizeMl === null ? "" : String(product.sizeMl), weightGrams: product.weightGrams === null ? "" : String(product.weightGrams) }}
        categories={loaderData.categories}
        shopName={loaderData.shopName}
        defaultWeightGrams={loaderData.defaultWeightGrams}
        action={`/admin/products/edit/${product.id}`}
      />
    </AdminPage>
  );
}
