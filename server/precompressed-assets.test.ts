import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressDirectory, precompressedAssets } from "./precompressed-assets";

// A script like the build's: big enough to be worth compressing, and repetitive enough to compress well.
const script = `export function price(c){return "R "+(c/100).toFixed(2)}\n${"/* amber, oud and vetiver */ ".repeat(200)}`;
const tiny = "export const a=1;";

describe("assets compressed at build time", () => {
  let dir: string;
  let base: string;
  let server: ReturnType<express.Express["listen"]>;
  const errors: Error[] = [];
  let sentToGone: ((error?: Error) => void) | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "scentara-assets-"));
    writeFileSync(join(dir, "app-abc123.js"), script);
    writeFileSync(join(dir, "tiny-abc123.js"), tiny);
    writeFileSync(join(dir, "photo-abc123.webp"), Buffer.alloc(4096, 7));
    const totals = await precompressDirectory(dir);
    expect(totals.files).toBe(1);
    expect(totals.brotliBytes).toBeLessThan(totals.bytes / 5);

    // As server/app.ts mounts it: the per-response compression in front, the plain static handler behind.
    const app = express();
    app.use(compression());
    const options = { immutable: true, maxAge: "1y" };
    // a request whose browser has already gone: held until its connection closes, then handed on, with the end of
    // its file's sending told to the test (sentToGone)
    app.use("/assets/gone", (req, res, next) => {
      const sendFile = res.sendFile.bind(res) as (path: string, options: object, done: (error?: Error) => void) => void;
      res.sendFile = ((path: string, options: object, done: (error?: Error) => void) =>
        sendFile(path, options, (error) => {
          done(error);
          setImmediate(() => sentToGone?.(error));
        })) as typeof res.sendFile;
      if (req.socket.destroyed) next();
      else req.socket.once("close", () => next());
    });
    app.use("/assets/gone", precompressedAssets(dir, options));
    app.use("/assets", precompressedAssets(dir, options));
    app.use("/assets", express.static(dir, { ...options, index: false }));
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      errors.push(error);
      res.status(500).end();
    });
    server = app.listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function get(path: string, acceptEncoding: string, method = "GET") {
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      httpRequest(`${base}${path}`, { method, headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    });
  }

  it("writes brotli and gzip copies beside the scripts worth compressing, and only those", () => {
    expect(brotliDecompressSync(readFileSync(join(dir, "app-abc123.js.br"))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(join(dir, "app-abc123.js.gz"))).toString()).toBe(script);
    expect(existsSync(join(dir, "tiny-abc123.js.br"))).toBe(false); // under 1 KB: headers outweigh the saving
    expect(existsSync(join(dir, "photo-abc123.webp.br"))).toBe(false); // images are compressed already
  });

  it("sends the brotli copy to a browser that accepts it, as JavaScript, cached for a year", async () => {
    const res = await get("/assets/app-abc123.js", "gzip, deflate, br, zstd");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toContain("text/javascript");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers.vary).toContain("Accept-Encoding");
    expect(Number(res.headers["content-length"])).toBe(readFileSync(join(dir, "app-abc123.js.br")).length);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it("sends gzip to a browser without brotli, and the plain file to one that accepts neither", async () => {
    const gz = await get("/assets/app-abc123.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await get("/assets/app-abc123.js", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["content-type"]).toContain("text/javascript");
    expect(plain.body.toString()).toBe(script);
  });

  it("answers HEAD like GET, without a body", async () => {
    const res = await get("/assets/app-abc123.js", "br", "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.body.length).toBe(0);
  });

  it("a browser that leaves before the file is sent is not an error", async () => {
    const sent = new Promise<Error | undefined>((resolve) => (sentToGone = resolve));
    const req = httpRequest(`${base}/assets/gone/app-abc123.js`, { headers: { "accept-encoding": "br" } });
    req.on("error", () => {}); // the socket is destroyed on purpose
    req.end(() => req.destroy());
    // the file's sending did end in "aborted", and nothing reached the error handler
    expect((await sent)?.message).toBe("Request aborted");
    expect(errors).toEqual([]);
  });

  it("leaves files without a copy, unknown names and odd paths to the static handler", async () => {
    const small = await get("/assets/tiny-abc123.js", "br");
    expect(small.status).toBe(200);
    expect(small.body.toString()).toBe(tiny);
    expect((await get("/assets/missing-abc123.js", "br")).status).toBe(404);
    // a malformed escape is refused by the static handler, not a server error
    const malformed = await get("/assets/%E0%A4%A", "br");
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
    expect((await get("/assets/../precompressed-assets.ts", "br")).status).toBe(404);
  });
});
