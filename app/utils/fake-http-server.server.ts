import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake courier's fetch handler served over real HTTP on 127.0.0.1 (a free port), for the contract tests that speak
 * to it as the shop speaks to the real service. A client that gives up (its timeout) closes the socket, and the
 * handler's request is aborted, so a delayed answer stops waiting as a real server's would. A handler that throws
 * answers 500 with `failureBody` (each service's own error shape).
 */
export async function serveOnLoopback(
  handler: (request: Request) => Promise<Response>,
  failureBody: (error: unknown) => unknown,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  let baseUrl = "";
  const server = createServer(async (req, res) => {
    const abandoned = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abandoned.abort(new Error("client went away"));
    });
    try {
      const body = await readBody(req);
      const headers = new Headers();
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const method = req.method ?? "GET";
      const request = new Request(`${baseUrl}${req.url ?? "/"}`, {
        method,
        headers,
        body: method === "GET" || method === "HEAD" || body.length === 0 ? undefined : new Uint8Array(body),
        signal: abandoned.signal,
      });
      const response = await handler(request);
      if (res.destroyed) return;
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      if (res.headersSent || res.destroyed) return void res.destroy();
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify(failureBody(error)));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
