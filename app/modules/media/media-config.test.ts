import { describe, expect, it } from "vitest";
import { parseEnv } from "~/utils/env.server";
import { mediaImageOrigins, mediaUrlBase, s3ClientFor } from "./media-store.server";

const S3 = {
  MEDIA_STORAGE: "s3",
  S3_BUCKET: "scentara-images",
  S3_REGION: "af-south-1",
  S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
  S3_SECRET_ACCESS_KEY: "secret",
};

describe("media storage configuration", () => {
  it("keeps images on local disk with nothing set, served at /media from this origin", () => {
    const env = parseEnv({});
    expect(env.MEDIA_STORAGE).toBe("local");
    expect(mediaUrlBase(env)).toBe("/media");
    expect(mediaImageOrigins(env)).toEqual([]);
    // S3 settings alone change nothing: the owner chooses the store.
    expect(mediaUrlBase(parseEnv({ ...S3, MEDIA_STORAGE: "local", S3_PUBLIC_URL: "https://cdn.example.co.za" }))).toBe("/media");
  });

  it("refuses to start when MEDIA_STORAGE=s3 lacks a setting, naming each missing one", () => {
    expect(() => parseEnv({ MEDIA_STORAGE: "s3" })).toThrow("MEDIA_STORAGE=s3 needs S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY");
    expect(() => parseEnv({ ...S3, S3_SECRET_ACCESS_KEY: " " })).toThrow(/^Invalid configuration:\n {2}MEDIA_STORAGE=s3 needs S3_SECRET_ACCESS_KEY$/);
    expect(() => parseEnv({ MEDIA_STORAGE: "bucket" })).toThrow("MEDIA_STORAGE: local or s3");
    expect(() => parseEnv({ ...S3, S3_ENDPOINT: "minio:9000" })).toThrow(/S3_ENDPOINT: an http:\/\/ or https:\/\/ URL/);
    expect(() => parseEnv({ ...S3, S3_PUBLIC_URL: "ftp://cdn.example.co.za" })).toThrow(/S3_PUBLIC_URL: an http:\/\/ or https:\/\/ URL/);
  });

  it("an https:// shop refuses an http:// public image address (browsers would block the images)", () => {
    const real = { PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: "x".repeat(40), ALLOW_TEST_PAYMENTS: "true", ALLOW_TEST_DELIVERIES: "true" };
    expect(() => parseEnv({ ...real, ...S3, S3_PUBLIC_URL: "http://cdn.example.co.za" })).toThrow("S3_PUBLIC_URL must be an https:// address");
    expect(parseEnv({ ...real, ...S3, S3_PUBLIC_URL: "https://cdn.example.co.za" }).S3_PUBLIC_URL).toBe("https://cdn.example.co.za");
  });

  it("with a public bucket, image URLs point there and the CSP allows its origin", () => {
    const env = parseEnv({ ...S3, S3_PUBLIC_URL: "https://cdn.example.co.za/shop/" });
    expect(mediaUrlBase(env)).toBe("https://cdn.example.co.za/shop");
    expect(mediaImageOrigins(env)).toEqual(["https://cdn.example.co.za"]);
    // Without one, the shop's /media route serves the bucket.
    expect(mediaUrlBase(parseEnv(S3))).toBe("/media");
  });

  it("addresses AWS by region unless S3_ENDPOINT says otherwise; path style on request", () => {
    expect(s3ClientFor(parseEnv(S3)).objectUrl("products/a-400.webp")).toBe("https://scentara-images.s3.af-south-1.amazonaws.com/products/a-400.webp");
    const minio = parseEnv({ ...S3, S3_ENDPOINT: "http://127.0.0.1:9000", S3_FORCE_PATH_STYLE: "true" });
    expect(s3ClientFor(minio).objectUrl("products/a-400.webp")).toBe("http://127.0.0.1:9000/scentara-images/products/a-400.webp");
    const r2 = parseEnv({ ...S3, S3_REGION: "auto", S3_ENDPOINT: "https://0123abc.r2.cloudflarestorage.com" });
    expect(s3ClientFor(r2).objectUrl("products/a-400.webp")).toBe("https://scentara-images.0123abc.r2.cloudflarestorage.com/products/a-400.webp");
  });
});
