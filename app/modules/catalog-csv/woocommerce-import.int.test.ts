/**
 * WooCommerce's own exports import as they are (issue 32, docs/decisions/044), on SQLite and PostgreSQL, from
 * WooCommerce's published sample data set (tests/fixtures/woocommerce/, unchanged). Its image host doesn't resolve
 * here (no internet in tests): that is the "unknown host" case, seen by the preview's real DNS look-up. The other ways
 * an image fails (404, a slow answer, too big, not an image) are served by a local HTTP server, with the import's
 * limits made small by the test (a 200 ms timeout instead of a fixed wait).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseSync } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { DEFAULT_PRODUCT_IMAGES } from "~/modules/media/images";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { insertProduct, updateProduct } from "../../../tests/factories/catalog";
import { ROW_MESSAGES, VARIATION_MESSAGES } from "./csv-columns";
import { productsCsvStream } from "./csv-export.server";
import { applyImport, claimImport, failedRowsCsv, getImportView, IMPORT_MESSAGES, previewImport, type ApplyOptions } from "./csv-import.server";
import { fetchMissingImagesAgain, listMissingImages } from "./missing-images.server";
import { importRemoteImage } from "./remote-image.server";

const db = () => getDb();
const TODAY = "2026-11-28";
const SAMPLE = join(import.meta.dirname, "../../../tests/fixtures/woocommerce/sample_products.csv");
const PERFUMES = join(import.meta.dirname, "../../../tests/fixtures/woocommerce/perfume_variable_products.csv");
const WOO_HOST = "https://woocommercecore.mystagingwebsite.com/wp-content/uploads/2017/12/";

let media = "";
let server: Server;
let base = "";
let png: Buffer;
/** what the local server answers for each path now (a test flips it to "image" to fetch again) */
const answers = new Map<string, "404" | "slow" | "huge" | "html" | "image">();
const held: Array<() => void> = [];

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), "scentara-woo-media-"));
  process.env.MEDIA_DIR = media;
  png = await sharp({ create: { width: 640, height: 800, channels: 3, background: "#c9b79c" } }).png().toBuffer();
  server = createServer((req, res) => {
    const answer = answers.get(req.url ?? "") ?? "404";
    if (answer === "image") return res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (answer === "html") return res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Not found</body></html>");
    if (answer === "huge") return res.writeHead(200, { "content-type": "image/jpeg" }).end(Buffer.alloc(64 * 1024, 1));
    // never answers by itself: the import's timeout gives up; the test's end lets it go
    if (answer === "slow") return void held.push(() => res.destroy());
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const release of held) release();
  await new Promise((resolve) => server.close(resolve));
  delete process.env.MEDIA_DIR;
  await rm(media, { recursive: true, force: true });
});

beforeEach(async () => {
  await db().deleteFrom("products").execute();
  await db().deleteFrom("categories").execute();
  await db().deleteFrom("imported_images").execute();
});

/** The local server is the only host these tests may reach; the limits are the import's, made small. */
const local: ApplyOptions = {
  today: TODAY,
  isAllowedAddress: () => true,
  importImage: (url) => importRemoteImage(url, { isAllowedAddress: () => true, timeoutMs: 200, maxBytes: 16 * 1024 }),
};

async function preview(text: string | Buffer, options: ApplyOptions = { today: TODAY }) {
  return previewImport(db(), { fileName: "wc-product-export.csv", bytes: new Uint8Array(typeof text === "string" ? Buffer.from(text) : text), adminId: null, today: options.today, isAllowedAddress: options.isAllowedAddress });
}

async function apply(id: string, options: ApplyOptions = { today: TODAY }) {
  await applyImport(db(), id, await claimImport(db(), id, options), options);
  return (await getImportView(db(), id))!;
}

const products = () =>
  db().selectFrom("products").select(["id", "sku", "name", "price_cents", "was_price_cents", "weight_grams", "images", "description"]).orderBy("sku").execute();

/** The sample file's records (header first), to build variants of it with the cells WooCommerce wrote. */
async function sampleRecords(): Promise<string[][]> {
  return parseSync(await readFile(SAMPLE, "utf8"), { relax_column_count: true }) as string[][];
}

