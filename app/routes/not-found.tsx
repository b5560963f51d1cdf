import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { HomePage } from "~/components/home/home-page";
import { getDb } from "~/db/db.server";
import { loadHome } from "~/modules/home/home.server";
import { seoMeta } from "~/modules/seo/seo";
import { rootDataOf } from "~/modules/settings/root-data";

/** Any unknown path (SPEC §2): the home page, answered with 404 so search engines don't index the wrong address. */
export async function loader() {
  return data(await loadHome(getDb()), { status: 404 });
}

export function meta({ matches }: Route.MetaArgs) {
  const { shop, baseUrl } = rootDataOf(matches);
  return seoMeta({
    title: `Page not found | ${shop.name}`,
    description: "The page you are looking for could not be found. Explore our designer-inspired fragrances instead.",
    path: "/",
    baseUrl,
    siteName: shop.name,
    noindex: true,
  });
}

export default function NotFound({ loaderData }: Route.ComponentProps) {
  return <HomePage products={loaderData.products} notFound />;
}
