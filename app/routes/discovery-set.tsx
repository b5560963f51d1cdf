import { data, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/discovery-set";
import { Breadcrumbs, breadcrumbJsonLd, type Crumb } from "~/components/breadcrumbs";
import { JsonLd } from "~/components/json-ld";
import { DiscoverySetPicker } from "~/components/samples/discovery-set-picker";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { cleanPicks, SAMPLE_ML, setLabel, setName, setToken, DISCOVERY_SET_ID } from "~/modules/samples/samples.logic";
import { loadSampleSettings, sampleableProducts } from "~/modules/samples/samples.server";
import { seoMeta } from "~/modules/seo/seo";
import { rootDataOf, useRootData } from "~/modules/settings/root-data";
import { logger } from "~/utils/logger.server";
import { formatRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";

/**
 * /discovery-set (issue 33 point 2, docs/decisions/054): choose the set's samples for one price. The picks are the
 * URL's query (`?pick=<slug>` repeated, a GET form like the scent finder), so a browser without JavaScript chooses and
 * checks its set, the finder links here with its three preselected, and the page cache can keep any combination.
 * With JavaScript a tap picks a scent and one more adds the set to the cart; the server prices the set line.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const db = getDb();
  try {
    const settings = await loadSampleSettings(db);
    const products = await sampleableProducts(db, settings);
    const bySlug = new Map(products.map((p) => [p.slug, p]));
    const wanted = readQuery(request).getAll("pick");
    const { picks, ignored } = cleanPicks(wanted, new Set(products.filter((p) => p.left !== 0).map((p) => p.slug)), settings.setSize);
    const chosen = picks.map((slug) => bySlug.get(slug)!);
    return {
      offer: { setSize: settings.setSize, setPriceCents: settings.setPriceCents, samplePriceCents: settings.priceCents, creditDays: settings.creditDays },
      products,
      picks,
      ignored: ignored.length ? [`${ignored.length === 1 ? "One scent" : `${ignored.length} scents`} in the link can't be chosen (not sampled, sold out, or more than ${settings.setSize}).`] : [],
      // the set as it goes in the cart, once complete (its price for display: the server prices it again)
      line:
        chosen.length === settings.setSize
          ? { id: DISCOVERY_SET_ID, size: setToken(chosen.map((p) => p.id)), sizeLabel: setLabel(chosen.length), name: setName(chosen.map((p) => p.name)), price: settings.setPriceCents, quantity: 1 }
          : null,
    };
  } catch (error) {
    logger.error({ err: error }, "discovery set: load failed");
    throw data({ message: "The discovery set is unavailable for a moment" }, { status: 500 });
  }
}

const TITLE = "Build your discovery set";

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const { baseUrl, shop } = rootDataOf(matches);
  const size = loaderData?.offer.setSize ?? 5;
  const tags = seoMeta({
    title: `Discovery set | ${shop.name}`,
    description: `Choose ${size} fragrances as ${SAMPLE_ML} ml samples for one price, and have each sample's price back on a full bottle.`,
    path: "/discovery-set",
    baseUrl,
    siteName: shop.name,
  });
  if (loaderData?.picks.length) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
}

export default function DiscoverySet({ loaderData }: Route.ComponentProps) {
  const { offer, products, picks, ignored, line } = loaderData;
  const { baseUrl, shop } = useRootData();
  const crumbs: Crumb[] = [
    { label: "Home", to: "/" },
    { label: "Discovery set", to: "/discovery-set" },
  ];
  return (
    <main className="pb-28">
      <section className="relative overflow-hidden">
        <div aria-hidden="true" className="hero-wash pointer-events-none absolute inset-0 opacity-80" />
        <div className="container-page relative pt-22 pb-6 sm:pt-32 sm:pb-10">
          <Breadcrumbs items={crumbs} />
          <p className="eyebrow mt-5 sm:mt-8">Try before the bottle</p>
          <h1 className="mt-2 text-[2.4rem] leading-[1.05] sm:mt-3 sm:text-6xl">{TITLE}</h1>
          <p className="mt-3 max-w-xl text-sm text-ink-soft sm:text-base">
            Choose {offer.setSize} scents as {SAMPLE_ML} ml samples, <span className="text-ink">all {offer.setSize} for {formatRand(offer.setPriceCents)}</span>. Each sample's
            price comes off a full bottle of that scent within {offer.creditDays} days, so the set pays for itself.
          </p>
        </div>
      </section>
      <div className="container-page">
        {ignored.length ? (
          <p role="status" className="mb-6 border-l-2 border-gold bg-sand/60 px-4 py-3 text-sm text-ink-soft" data-testid="set-notes">
            {ignored[0]}
          </p>
        ) : null}
        {products.length < offer.setSize ? (
          <div className="border border-dashed border-line bg-white/60 px-6 py-12 text-center">
            <p className="font-display text-2xl text-ink">Samples are not on offer just now</p>
            <p className="mt-2 text-sm text-ink-soft">Browse the collection, or ask us on WhatsApp about trying a scent.</p>
            <ButtonLink to="/shop" className="mt-6">
              Browse the Shop
            </ButtonLink>
          </div>
        ) : (
          <DiscoverySetPicker key={picks.join(",")} products={products} picks={picks} offer={offer} line={line} shopName={shop.name} />
        )}
      </div>
      <JsonLd data={breadcrumbJsonLd(crumbs, baseUrl, "/discovery-set")} />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) && typeof error.data?.message === "string" ? error.data.message : "The discovery set is unavailable for a moment";
  return (
    <main className="container-page flex min-h-[60vh] flex-col items-center justify-center pt-32 pb-20 text-center">
      <p className="eyebrow">Discovery set</p>
      <h1 className="mt-4 text-4xl">{message}</h1>
      <div className="mt-8">
        <ButtonLink to="/shop">Browse the Shop</ButtonLink>
      </div>
    </main>
  );
}