describe("WooCommerce's sample data set, unchanged", () => {
  it("previews with its units converted and its unreachable images listed, imports every simple product at its sale price, and a second import changes nothing", async () => {
    const file = await readFile(SAMPLE);
    const changes: string[] = [];
    const stop = onStorefrontChange((reason) => changes.push(reason));
    const { id, report } = await preview(file);
    expect(report.format).toBe("woocommerce");
    expect(report.counts).toEqual({ create: 14, update: 0, unchanged: 0, skip: 11, error: 0 });
    expect(report.notes).toEqual(['Weights are in pounds (lbs) in this file ("Weight (lbs)"): converted to grams.']);
    // the real host doesn't resolve here: every simple product's image is listed with its row, address and reason
    expect(report.imagesToFetch).toBe(0);
    expect(report.imagesFailed).toBe(14);
    // its variable products vary by colour and logo (the V-Neck's Size is "any"): none is a size, each says so
    expect(report.rows.filter((r) => r.row === 2 || r.row === 3 || /^Varies/.test(r.notes?.[0] ?? "")).map((r) => [r.row, r.action, r.notes?.[0]])).toEqual([
      [2, "skip", VARIATION_MESSAGES.noSizes(3, ["Color"])],
      [3, "skip", VARIATION_MESSAGES.noSizes(4, ["Color", "Logo"])],
      [16, "skip", VARIATION_MESSAGES.notBySize([{ name: "Color", value: "Red" }])],
      [17, "skip", VARIATION_MESSAGES.notBySize([{ name: "Color", value: "Green" }])],
      [18, "skip", VARIATION_MESSAGES.notBySize([{ name: "Color", value: "Blue" }])],
      [19, "skip", VARIATION_MESSAGES.notBySize([{ name: "Color", value: "Red" }, { name: "Logo", value: "No" }])],
      [20, "skip", VARIATION_MESSAGES.notBySize([{ name: "Color", value: "Green" }, { name: "Logo", value: "No" }])],
      [21, "skip", VARIATION_MESSAGES.notBySize([{ name: "Color", value: "Blue" }, { name: "Logo", value: "No" }])],
      [26, "skip", VARIATION_MESSAGES.notBySize([{ name: "Color", value: "Blue" }, { name: "Logo", value: "Yes" }])],
    ]);
    const beanie = report.rows.find((r) => r.sku === "woo-beanie")!;
    expect(beanie).toMatchObject({ row: 6, action: "create", imageFailures: [{ url: `${WOO_HOST}beanie-2.jpg`, reason: "the host could not be found" }] });

    const view = await apply(id);
    stop();
    expect(view.status).toBe("applied");
    expect(view.message).toBe("Imported: 14 created, 0 updated, 0 unchanged, 11 skipped; 14 images could not be fetched");
    expect(view.imageFailures).toHaveLength(14);
    expect(changes).toHaveLength(1);

    const rows = await products();
    const bySku = Object.fromEntries(rows.map((p) => [p.sku, p]));
    // on sale (no dates): the sale price, the regular price as the was price
    expect(bySku["woo-beanie"]).toMatchObject({ name: "Beanie", price_cents: 1800, was_price_cents: 2000, weight_grams: 91 });
    expect(bySku["woo-belt"]).toMatchObject({ price_cents: 5500, was_price_cents: 6500, weight_grams: 544 });
    expect(bySku["woo-hoodie-with-pocket"]).toMatchObject({ price_cents: 3500, was_price_cents: 4500, weight_grams: 1361 });
    // not on sale; no weight in the file: the shop's default
    expect(bySku["woo-hoodie-with-logo"]).toMatchObject({ price_cents: 4500, was_price_cents: null, weight_grams: 907 });
    expect(bySku["woo-album"]).toMatchObject({ price_cents: 1500, was_price_cents: null, weight_grams: null });
    expect(bySku["woo-tshirt"]!.description).toContain("Pellentesque habiBtant morbi");
    // without its image: the category's default one, and the address waits to be fetched again
    expect(bySku["woo-beanie"]!.images).toEqual([DEFAULT_PRODUCT_IMAGES.men]);
    const missing = await listMissingImages(db());
    expect(missing).toMatchObject({ total: 14, products: 14 });
    expect(missing.images.find((m) => m.productName === "Beanie")).toMatchObject({ url: `${WOO_HOST}beanie-2.jpg`, reason: "the host could not be found", row: 6, importId: id });

    const before = await products();
    const again = await preview(file);
    expect(again.report.counts).toEqual({ create: 0, update: 0, unchanged: 14, skip: 11, error: 0 });
    expect(await products()).toEqual(before);
  });

  it("a sale that has ended or not started yet comes in at the regular price, and the preview says why", async () => {
    const [header, ...records] = await sampleRecords();
    const col = (name: string) => header!.indexOf(name);
    const beanie = [...records.find((r) => r[2] === "woo-beanie")!];
    const belt = [...records.find((r) => r[2] === "woo-belt")!];
    beanie[col("Date sale price ends")] = "2026-11-27";
    belt[col("Date sale price starts")] = "2026-12-01";
    const { report } = await preview(stringify([header!, beanie, belt]));
    expect(report.rows.map((r) => [r.sku, r.notes?.[0]])).toEqual([
      ["woo-beanie", ROW_MESSAGES.saleEnded("2026-11-27")],
      ["woo-belt", ROW_MESSAGES.saleNotStarted("2026-12-01")],
    ]);
  });
});

