import { useLocation } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { loginPath } from "~/modules/accounts/redirect";
import { can, type Permission } from "~/modules/accounts/permissions";
import { AdminPage } from "./admin-page";

/** Every admin page in the navigation, in order. */
export const ADMIN_PAGES: readonly AdminPageLink[] = [
  { to: "/admin", label: "Dashboard", end: true, permission: null },
  { to: "/admin/orders", label: "Orders", permission: "orders.view" },
  { to: "/admin/returns", label: "Returns", permission: "orders.view" },
  { to: "/admin/products", label: "Products", permission: ["products.edit", "products.io"] },
  { to: "/admin/categories", label: "Categories", permission: "products.edit" },
  { to: "/admin/coupons", label: "Coupons", permission: "coupons" },
  { to: "/admin/gift-cards", label: "Gift cards", permission: "gift-cards" },
  { to: "/admin/reviews", label: "Reviews", permission: "reviews" },
  { to: "/admin/users", label: "Users", permission: "customers" },
  { to: "/admin/marketing", label: "Marketing", permission: "marketing" },
  { to: "/admin/whatsapp", label: "WhatsApp", permission: "marketing" },
  { to: "/admin/shipping", label: "Shipping", permission: "settings" },
  { to: "/admin/pricing", label: "Pricing", permission: "products.edit" },
  { to: "/admin/samples", label: "Samples", permission: "products.edit" },
  { to: "/admin/inbox", label: "Inbox", permission: "customers" },
  { to: "/admin/data", label: "Data", permission: "data" },
  { to: "/admin/privacy", label: "Privacy", permission: "data" },
  { to: "/admin/staff", label: "Staff", permission: "staff" },
  { to: "/admin/activity", label: "Activity", permission: "staff" },
];

export interface AdminPageLink {
  to: string;
  label: string;
  end?: boolean;
  /** what the page's loader asks (requirePermission); null: every member of staff (the dashboard) */
  permission: Permission | readonly Permission[] | null;
}

/** The pages this person may open, in the menu's order (a page they can't open isn't offered). */
export function adminPagesFor(permissions: readonly Permission[], pages: readonly AdminPageLink[] = ADMIN_PAGES): AdminPageLink[] {
  return pages.filter((page) => page.permission === null || can(permissions, page.permission));
}

/** A guarded page whose tools arrive in a later release. */
export function AdminPlaceholder({ title, description }: { title: string; description: string }) {
  return (
    <AdminPage title={title} description={description}>
      <div className="border border-dashed border-line bg-white/60 px-6 py-12 text-center">
        <p className="font-display text-2xl text-ink">Coming soon</p>
        <p className="mt-2 text-sm text-ink-soft">This part of the admin area is being built.</p>
      </div>
    </AdminPage>
  );
}

/** What a member of staff sees on a page (or after an action) their role doesn't include (HTTP 403). */
export function RoleDenied({ role }: { role: string | null }) {
  return (
    <main id="main" className="container-page flex min-h-[70vh] items-center justify-center pt-28 pb-20">
      <div className="w-full max-w-md border border-line bg-white/70 px-6 py-12 text-center sm:px-10">
        <p className="eyebrow">Admin area</p>
        <h1 className="mt-3 text-4xl text-ink">Not part of your role</h1>
        <div className="mx-auto mt-5 h-px w-12 bg-gold/60" aria-hidden="true" />
        <p className="mt-5 text-sm text-ink-soft">
          Your staff role{role ? ` (${role})` : ""} doesn't allow this. The shop's owner can change your role if you need it.
        </p>
        <ButtonLink to="/admin" size="lg" className="mt-8 w-full">
          Back to Dashboard
        </ButtonLink>
      </div>
    </main>
  );
}

/** What a signed-in non-admin sees on any admin page (HTTP 403). */
export function AccessDenied() {
  const location = useLocation();
  return (
    <main id="main" className="container-page flex min-h-[70vh] items-center justify-center pt-28 pb-20">
      <div className="w-full max-w-md border border-line bg-white/70 px-6 py-12 text-center sm:px-10">
        <p className="eyebrow">Admin area</p>
        <h1 className="mt-3 text-4xl text-ink">Access Denied</h1>
        <div className="mx-auto mt-5 h-px w-12 bg-gold/60" aria-hidden="true" />
        <p className="mt-5 text-sm text-ink-soft">You need admin privileges to access this page.</p>
        <ButtonLink to={loginPath(location.pathname + location.search)} size="lg" className="mt-8 w-full">
          Sign In
        </ButtonLink>
      </div>
    </main>
  );
}
