import { readdirSync } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { NextFunction, Request, Response } from "express";
import { compress, preferredEncoding, type Encoding } from "./content-encoding.ts";

// The build's scripts and styles are compressed once, at build time, with the most effort brotli has (quality 11)
// and written beside each file as `name.br` and `name.gz`. Compressing per response (the `compression` middleware)
// costs the server CPU on every asset request and, at its fast default settings, sends React and React Router as
// 109 KB instead of 93 KB — bytes a shopper on prepaid data pays for on every first visit.

const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".svg", ".json", ".txt", ".map", ".webmanifest"]);
/** Below this the headers outweigh the saving. */
const MIN_BYTES = 1024;
const SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

/**
 * Writes `file.br` and `file.gz` beside every compressible file of `dir` (not recursive) that they make smaller.
 * Returns the bytes before and after (brotli) for the build's log line.
 */
export async function precompressDirectory(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const names = readdirSync(dir).filter((name) => COMPRESSIBLE.has(extname(name)));
  const totals = { files: 0, bytes: 0, brotliBytes: 0 };
  await Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      if ((await stat(path)).size < MIN_BYTES) return;
      const body = await readFile(path);
      const [br, gz] = await Promise.all([compress("br", body, 11), compress("gzip", body)]);
      if (br.length < body.length) await writeFile(path + SUFFIX.br, br);
      if (gz.length < body.length) await writeFile(path + SUFFIX.gzip, gz);
      totals.files++;
      totals.bytes += body.length;
      totals.brotliBytes += Math.min(br.length, body.length);
    }),
  );
  return totals;
}

/**
 * Serves a built asset's precompressed copy when the browser accepts its encoding; anything else (no copy, no
 * accepted encoding, a name that isn't a file there) goes on to the plain static handler. Mount it on the same path
 * as that handler. Which copies exist is read once, at start: the build's assets don't change under a running server.
 */
export function precompressedAssets(dir: string, options: { maxAge: string; immutable: boolean }) {
  let names: Set<string>;
  try {
    names = new Set(readdirSync(dir));
  } catch {
    names = new Set();
  }
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let name: string;
    try {
      name = decodeURIComponent(req.path.slice(1));
    } catch {
      return next(); // a malformed escape: the static handler answers it
    }
    // Only a plain file name of this directory: no sub-paths, no dot-files, and not a request for the copy itself.
    if (!name || name.includes("/") || name.startsWith(".") || !names.has(name)) return next();
    const available = (["br", "gzip"] as const).filter((encoding) => names.has(name + SUFFIX[encoding]));
    // Whatever is sent, a cache in between must keep the encodings apart.
    if (available.length) res.vary("Accept-Encoding");
    const encoding = preferredEncoding(req, available);
    if (!encoding) return next();
    // The type is the original file's, not the copy's (.br would be application/octet-stream); `send` keeps it.
    res.type(extname(name));
    res.setHeader("Content-Encoding", encoding);
    res.sendFile(name + SUFFIX[encoding], { root: dir, maxAge: options.maxAge, immutable: options.immutable, dotfiles: "deny" }, (error) => {
      // A browser that left the page before the file went out (a shopper tapping on) is nobody to answer: passed on,
      // Express printed it to stderr as an error ("Request aborted", ECONNABORTED).
      if (error && !res.headersSent && (error as NodeJS.ErrnoException).code !== "ECONNABORTED") next(error);
    });
  };
}
