import { useLocation } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { loginPath } from "~/modules/accounts/redirect";
import { AdminPage } from "./admin-page";

/** Every admin page in the navigation, in order. */
export const ADMIN_PAGES = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/returns", label: "Returns" },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/categories", label: "Categories" },
  { to: "/admin/coupons", label: "Coupons" },
  { to: "/admin/gift-cards", label: "Gift cards" },
  { to: "/admin/reviews", label: "Reviews" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/marketing", label: "Marketing" },
  { to: "/admin/whatsapp", label: "WhatsApp" },
  { to: "/admin/shipping", label: "Shipping" },
  { to: "/admin/pricing", label: "Pricing" },
  { to: "/admin/samples", label: "Samples" },
  { to: "/admin/inbox", label: "Inbox" },
  { to: "/admin/data", label: "Data" },
  { to: "/admin/privacy", label: "Privacy" },
] as const;

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
