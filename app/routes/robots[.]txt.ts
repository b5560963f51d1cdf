import { robotsTxt } from "~/modules/seo/sitemap.server";
import { getBaseUrl } from "~/modules/settings/settings.server";

/** /robots.txt: everything public may be crawled; private and transactional pages may not. */
export async function loader() {
  return new Response(robotsTxt(getBaseUrl()), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
}
