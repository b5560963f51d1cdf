import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sizedImage } from "./images";
import { NotAnImageError, storeImageRenditions, UnreadableImageError } from "./product-images.server";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "scentara-media-test-"));
  process.env.MEDIA_DIR = join(root, "media");
});

afterAll(async () => {
  delete process.env.MEDIA_DIR;
  await rm(root, { recursive: true, force: true });
});

const fileOf = (url: string) => join(root, "media", url.replace(/^\/media\//, ""));

describe("storeImageRenditions", () => {
  it("re-encodes an upload to three WebP widths named by its content", async () => {
    const png = await sharp({ create: { width: 1600, height: 900, channels: 4, background: { r: 200, g: 120, b: 80, alpha: 0.5 } } }).png().toBuffer();
    const url = await storeImageRenditions(png, "Crème Brûlée Nº 5");
    expect(url).toMatch(/^\/media\/products\/creme-brulee-no-5-[0-9a-f]{8}-1200\.webp$/);
    for (const width of [400, 800, 1200]) {
      const meta = await sharp(fileOf(sizedImage(url, width))).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.width).toBe(width);
      expect(meta.height).toBe(Math.round((900 * width) / 1600));
    }
    // The same bytes give the same name; other bytes another.
    expect(await storeImageRenditions(png, "Crème Brûlée Nº 5")).toBe(url);
    const other = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#123456" } }).jpeg().toBuffer();
    const small = await storeImageRenditions(other, "small");
    expect(small).not.toBe(url);
    // Never enlarged beyond the original.
    expect((await sharp(fileOf(small)).metadata()).width).toBe(300);
  });

  it("refuses bytes that are not an image", async () => {
    await expect(storeImageRenditions(Buffer.from("<?php echo 'hi'; ?>"), "evil.jpg")).rejects.toBeInstanceOf(NotAnImageError);
    await expect(storeImageRenditions(Buffer.alloc(0), "empty")).rejects.toThrow("Please select an image file");
  });

  it("refuses a file whose header says PNG but whose data is broken, and stores nothing", async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#c33" } }).png().toBuffer();
    const broken = Buffer.concat([png.subarray(0, 100), Buffer.alloc(200, 7)]);
    expect((await sharp(broken).metadata()).format).toBe("png"); // the header alone looks fine
    await expect(storeImageRenditions(broken, "broken")).rejects.toBeInstanceOf(UnreadableImageError);
    expect((await readdir(join(root, "media", "products"))).filter((f) => f.startsWith("broken-"))).toEqual([]);
  });
});
