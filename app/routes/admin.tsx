import { isRouteErrorResponse, NavLink, Outlet } from "react-router";
import type { Route } from "./+types/admin";
import { ButtonLink } from "~/components/ui/button";
import { AccessDenied, adminPagesFor, RoleDenied } from "~/components/admin/admin-ui";
import { useAdminPermissions } from "~/components/admin/use-admin-permissions";
import { requireAdmin } from "~/modules/accounts/session.server";

/**
 * The admin shell: decided on the server. A visitor is sent to login (with a redirect back), a signed-in non-admin
 * gets 403 'Access Denied'. Child loaders run in parallel with this one, so every admin page guards itself too.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  // Every page reads these (useAdminPermissions) to offer only what the person's role allows; the server checks again.
  return { email: admin.email, role: admin.role?.name ?? null, permissions: admin.permissions };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export function meta() {
  return [{ title: "Admin | Scentara" }, { name: "robots", content: "noindex, nofollow" }];
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="container-page pt-24 pb-20 sm:pt-28">
      <div className="lg:grid lg:grid-cols-[13rem_1fr] lg:gap-12">
        <aside className="lg:pt-2">
          <nav aria-label="Admin" className="border-b border-line lg:border-b-0">
            <p className="eyebrow hidden pb-4 lg:block">Admin</p>
            <ul className="flex flex-wrap gap-x-5 lg:flex-col lg:gap-0">
              {adminPagesFor(loaderData.permissions).map((page) => (
                <li key={page.to} className="shrink-0">
                  <NavLink
                    to={page.to}
                    end={page.end ?? false}
                    className={({ isActive }) =>
                      `block border-b-2 py-3 text-xs font-medium uppercase tracking-[0.14em] transition-colors lg:border-b-0 lg:border-l-2 lg:py-2.5 lg:pl-4 ${
                        isActive ? "border-gold text-ink" : "border-transparent text-muted hover:text-ink"
                      }`
                    }
                  >
                    {page.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <p className="mt-8 hidden break-all text-xs text-muted lg:block">
            Signed in as {loaderData.email}
            {loaderData.role ? <span className="mt-1 block">{loaderData.role}</span> : null}
          </p>
        </aside>
        <main id="main" className="min-w-0 pt-8 lg:pt-0">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // The layout's loader answered: a member of staff whose role doesn't include the page (a customer gets Access Denied).
  const staff = useAdminPermissions();
  if (isRouteErrorResponse(error) && error.status === 403) return staff.known ? <RoleDenied role={staff.role} /> : <AccessDenied />;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main id="main" className="container-page flex min-h-[70vh] items-center justify-center pt-28 pb-20">
      <div className="max-w-md text-center">
        <p className="eyebrow">Admin area</p>
        <h1 className="mt-3 text-4xl text-ink">{notFound ? "Not found" : "Something went wrong"}</h1>
        <p className="mt-4 text-sm text-ink-soft">
          {notFound ? "That page or record doesn't exist." : "The page could not be loaded. Please try again."}
        </p>
        <ButtonLink to="/admin" variant="secondary" className="mt-8">
          Back to Dashboard
        </ButtonLink>
      </div>
    </main>
  );
}
