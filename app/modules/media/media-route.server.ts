import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import express, { type RequestHandler } from "express";
import { env, type Env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { mediaRoot } from "./media-paths.server";
import { IMMUTABLE_CACHE_CONTROL, isSafeMediaKey, s3ClientFor } from "./media-store.server";

/**
 * GET/HEAD /media/* — product images, whichever store holds them (docs/decisions/028). Local: the files under
 * MEDIA_DIR. S3: the object streamed from the bucket with the same year-long immutable cache header, so any app server
 * serves any image (a CDN in front of /media caches them once). Names carry a content hash: never revalidated.
 */
export function mediaRoute(config: Env = env()): RequestHandler {
  if (config.MEDIA_STORAGE === "local") {
    return express.static(mediaRoot(), { immutable: true, maxAge: "1y", index: false, fallthrough: false });
  }
  const client = s3ClientFor(config);
  return async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      res.status(405).end();
      return;
    }
    let key: string;
    try {
      key = decodeURIComponent(req.path.slice(1));
    } catch {
      key = "";
    }
    if (!isSafeMediaKey(key)) {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    // A shopper who leaves mid-download stops the download from the bucket too.
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    let upstream: Response | null;
    try {
      upstream = await client.get(key, { ifNoneMatch: req.get("if-none-match"), head: req.method === "HEAD", signal: abort.signal });
    } catch (error) {
      if (abort.signal.aborted) return;
      logger.error({ err: error, key }, "could not read an image from the media store");
      res.status(502).type("text/plain").send("The image could not be read just now");
      return;
    }
    if (!upstream) {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    res.status(upstream.status === 304 ? 304 : 200);
    res.setHeader("Cache-Control", IMMUTABLE_CACHE_CONTROL);
    for (const name of ["content-type", "content-length", "etag", "last-modified"]) {
      const value = upstream.headers.get(name);
      if (value && !(upstream.status === 304 && name === "content-length")) res.setHeader(name, value);
    }
    if (upstream.status === 304 || req.method === "HEAD" || !upstream.body) {
      await upstream.body?.cancel();
      res.end();
      return;
    }
    try {
      await pipeline(Readable.fromWeb(upstream.body as import("node:stream/web").ReadableStream), res);
    } catch (error) {
      if (!abort.signal.aborted) logger.warn({ err: error, key }, "an image download from the media store broke off");
    }
  };
}
