import { INLINE_ON_PHONE_ATTRIBUTE } from "~/modules/media/images";
import { logger } from "~/utils/logger.server";

/**
 * A cached page's largest image, inside its HTML (issue 32; README, Performance). Under Lighthouse's phone profile
 * (562 ms round trip, 1.6 Mbps) an image the page links to paints at the earliest one round trip after the page
 * (LCP 1.43-1.46 s on shop and product), whatever its priority. The one `<img>` marked `data-inline-on-phone`
 * (app/modules/media/images.ts) gets the rendition a phone picks as a data: URI, in `src` and in its `srcset` entry,
 * so a phone paints it with the page; wider screens still pick their larger rendition by URL. The page cache keeps
 * this version only for requests with the phone client hint (`Sec-CH-UA-Mobile: ?1`) and the page as rendered for
 * every other one (page-cache.ts, Copy): a desktop would download the inlined bytes for nothing.
 *
 * Only up to INLINE_IMAGE_MAX_BYTES: base64 adds a third and brotli can't shrink an image, so every byte is paid on
 * every first visit, and the page (14-20 KB brotli) must stay small. The hydration data doesn't carry it (the markup
 * is rewritten after rendering, when the copy is sealed), so it travels once; React doesn't rewrite attributes on
 * hydration, and the image shown is the same picture. Anything unreadable leaves the page as rendered.
 */
export const INLINE_IMAGE_MAX_BYTES = 8 * 1024;

const TYPES: Record<string, string> = { webp: "image/webp", avif: "image/avif", png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg" };

const MARKED_IMG = new RegExp(`<img\\b[^>]*\\s${INLINE_ON_PHONE_ATTRIBUTE}="([^"]+)"[^>]*>`);

/** What an image reader answers: the bytes, null (nothing to inline: missing, too big), or undefined (not read yet). */
export type ImageRead = (url: string) => Promise<Buffer | null | undefined>;

export async function withInlinedLcpImage(html: string, read: ImageRead): Promise<string> {
  const match = MARKED_IMG.exec(html);
  if (!match) return html;
  const [tag, url] = match;
  const type = TYPES[/\.([a-z]+)$/.exec(url)?.[1] ?? ""];
  if (!type || url.includes("&")) return html;
  let bytes: Buffer | null | undefined;
  try {
    bytes = await read(url);
  } catch (error) {
    logger.warn({ err: error, url }, "page image: reading it to inline failed; the page links to it");
    return html;
  }
  if (!bytes || bytes.length > INLINE_IMAGE_MAX_BYTES) return html;
  const dataUri = `data:${type};base64,${bytes.toString("base64")}`;
  // In src too, though browsers pick from srcset: with the URL left in src, Chrome fetched it as well (its preload
  // scanner, by the E2E test); brotli sends the second copy for a few bytes.
  const inlined = tag
    .replace(` src="${url}"`, ` src="${dataUri}"`)
    // the srcset entry: the URL followed by its width descriptor
    .replace(new RegExp(`(srcSet|srcset)="([^"]*?)${escapeRegExp(url)}(\\s)`), `$1="$2${dataUri}$3`);
  const page = html.slice(0, match.index) + inlined + html.slice(match.index + tag.length);
  // React preloads an eager high-priority image from the head (by its srcset): that would fetch the inlined
  // rendition a second time. Without it the image is still found early, by the body's <img>.
  return page.replace(new RegExp(`<link rel="preload" as="image" [^>]*?imageSrcSet="[^"]*${escapeRegExp(url)}\\s[^>]*>`), "");
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The reader a page cache uses: each image's bytes (or "too big" / "missing") kept after the first read, and a read
 * that takes longer than `timeoutMs` not waited for (undefined: the page is sent linking to its image) but kept when it
 * arrives, one read per image at a time, so the page's next rendering has it (page-cache.ts keeps a page built without
 * its image only briefly: under load a first read can take longer, and the phone's copy then had no image for the
 * cache's whole lifetime, which the phone E2E test saw in full runs). Stored images are named by
 * their content hash and never change (media-store.server.ts), so a kept answer never goes stale; only small ones
 * keep their bytes (≤ INLINE_IMAGE_MAX_BYTES each, at most `maxEntries`: ~4 MB). Without this, every cache miss of a
 * product page read its photo again, from the bucket when images live in S3, and a slow bucket held up the page.
 */
export function keptImageReader(read: (url: string) => Promise<Buffer | null>, options: { timeoutMs?: number; maxEntries?: number } = {}): ImageRead {
  const timeoutMs = options.timeoutMs ?? 300;
  const maxEntries = options.maxEntries ?? 500;
  const kept = new Map<string, Buffer | null>();
  const reading = new Map<string, Promise<Buffer | null>>();
  const keep = (url: string, answer: Buffer | null): Buffer | null => {
    if (kept.size >= maxEntries) kept.delete(kept.keys().next().value!); // the oldest first
    const small = answer && answer.length <= INLINE_IMAGE_MAX_BYTES ? answer : null;
    kept.set(url, small);
    return small;
  };
  return async (url: string): Promise<Buffer | null | undefined> => {
    if (kept.has(url)) return kept.get(url)!;
    let pending = reading.get(url);
    if (!pending) {
      pending = read(url).then(
        (answer) => keep(url, answer),
        (error: unknown) => {
          logger.warn({ err: error, url }, "page image: reading it to inline failed; the page links to it");
          return null; // not kept: the next miss tries again
        },
      );
      reading.set(url, pending);
      void pending.finally(() => reading.delete(url));
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
    try {
      return await Promise.race([pending, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
