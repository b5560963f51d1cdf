import { data, isRouteErrorResponse, Link } from "react-router";
import type { Route } from "./+types/scent-finder";
import { Breadcrumbs, breadcrumbJsonLd, type Crumb } from "~/components/breadcrumbs";
import { JsonLd } from "~/components/json-ld";
import { FinderForm } from "~/components/scent/finder-form";
import { FinderPicks, ShareOnWhatsApp } from "~/components/scent/finder-picks";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { parseFinder, finderHref } from "~/modules/scent/scent.schema";
import { loveSuggestions, runFinder } from "~/modules/scent-finder/scent-finder.server";
import { absoluteUrl, seoMeta } from "~/modules/seo/seo";
import { rootDataOf, useRootData } from "~/modules/settings/root-data";
import { logger } from "~/utils/logger.server";
import { readQuery } from "~/utils/request.server";
import { discoverySetHref } from "~/modules/samples/samples.logic";
import { loadSampleSettings } from "~/modules/samples/samples.server";

/**
 * /scent-finder (issue 22): five questions, three picks. The answers are the URL's query (a GET form), so a result is
 * a link anyone can open, the visitor page cache can keep (server/page-cache.ts), and a browser without JavaScript can
 * make. Anything unusable in the URL is ignored and named on the page, never an error (scent.schema.ts).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { answers, answered, ignored } = parseFinder(readQuery(request));
  const db = getDb();
  try {
    const [loves, result, samples] = await Promise.all([loveSuggestions(db), answered ? runFinder(db, answers) : null, answered ? loadSampleSettings(db) : null]);
    return { answers, answered, ignored, loves, result, samplesOn: samples?.enabled ?? false };
  } catch (error) {
    logger.error({ err: error }, "scent finder: load failed");
    throw data({ message: "The scent finder is unavailable for a moment" }, { status: 500 });
  }
}

const TITLE = "Scent Finder";
const DESCRIPTION = "Five quick questions, three fragrances picked for you: designer-inspired perfumes matched to who, when and what you love.";

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const { baseUrl, shop } = rootDataOf(matches);
  const tags = seoMeta({ title: `${TITLE} | ${shop.name}`, description: DESCRIPTION, path: "/scent-finder", baseUrl, siteName: shop.name });
  // a result page is one of endless answer combinations: indexed once, as the finder itself
  if (loaderData?.answered) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
}

export default function ScentFinder({ loaderData }: Route.ComponentProps) {
  const { answers, answered, ignored, loves, result, samplesOn } = loaderData;
  const { baseUrl, shop } = useRootData();
  const crumbs: Crumb[] = [
    { label: "Home", to: "/" },
    { label: TITLE, to: "/scent-finder" },
  ];
  const notes = [...ignored, ...(result?.notes ?? [])];
  const shareUrl = absoluteUrl(baseUrl, finderHref(answers));

  return (
    <main className="pb-24">
      <section className="relative overflow-hidden">
        <div aria-hidden="true" className="hero-wash pointer-events-none absolute inset-0 opacity-80" />
        <div className="container-page relative pt-22 pb-6 sm:pt-32 sm:pb-10">
          <Breadcrumbs items={crumbs} />
          <p className="eyebrow mt-5 sm:mt-8">Find your scent</p>
          <h1 className="mt-2 text-[2.6rem] leading-[1.05] sm:mt-3 sm:text-6xl">{result ? "Your three scents" : TITLE}</h1>
          <p className="mt-3 max-w-xl text-sm text-ink-soft sm:text-base">
            {result
              ? "Chosen from your answers, in stock first. Change an answer below to see others."
              : "Five quick questions, three fragrances picked for you. No perfume words needed."}
          </p>
        </div>
      </section>

      <div className="container-page">
        {notes.length ? (
          <div role="status" className="mb-6 border-l-2 border-gold bg-sand/60 px-4 py-3 text-sm text-ink-soft [overflow-wrap:anywhere]" data-testid="finder-notes">
            <ul className="space-y-1">
              {notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          </div>
        ) : null}

        {result ? (
          <section aria-labelledby="picks-heading" className="mb-14">
            <h2 id="picks-heading" className="sr-only">
              Your picks
            </h2>
            {result.picks.length ? (
              <FinderPicks picks={result.picks} />
            ) : (
              <p className="text-ink-soft">
                Nothing to show yet. <Link to="/shop" className="underline">Browse the shop</Link>.
              </p>
            )}
            {result.picks.length ? (
              <div className="mt-6 flex flex-wrap items-center gap-x-6 gap-y-3">
                {samplesOn ? (
                  <Link to={discoverySetHref(result.picks.map((p) => p.slug))} className="text-xs font-medium uppercase tracking-[0.2em] text-ink underline decoration-gold underline-offset-4 hover:text-gold" data-testid="try-as-samples">
                    Try these {result.picks.length === 3 ? "three" : result.picks.length} as samples
                  </Link>
                ) : null}
                <ShareOnWhatsApp url={shareUrl} names={result.picks.map((p) => p.name)} shopName={shop.name} />
                <Link to="/scent-finder" className="text-xs font-medium uppercase tracking-[0.2em] text-ink underline decoration-gold-light underline-offset-4 hover:text-gold">
                  Start again
                </Link>
              </div>
            ) : null}
          </section>
        ) : null}

        <section aria-labelledby="questions-heading" className={result ? "border-t border-line pt-10" : ""}>
          <h2 id="questions-heading" className={result ? "mb-2 font-display text-3xl text-ink" : "sr-only"}>
            {result ? "Change your answers" : "The questions"}
          </h2>
          <FinderForm answers={answers} loves={loves} submitLabel={answered ? "Show my new three" : "Show my three scents"} />
        </section>
      </div>

      <JsonLd data={breadcrumbJsonLd(crumbs, baseUrl, "/scent-finder")} />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) && typeof error.data?.message === "string" ? error.data.message : "The scent finder is unavailable for a moment";
  return (
    <main className="container-page flex min-h-[60vh] flex-col items-center justify-center pt-32 pb-20 text-center">
      <p className="eyebrow">Scent Finder</p>
      <h1 className="mt-4 text-4xl">{message}</h1>
      <p className="mt-4 max-w-md text-ink-soft">Please try again in a moment, or browse the whole collection.</p>
      <div className="mt-8">
        <ButtonLink to="/shop">Browse the Shop</ButtonLink>
      </div>
    </main>
  );
}
