import { createHash } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp, { type Sharp } from "sharp";
import { slugify } from "~/utils/slug";
import { IMAGE_WIDTHS, type ImageWidth } from "./images";
import { logger } from "~/utils/logger.server";
import { mediaRoot } from "./media-paths.server";

/**
 * Product images on disk: every image is stored as WebP at each IMAGE_WIDTHS width under mediaRoot()/products, named
 * `{name}-{content hash}-{width}.webp`, so a name always means the same bytes and can be cached forever.
 * Uploads (the admin's product form) and the demo catalogue's drawings (app/db/seed/demo-images.server.ts) both
 * come through here.
 */

/** WebP quality per width: tuned so the 800 px rendition stays well under the 80 KB image budget. */
const QUALITY: Record<ImageWidth, number> = { 400: 82, 800: 80, 1200: 78 };

export const PRODUCT_MEDIA_URL = "/media/products";

export function productMediaDir(): string {
  return join(mediaRoot(), "products");
}

export function shortHash(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex").slice(0, 8);
}

/** A file-name-safe stem: the slug of the name, at most 60 characters. */
export function safeBase(name: string): string {
  return slugify(name).slice(0, 60) || "image";
}

/** Writes atomically (temp file, then rename) so a half-written image is never served. */
async function writeAtomic(path: string, data: Buffer) {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temp, data);
  await rename(temp, path);
}

/** Writes the source at every width (square: cropped to a square; otherwise never enlarged). */
export async function writeRenditions(source: Sharp, stem: string, square: boolean): Promise<void> {
  const dir = productMediaDir();
  await mkdir(dir, { recursive: true });
  for (const width of IMAGE_WIDTHS) {
    const resized = source
      .clone()
      .resize(square ? { width, height: width, fit: "cover" } : { width, withoutEnlargement: true })
      .webp({ quality: QUALITY[width], effort: 4 });
    await writeAtomic(join(dir, `${stem}-${width}.webp`), await resized.toBuffer());
  }
}

export class NotAnImageError extends Error {
  constructor() {
    super("Please select an image file");
    this.name = "NotAnImageError";
  }
}

/**
 * Re-encodes an uploaded image (checked by its content, not its name) to WebP at every IMAGE_WIDTHS width, strips
 * its metadata, turns it upright, and stores it under mediaRoot()/products. Returns the URL of the largest rendition,
 * the value to keep in products.images. Images narrower than a width are not enlarged. Throws NotAnImageError when
 * the bytes are not an image sharp can read.
 */
export async function storeImageRenditions(buffer: Buffer, baseName: string): Promise<string> {
  let source: Sharp;
  try {
    source = sharp(buffer, { failOn: "error", limitInputPixels: 40_000_000 }).rotate();
    const meta = await source.metadata();
    if (!meta.width || !meta.height) throw new NotAnImageError();
  } catch {
    throw new NotAnImageError();
  }
  const stem = `${safeBase(baseName)}-${shortHash(buffer)}`;
  // Flatten transparency onto ivory so PNG cut-outs look right on the shop's background.
  await writeRenditions(source.flatten({ background: "#faf7f2" }), stem, false);
  return `${PRODUCT_MEDIA_URL}/${stem}-1200.webp`;
}

/** Is this a URL of an image stored here (as opposed to a default image shipped with the shop)? */
export function isStoredProductImage(url: string): boolean {
  return new RegExp(`^${PRODUCT_MEDIA_URL}/[a-z0-9-]+-(?:${IMAGE_WIDTHS.join("|")})\\.webp$`).test(url);
}

/**
 * Removes an image's renditions from disk (SPEC §7: a failure is only logged: the product is already saved without
 * it, and an orphan file harms nobody). Shipped default images and foreign URLs are never touched.
 */
export async function removeImageRenditions(url: string): Promise<void> {
  if (!isStoredProductImage(url)) return;
  const stem = url.slice(PRODUCT_MEDIA_URL.length + 1).replace(/-\d+\.webp$/, "");
  for (const width of IMAGE_WIDTHS) {
    await rm(join(productMediaDir(), `${stem}-${width}.webp`), { force: true }).catch((error: unknown) =>
      logger.warn({ err: error, url }, "could not remove an image file"),
    );
  }
}
