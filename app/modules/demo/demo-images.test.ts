import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PRODUCTS } from "./demo-catalogue";
import { sizedImage, srcSetFor } from "~/modules/media/images";
import { bottleSvg, demoImageUrl, renderDemoImage } from "./demo-images.server";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "scentara-media-test-"));
  process.env.MEDIA_DIR = join(root, "media");
  process.env.DEMO_IMAGE_CACHE = join(root, "cache");
});

afterAll(async () => {
  delete process.env.MEDIA_DIR;
  delete process.env.DEMO_IMAGE_CACHE;
  await rm(root, { recursive: true, force: true });
});

const fileOf = (url: string) => join(root, "media", url.replace(/^\/media\//, ""));

describe("demo product images", () => {
  const product = DEMO_PRODUCTS.find((p) => p.name.includes("&"))!;
  const slug = "iron-cedar";

  it("draws a valid SVG with the name on the label, escaped", () => {
    const svg = bottleSvg(product.name, product.look);
    expect(svg).toMatch(/>IRON &amp;( |<\/text>.*>)CEDAR</s);
    expect(svg).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(bottleSvg(product.name, product.look)).toBe(svg);
  });

  it("gives every demo product its own image name", () => {
    const urls = DEMO_PRODUCTS.map((p) => demoImageUrl(p.name.toLowerCase().replace(/[^a-z0-9]+/g, "-"), p.name, p.look));
    expect(new Set(urls).size).toBe(urls.length);
    for (const url of urls) expect(srcSetFor(url)).toBeDefined();
  });

  it("renders square WebP renditions at 400, 800 and 1200, the 800 one well under 80 KB", async () => {
    const url = await renderDemoImage(slug, product.name, product.look);
    expect(url).toBe(demoImageUrl(slug, product.name, product.look));
    for (const width of [400, 800, 1200]) {
      const meta = await sharp(fileOf(sizedImage(url, width))).metadata();
      expect(meta.format).toBe("webp");
      expect([meta.width, meta.height]).toEqual([width, width]);
    }
    expect((await stat(fileOf(sizedImage(url, 800)))).size).toBeLessThan(40_000);
  });

  it("does not render again when the files exist, and copies from the cache into a fresh media directory", async () => {
    const url = demoImageUrl(slug, product.name, product.look);
    const before = (await stat(fileOf(url))).mtimeMs;
    await renderDemoImage(slug, product.name, product.look);
    expect((await stat(fileOf(url))).mtimeMs).toBe(before);

    await rm(join(root, "media"), { recursive: true });
    expect(await readdir(join(root, "cache"))).toHaveLength(3);
    await renderDemoImage(slug, product.name, product.look);
    expect((await stat(fileOf(url))).size).toBeGreaterThan(1000);
  });
});
