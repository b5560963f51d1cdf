/**
 * /profile: the signed-in person's own pages, one per tab (nested routes: profile._index.tsx the account,
 * profile.orders.tsx the orders, profile.rewards.tsx the reward points while the programme is on,
 * profile.preferences.tsx the e-mail preferences), under a frame with their e-mail and
 * the tab links. Each tab's loader and action checks the session itself; this one does too, for the frame.
 */
import { Link, Outlet, redirect, useMatches } from "react-router";
import type { Route } from "./+types/profile";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { loadRewardSettings } from "~/modules/rewards/rewards.server";
import { readQuery } from "~/utils/request.server";

const TABS = [
  { path: "/profile", label: "Account" },
  { path: "/profile/orders", label: "Orders" },
  // only while the owner has the programme on (issue 40)
  { path: "/profile/rewards", label: "Rewards", rewards: true },
  { path: "/profile/preferences", label: "Email Preferences" },
  { path: "/profile/security", label: "Sign-in & Security" },
] as const;

/** The tabs were /profile?tab=orders and ?tab=preferences before they were pages (links in e-mails already sent). */
const LEGACY_TABS: Record<string, string> = { orders: "/profile/orders", preferences: "/profile/preferences" };

export function meta() {
  return [{ title: "Profile | Scentara" }, { name: "robots", content: "noindex" }];
}

// every tab inherits it (a route without `headers` takes its parent's)
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const legacy = LEGACY_TABS[readQuery(request).get("tab") ?? ""];
  if (legacy && new URL(request.url).pathname.replace(/\/+$/, "") === "/profile") throw redirect(legacy, 301);
  const user = await requireUser(request);
  // the Rewards tab: only while the programme is on (undefined, not false, while off: the frame's data is as before)
  return { email: user.email, rewards: (await loadRewardSettings(getDb())).pointsOn || undefined };
}

export default function ProfileLayout({ loaderData }: Route.ComponentProps) {
  const matches = useMatches();
  const current = matches[matches.length - 1]?.pathname.replace(/\/+$/, "") || "/profile";
  return (
    <main id="main" className="container-page pt-28 pb-20 sm:pt-36">
      <div className="mx-auto max-w-3xl">
        <p className="eyebrow">Your account</p>
        <h1 className="mt-2 text-4xl text-ink sm:text-5xl">Profile Settings</h1>
        <p className="mt-3 text-sm text-ink-soft">
          Signed in as <span className="font-medium text-ink">{loaderData.email}</span>
        </p>

        <nav aria-label="Profile sections" className="mt-10 border-b border-line">
          <ul className="-mb-px flex gap-6 overflow-x-auto sm:gap-10">
            {TABS.filter((t) => !("rewards" in t) || loaderData.rewards).map((t) => {
              const isCurrent = t.path === current;
              return (
                <li key={t.path} className="shrink-0">
                  <Link
                    to={t.path}
                    preventScrollReset
                    aria-current={isCurrent ? "page" : undefined}
                    className={`inline-block border-b-2 pb-3 text-xs font-medium uppercase tracking-[0.16em] transition-colors ${
                      isCurrent ? "border-gold text-ink" : "border-transparent text-muted hover:text-ink"
                    }`}
                  >
                    {t.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <section className="pt-10" aria-labelledby="profile-section-title">
          <Outlet />
        </section>
      </div>
    </main>
  );
}
