import { describe, expect, it } from "vitest";
import { INLINE_IMAGE_MAX_BYTES, withInlinedLcpImage } from "./page-lcp-image";

const base = "/media/products/amber-lantern-1ecc4099";
const srcset = `${base}-400.webp 400w, ${base}-800.webp 800w, ${base}-1200.webp 1200w`;
const card = (marker = ` data-inline-on-phone="${base}-400.webp"`) =>
  `<main><img src="${base}-400.webp" srcSet="${srcset}" sizes="50vw" alt=""${marker} loading="eager"/><img src="${base}-400.webp" srcSet="${srcset}" alt=""/></main>`;
const files = (bytes: Buffer) => async (url: string) => (url === `${base}-400.webp` ? bytes : null);

describe("the page's largest image inside its HTML", () => {
  it("puts a small phone rendition in src and in its srcset entry; wider screens keep their URLs; other images stay linked", async () => {
    const webp = Buffer.from("RIFF....WEBPVP8 tiny picture");
    const html = await withInlinedLcpImage(card(), files(webp));
    const uri = `data:image/webp;base64,${webp.toString("base64")}`;
    const [marked, other] = html.split("/><");
    expect(marked).toContain(` src="${uri}"`);
    expect(marked).toContain(`srcSet="${uri} 400w, ${base}-800.webp 800w, ${base}-1200.webp 1200w"`);
    expect(other).not.toContain("data:");
  });

  it("drops React's head preload of that image (it would fetch it again) and keeps the other images' preloads", async () => {
    const preload = (name: string) => `<link rel="preload" as="image" imageSrcSet="${srcset.replaceAll(base, name)}" imageSizes="50vw" fetchPriority="high"/>`;
    const other = "/media/products/rose-parlour-9b7c84a5";
    const html = await withInlinedLcpImage(`<head>${preload(base)}${preload(other)}</head>${card()}`, files(Buffer.from("x")));
    expect(html).toContain(`<head>${preload(other)}</head>`);
  });

  it("leaves the page as rendered when the image is too big, missing or unreadable, or nothing is marked", async () => {
    expect(await withInlinedLcpImage(card(), files(Buffer.alloc(INLINE_IMAGE_MAX_BYTES + 1)))).toBe(card());
    expect(await withInlinedLcpImage(card(), async () => null)).toBe(card());
    expect(await withInlinedLcpImage(card(), () => Promise.reject(new Error("bucket unreachable")))).toBe(card());
    expect(await withInlinedLcpImage(card(""), files(Buffer.from("x")))).toBe(card(""));
  });

  it("inlines only the first marked image", async () => {
    const twice = card() + card();
    const html = await withInlinedLcpImage(twice, files(Buffer.from("x")));
    expect(html.match(/data:image\/webp/g)).toHaveLength(2); // src and srcset of the first only
    expect(html.endsWith(card())).toBe(true);
  });
});
