import { createHash } from "node:crypto";
import type { Sharp } from "sharp";
import { slugify } from "~/utils/slug";
import { IMAGE_WIDTHS, type ImageWidth } from "./images";
import { logger } from "~/utils/logger.server";
import { mediaStore, mediaUrlBase } from "./media-store.server";

/**
 * Product images: every image is stored as WebP at each IMAGE_WIDTHS width in the media store (media-store.server.ts:
 * this server's disk by default, or an S3-compatible bucket) under `products/`, named `{name}-{content hash}-{width}.webp`,
 * so a name always means the same bytes and can be cached forever. Uploads (the admin's product form) and the demo
 * catalogue's drawings (app/modules/demo/demo-images.server.ts) both come through here.
 */

/** WebP quality per width: tuned so the 800 px rendition stays well under the 80 KB image budget. */
const QUALITY: Record<ImageWidth, number> = { 400: 82, 800: 80, 1200: 78 };

/** The shop's own route for product images (served from whichever store is configured). */
export const PRODUCT_MEDIA_URL = "/media/products";
/** The store's folder for product images. */
export const PRODUCT_MEDIA_PREFIX = "products";

/** Where product image URLs point now: /media/products, or {S3_PUBLIC_URL}/products for a public bucket. */
export function productImageUrlBase(): string {
  return `${mediaUrlBase()}/${PRODUCT_MEDIA_PREFIX}`;
}

/** The store key of one rendition file, e.g. `products/velvet-oud-3f9a2c1b-400.webp`. */
export function renditionKey(stem: string, width: ImageWidth): string {
  return `${PRODUCT_MEDIA_PREFIX}/${stem}-${width}.webp`;
}

export function shortHash(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex").slice(0, 8);
}

/** A file-name-safe stem: the slug of the name, at most 60 characters. */
export function safeBase(name: string): string {
  return slugify(name).slice(0, 60) || "image";
}

/**
 * Encodes the source at every width (square: cropped to a square; otherwise never enlarged), in memory. This is where
 * the image's pixels are first decoded: a file whose header is fine but whose data is broken fails here.
 */
export async function encodeRenditions(source: Sharp, square: boolean): Promise<Array<{ width: ImageWidth; data: Buffer }>> {
  const encoded: Array<{ width: ImageWidth; data: Buffer }> = [];
  for (const width of IMAGE_WIDTHS) {
    const resized = source
      .clone()
      .resize(square ? { width, height: width, fit: "cover" } : { width, withoutEnlargement: true })
      .webp({ quality: QUALITY[width], effort: 4 });
    encoded.push({ width, data: await resized.toBuffer() });
  }
  return encoded;
}

/** Writes encoded renditions to the media store under the stem. Returns what was written. */
async function putRenditions(stem: string, encoded: Array<{ width: ImageWidth; data: Buffer }>): Promise<Array<{ key: string; data: Buffer }>> {
  const store = mediaStore();
  const written: Array<{ key: string; data: Buffer }> = [];
  for (const { width, data } of encoded) {
    await store.put(renditionKey(stem, width), data, "image/webp");
    written.push({ key: renditionKey(stem, width), data });
  }
  return written;
}

/**
 * Encodes the source at every width and writes each to the media store. Returns what was written (the demo images
 * keep a local copy of it).
 */
export async function writeRenditions(source: Sharp, stem: string, square: boolean): Promise<Array<{ key: string; data: Buffer }>> {
  return putRenditions(stem, await encodeRenditions(source, square));
}

export class NotAnImageError extends Error {
  constructor() {
    super("Please select an image file");
    this.name = "NotAnImageError";
  }
}

/** The bytes start like an image (the header names a format and a size) but its pixels can't be decoded. */
export class UnreadableImageError extends Error {
  constructor() {
    super("The image could not be read: the file is damaged or incomplete");
    this.name = "UnreadableImageError";
  }
}

/**
 * Re-encodes an uploaded image (checked by its content, not its name) to WebP at every IMAGE_WIDTHS width, strips
 * its metadata, turns it upright, and writes it to the media store. Returns the URL of the largest rendition,
 * the value to keep in products.images. Images narrower than a width are not enlarged. Throws NotAnImageError when
 * the bytes are not an image sharp recognises, and UnreadableImageError when the header is an image's but the data
 * is broken (a truncated PNG): every rendition is encoded before any is stored, so neither leaves a file behind, and
 * only a failing store is an unexpected error.
 */
export async function storeImageRenditions(buffer: Buffer, baseName: string): Promise<string> {
  // loaded at the first upload, not at start (libvips: ~0.08 s of CPU per server process)
  const { default: sharp } = await import("sharp");
  let source: Sharp;
  try {
    source = sharp(buffer, { failOn: "error", limitInputPixels: 40_000_000 }).rotate();
    const meta = await source.metadata();
    if (!meta.width || !meta.height) throw new NotAnImageError();
  } catch {
    throw new NotAnImageError();
  }
  const stem = `${safeBase(baseName)}-${shortHash(buffer)}`;
  let encoded: Array<{ width: ImageWidth; data: Buffer }>;
  try {
    // Flatten transparency onto ivory so PNG cut-outs look right on the shop's background.
    encoded = await encodeRenditions(source.flatten({ background: "#faf7f2" }), false);
  } catch {
    throw new UnreadableImageError();
  }
  await putRenditions(stem, encoded);
  return `${productImageUrlBase()}/${stem}-1200.webp`;
}

const STORED_NAME = new RegExp(`^([a-z0-9-]+)-(?:${IMAGE_WIDTHS.join("|")})\\.webp$`);

/**
 * The stem (`velvet-oud-3f9a2c1b`) of a product image stored here, or undefined for anything else (a default image
 * shipped with the shop, a foreign URL). Stored URLs start with /media/products (always served, whichever store is
 * configured) or, with a public bucket, with {S3_PUBLIC_URL}/products.
 */
export function storedImageStem(url: string): string | undefined {
  for (const base of new Set([PRODUCT_MEDIA_URL, productImageUrlBase()])) {
    if (url.startsWith(`${base}/`)) return STORED_NAME.exec(url.slice(base.length + 1))?.[1];
  }
  return undefined;
}

/** Is this a URL of an image stored here (as opposed to a default image shipped with the shop)? */
export function isStoredProductImage(url: string): boolean {
  return storedImageStem(url) !== undefined;
}

/**
 * Removes an image's renditions from the media store (SPEC §7: a failure is only logged: the product is already saved
 * without it, and an orphan file harms nobody). Shipped default images and foreign URLs are never touched.
 */
export async function removeImageRenditions(url: string): Promise<void> {
  const stem = storedImageStem(url);
  if (stem === undefined) return;
  const store = mediaStore();
  for (const width of IMAGE_WIDTHS) {
    await store.delete(renditionKey(stem, width)).catch((error: unknown) => logger.warn({ err: error, url }, "could not remove an image file"));
  }
}
