import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/root";
// The display face's one file, preloaded: the headings above the fold use it (see Layout).
import displayFont from "@fontsource/cormorant-garamond/files/cormorant-garamond-latin-500-normal.woff2?url";
import { InlineStylesheet } from "./inline-stylesheet";
import { JsonLd } from "~/components/json-ld";
import { SiteFrame } from "~/components/layout/site-frame";
import { SignedInSync } from "~/components/signed-in-sync";
import { ButtonLink } from "~/components/ui/button";
import { getSessionUser } from "~/modules/accounts/session.server";
import { organizationJsonLd } from "~/modules/seo/structured-data";
import { discoverySetOffered } from "~/modules/samples/discovery-set-offered.server";
import { rewardsOffered } from "~/modules/rewards/rewards-profile.server";
import { getDb } from "~/db/db.server";
import { getBaseUrl, getShopInfo } from "~/modules/settings/settings.server";
import { socialLinks } from "~/modules/settings/shop";
import type { RootData } from "~/modules/settings/root-data";
import { requestInfoContext } from "~/context";
import { logger } from "~/utils/logger.server";

/**
 * Every page: signed in or not and as what (role decided on the server), the shop's public facts, the base URL, and
 * whether the discovery set and the rewards programme are linked (each kept in-process until the storefront changes:
 * nothing per visitor).
 */
export async function loader({ request, context }: Route.LoaderArgs): Promise<RootData> {
  let user: RootData["user"] = null;
  try {
    // A page shared by a whole audience (server/page-cache.ts) was given the role by the server: no session read.
    const { audience } = context.get(requestInfoContext);
    if (audience) user = audience === "visitor" ? null : { isAdmin: audience === "admin" };
    else {
      const sessionUser = await getSessionUser(request);
      user = sessionUser ? { isAdmin: sessionUser.isAdmin } : null;
    }
  } catch (error) {
    // A session store hiccup must not take the whole shop down: the page renders for a visitor.
    logger.error({ err: error }, "root: reading the session failed; rendering as a visitor");
  }
  const [discoverySet, rewards] = await Promise.all([discoverySetOffered(getDb()), rewardsOffered(getDb())]);
  return { user, shop: getShopInfo(), baseUrl: getBaseUrl(), discoverySet, rewards };
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

/** Defaults for pages without their own meta (each storefront page sets its own through seoMeta); the error page's title. */
export function meta({ loaderData, error }: Route.MetaArgs) {
  const name = loaderData?.shop.name ?? "";
  if (error) {
    const title = errorTitle(isRouteErrorResponse(error) ? error.status : 500);
    return [{ title: name ? `${title} | ${name}` : title }, { name: "robots", content: "noindex" }];
  }
  return [
    { title: name },
    { name: "description", content: `${name}: designer-inspired fragrances at fair prices, delivered across South Africa.` },
  ];
}

function errorTitle(status: number) {
  return status === 404 ? "Page not found" : status === 403 ? "Access Denied" : status < 500 ? "Something is not right" : "Something went wrong";
}

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en-ZA">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#faf7f2" />
        {/* The stylesheet is inlined (no render-blocking request); the server fills it in, see inline-stylesheet.tsx. */}
        <InlineStylesheet />
        <link rel="preload" href={displayFont} as="font" type="font/woff2" crossOrigin="anonymous" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { shop, baseUrl } = loaderData;
  return (
    <SiteFrame>
      <Outlet />
      <SignedInSync />
      <JsonLd data={organizationJsonLd(shop, baseUrl, socialLinks(shop.name).map((s) => s.href))} />
    </SiteFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = errorTitle(status);
  const detail =
    status === 404
      ? "The page you are looking for has moved or no longer exists."
      : status < 500 && isRouteErrorResponse(error) && typeof error.data === "string" && error.data
        ? error.data
        : "We could not show this page just now. Please try again in a moment, or contact us on WhatsApp.";
  if (!isRouteErrorResponse(error) && import.meta.env.DEV) console.error(error);
  return (
    <SiteFrame>
      <main className="relative overflow-hidden">
        <div aria-hidden="true" className="hero-wash pointer-events-none absolute inset-0" />
        <div className="container-page relative flex min-h-[70vh] flex-col items-center justify-center pt-32 pb-20 text-center">
          <p className="eyebrow">Error {status}</p>
          <h1 className="mt-4 text-4xl sm:text-5xl">{title}</h1>
          <span aria-hidden="true" className="my-6 block h-px w-12 bg-gold-light" />
          <p className="max-w-md text-ink-soft">{detail}</p>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            <ButtonLink to="/" reloadDocument>
              Return Home
            </ButtonLink>
            <ButtonLink to="/shop" variant="secondary" reloadDocument>
              Visit the Shop
            </ButtonLink>
          </div>
        </div>
      </main>
    </SiteFrame>
  );
}