describe("images that can't be fetched never stop the import", () => {
  it("404, a slow answer, too big, not an image: each listed with its row, the products come in, and fetching again later puts them in place", async () => {
    const [header, ...records] = await sampleRecords();
    const images = header!.indexOf("Images");
    const cap = [...records.find((r) => r[2] === "woo-cap")!];
    const polo = [...records.find((r) => r[2] === "woo-polo")!];
    for (const [path, answer] of [["/gone.jpg", "404"], ["/slow.jpg", "slow"], ["/huge.jpg", "huge"], ["/page.jpg", "html"], ["/cap-2.jpg", "image"]] as const) answers.set(path, answer);
    cap[images] = `${base}/cap-2.jpg, ${base}/gone.jpg, ${base}/slow.jpg`;
    polo[images] = `${base}/huge.jpg, ${base}/page.jpg`;
    const { id, report } = await preview(stringify([header!, cap, polo]), local);
    expect(report.imagesToFetch).toBe(5);

    const view = await apply(id, local);
    expect(view.status).toBe("applied");
    expect(view.message).toBe("Imported: 2 created, 0 updated, 0 unchanged; 4 images could not be fetched");
    expect(view.imageFailures).toEqual([
      { row: 2, name: "Cap", url: `${base}/gone.jpg`, reason: "the server answered 404" },
      { row: 2, name: "Cap", url: `${base}/slow.jpg`, reason: "no image within 0.2 seconds" },
      { row: 3, name: "Polo", url: `${base}/huge.jpg`, reason: "larger than 16 KB" },
      { row: 3, name: "Polo", url: `${base}/page.jpg`, reason: "not an image (text/html)" },
    ]);
    const [capRow, poloRow] = await products();
    expect(capRow!.images).toEqual([expect.stringMatching(/^\/media\/products\/cap-2-[0-9a-f]{8}-1200\.webp$/)]);
    expect(poloRow!.images).toEqual([DEFAULT_PRODUCT_IMAGES.men]);

    // the addresses answer now: fetched again, each takes the place the file gave it
    for (const path of ["/gone.jpg", "/slow.jpg", "/huge.jpg", "/page.jpg"]) answers.set(path, "image");
    const changes: string[] = [];
    const stop = onStorefrontChange((reason) => changes.push(reason));
    expect(await fetchMissingImagesAgain(db(), { importImage: local.importImage })).toEqual({ fetched: 4, failed: 0 });
    stop();
    expect(changes).toHaveLength(1);
    const [capAfter, poloAfter] = await products();
    expect(capAfter!.images).toEqual([capRow!.images[0], expect.stringMatching(/\/gone-/), expect.stringMatching(/\/slow-/)]);
    expect(poloAfter!.images).toEqual([expect.stringMatching(/\/huge-/), expect.stringMatching(/\/page-/)]);
    expect((await listMissingImages(db())).total).toBe(0);
    // and the same file again now finds every image stored: nothing to fetch, nothing changes
    const again = await preview(stringify([header!, cap, polo]), local);
    expect(again.report).toMatchObject({ imagesToFetch: 0, counts: { unchanged: 2 } });
  });

  it("an image that fails again keeps waiting, with the new reason", async () => {
    const [header, ...records] = await sampleRecords();
    const cap = [...records.find((r) => r[2] === "woo-cap")!];
    answers.set("/still-gone.jpg", "404");
    cap[header!.indexOf("Images")] = `${base}/still-gone.jpg`;
    const { id } = await preview(stringify([header!, cap]), local);
    await apply(id, local);
    answers.set("/still-gone.jpg", "html");
    expect(await fetchMissingImagesAgain(db(), { importImage: local.importImage })).toEqual({ fetched: 0, failed: 1 });
    expect((await listMissingImages(db())).images).toMatchObject([{ url: `${base}/still-gone.jpg`, reason: "not an image (text/html)" }]);
  });
});

