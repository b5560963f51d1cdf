// Guarded placeholder: the page's own issue replaces the component (keep the requireAdmin call in its loader).
import type { Route } from "./+types/admin.orders";
import { AdminPlaceholder } from "~/components/admin/admin-ui";
import { requireAdmin } from "~/modules/accounts/session.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export function meta() {
  return [{ title: "Orders | Admin | Scentara" }];
}

export default function Page() {
  return <AdminPlaceholder title="Orders" description="Follow orders from payment to delivery." />;
}
