import { data, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/gift-cards";
import { Breadcrumbs, breadcrumbJsonLd, type Crumb } from "~/components/breadcrumbs";
import { GiftCardBuy, requestInput, type GiftCardFormValues } from "~/components/gift-card-buy";
import { JsonLd } from "~/components/json-ld";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { checkGiftCardRequest } from "~/modules/gift-cards/gift-card-sales.logic";
import { loadGiftCardSaleSettings } from "~/modules/gift-cards/gift-card-sales.server";
import { seoMeta } from "~/modules/seo/seo";
import { rootDataOf, useRootData } from "~/modules/settings/root-data";
import { logger } from "~/utils/logger.server";
import { formatWholeRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";
import { saDay } from "~/utils/sa-days";

/**
 * /gift-cards (issue 33 point 3, docs/decisions/053 "Selling gift cards"): choose an amount, for yourself or someone
 * else, the day it is e-mailed and a message. The form is a GET to this page, so without JavaScript the loader checks
 * it and says the card is ready; with it the card goes straight into the browser's cart. Not in the page cache (its
 * query may carry a recipient's address): rendered per request.
 */
export async function loader({ request }: Route.LoaderArgs) {
  try {
    const settings = await loadGiftCardSaleSettings(getDb());
    const now = new Date();
    const q = readQuery(request);
    const today = saDay(now);
    const first = settings.amountsCents[Math.min(1, settings.amountsCents.length - 1)];
    const initial: GiftCardFormValues = {
      amount: q.get("amount") ?? (first !== undefined ? String(first) : "other"),
      other: q.get("other") ?? "",
      for: q.get("for") === "me" ? "me" : "someone",
      name: q.get("name") ?? "",
      email: q.get("email") ?? "",
      date: q.get("date") ?? today,
      message: q.get("message") ?? "",
      from: q.get("from") ?? "",
    };
    // Submitted without JavaScript: checked here as the cart's quote will check it again.
    const checked = q.has("amount") && settings.enabled ? checkGiftCardRequest(requestInput(initial), settings, now) : null;
    return { settings, today, initial, checked };
  } catch (error) {
    logger.error({ err: error }, "gift cards page: load failed");
    throw data({ message: "Gift cards are unavailable for a moment" }, { status: 500 });
  }
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const { baseUrl, shop } = rootDataOf(matches);
  const amounts = loaderData?.settings.amountsCents.map((c) => formatWholeRand(c)).join(", ");
  const tags = seoMeta({
    title: `Gift cards | ${shop.name}`,
    description: `A ${shop.name} gift card${amounts ? ` of ${amounts} or an amount you choose` : ""}, e-mailed on the day you choose with your message, to spend on any fragrance.`,
    path: "/gift-cards",
    baseUrl,
    siteName: shop.name,
  });
  if (loaderData?.checked) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
}

export default function GiftCards({ loaderData }: Route.ComponentProps) {
  const { settings, today, initial, checked } = loaderData;
  const { baseUrl } = useRootData();
  const crumbs: Crumb[] = [
    { label: "Home", to: "/" },
    { label: "Gift cards", to: "/gift-cards" },
  ];
  return (
    <main className="pb-24">
      <section className="relative overflow-hidden">
        <div aria-hidden="true" className="hero-wash pointer-events-none absolute inset-0 opacity-80" />
        <div className="container-page relative pt-22 pb-8 sm:pt-32 sm:pb-12">
          <Breadcrumbs items={crumbs} />
          <p className="eyebrow mt-5 sm:mt-8">The gift of choosing</p>
          <h1 className="mt-2 text-[2.4rem] leading-[1.05] sm:mt-3 sm:text-6xl">Gift cards</h1>
          <p className="mt-3 max-w-xl text-sm text-ink-soft sm:text-base">Let them find their own signature scent. Sent by e-mail on the day you choose, with your words and a card to print.</p>
        </div>
      </section>
      <div className="container-page">
        {settings.enabled && (settings.amountsCents.length > 0 || (settings.minCents !== null && settings.maxCents !== null)) ? (
          <GiftCardBuy key={JSON.stringify(initial)} settings={settings} today={today} initial={initial} checked={checked} />
        ) : (
          <div className="border border-dashed border-line bg-white/60 px-6 py-12 text-center">
            <p className="font-display text-2xl text-ink">Gift cards are not on sale just now</p>
            <p className="mt-2 text-sm text-ink-soft">Browse the collection, or ask us on WhatsApp about a gift.</p>
            <ButtonLink to="/shop" className="mt-6">
              Browse the Shop
            </ButtonLink>
          </div>
        )}
      </div>
      <JsonLd data={breadcrumbJsonLd(crumbs, baseUrl, "/gift-cards")} />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) && typeof error.data?.message === "string" ? error.data.message : "Gift cards are unavailable for a moment";
  return (
    <main className="container-page flex min-h-[60vh] flex-col items-center justify-center pt-32 pb-20 text-center">
      <p className="eyebrow">Gift cards</p>
      <h1 className="mt-4 text-4xl">{message}</h1>
      <div className="mt-8">
        <ButtonLink to="/shop">Browse the Shop</ButtonLink>
      </div>
    </main>
  );
}