describe("rows with errors beside good ones", () => {
  it("the good rows import when the owner chooses; the rows with errors download as the file's own columns, unchanged", async () => {
    const [header, ...records] = await sampleRecords();
    const weight = header!.indexOf("Weight (lbs)");
    const broken = records.map((r) => [...r]);
    const belt = broken.find((r) => r[2] === "woo-belt")!;
    belt[weight] = "heavy";
    const text = stringify([header!, ...broken]);
    const { id, report } = await preview(text);
    expect(report.counts).toEqual({ create: 13, update: 0, unchanged: 0, skip: 11, error: 1 });
    expect(report.rows.find((r) => r.action === "error")).toMatchObject({ row: 7, sku: "woo-belt", errors: [{ column: "Weight (lbs)", message: '"heavy" isn\'t a weight' }] });
    // all or nothing stays the default
    await expect(claimImport(db(), id)).rejects.toThrow(IMPORT_MESSAGES.hasErrors);
    expect(await products()).toEqual([]);

    const view = await apply(id, { today: TODAY, goodRowsOnly: true });
    expect(view.status).toBe("applied");
    expect(view.message).toBe("Imported: 13 created, 0 updated, 0 unchanged, 11 skipped; 1 row with errors not imported; 13 images could not be fetched");
    expect((await products()).map((p) => p.sku)).not.toContain("woo-belt");
    expect(view.failedRowsDownload).toBe(true);

    const download = (await failedRowsCsv(db(), id))!;
    expect(download.fileName).toBe("wc-product-export-rows-with-errors.csv");
    expect(download.text.startsWith("\uFEFF")).toBe(true);
    expect(parseSync(download.text.slice(1), { relax_column_count: true })).toEqual([header, belt]);

    // fixed and imported again: the belt comes in
    belt[weight] = "1.2";
    const fixed = await preview(stringify([header!, belt]));
    expect(fixed.report.counts).toMatchObject({ create: 1, error: 0 });
  });
});

describe("our own file carries the was price", () => {
  it("exports it as a column and imports it back", async () => {
    const oud = await insertProduct(db(), { name: "Velvet Oud", slug: "velvet-oud", price_cents: 89_900, images: [DEFAULT_PRODUCT_IMAGES.men] });
    await updateProduct(db(), oud.id, { sku: "VO-100", was_price_cents: 129_900 });
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(productsCsvStream(db(), { baseUrl: "http://localhost:3000" })).arrayBuffer());
    const [header, row] = parseSync(text.slice(1)) as string[][];
    expect(row![header!.indexOf("Was price (ZAR)")]).toBe("1299.00");
    await db().deleteFrom("products").execute();
    const { id } = await preview(text);
    await apply(id);
    expect(await products()).toMatchObject([{ sku: "VO-100", price_cents: 89_900, was_price_cents: 129_900 }]);
  });
});

