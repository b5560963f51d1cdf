import { access, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { env, type Env } from "~/utils/env.server";
import { mediaRoot } from "./media-paths.server";
import { S3Client } from "./s3-client.server";

/**
 * Where product images live (docs/decisions/028): this server's disk (MEDIA_DIR, the default) or an S3-compatible
 * bucket (MEDIA_STORAGE=s3), so that every app server can serve every image. Keys are relative paths such as
 * `products/velvet-oud-3f9a2c1b-400.webp`; an image is served at `/media/{key}`, or at `{S3_PUBLIC_URL}/{key}` when
 * the bucket is public. Names carry a content hash, so an object never changes once written: it is cached for a year.
 */
export interface MediaStore {
  readonly kind: "local" | "s3";
  /** Writes the object whole (a reader never sees half of it). */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** The object's bytes, or null when there is none (tests and tools; pages are served by media-route.server.ts). */
  read(key: string): Promise<Buffer | null>;
}

/** The headers every stored image is served with: its name changes when its bytes do. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** Keys are lower-case path segments of letters, digits, '-', '_' and '.', never '..': nothing can climb out. */
export function isSafeMediaKey(key: string): boolean {
  return /^[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*$/.test(key) && !key.split("/").some((s) => s.startsWith(".."));
}

function checkKey(key: string) {
  if (!isSafeMediaKey(key)) throw new Error(`not a media key: ${key}`);
}

/** Files under a directory; writes go to a temporary file first and are renamed into place. */
export class LocalMediaStore implements MediaStore {
  readonly kind = "local";
  constructor(readonly root: string) {}

  private path(key: string) {
    checkKey(key);
    return join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(temp, data);
    await rename(temp, path);
  }

  async exists(key: string): Promise<boolean> {
    try {
      await access(this.path(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }
}

/** Objects in a bucket, each written with its content type and the year-long cache header. */
export class S3MediaStore implements MediaStore {
  readonly kind = "s3";
  constructor(readonly client: S3Client) {}

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    checkKey(key);
    await this.client.put(key, data, { contentType, cacheControl: IMMUTABLE_CACHE_CONTROL });
  }

  exists(key: string): Promise<boolean> {
    checkKey(key);
    return this.client.exists(key);
  }

  delete(key: string): Promise<void> {
    checkKey(key);
    return this.client.delete(key);
  }

  async read(key: string): Promise<Buffer | null> {
    checkKey(key);
    const response = await this.client.get(key);
    return response ? Buffer.from(await response.arrayBuffer()) : null;
  }
}

type S3Settings = Pick<Env, "S3_ENDPOINT" | "S3_REGION" | "S3_BUCKET" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY" | "S3_FORCE_PATH_STYLE">;

/** The S3 client for the configuration (env.server.ts has already refused a configuration that lacks a setting). */
export function s3ClientFor(config: S3Settings): S3Client {
  const region = config.S3_REGION!;
  return new S3Client({
    endpoint: config.S3_ENDPOINT ?? `https://s3.${region}.amazonaws.com`,
    region,
    bucket: config.S3_BUCKET!,
    accessKeyId: config.S3_ACCESS_KEY_ID!,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}

let s3Cache: { config: Env; store: S3MediaStore } | undefined;

/**
 * The store this process writes to. Local: MEDIA_DIR read on each call (tests point it at a temporary directory);
 * S3: one client per configuration.
 */
export function mediaStore(): MediaStore {
  const config = env();
  if (config.MEDIA_STORAGE === "local") return new LocalMediaStore(mediaRoot());
  if (s3Cache?.config !== config) s3Cache = { config, store: new S3MediaStore(s3ClientFor(config)) };
  return s3Cache.store;
}

/** The address images are served from: S3_PUBLIC_URL for a public bucket, otherwise this shop's /media route. */
export function mediaUrlBase(config: Pick<Env, "MEDIA_STORAGE" | "S3_PUBLIC_URL"> = env()): string {
  if (config.MEDIA_STORAGE === "s3" && config.S3_PUBLIC_URL) return config.S3_PUBLIC_URL.replace(/\/+$/, "");
  return "/media";
}

/**
 * The bytes of a stored image by the URL pages show it at (`/media/…`, or the bucket's public URL), or null when the
 * URL is not one of the store's or the object is gone (server/page-lcp-image.ts inlines a page's first image).
 */
export async function readStoredImage(url: string): Promise<Buffer | null> {
  const base = mediaUrlBase();
  if (!url.startsWith(`${base}/`)) return null;
  const key = url.slice(base.length + 1);
  return isSafeMediaKey(key) ? mediaStore().read(key) : null;
}

/** Origins pages load images from besides their own (for the Content-Security-Policy's img-src). */
export function mediaImageOrigins(config: Pick<Env, "MEDIA_STORAGE" | "S3_PUBLIC_URL"> = env()): string[] {
  const base = mediaUrlBase(config);
  return base.startsWith("/") ? [] : [new URL(base).origin];
}
