import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchRemoteImage, imageBaseName, importRemoteImage, isPublicAddress, RemoteImageError, storeImage } from "./remote-image.server";

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1", "127.8.9.10", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
    "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
    "64:ff9b::a00:1", "ff02::1", "not an address",
  ])("%s is not public", (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(["8.8.8.8", "196.25.1.1", "172.32.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"])("%s is public", (address) => expect(isPublicAddress(address)).toBe(true));
});

let server: Server;
let base = "";
let media = "";
let png: Buffer;

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), "scentara-remote-image-"));
  process.env.MEDIA_DIR = media;
  png = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#b08d57" } }).png().toBuffer();
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path === "/rose.png") return res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (path === "/broken.png") return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.concat([png.subarray(0, 100), Buffer.alloc(300, 7)]));
    if (path === "/page.html") return res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
    if (path === "/huge.png") return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.alloc(64 * 1024));
    if (path === "/slow.png") return void setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(png), 1500);
    if (path === "/to-private") return res.writeHead(302, { location: "http://10.0.0.1/rose.png" }).end();
    if (path === "/to-rose") return res.writeHead(301, { location: "/rose.png" }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  delete process.env.MEDIA_DIR;
  await rm(media, { recursive: true, force: true });
});

const refused = (promise: Promise<unknown>, message: RegExp) => expect(promise).rejects.toSatisfy((e: unknown) => e instanceof RemoteImageError && message.test(e.message));

describe("fetchRemoteImage with the private-address check on", () => {
  it.each(["http://127.0.0.1/x.png", "http://10.1.2.3/x.png", "http://192.168.0.10/x.png", "http://[::1]/x.png", "http://169.254.169.254/latest/meta-data/"])(
    "refuses %s before connecting",
    (url) => refused(fetchRemoteImage(url), /private or local/),
  );
  it("refuses a name that resolves to a loopback address (localhost), at the connection's own look-up", async () => {
    const port = (server.address() as AddressInfo).port;
    await refused(fetchRemoteImage(`http://localhost:${port}/rose.png`), /private or local \((127\.0\.0\.1|::1)\)/);
  });
  it("refuses other schemes and credentials", async () => {
    await refused(fetchRemoteImage("file:///etc/passwd"), /only http and https/);
    await refused(fetchRemoteImage("ftp://example.com/x.png"), /only http and https/);
    await refused(fetchRemoteImage("https://user:pw@example.com/x.png"), /user name or password/);
  });
});

describe("fetchRemoteImage against a local server (the check told to allow it; nothing else is allowed)", () => {
  const allowLocal = { isAllowedAddress: (a: string) => a === "127.0.0.1" };
  it("fetches an image and stores it as an upload is stored", async () => {
    const { data, contentType } = await fetchRemoteImage(`${base}/rose.png`, allowLocal);
    expect(contentType).toBe("image/png");
    expect(data.equals(png)).toBe(true);
    expect(await importRemoteImage(`${base}/to-rose`, allowLocal)).toMatch(/^\/media\/products\/to-rose-[0-9a-f]{8}-1200\.webp$/);
  });
  it("refuses what isn't an image, is too large, too slow, broken, or redirects to a private address", async () => {
    await refused(fetchRemoteImage(`${base}/page.html`, allowLocal), /not an image \(text\/html\)/);
    await refused(fetchRemoteImage(`${base}/huge.png`, { ...allowLocal, maxBytes: 32 * 1024 }), /larger than/);
    await refused(fetchRemoteImage(`${base}/slow.png`, { ...allowLocal, timeoutMs: 300 }), /no image within 0.3 seconds/);
    await refused(fetchRemoteImage(`${base}/missing.png`, allowLocal), /answered 404/);
    await refused(fetchRemoteImage(`${base}/to-private`, allowLocal), /private or local \(10\.0\.0\.1\)/);
    await refused(importRemoteImage(`${base}/broken.png`, allowLocal), /could not be read/);
  });
});

describe("storing fetched bytes", () => {
  it("names the stored image after the URL's file and refuses what isn't an image", async () => {
    expect(imageBaseName("https://shop.example/wp-content/uploads/2024/05/Velvet%20Rose.jpg?ver=2")).toBe("Velvet Rose");
    await refused(storeImage(Buffer.from("<html>"), "x"), /not an image/);
  });
});
