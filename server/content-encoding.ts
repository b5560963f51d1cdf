import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import type { Request } from "express";

/** The encodings the server sends ready-made (cached pages, built assets); anything else goes through `compression`. */
export type Encoding = "br" | "gzip";

/**
 * The answer for each Accept-Encoding header seen lately: browsers send a handful of distinct ones, and parsing the
 * header again for every cached page was a visible part of serving one (negotiator, ~1 % of its CPU).
 */
const chosen = new Map<string, Encoding | null>();

/** Brotli when the browser accepts it at all (smaller; every current browser does), else gzip, else none. */
export function preferredEncoding(req: Request, available: readonly Encoding[] = ["br", "gzip"]): Encoding | null {
  const key = `${available.join()}|${req.headers["accept-encoding"] ?? ""}`;
  let encoding = chosen.get(key);
  if (encoding === undefined) {
    const accepted = req.acceptsEncodings();
    encoding = available.find((e) => accepted.includes(e)) ?? null;
    if (chosen.size >= 200) chosen.clear(); // someone sending made-up headers: start again rather than grow
    chosen.set(key, encoding);
  }
  return encoding;
}

/**
 * Compressors for bytes compressed once and sent many times, so they can afford more effort than the per-response
 * defaults. On the thread pool: nobody waits on the main thread. `quality` is brotli's 0–11 (11: build time only —
 * it costs ~1 s per 300 KB); gzip always uses level 9.
 */
export function compress(encoding: Encoding, body: Buffer, quality = 9): Promise<Buffer> {
  return encoding === "br"
    ? promisify(brotliCompress)(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : promisify(gzip)(body, { level: 9 });
}
