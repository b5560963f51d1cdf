import { Link } from "react-router";
import type { Route } from "./+types/admin._index";
import { AdminPage } from "~/components/admin/admin-page";
import { SalesSection } from "~/components/admin/sales-dashboard";
import { StatCards } from "~/components/admin/stat-cards";
import { LegalWarnings } from "~/components/admin/legal-warnings";
import { legalDashboardWarnings } from "~/modules/legal/legal.server";
import { getDb } from "~/db/db.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { can, type Permission } from "~/modules/accounts/permissions";
import { RECENT_SIGNUP_DAYS } from "~/modules/admin/dashboard.logic";
import { dashboardFigures, reviewRequestFigures } from "~/modules/reports/dashboard.server";
import { parseSalesQuery, salesPresets } from "~/modules/reports/sales.logic";
import { salesDashboard } from "~/modules/reports/sales.server";
import { env } from "~/utils/env.server";
import { readQuery } from "~/utils/request.server";

/**
 * Every member of staff opens the dashboard; it carries only the sections their role allows (issue 38): a packer sees
 * the orders to look after, not the revenue, the customers or the shop's settings.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const may = (needed: Permission | readonly Permission[]) => can(admin.permissions, needed);
  const db = getDb();
  const now = new Date();
  const { range, notice } = parseSalesQuery(readQuery(request), now);
  // dashboardFigures' order counts by status are the order tabs' (one read of the day sums, shared with the sales)
  const [figures, reviewRequests, sales] = await Promise.all([
    dashboardFigures(db),
    may(["reviews", "marketing"]) ? reviewRequestFigures(db) : null,
    may("reports") ? salesDashboard(db, range) : null,
  ]);
  const { counts } = figures;
  const shop = [
    may("products.edit") && { label: "Products", value: counts.products, to: "/admin/products" },
    may("products.edit") && { label: "Categories", value: counts.categories, to: "/admin/categories" },
    may("orders.view") && { label: "Orders", value: counts.orders, to: "/admin/orders" },
    may("coupons") && { label: "Coupons", value: counts.coupons, to: "/admin/coupons" },
    may("settings") && { label: "Shipping zones", value: counts.zones, to: "/admin/shipping" },
    may("reviews") && { label: "Reviews", value: counts.reviews, to: "/admin/reviews" },
  ].filter((card) => card !== false);
  return {
    orders: may("orders.view") ? figures.orders : null,
    users: may("customers") ? figures.users : null,
    inbox: may("customers") ? figures.inbox : { unread: 0 },
    shop,
    reviewRequests: reviewRequests ? { ...reviewRequests, afterDays: env().REVIEW_REQUEST_AFTER_DAYS } : null,
    sales: sales ? { range, notice, presets: salesPresets(now), ...sales } : null,
    legalWarnings: may("settings") ? legalDashboardWarnings() : [],
    // the orders action says what this person does with orders: a packer doesn't confirm payments
    quickActions: QUICK_ACTIONS.filter((a) => may(a.permission)).map((a) => (a.to === "/admin/orders" && !may("orders.money") ? { ...a, text: may("orders.fulfil") ? "Pack, ship and track orders." : "See orders and where they are." } : a)),
  };
}

export function meta() {
  return [{ title: "Dashboard | Admin | Scentara" }];
}

const QUICK_ACTIONS: readonly { to: string; label: string; text: string; permission: Permission }[] = [
  { to: "/admin/orders", label: "Manage Orders", text: "Confirm payments, ship and track orders.", permission: "orders.view" },
  { to: "/admin/products/add", label: "Add New Product", text: "A new fragrance, with its photographs.", permission: "products.edit" },
  { to: "/admin/coupons", label: "Manage Coupons", text: "Create and pause promotions.", permission: "coupons" },
  { to: "/admin/reviews", label: "Manage Reviews", text: "Read, correct or remove reviews.", permission: "reviews" },
];

export default function Dashboard({ loaderData: d }: Route.ComponentProps) {
  return (
    <AdminPage title="Dashboard" description="The shop at a glance: what needs you, how it sells, its people and its catalogue.">
      <LegalWarnings missing={d.legalWarnings} />
      {d.inbox.unread > 0 ? (
        <Link to="/admin/inbox" className="flex items-center justify-between gap-4 border border-gold/40 bg-blush/60 px-4 py-3 text-sm text-ink hover:bg-blush">
          <span>
            <strong className="font-semibold">{d.inbox.unread}</strong> unread {d.inbox.unread === 1 ? "message" : "messages"} from the contact form
          </span>
          <span className="text-xs font-medium uppercase tracking-[0.14em] text-gold">Open inbox →</span>
        </Link>
      ) : null}
      {d.orders ? (
        <section aria-labelledby="orders-heading">
          <h2 id="orders-heading" className="font-display text-2xl text-ink">
            Orders to look after
          </h2>
          <StatCards
            className="mt-3"
            cards={[
              { label: "Awaiting payment", value: d.orders.pending, to: "/admin/orders?status=pending", hint: "EFT: confirm when paid" },
              { label: "To ship", value: d.orders.processing, to: "/admin/orders?status=processing" },
              { label: "On their way", value: d.orders.shipped, to: "/admin/orders?status=shipped" },
              { label: "Delivered", value: d.orders.delivered, to: "/admin/orders?status=delivered" },
              { label: "Cancelled", value: d.orders.cancelled, to: "/admin/orders?status=cancelled" },
            ]}
          />
        </section>
      ) : null}
      {d.sales ? <SalesSection range={d.sales.range} notice={d.sales.notice} presets={d.sales.presets} sales={d.sales} /> : null}
      {d.users ? (
        <section aria-labelledby="users-heading">
          <h2 id="users-heading" className="font-display text-2xl text-ink">
            Customers and staff
          </h2>
          <StatCards
            className="mt-3"
            cards={[
              { label: "Total users", value: d.users.total, to: "/admin/users" },
              { label: "Admin", value: d.users.admins, to: "/admin/users?role=admin" },
              { label: "Regular", value: d.users.regular, to: "/admin/users?role=regular" },
              { label: "Recent signups", value: d.users.recent, to: "/admin/users", hint: `last ${RECENT_SIGNUP_DAYS} days` },
            ]}
          />
        </section>
      ) : null}
      {d.shop.length > 0 ? (
        <section aria-labelledby="shop-heading">
          <h2 id="shop-heading" className="font-display text-2xl text-ink">
            The shop
          </h2>
          <StatCards className="mt-3" cards={d.shop} />
        </section>
      ) : null}
      {d.reviewRequests ? (
        <section aria-labelledby="review-requests-heading">
          <h2 id="review-requests-heading" className="font-display text-2xl text-ink">
            Review requests
          </h2>
          <StatCards
            className="mt-3"
            cards={[
              {
                label: "Sent",
                value: d.reviewRequests.sent,
                hint: d.reviewRequests.afterDays > 0 ? `${d.reviewRequests.afterDays} ${d.reviewRequests.afterDays === 1 ? "day" : "days"} after delivery` : "switched off (REVIEW_REQUEST_AFTER_DAYS=0)",
              },
              { label: "Became reviews", value: d.reviewRequests.reviewed, to: "/admin/reviews" },
              { label: "Conversion", value: d.reviewRequests.percent === null ? "–" : `${d.reviewRequests.percent}%`, hint: "of requests sent" },
            ]}
          />
        </section>
      ) : null}
      {d.quickActions.length > 0 ? (
        <section aria-labelledby="quick-heading">
          <h2 id="quick-heading" className="font-display text-2xl text-ink">
            Quick actions
          </h2>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {d.quickActions.map((a) => (
              <li key={a.to}>
                <Link to={a.to} className="group block h-full border border-line bg-white px-5 py-4 transition-colors hover:border-gold">
                  <span className="block text-xs font-medium uppercase tracking-[0.16em] text-ink group-hover:text-gold">{a.label} →</span>
                  <span className="mt-1 block text-sm text-ink-soft">{a.text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </AdminPage>
  );
}
