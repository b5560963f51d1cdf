/**
 * Images given by URL in an import (issue 20, docs/decisions/032), fetched by the server with limits, then checked and
 * stored exactly as an upload is (media/product-images.server.ts: by content, re-encoded to WebP).
 *
 * A URL is a request the server makes on the owner's behalf, so it must not reach what only the server can reach
 * (server-side request forgery): only http and https; every address the host name resolves to must be public — not
 * private (10/8, 172.16/12, 192.168/16), loopback, link-local (169.254/16, fe80::/10), unique-local (fc00::/7),
 * carrier-grade NAT, multicast or reserved, IPv4 and IPv6 alike (IPv4-mapped IPv6 included). The check runs in the
 * connection's own DNS look-up, so the address checked is the address connected to (a name that resolves to a public
 * address when checked and a private one when connecting can't slip through). Redirects are followed by hand, at most
 * three, each target checked the same way. The answer must say image/* (not SVG), be at most 5 MB (counted as it
 * arrives, whatever Content-Length says) and arrive within 10 seconds.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";
import { NotAnImageError, storeImageRenditions, UnreadableImageError } from "~/modules/media/product-images.server";

export const REMOTE_IMAGE_LIMITS = { maxBytes: 5 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 } as const;

/** A URL that gave no usable image; the message says why, for the import's report. */
export class RemoteImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RemoteImageError";
  }
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback (::1) and IPv4-compatible
  ["64:ff9b::", 96], // NAT64: would reach any IPv4 address, private ones too
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 32], // Teredo
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** Is this address one the server may fetch from (public)? IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 0) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return !blocked.check(mapped[1]!, "ipv4");
  return !blocked.check(bare, family === 4 ? "ipv4" : "ipv6");
}

export interface RemoteImageOptions {
  /** may the server connect to this address? Default: isPublicAddress. Tests of the fetch itself allow their local server. */
  isAllowedAddress?: (address: string) => boolean;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
}

const PRIVATE = (address: string) => `the address is private or local (${address}): refused`;

/**
 * Refuses what the URL alone shows is wrong (scheme, credentials, a literal private address), before any network. A
 * name (localhost included) is judged by what it resolves to, when connecting.
 */
export function checkImageUrl(raw: string, isAllowedAddress: (address: string) => boolean = isPublicAddress): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RemoteImageError("not a web address");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new RemoteImageError("only http and https addresses are fetched");
  if (url.username || url.password) throw new RemoteImageError("addresses with a user name or password are not fetched");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !isAllowedAddress(host)) throw new RemoteImageError(PRIVATE(host));
  return url;
}

/** A DNS look-up for the connection that fails when any address of the name is not allowed. */
function guardedLookup(isAllowedAddress: (address: string) => boolean) {
  return (hostname: string, options: LookupOptions, callback: (...args: any[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error);
      const list = addresses as unknown as LookupAddress[];
      const refused = list.find((a) => !isAllowedAddress(a.address));
      if (refused) return callback(Object.assign(new RemoteImageError(PRIVATE(refused.address)), { code: "EPRIVATE" }));
      if (list.length === 0) return callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }));
      if (options.all) callback(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function describe(error: unknown, timeoutMs: number): RemoteImageError {
  if (error instanceof RemoteImageError) return error;
  const e = error as NodeJS.ErrnoException;
  if (e?.code === "ETIMEDOUT" || e?.name === "TimeoutError") return new RemoteImageError(`no image within ${timeoutMs / 1000} seconds`);
  if (e?.code === "ENOTFOUND" || e?.code === "EAI_AGAIN") return new RemoteImageError("the host could not be found");
  if (e?.code === "ECONNREFUSED") return new RemoteImageError("the server refused the connection");
  if (e?.code && /CERT|SSL|TLS/.test(e.code)) return new RemoteImageError("the server's certificate could not be verified");
  return new RemoteImageError("the image could not be fetched");
}

/**
 * Can an image at this URL be fetched at all, judged by its host alone (the preview's check, before any image is
 * asked for): null when its name resolves to public addresses, else why not ("the host could not be found", a
 * private address). 404s, slow answers, large files and files that aren't images only show when fetched.
 */
export async function checkImageHost(raw: string, isAllowedAddress: (address: string) => boolean = isPublicAddress, timeoutMs = 5_000): Promise<string | null> {
  let url: URL;
  try {
    url = checkImageUrl(raw, isAllowedAddress);
  } catch (error) {
    return (error as Error).message;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return null;
  const lookup = guardedLookup(isAllowedAddress);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs); // a slow resolver: let the fetch decide
    lookup(host, { all: true }, (error: unknown) => {
      clearTimeout(timer);
      resolve(error ? describe(error, timeoutMs).message : null);
    });
  });
}

