/**
 * /wishlist (docs/decisions/057). A signed-in shopper's list is read here, on the server, and works without
 * JavaScript: each Remove is a form post, as is the e-mail opt-in. A visitor's list lives in their browser: the page
 * shows it once its script has read it. The share link (signed, read-only) is for signed-in shoppers, whose list has an
 * address to share.
 * The page is personal: it is never in the shared page cache (server/page-cache.ts keeps only the storefront's pages).
 */
import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/wishlist";
import { BrowserWishlist, EmptyWishlist, RemoveButton, WishlistGrid } from "~/components/browser-wishlist";
import { Notice } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { getSessionUser, requireUserAction } from "~/modules/accounts/session.server";
import { safeRedirect } from "~/modules/accounts/redirect";
import { WISHLIST_ALERTS_CONSENT, WISHLIST_MESSAGES } from "~/modules/wishlist/wishlist.logic";
import { changeWishlist, listWishlist, setWishlistAlerts, wishlistAlertsOn, wishlistShareUrl } from "~/modules/wishlist/wishlist.server";
import { formError } from "~/utils/errors";
import { readFields } from "~/utils/request.server";

export function meta() {
  return [{ title: "Wishlist | Scentara" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) return { signedIn: false as const };
  const db = getDb();
  const [products, alerts] = await Promise.all([listWishlist(db, user.id), wishlistAlertsOn(db, user.id)]);
  return { signedIn: true as const, products, alerts, shareUrl: wishlistShareUrl(user.id) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const fields = await readFields(request);
  const db = getDb();
  if (fields.intent === "alerts") {
    const on = fields.alerts === "on";
    await setWishlistAlerts(db, user, on, { source: "wishlist" });
    return { ok: true as const, message: on ? WISHLIST_MESSAGES.alertsOn : WISHLIST_MESSAGES.alertsOff };
  }
  if (!(await changeWishlist(db, user.id, fields))) return formError("Unknown wishlist change");
  // a heart's post without JavaScript goes back to the page it was on; a Remove stays here
  throw redirect(safeRedirect(fields.redirect, "/wishlist"));
}

export default function Wishlist({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main className="container-page pt-24 pb-24 sm:pt-32">
      <p className="eyebrow">Saved for later</p>
      <h1 className="mt-3 text-4xl sm:text-5xl">Your Wishlist</h1>
      <div className="mt-8">
        {loaderData.signedIn ? (
          <>
            {actionData ? <div className="mb-6">{actionData.ok ? <Notice tone="success">{actionData.message}</Notice> : <Notice tone="error">{actionData.error}</Notice>}</div> : null}
            {loaderData.products.length === 0 ? (
              <EmptyWishlist />
            ) : (
              <WishlistGrid
                products={loaderData.products}
                remove={(p) => (
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="productId" value={p.id} />
                    <RemoveButton name={p.name} type="submit" />
                  </Form>
                )}
              />
            )}
            <div className="mt-12 grid gap-8 border-t border-line pt-8 md:grid-cols-2">
              <ShareLink url={loaderData.shareUrl} />
              <AlertsOptIn on={loaderData.alerts} />
            </div>
          </>
        ) : (
          <>
            <BrowserWishlist />
            <p className="mt-10 text-sm text-ink-soft">
              Your wishlist is kept in this browser.{" "}
              <Link to="/auth/login?redirect=%2Fwishlist" className="font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
                Sign in
              </Link>{" "}
              to keep it in your account, on every device, and to share it.
            </p>
          </>
        )}
      </div>
    </main>
  );
}

function ShareLink({ url }: { url: string }) {
  return (
    <section aria-labelledby="share-heading">
      <h2 id="share-heading" className="filter-label font-sans">
        Share your wishlist
      </h2>
      <p className="mt-2 text-sm text-ink-soft">Anyone with this link can see the scents on your list (not who you are), and can't change it.</p>
      <label htmlFor="share-link" className="sr-only">
        Share link
      </label>
      <input
        id="share-link"
        readOnly
        value={url}
        onFocus={(e) => e.currentTarget.select()}
        className="mt-3 block h-11 w-full min-w-0 rounded-none border border-ink/30 bg-white px-3 text-sm text-ink focus:border-gold focus:outline-none"
        data-testid="wishlist-share-link"
      />
    </section>
  );
}

function AlertsOptIn({ on }: { on: boolean }) {
  return (
    <section aria-labelledby="alerts-heading">
      <h2 id="alerts-heading" className="filter-label font-sans">
        Wishlist e-mails
      </h2>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="alerts" />
        <label className="flex gap-3 text-sm text-ink">
          <input type="checkbox" name="alerts" defaultChecked={on} className="mt-0.5 h-5 w-5 shrink-0 accent-ink" />
          <span>
            <span className="font-medium">{WISHLIST_ALERTS_CONSENT.label}</span>
            <span className="mt-1 block text-ink-soft">{WISHLIST_ALERTS_CONSENT.description}</span>
          </span>
        </label>
        <Button type="submit" variant="secondary" size="sm" className="mt-4">
          Save
        </Button>
      </Form>
    </section>
  );
}
