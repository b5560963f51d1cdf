import { mkdtemp, readdir, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ServerBuild } from "react-router";
import { getDb } from "~/db/db.server";
import { imagesOf } from "~/modules/catalog/catalog.server";
import { DEMO_PRODUCTS } from "~/modules/demo/demo-catalogue";
import { renderDemoImage } from "~/modules/demo/demo-images.server";
import { resetEnvForTests } from "~/utils/env.server";
import { sizedImage } from "./images";
import { IMMUTABLE_CACHE_CONTROL, mediaStore, readStoredImage, s3ClientFor } from "./media-store.server";
import { S3Error } from "./s3-client.server";
import { isStoredProductImage } from "./product-images.server";
import { createApp } from "../../../server/app";
import * as upload from "../../routes/admin.products.images";
import * as add from "../../routes/admin.products.add";
import * as products from "../../routes/admin.products";
import { startS3Emulator, type S3Emulator } from "../../../tests/fakes/s3-emulator";
import { callAction, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { insertCategory } from "../../../tests/factories/catalog";

/**
 * MEDIA_STORAGE=s3 end to end against a real S3-compatible server (s3rver, which checks every request's SigV4
 * signature itself): the admin's upload lands in the bucket, the shop's /media route serves it from there with the
 * year-long immutable cache header, deleting the product removes the objects, and a public bucket's URLs are used
 * when S3_PUBLIC_URL is set.
 */

let s3: S3Emulator;
let cookie = "";
let categoryId = "";
let shop: Server;
let shopUrl = "";
let mediaDir = "";
const S3_KEYS = ["MEDIA_STORAGE", "S3_ENDPOINT", "S3_REGION", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE", "S3_PUBLIC_URL"];

function configure(extra: Record<string, string> = {}) {
  for (const key of S3_KEYS) delete process.env[key];
  Object.assign(process.env, s3.env, extra);
  resetEnvForTests();
}

/** The real HTTP server of server/app.ts (pages are not rendered here: only /media is asked for). */
async function startShop() {
  const noPages = () => Promise.reject(new Error("no pages in this test")) as Promise<ServerBuild>;
  const app = createApp({ build: noPages });
  shop = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
}

const png = (colour: string) => sharp({ create: { width: 1000, height: 1400, channels: 3, background: colour } }).png().toBuffer();
function imageForm(name: string, bytes: Buffer) {
  const f = new FormData();
  f.append("image", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
  return f;
}

beforeAll(async () => {
  s3 = await startS3Emulator();
  // Nothing may land on local disk in S3 mode: point MEDIA_DIR at an empty directory and look at it afterwards.
  mediaDir = await mkdtemp(join(tmpdir(), "scentara-s3-local-"));
  process.env.MEDIA_DIR = mediaDir;
  configure();
  const admin = await createUser(getDb(), { isAdmin: true });
  cookie = await sessionCookieFor(getDb(), admin.id);
  categoryId = (await insertCategory(getDb(), { name: "Male Classics", slug: "male-classics" })).id;
  await startShop();
});

afterEach(() => configure());

afterAll(async () => {
  await new Promise((resolve) => shop.close(resolve));
  await s3.close();
  for (const key of [...S3_KEYS, "MEDIA_DIR"]) delete process.env[key];
  resetEnvForTests();
  await rm(mediaDir, { recursive: true, force: true });
});

describe("the S3 media store", () => {
  it("writes, finds, reads and removes objects with their type and year-long cache header", async () => {
    const store = mediaStore();
    expect(store.kind).toBe("s3");
    await store.put("products/probe-400.webp", Buffer.from("RIFF-probe"), "image/webp");
    expect(await s3.keys("products/probe")).toEqual(["products/probe-400.webp"]);
    const stored = (await s3.object("products/probe-400.webp"))!;
    expect(stored.data.toString()).toBe("RIFF-probe");
    expect(stored.metadata).toMatchObject({ "content-type": "image/webp", "cache-control": IMMUTABLE_CACHE_CONTROL });
    expect(await store.exists("products/probe-400.webp")).toBe(true);
    expect((await store.read("products/probe-400.webp"))?.toString()).toBe("RIFF-probe");

    await store.delete("products/probe-400.webp");
    expect(await s3.keys("products/probe")).toEqual([]);
    expect(await store.exists("products/probe-400.webp")).toBe(false);
    expect(await store.read("products/probe-400.webp")).toBeNull();
    await expect(store.delete("products/probe-400.webp")).resolves.toBeUndefined();
  });

  it("is refused by the server when the secret is wrong (the server checks the signature)", async () => {
    const wrong = s3ClientFor({ ...envFor(s3), S3_SECRET_ACCESS_KEY: "not-the-secret" });
    const refused = await wrong.put("products/x-400.webp", Buffer.from("x"), { contentType: "image/webp" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(S3Error);
    expect(refused).toMatchObject({ status: 403, code: "SignatureDoesNotMatch" });
    expect(await s3.keys("products/x-")).toEqual([]);
  });

  it("never lets a key climb out of its folder", async () => {
    await expect(mediaStore().put("../escape.webp", Buffer.from("x"), "image/webp")).rejects.toThrow("not a media key");
  });
});

describe("product images in the bucket", () => {
  it("an upload lands in the bucket as three WebP widths; /media serves them from there with immutable cache headers; deleting the product removes them", async () => {
    const uploaded = await callAction(upload.action, "/admin/products/images", imageForm("Amber Flask.png", await png("#b07a3b")), { headers: { cookie } });
    const { url } = await dataOf(uploaded);
    expect(url).toMatch(/^\/media\/products\/amber-flask-[0-9a-f]{8}-1200\.webp$/);
    const stem = url.slice("/media/".length).replace(/-1200\.webp$/, "");
    expect(await s3.keys(stem)).toEqual([`${stem}-1200.webp`, `${stem}-400.webp`, `${stem}-800.webp`]);
    expect(await readdir(mediaDir)).toEqual([]);

    // Any server serves it: this one has nothing on disk and streams the object from the bucket.
    const served = await fetch(`${shopUrl}${sizedImage(url, 400)}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.equals((await s3.object(`${stem}-400.webp`))!.data)).toBe(true);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width: 400 });

    // A revalidation (rare: the header says immutable) is answered 304 without the body; HEAD has no body either.
    const again = await fetch(`${shopUrl}${sizedImage(url, 400)}`, { headers: { "if-none-match": served.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
    const head = await fetch(`${shopUrl}${url}`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-type"), Number(head.headers.get("content-length"))]).toEqual([200, "image/webp", (await s3.object(`${stem}-1200.webp`))!.data.length]);

    // The product keeps the URL; deleting the product deletes the objects.
    const saved = new FormData();
    for (const [k, v] of Object.entries({ intent: "save", name: "Amber Flask", price: "450.00", slug: "", categoryId, images: JSON.stringify([url]) })) saved.append(k, v);
    expect(await dataOf(await callAction(add.action, "/admin/products/add", saved, { headers: { cookie } }))).toMatchObject({ ok: true });
    const product = (await getDb().selectFrom("products").select(["id", "images"]).where("slug", "=", "amber-flask").executeTakeFirstOrThrow())!;
    expect(imagesOf(product.images)).toEqual([url]);
    const deleted = await callAction(products.action, "/admin/products", { intent: "delete", id: product.id }, { headers: { cookie } });
    expect(await dataOf(deleted)).toMatchObject({ ok: true });
    expect(await s3.keys(stem)).toEqual([]);
    expect((await fetch(`${shopUrl}${url}`)).status).toBe(404);
  });

  it("answers 404 for names that are not there or not allowed, and refuses writes", async () => {
    for (const path of ["/media/products/nothing-400.webp", "/media/products/..%2F..%2Fetc%2Fpasswd", "/media/Products/X.webp", "/media/"]) {
      expect((await fetch(`${shopUrl}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${shopUrl}/media/products/a-400.webp`, { method: "DELETE" })).status).toBe(405);
  });

  it("with a public bucket (S3_PUBLIC_URL), uploads get its address, are recognised as the shop's own, and are removed with their product", async () => {
    configure({ S3_PUBLIC_URL: "https://images.scentara.example/" });
    const uploaded = await callAction(upload.action, "/admin/products/images", imageForm("Cedar.png", await png("#3b5b3b")), { headers: { cookie } });
    const { url } = await dataOf(uploaded);
    expect(url).toMatch(/^https:\/\/images\.scentara\.example\/products\/cedar-[0-9a-f]{8}-1200\.webp$/);
    expect(isStoredProductImage(url)).toBe(true);
    const stem = `products/${url.split("/products/")[1]!.replace(/-1200\.webp$/, "")}`;
    expect(await s3.keys(stem)).toHaveLength(3);
    // a cached page reads its largest image by the URL it shows (server/page-lcp-image.ts); other hosts' aren't ours
    expect((await readStoredImage(sizedImage(url, 400)))?.subarray(0, 4).toString()).toBe("RIFF");
    expect(await readStoredImage(`https://elsewhere.example/${stem}-400.webp`)).toBeNull();

    const saved = new FormData();
    for (const [k, v] of Object.entries({ intent: "save", name: "Cedar Public", price: "300", slug: "", categoryId, images: JSON.stringify([url]) })) saved.append(k, v);
    expect(await dataOf(await callAction(add.action, "/admin/products/add", saved, { headers: { cookie } }))).toMatchObject({ ok: true });
    const product = (await getDb().selectFrom("products").select(["id", "images"]).where("slug", "=", "cedar-public").executeTakeFirstOrThrow())!;
    expect(imagesOf(product.images)).toEqual([url]);
    await callAction(products.action, "/admin/products", { intent: "delete", id: product.id }, { headers: { cookie } });
    expect(await s3.keys(stem)).toEqual([]);
  });

  it("an image that is not a picture is refused and nothing reaches the bucket", async () => {
    const before = await s3.keys("products/");
    const refused = await callAction(upload.action, "/admin/products/images", imageForm("notes.png", Buffer.from("not a picture")), { headers: { cookie } });
    expect(statusOf(refused)).toBe(400);
    expect(await s3.keys("products/")).toEqual(before);
  });
});

describe("the demo catalogue's images with MEDIA_STORAGE=s3", () => {
  it("are rendered into the bucket once, then found there (a fresh bucket is filled from the local render cache)", async () => {
    const cache = await mkdtemp(join(tmpdir(), "scentara-demo-cache-"));
    process.env.DEMO_IMAGE_CACHE = cache;
    try {
      const p = DEMO_PRODUCTS[0]!;
      const url = await renderDemoImage("demo-s3", p.name, p.look);
      expect(url).toMatch(/^\/media\/products\/demo-s3-[0-9a-f]{8}-1200\.webp$/);
      const stem = url.slice("/media/".length).replace(/-1200\.webp$/, "");
      expect(await s3.keys(stem)).toHaveLength(3);
      expect((await fetch(`${shopUrl}${sizedImage(url, 800)}`)).status).toBe(200);
      expect(await readdir(cache)).toHaveLength(3);

      // Found in the bucket: not drawn again (the emptied cache stays empty).
      await rm(cache, { recursive: true });
      expect(await renderDemoImage("demo-s3", p.name, p.look)).toBe(url);
      await expect(readdir(cache)).rejects.toThrow();
    } finally {
      delete process.env.DEMO_IMAGE_CACHE;
      await rm(cache, { recursive: true, force: true });
    }
  });
});

describe("starting with an incomplete S3 configuration", () => {
  it("refuses to start, naming what is missing", () => {
    for (const key of S3_KEYS) delete process.env[key];
    Object.assign(process.env, { MEDIA_STORAGE: "s3", S3_BUCKET: "scentara-media" });
    resetEnvForTests();
    expect(() => createApp({ build: () => Promise.reject(new Error("unused")) })).toThrow(
      "Invalid configuration:\n  MEDIA_STORAGE=s3 needs S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY",
    );
  });
});

function envFor(emulator: S3Emulator) {
  return {
    S3_ENDPOINT: emulator.endpoint,
    S3_REGION: "us-east-1",
    S3_BUCKET: emulator.bucket,
    S3_ACCESS_KEY_ID: emulator.env.S3_ACCESS_KEY_ID!,
    S3_SECRET_ACCESS_KEY: emulator.env.S3_SECRET_ACCESS_KEY!,
    S3_FORCE_PATH_STYLE: true,
  };
}
