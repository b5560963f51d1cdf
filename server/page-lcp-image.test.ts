import { describe, expect, it, vi } from "vitest";
import { INLINE_IMAGE_MAX_BYTES, keptImageReader, withInlinedLcpImage } from "./page-lcp-image";

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

describe("the image reader a page cache keeps", () => {
  it("reads each image once (names carry their content hash), and keeps a too-big one's answer without its bytes", async () => {
    const reads: string[] = [];
    const big = Buffer.alloc(INLINE_IMAGE_MAX_BYTES + 1);
    const read = keptImageReader(async (url) => (reads.push(url), url.endsWith("big.webp") ? big : Buffer.from(url)));
    expect(String(await read("/media/a.webp"))).toBe("/media/a.webp");
    expect(String(await read("/media/a.webp"))).toBe("/media/a.webp");
    expect(await read("/media/big.webp")).toBeNull();
    expect(await read("/media/big.webp")).toBeNull();
    expect(reads).toEqual(["/media/a.webp", "/media/big.webp"]);
  });

  it("doesn't wait for a slow read (the page links to its image) but keeps its answer when it arrives, reading once", async () => {
    vi.useFakeTimers();
    try {
      let answer: (b: Buffer) => void = () => {};
      let calls = 0;
      const read = keptImageReader(() => (calls++, new Promise<Buffer>((resolve) => (answer = resolve))), { timeoutMs: 300 });
      const first = read("/media/slow.webp");
      await vi.advanceTimersByTimeAsync(300);
      expect(await first).toBeUndefined();
      // still slow for the next page: the same read, not a second one
      const second = read("/media/slow.webp");
      await vi.advanceTimersByTimeAsync(300);
      expect(await second).toBeUndefined();
      answer(Buffer.from("now"));
      await vi.advanceTimersByTimeAsync(0);
      expect(String(await read("/media/slow.webp"))).toBe("now");
      expect(calls).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failed read is not kept: the next page tries again", async () => {
    let calls = 0;
    const read = keptImageReader(async () => {
      calls++;
      if (calls === 1) throw new Error("bucket down");
      return Buffer.from("back");
    });
    expect(await read("/media/x.webp")).toBeNull();
    expect(String(await read("/media/x.webp"))).toBe("back");
  });

  it("keeps at most maxEntries answers, forgetting the oldest", async () => {
    const reads: string[] = [];
    const read = keptImageReader(async (url) => (reads.push(url), Buffer.from("x")), { maxEntries: 2 });
    for (const url of ["/1", "/2", "/3", "/1"]) await read(url);
    expect(reads).toEqual(["/1", "/2", "/3", "/1"]);
  });
});
