import type { Route } from "./+types/admin.products.edit";
import { AdminPage } from "~/components/admin/admin-page";
import { ProductForm } from "~/components/admin/product-form";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { getAdminProduct } from "~/modules/catalog/catalog-admin.server";
import { listCategories } from "~/modules/catalog/catalog.server";
import { productFormAction } from "~/modules/catalog/product-form.server";
import { loadDeliverySettings } from "~/modules/couriers/delivery.server";
import { env } from "~/utils/env.server";
import { formatAmount } from "~/utils/money";
import { routeId } from "~/utils/request.server";
import { RecordHistory } from "~/components/admin/activity-log";
import { activityItems, recordHistory } from "~/modules/activity/activity-admin.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePermission(request, "products.edit");
  const db = getDb();
  const product = await getAdminProduct(db, routeId(params.id));
  if (!product) throw new Response("Product not found", { status: 404 });
  const [categories, delivery] = await Promise.all([listCategories(db), loadDeliverySettings(db)]);
  // "Add another size" without JavaScript (?sizes=add): the sizes table, with a new row
  const sizesTable = new URL(request.url).searchParams.get("sizes") === "add";
  // its own history from the activity log (docs/decisions/060)
  const history = activityItems(await recordHistory(db, "product", product.id));
  return { product, categories, shopName: env().SHOP_NAME, defaultWeightGrams: delivery.bottleWeightGrams, sizesTable, history };
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
        // another product, or the no-JavaScript "Add another size", starts the form afresh; a save that added or
        // deleted sizes does not (the form refreshes its table itself and keeps the save's message)
        key={`${product.id}:${loaderData.sizesTable}`}
        product={{
          ...product,
          price: formatAmount(product.priceCents),
          wasPrice: optionalAmount(product.wasPriceCents),
          categoryId: product.categoryId ?? "",
          stock: optionalNumber(product.stock),
          sizeMl: optionalNumber(product.sizeMl),
          weightGrams: optionalNumber(product.weightGrams),
          sizes: product.sizes.map((s) => ({
            id: s.id,
            label: s.label,
            price: formatAmount(s.priceCents),
            wasPrice: optionalAmount(s.wasPriceCents),
            sku: s.sku ?? "",
            stock: optionalNumber(s.stock),
            weightGrams: optionalNumber(s.weightGrams),
            hidden: s.hidden,
            ordered: s.ordered,
          })),
        }}
        categories={loaderData.categories}
        shopName={loaderData.shopName}
        defaultWeightGrams={loaderData.defaultWeightGrams}
        action={`/admin/products/edit/${product.id}`}
        sizesTable={loaderData.sizesTable}
        addSizeHref={`/admin/products/edit/${product.id}?sizes=add#product-sizes`}
      />
      <RecordHistory items={loaderData.history} allHref={`/admin/activity?type=product&record=${product.id}`} />
    </AdminPage>
  );
}

const optionalAmount = (cents: number | null) => (cents === null ? "" : formatAmount(cents));
const optionalNumber = (n: number | null) => (n === null ? "" : String(n));
