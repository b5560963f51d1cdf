import { EMPTY_PAYLOAD_HASH, sha256Hex, signV4, uriEncode, type SigV4Credentials } from "./sigv4";

/**
 * The four object calls the shop makes to an S3-compatible store (AWS S3, Cloudflare R2, MinIO, Backblaze B2, …):
 * PUT, GET, HEAD and DELETE one object, signed with SigV4 (sigv4.ts) and sent with fetch. Nothing else of S3 is used.
 */

export interface S3Config extends SigV4Credentials {
  /** e.g. https://s3.af-south-1.amazonaws.com or http://127.0.0.1:9000 */
  endpoint: string;
  region: string;
  bucket: string;
  /** true: {endpoint}/{bucket}/{key}; false: {bucket}.{endpoint host}/{key} (AWS's virtual-hosted style). */
  forcePathStyle: boolean;
}

/** A refusal or failure of the store, with S3's error code when it sent one (`NoSuchKey`, `AccessDenied`, …). */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly operation: string,
    readonly key: string,
  ) {
    super(`S3 ${operation} ${key} failed: ${status} ${code}`);
    this.name = "S3Error";
  }
}

const TIMEOUT_MS = 20_000;

export class S3Client {
  private readonly origin: string;
  private readonly basePath: string;

  constructor(private readonly config: S3Config) {
    const endpoint = new URL(config.endpoint);
    const prefix = endpoint.pathname.replace(/\/+$/, "");
    if (config.forcePathStyle) {
      this.origin = endpoint.origin;
      this.basePath = `${prefix}/${config.bucket}`;
    } else {
      this.origin = `${endpoint.protocol}//${config.bucket}.${endpoint.host}`;
      this.basePath = prefix;
    }
  }

  /** Where an object lives (what is requested, and signed). */
  objectUrl(key: string): string {
    return `${this.origin}${uriEncode(`${this.basePath}/${key}`, true)}`;
  }

  /** Sends one signed request. Every header is signed; the body's hash is signed too (no unsigned payloads). */
  private send(method: string, key: string, options: { body?: Buffer; headers?: Record<string, string>; signal?: AbortSignal } = {}) {
    const payloadHash = options.body ? sha256Hex(options.body) : EMPTY_PAYLOAD_HASH;
    const signed = signV4(
      { method, origin: this.origin, path: `${this.basePath}/${key}`, headers: { ...options.headers, "x-amz-content-sha256": payloadHash }, payloadHash },
      this.config,
      { region: this.config.region, service: "s3", now: new Date() },
    );
    // fetch writes Host itself, from the same URL.
    const { host: _host, ...headers } = signed.headers;
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    return fetch(signed.url, {
      method,
      headers,
      body: options.body ? new Uint8Array(options.body) : undefined,
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
      redirect: "manual",
    });
  }

  private async fail(operation: string, key: string, response: Response): Promise<never> {
    const text = operation === "HEAD" ? "" : await response.text().catch(() => "");
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? response.statusText ?? "Error";
    throw new S3Error(response.status, code, operation, key);
  }

  async put(key: string, body: Buffer, headers: { contentType: string; cacheControl?: string }): Promise<void> {
    const response = await this.send("PUT", key, {
      body,
      headers: { "content-type": headers.contentType, ...(headers.cacheControl ? { "cache-control": headers.cacheControl } : {}) },
    });
    if (!response.ok) await this.fail("PUT", key, response);
    await response.body?.cancel();
  }

  /** True when the object is there; false on 404. */
  async exists(key: string): Promise<boolean> {
    const response = await this.send("HEAD", key);
    await response.body?.cancel();
    if (response.status === 404) return false;
    if (!response.ok) await this.fail("HEAD", key, response);
    return true;
  }

  /**
   * The object's response as the store sent it (200 with the body to stream, or 304 when `ifNoneMatch` matched), or
   * null when there is no such object. The caller reads or cancels the body.
   */
  async get(key: string, options: { ifNoneMatch?: string; head?: boolean; signal?: AbortSignal } = {}): Promise<Response | null> {
    const response = await this.send(options.head ? "HEAD" : "GET", key, {
      headers: options.ifNoneMatch ? { "if-none-match": options.ifNoneMatch } : {},
      signal: options.signal,
    });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok && response.status !== 304) await this.fail(options.head ? "HEAD" : "GET", key, response);
    return response;
  }

  /** Removes the object; removing one that isn't there is not an error (S3 answers 204 either way). */
  async delete(key: string): Promise<void> {
    const response = await this.send("DELETE", key);
    if (!response.ok && response.status !== 404) await this.fail("DELETE", key, response);
    await response.body?.cancel();
  }
}
