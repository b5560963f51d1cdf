import { Link } from "react-router";
import type { Route } from "./+types/admin._index";
import { AdminPage } from "~/components/admin/admin-page";
import { SalesSection } from "~/components/admin/sales-dashboard";
import { StatCards } from "~/components/admin/stat-cards";
import { LegalWarnings } from "~/components/admin/legal-warnings";
import { legalDashboardWarnings } from "~/modules/legal/legal.server";
import { getDb } from "~/db/db.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { RECENT_SIGNUP_DAYS } from "~/modules/admin/dashboard.logic";
import { dashboardFigures, reviewRequestFigures } from "~/modules/admin/dashboard.server";
import { parseSalesQuery, salesPresets } from "~/modules/reports/sales.logic";
import { salesDashboard } from "~/modules/reports/sales.server";
import { env } from "~/utils/env.server";
import { readQuery } from "~/utils/request.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = getDb();
  const now = new Date();
  const { range, notice } = parseSalesQuery(readQuery(request), now);
  // dashboardFigures' order counts by status are the order tabs' (one read of the day sums, shared with the sales)
  const [figures, reviewRequests, sales] = await Promise.all([dashboardFigures(db), reviewRequestFigures(db), salesDashboard(db, range)]);
  return {
    ...figures,
    reviewRequests: { ...reviewRequests, afterDays: env().REVIEW_REQUEST_AFTER_DAYS },
    sales: { range, notice, presets: salesPresets(now), ...sales },
    legalWarnings: legalDashboardWarnings(),
  };
}

export function meta() {
  return [{ title: "Dashboard | Admin | Scentara" }];
}

const QUICK_ACTIONS = [
  { to: "/admin/orders", label: "Manage Orders", text: "Confirm payments, ship and track orders." },
  { to: "/admin/products/add", label: "Add New Product", text: "A new fragrance, with its photographs." },
  { to: "/admin/coupons", label: "Manage Coupons", text: "Create and pause promotions." },
  { to: "/admin/reviews", label: "Manage Reviews", text: "Read, correct or remove reviews." },
] as const;

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
      <SalesSection range={d.sales.range} notice={d.sales.notice} presets={d.sales.presets} sales={d.sales} />
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
      <section aria-labelledby="shop-heading">
        <h2 id="shop-heading" className="font-display text-2xl text-ink">
          The shop
        </h2>
        <StatCards
          className="mt-3"
          cards={[
            { label: "Products", value: d.counts.products, to: "/admin/products" },
            { label: "Categories", value: d.counts.categories, to: "/admin/categories" },
            { label: "Orders", value: d.counts.orders, to: "/admin/orders" },
            { label: "Coupons", value: d.counts.coupons, to: "/admin/coupons" },
            { label: "Shipping zones", value: d.counts.zones, to: "/admin/shipping" },
            { label: "Reviews", value: d.counts.reviews, to: "/admin/reviews" },
          ]}
        />
      </section>
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
      <section aria-labelledby="quick-heading">
        <h2 id="quick-heading" className="font-display text-2xl text-ink">
          Quick actions
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2">
          {QUICK_ACTIONS.map((a) => (
            <li key={a.to}>
              <Link to={a.to} className="group block h-full border border-line bg-white px-5 py-4 transition-colors hover:border-gold">
                <span className="block text-xs font-medium uppercase tracking-[0.16em] text-ink group-hover:text-gold">{a.label} →</span>
                <span className="mt-1 block text-sm text-ink-soft">{a.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </AdminPage>
  );
}
