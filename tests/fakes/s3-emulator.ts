/**
 * A real S3-compatible server for tests, in this process: s3rver (npm @20minutes/s3rver, a maintained fork of s3rver
 * that verifies AWS Signature Version 4), on a random loopback port, with one bucket in a temporary directory. Every
 * request the shop's S3 client makes is checked by s3rver's own SigV4 code (lib/signature/v4.js), written
 * independently of app/modules/media/sigv4.ts: a wrong signature is refused with SignatureDoesNotMatch, as AWS would.
 * Objects are inspected through s3rver's store, not through the client under test.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

interface StoredObject {
  key: string;
  metadata: Record<string, string>;
  content?: NodeJS.ReadableStream | null;
}
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  store: {
    listObjects(bucket: string, options: { prefix?: string }): Promise<{ objects: StoredObject[] }>;
    getObject(bucket: string, key: string): Promise<StoredObject | null>;
  };
}
const S3rver = require("@20minutes/s3rver") as new (options: Record<string, unknown>) => S3rverInstance;

/** s3rver's built-in account. */
export const S3_EMULATOR_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

export interface S3Emulator {
  endpoint: string;
  bucket: string;
  /** The shop's configuration for this bucket (path-style, as self-hosted stores expect). */
  env: Record<string, string>;
  /** Keys in the bucket under a prefix, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** An object's bytes and metadata as the server stored them, or null. */
  object(key: string): Promise<{ data: Buffer; metadata: Record<string, string> } | null>;
  close(): Promise<void>;
}

export async function startS3Emulator(bucket = "scentara-media"): Promise<S3Emulator> {
  const directory = await mkdtemp(join(tmpdir(), "scentara-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      MEDIA_STORAGE: "s3",
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3_EMULATOR_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_EMULATOR_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
    async keys(prefix = "") {
      const { objects } = await server.store.listObjects(bucket, { prefix });
      return objects.map((o) => o.key).sort();
    },
    async object(key) {
      const found = await server.store.getObject(bucket, key);
      if (!found?.content) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of found.content as AsyncIterable<Buffer>) chunks.push(chunk);
      return { data: Buffer.concat(chunks), metadata: found.metadata };
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
