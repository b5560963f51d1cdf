// Guarded placeholder: the page's own issue replaces the component (keep the requireAdmin call in its loader).
import type { Route } from "./+types/admin.products.edit";
import { AdminPlaceholder } from "~/modules/accounts/admin-ui";
import { requireAdmin } from "~/modules/accounts/session.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export function meta() {
  return [{ title: "Edit Product | Admin | Scentara" }];
}

export default function Page() {
  return <AdminPlaceholder title="Edit Product" description="Change a product's details, price and images." />;
}