describe("a perfume shop's variable products (issue 33)", () => {
  /** Every product with its sizes, as the shop sells them. */
  async function catalogueWithSizes() {
    const rows = await db()
      .selectFrom("products as p")
      .innerJoin("product_sizes as s", "s.product_id", "p.id")
      .select(["p.name", "p.sku as productSku", "p.price_cents as from", "p.max_price_cents as to", "p.stock as total", "s.label", "s.code", "s.sku", "s.price_cents", "s.was_price_cents", "s.stock", "s.weight_grams", "s.position"])
      .orderBy("p.name")
      .orderBy("s.position")
      .execute();
    return rows;
  }

  it("previews each variable product with its sizes and the variations it skips, imports one product a scent, and the same file again changes nothing", async () => {
    const file = await readFile(PERFUMES);
    const { id, report } = await preview(file);
    expect(report.counts).toEqual({ create: 8, update: 0, unchanged: 0, skip: 4, error: 0 });
    expect(report.products).toBe(3);
    expect(report.rows.map((r) => [r.row, r.action, r.name, r.size ?? null, r.notes?.filter((n) => !/^(1 image|New category)/.test(n)) ?? []])).toEqual([
      [2, "create", "Velvet Rose", null, ["3 sizes: 30 ml, 50 ml, 100 ml"]],
      [3, "create", "Oud Royale", null, ["2 sizes: 50 ml, 100 ml", IMPORT_MESSAGES.variationsSkipped(1)]],
      [4, "create", "Amber Nights", null, []],
      [5, "skip", "Travel Atomiser", null, [VARIATION_MESSAGES.noSizes(2, ["Colour"])]],
      [6, "create", "Velvet Rose - 30ml", "30 ml", []],
      [7, "create", "Velvet Rose - 50ml", "50 ml", []],
      [8, "create", "Velvet Rose - 100ml", "100 ml", []],
      [9, "create", "Oud Royale - 50 ml", "50 ml", []],
      [10, "create", "Oud Royale - 100 ml", "100 ml", [VARIATION_MESSAGES.stockOnParent]],
      [11, "skip", "Oud Royale - 100 ml, Yes", null, [VARIATION_MESSAGES.alsoBy([{ name: "Gift box", value: "Yes" }], "100 ml")]],
      [12, "skip", "Travel Atomiser - Gold", null, [VARIATION_MESSAGES.notBySize([{ name: "Colour", value: "Gold" }])]],
      [13, "skip", "Travel Atomiser - Silver", null, [VARIATION_MESSAGES.notBySize([{ name: "Colour", value: "Silver" }])]],
    ]);

    const changes: string[] = [];
    const stop = onStorefrontChange((reason) => changes.push(reason));
    const view = await apply(id);
    stop();
    expect(view.message).toBe("Imported: 8 created, 0 updated, 0 unchanged, 4 skipped; 2 images could not be fetched");
    expect(changes).toEqual([`product import ${id}`]);
    // on sale today: the 50 ml at its sale price, its regular price the was price; an empty weight is the product's
    expect(await catalogueWithSizes()).toEqual([
      { name: "Amber Nights", productSku: "SC-AMBER-100", from: 79_900, to: 79_900, total: 6, label: "100 ml", code: "100ml", sku: "SC-AMBER-100", price_cents: 79_900, was_price_cents: null, stock: 6, weight_grams: 454, position: 0 },
      { name: "Oud Royale", productSku: null, from: 89_900, to: 139_900, total: null, label: "50 ml", code: "50ml", sku: null, price_cents: 89_900, was_price_cents: null, stock: 3, weight_grams: null, position: 0 },
      { name: "Oud Royale", productSku: null, from: 89_900, to: 139_900, total: null, label: "100 ml", code: "100ml", sku: null, price_cents: 139_900, was_price_cents: null, stock: null, weight_grams: null, position: 1 },
      { name: "Velvet Rose", productSku: "SC-ROSE", from: 44_900, to: 99_900, total: null, label: "30 ml", code: "30ml", sku: "SC-ROSE-30", price_cents: 44_900, was_price_cents: null, stock: 12, weight_grams: 349, position: 0 },
      { name: "Velvet Rose", productSku: "SC-ROSE", from: 44_900, to: 99_900, total: null, label: "50 ml", code: "50ml", sku: "SC-ROSE-50", price_cents: 54_900, was_price_cents: 64_900, stock: 8, weight_grams: 349, position: 1 },
      { name: "Velvet Rose", productSku: "SC-ROSE", from: 44_900, to: 99_900, total: null, label: "100 ml", code: "100ml", sku: "SC-ROSE-100", price_cents: 99_900, was_price_cents: null, stock: null, weight_grams: 499, position: 2 },
    ]);

    const before = await catalogueWithSizes();
    const again = await preview(file);
    expect(again.report.counts).toEqual({ create: 0, update: 0, unchanged: 8, skip: 4, error: 0 });
    expect(again.report.products).toBe(0);
    expect(await catalogueWithSizes()).toEqual(before);
  });

  it("a variation with an error keeps the good ones when the owner imports the good rows; fixed, it comes in alone as its product's size", async () => {
    const [header, ...records] = parseSync(await readFile(PERFUMES, "utf8"), { relax_column_count: true }) as string[][];
    const price = header!.indexOf("Regular price");
    const broken = records.map((r) => [...r]);
    const fifty = broken.find((r) => r[2] === "SC-ROSE-50")!;
    fifty[price] = "six hundred";
    const { id, report } = await preview(stringify([header!, ...broken]));
    expect(report.counts).toEqual({ create: 7, update: 0, unchanged: 0, skip: 4, error: 1 });
    expect(report.rows.find((r) => r.action === "error")).toMatchObject({ row: 7, sku: "SC-ROSE-50", errors: [{ column: "Regular price", message: ROW_MESSAGES.price("six hundred") }] });
    await expect(claimImport(db(), id)).rejects.toThrow(IMPORT_MESSAGES.hasErrors);

    const view = await apply(id, { today: TODAY, goodRowsOnly: true });
    expect(view.message).toBe("Imported: 7 created, 0 updated, 0 unchanged, 4 skipped; 1 row with errors not imported; 2 images could not be fetched");
    expect((await catalogueWithSizes()).filter((s) => s.name === "Velvet Rose").map((s) => s.label)).toEqual(["30 ml", "100 ml"]);

    // the row with its error, downloaded and fixed: the variation alone finds its product by the Parent's SKU
    const download = (await failedRowsCsv(db(), id))!;
    const [, row] = parseSync(download.text.slice(1), { relax_column_count: true }) as string[][];
    row![price] = "649";
    const fixed = await preview(stringify([header!, row!]));
    expect(fixed.report.rows).toMatchObject([{ row: 2, action: "create", size: "50 ml", sku: "SC-ROSE-50" }]);
    await apply(fixed.id);
    const rose = (await catalogueWithSizes()).filter((s) => s.name === "Velvet Rose");
    // the new size goes after the others; the product's summary takes it in
    expect(rose.map((s) => [s.label, s.price_cents, s.was_price_cents, s.position])).toEqual([
      ["30 ml", 44_900, null, 0],
      ["100 ml", 99_900, null, 1],
      ["50 ml", 54_900, 64_900, 2],
    ]);
    // a size of the file's product that isn't in the file is left as it is: an import never removes one
    expect(rose).toHaveLength(3);
  });

  it("a variation whose product is neither in the file nor in the shop is an error naming its Parent", async () => {
    const [header, ...records] = parseSync(await readFile(PERFUMES, "utf8"), { relax_column_count: true }) as string[][];
    const orphan = records.find((r) => r[2] === "SC-ROSE-30")!;
    const { report } = await preview(stringify([header!, orphan]));
    expect(report.rows).toMatchObject([{ action: "error", errors: [{ column: "Parent", message: VARIATION_MESSAGES.parentMissing("SC-ROSE") }] }]);
  });
});
