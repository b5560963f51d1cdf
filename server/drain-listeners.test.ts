import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { oneDrainListener } from "./drain-listeners";

// A body written as React Router's writer writes a stream (@react-router/node writeAsyncIterableToWritable): write,
// and when write() says the buffer is full, res.once("drain") and, once drained, res.off("drain").
const CHUNK = "order,2026-11-26,R 1 299.00,paid\n".repeat(2000);
const CHUNKS = 400;

async function serve(withFix: boolean) {
  const app = express();
  app.use(compression());
  if (withFix) app.use(oneDrainListener());
  let waits = 0;
  app.get("/export.csv", async (_req, res) => {
    res.setHeader("Content-Type", "text/csv");
    for (let i = 0; i < CHUNKS; i++) {
      if (!res.write(CHUNK)) {
        waits++;
        await new Promise<void>((resolve) => {
          const onDrain = () => {
            res.off("drain", onDrain);
            resolve();
          };
          res.once("drain", onDrain);
        });
      }
    }
    res.end();
  });
  const server = app.listen(0);
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, waits: () => waits };
}

/** Reads the response slowly (pausing between chunks), so the server's writes meet backpressure. */
function slowGet(url: string) {
  return new Promise<Buffer>((resolve, reject) => {
    httpRequest(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => {
        chunks.push(c);
        res.pause();
        setImmediate(() => res.resume());
      });
      res.on("end", () => resolve(Buffer.concat(chunks)));
    })
      .on("error", reject)
      .end();
  });
}

describe("a streamed, compressed response that meets backpressure", () => {
  let close: (() => void) | undefined;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  afterEach(() => {
    close?.();
    process.off("warning", onWarning);
    warnings.length = 0;
  });

  it("arrives whole, and its waits for a drain leave no listener behind", async () => {
    process.on("warning", onWarning);
    const { server, base, waits } = await serve(true);
    close = () => server.close();
    const body = gunzipSync(await slowGet(`${base}/export.csv`)).toString();
    expect(body.length).toBe(CHUNK.length * CHUNKS);
    expect(waits()).toBeGreaterThan(10); // the writer did wait, more often than the warning's threshold
    await new Promise((r) => setImmediate(r));
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("(without it, compression keeps every wait's listener: the warning this guards against)", async () => {
    process.on("warning", onWarning);
    const { server, base, waits } = await serve(false);
    close = () => server.close();
    await slowGet(`${base}/export.csv`);
    expect(waits()).toBeGreaterThan(10);
    await new Promise((r) => setImmediate(r));
    expect(warnings).toContain("MaxListenersExceededWarning");
  });
});
