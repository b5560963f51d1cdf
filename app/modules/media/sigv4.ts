import { createHash, createHmac } from "node:crypto";

/**
 * AWS Signature Version 4 for requests with the `Authorization` header (AWS General Reference, "Signature Version 4
 * signing process"; Amazon S3 API Reference, "Signature Calculations for the Authorization Header: Transferring
 * Payload in a Single Chunk"). Pure: the caller gives the time, so the published test vectors can check it
 * (sigv4.test.ts). Used by the S3 client (s3-client.server.ts); written here, without an SDK, because the shop needs
 * four S3 calls and one signing routine (docs/decisions/028).
 */

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SigV4Request {
  method: string;
  /** Scheme and host (with port when not the default), e.g. `https://examplebucket.s3.amazonaws.com`. */
  origin: string;
  /** The path as plain text, NOT percent-encoded (`/test$file.text`); it is encoded here, once, per RFC 3986. */
  path: string;
  /** Query parameters as plain text; `?lifecycle` is `{ lifecycle: "" }`. */
  query?: Record<string, string>;
  /** Headers to send and sign (any case). `host` and `x-amz-date` are added. */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body (or `UNSIGNED-PAYLOAD`). */
  payloadHash: string;
}

export interface SigV4Scope {
  region: string;
  service: string;
  /** The signing time. */
  now: Date;
}

export interface SignedRequest {
  /** The URL to send, encoded exactly as signed. */
  url: string;
  /** Every header to send, lower-cased, `authorization` included. */
  headers: Record<string, string>;
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

export const EMPTY_PAYLOAD_HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data, "utf8").digest();

/**
 * RFC 3986 encoding as SigV4 wants it: every byte except the unreserved A–Z a–z 0–9 - . _ ~ becomes %XY (upper-case
 * hex); '/' is kept in paths and encoded in query values. encodeURIComponent leaves ! ' ( ) * alone, so those are
 * encoded on top.
 */
export function uriEncode(text: string, keepSlash = false): string {
  const encoded = encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replaceAll("%2F", "/") : encoded;
}

/** Name=value pairs encoded and sorted by name, then value (the canonical query string). */
export function canonicalQuery(query: Record<string, string> = {}): string {
  return Object.entries(query)
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

/** 20150830T123600Z */
export function amzDate(now: Date): string {
  return now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** The key for one day, region and service: HMAC chain from "AWS4" + secret. */
export function signingKey(secretAccessKey: string, day: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), "aws4_request");
}

export function signV4(request: SigV4Request, credentials: SigV4Credentials, scope: SigV4Scope): SignedRequest {
  const origin = new URL(request.origin);
  const date = amzDate(scope.now);
  const day = date.slice(0, 8);

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  headers.host = origin.host; // URL.host drops the default port, as the Host header does
  headers["x-amz-date"] = date;

  const names = Object.keys(headers).sort();
  // Values trimmed, runs of spaces made one (the canonical header form).
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim().replace(/ +/g, " ")}\n`).join("");
  const signedHeaders = names.join(";");
  const path = uriEncode(request.path.startsWith("/") ? request.path : `/${request.path}`, true);
  const query = canonicalQuery(request.query);

  const canonicalRequest = [request.method.toUpperCase(), path, query, canonicalHeaders, signedHeaders, request.payloadHash].join("\n");
  const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", date, credentialScope, sha256Hex(canonicalRequest)].join("\n");
  const signature = createHmac("sha256", signingKey(credentials.secretAccessKey, day, scope.region, scope.service)).update(stringToSign, "utf8").digest("hex");

  headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { url: `${origin.origin}${path}${query ? `?${query}` : ""}`, headers, canonicalRequest, stringToSign, signature };
}
