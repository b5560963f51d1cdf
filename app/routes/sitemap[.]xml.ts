import { getDb } from "~/db/db.server";
import { sitemapStream } from "~/modules/seo/sitemap.server";
import { getBaseUrl } from "~/modules/settings/settings.server";

/** /sitemap.xml: home, shop, terms and every product, streamed. */
export async function loader() {
  return new Response(sitemapStream(getDb(), getBaseUrl()), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600, stale-while-revalidate=86400",
    },
  });
}