/** One GET, no redirects followed; resolves with the response (body unread) or rejects. */
function get(url: URL, lookup: ReturnType<typeof guardedLookup>, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(
      url,
      { method: "GET", lookup: lookup as any, signal, headers: { accept: "image/avif,image/webp,image/png,image/jpeg,image/*;q=0.8", "user-agent": "Scentara product import" } },
      resolve,
    );
    request.on("error", reject);
    request.end();
  });
}

/**
 * Fetches an image by URL within the limits above. Resolves with its bytes; rejects with a RemoteImageError whose
 * message says what was wrong.
 */
export async function fetchRemoteImage(raw: string, options: RemoteImageOptions = {}): Promise<{ data: Buffer; contentType: string }> {
  const isAllowedAddress = options.isAllowedAddress ?? isPublicAddress;
  const maxBytes = options.maxBytes ?? REMOTE_IMAGE_LIMITS.maxBytes;
  const timeoutMs = options.timeoutMs ?? REMOTE_IMAGE_LIMITS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? REMOTE_IMAGE_LIMITS.maxRedirects;
  const lookup = guardedLookup(isAllowedAddress);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })), timeoutMs);
  try {
    let url = checkImageUrl(raw, isAllowedAddress);
    for (let hop = 0; ; hop++) {
      const response = await get(url, lookup, controller.signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (hop >= maxRedirects) throw new RemoteImageError("too many redirects");
        url = checkImageUrl(new URL(response.headers.location, url).href, isAllowedAddress);
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw new RemoteImageError(`the server answered ${status}`);
      }
      const contentType = String(response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (!contentType.startsWith("image/")) {
        response.resume();
        throw new RemoteImageError(`not an image (${contentType || "no content type"})`);
      }
      if (contentType === "image/svg+xml") {
        response.resume();
        throw new RemoteImageError("SVG images are not imported: use PNG, JPEG or WebP");
      }
      const tooLarge = new RemoteImageError(`larger than ${maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / 1024 / 1024)} MB` : `${Math.round(maxBytes / 1024)} KB`}`);
      if (Number(response.headers["content-length"] ?? 0) > maxBytes) {
        response.destroy();
        throw tooLarge;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          response.destroy();
          throw tooLarge;
        }
        chunks.push(chunk as Buffer);
      }
      return { data: Buffer.concat(chunks), contentType };
    }
  } catch (error) {
    throw describe(controller.signal.aborted ? controller.signal.reason : error, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
}

/** The file name in a URL without its extension ("oud-wood" for …/2024/05/oud-wood.jpg?x=1), for the stored name. */
export function imageBaseName(raw: string): string {
  try {
    const last = decodeURIComponent(new URL(raw).pathname.split("/").pop() ?? "");
    return last.replace(/\.[^.]*$/, "") || "image";
  } catch {
    return "image";
  }
}

/**
 * Fetches an image and stores it as an upload is stored (checked by content, re-encoded). Resolves with the stored
 * URL for products.images; rejects with a RemoteImageError for the report ("could not be read", "not an image", …).
 */
export async function importRemoteImage(raw: string, options: RemoteImageOptions = {}): Promise<string> {
  const { data } = await fetchRemoteImage(raw, options);
  return storeImage(data, imageBaseName(raw));
}

/** Stores fetched bytes through the upload's checks; the errors become report messages. */
export async function storeImage(data: Buffer, baseName: string): Promise<string> {
  try {
    return await storeImageRenditions(data, baseName);
  } catch (error) {
    if (error instanceof NotAnImageError) throw new RemoteImageError("not an image the shop can read (JPEG, PNG, WebP, AVIF, GIF or TIFF)");
    if (error instanceof UnreadableImageError) throw new RemoteImageError("the image could not be read: the file is damaged or incomplete");
    throw error;
  }
}
