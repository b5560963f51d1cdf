// Guarded placeholder: the page's own issue replaces the component (keep the requireAdmin call in its loader).
import type { Route } from "./+types/admin.coupons";
import { AdminPlaceholder } from "~/components/admin/admin-ui";
import { requireAdmin } from "~/modules/accounts/session.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export function meta() {
  return [{ title: "Coupons | Admin | Scentara" }];
}

export default function Page() {
  return <AdminPlaceholder title="Coupons" description="Discount codes, their limits and dates." />;
}
