import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseSync } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { DEFAULT_PRODUCT_IMAGES } from "~/modules/media/images";
import { DomainError } from "~/utils/errors";
import { insertCategory, insertProduct, insertTier, updateProduct } from "../../../tests/factories/catalog";
import { CSV_MESSAGES, OUR_HEADER } from "./csv-columns";
import { productsCsvStream } from "./csv-export.server";
import { applyImport, claimImport, getImportView, IMPORT_MESSAGES, previewImport, type ApplyOptions } from "./csv-import.server";
import { storeImage } from "./remote-image.server";
import { listSizes, refreshProductSummaries, renamedSizeCode } from "~/modules/catalog/sizes.server";

const db = () => getDb();
const BASE = "http://localhost:3000";
let media = "";

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), "scentara-csv-media-"));
  process.env.MEDIA_DIR = media;
});

afterAll(async () => {
  delete process.env.MEDIA_DIR;
  await rm(media, { recursive: true, force: true });
});

async function exportText(): Promise<string> {
  // (Response.text() would drop the byte-order mark: decode keeping it)
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(productsCsvStream(db(), { baseUrl: BASE, batchSize: 3 })).arrayBuffer());
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** Preview, then apply in this process (as the route's background job does), and answer the import's page view. */
async function importFile(content: Uint8Array | string, options: ApplyOptions = {}) {
  const { id, report } = await previewImport(db(), { fileName: "products.csv", bytes: typeof content === "string" ? bytes(content) : content, adminId: null, checkHost: options.checkHost });
  if (report.counts.error === 0 && report.counts.create + report.counts.update > 0) {
    const claim = await claimImport(db(), id);
    await applyImport(db(), id, claim, options);
  }
  return (await getImportView(db(), id))!;
}

/** The catalogue's rows (what an import may change), for "nothing changed" checks. */
async function catalogue() {
  const out: Record<string, string[]> = {};
  for (const table of ["products", "categories", "product_tiers", "product_sizes"]) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db());
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

async function expectRefused(content: Uint8Array | string, message: string | RegExp) {
  const before = await catalogue();
  const attempt = previewImport(db(), { fileName: "bad.csv", bytes: typeof content === "string" ? bytes(content) : content, adminId: null });
  await expect(attempt).rejects.toBeInstanceOf(DomainError);
  await expect(attempt).rejects.toThrow(message);
  expect(await catalogue()).toEqual(before);
}

async function emptyCatalogue() {
  await db().deleteFrom("products").execute();
  await db().deleteFrom("categories").execute();
}

describe("our own file", () => {
  it("exports every column, imports back unchanged, and a fresh import of it re-exports the same bytes", async () => {
    await emptyCatalogue();
    const her = await insertCategory(db(), { name: "For Her", slug: "for-her" });
    const him = await insertCategory(db(), { name: "For Him", slug: "for-him" });
    const rose = await insertProduct(db(), {
      name: "Crème Rosé Nº 5",
      slug: "creme-rose-no-5",
      category_id: her.id,
      price_cents: 129900,
      description: 'A rose, "powdery", with commas, and\nTop notes: lychee, pink pepper\n\nBase notes: musk',
      images: ["/media/products/creme-rose-3f9a2c1b-1200.webp", DEFAULT_PRODUCT_IMAGES.ladies],
      meta_title: "Crème Rosé | Scentara",
      meta_desc: "A rose; powdery.",
      stock: 0,
      inspired_house: "Dior",
      inspired_fragrance: "Miss Dior",
      size_ml: 50,
    });
    await updateProduct(db(), rose.id, { sku: "SC-ROSE-50", weight_grams: 420 });
    await db().updateTable("products").set({ scent_family: "floral", scent_top: "lychee, pink pepper", scent_heart: "Turkish rose", scent_seasons: "spring, summer", scent_for: "women" }).where("id", "=", rose.id).execute();
    await insertTier(db(), rose.id, { min_quantity: 3, max_quantity: 5, price_cents: 119900 });
    await insertTier(db(), rose.id, { min_quantity: 6, max_quantity: null, price_cents: 109950 });
    await insertProduct(db(), { name: '=HYPERLINK("http://evil.example","click")', slug: "formula", category_id: him.id, images: [DEFAULT_PRODUCT_IMAGES.men], stock: 12, description: "-dash first" });
    await insertProduct(db(), { name: "Plain", slug: "plain", images: [DEFAULT_PRODUCT_IMAGES.men], price_cents: 0 });

    const first = await exportText();
    expect(first.startsWith("\uFEFF")).toBe(true);
    const lines = first.slice(1).split("\r\n");
    expect(lines[0]).toBe(OUR_HEADER.join(","));
    // formula neutralised; en-ZA amounts with a dot, tiers in one cell, own images as full addresses
    expect(first).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(first).toContain("'-dash first");
    // its one size: its label and SKU, then its price, tiers, stock, millilitres and weight
    expect(first).toContain("SC-ROSE-50,creme-rose-no-5,Crème Rosé Nº 5,For Her,50 ml,SC-ROSE-50,1299.00,,3-5: 1199.00; 6+: 1099.50,0,50,420,Dior,Miss Dior,");
    expect(first).toContain(`${BASE}/media/products/creme-rose-3f9a2c1b-1200.webp, ${BASE}/images/default-her-1200.webp`);
    // the scent profile, last: family, notes and seasons as lists, empty cells for what isn't said
    expect(first).toContain(`,floral,"lychee, pink pepper",Turkish rose,,,,"spring, summer",women\r\n`);

    // the same file back: nothing to do
    const again = await previewImport(db(), { fileName: "p.csv", bytes: bytes(first), adminId: null });
    expect(again.report.counts).toEqual({ create: 0, update: 0, unchanged: 3, skip: 0, error: 0 });
    await expect(claimImport(db(), again.id)).rejects.toThrow(IMPORT_MESSAGES.nothingToDo);

    // into an empty shop: everything made, categories too, and the export is byte for byte the same
    await emptyCatalogue();
    const view = await importFile(first);
    expect(view.status).toBe("applied");
    expect(view.report.counts).toMatchObject({ create: 3, error: 0 });
    expect(view.report.newCategories.sort()).toEqual(["For Her", "For Him"]);
    expect(await exportText()).toBe(first);
  });

  it("updates only what changed, reads people's prices, and a product with no images stays as it is", async () => {
    await emptyCatalogue();
    const p = await insertProduct(db(), { name: "Bare", slug: "bare", images: [], price_cents: 10000 });
    const csv = `\uFEFF${stringify([OUR_HEADER, ["", "bare", "Bare", "", "", "", "R 1 299,00", "", "", "", "", "", "", "", p.description, "", "", ""]])}`;
    const view = await importFile(csv);
    expect(view.rows[0]).toMatchObject({ action: "update", changes: ["Price (ZAR)"] });
    const row = await db().selectFrom("products").selectAll().where("id", "=", p.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ price_cents: 129900, images: [], name: "Bare" });
    // A file with only SKU or slug, name and price changes only the price.
    const partial = await importFile("Slug,Name,Price (ZAR)\nbare,Bare,99\n");
    expect(partial.rows[0]).toMatchObject({ action: "update", changes: ["Price (ZAR)"] });
    expect(await db().selectFrom("products").select(["price_cents", "description"]).where("id", "=", p.id).executeTakeFirstOrThrow()).toEqual({ price_cents: 9900, description: p.description });
  });
});

describe("a product in several sizes (issue 33)", () => {
  /** Velvet Rose in 30, 50 and 100 ml (tiers on the 100 ml), and a 10 ml no longer sold (hidden: it has orders). */
  async function roseInSizes() {
    await emptyCatalogue();
    const her = await insertCategory(db(), { name: "For Her", slug: "for-her" });
    const rose = await insertProduct(db(), { name: "Velvet Rose", slug: "velvet-rose", category_id: her.id, price_cents: 64_900, size_ml: 50, stock: 8, images: [DEFAULT_PRODUCT_IMAGES.ladies] });
    await updateProduct(db(), rose.id, { sku: "SC-ROSE" });
    await db().updateTable("product_sizes").set({ sku: "SC-ROSE-50", position: 1 }).where("id", "=", rose.id).execute();
    const size = (id: string, values: { label: string; code: string; size_ml: number; price_cents: number; sku: string; position: number; stock?: number | null; hidden?: number; was_price_cents?: number | null }) => ({
      id, product_id: rose.id, weight_grams: null, stock: null, hidden: 0, created_at: new Date().toISOString(), ...values,
    });
    await db()
      .insertInto("product_sizes")
      .values([
        size(`${rose.id}-30`, { label: "30 ml", code: "30ml", size_ml: 30, price_cents: 44_900, sku: "SC-ROSE-30", position: 0, stock: 12 }),
        size(`${rose.id}-100`, { label: "100 ml", code: "100ml", size_ml: 100, price_cents: 99_900, was_price_cents: 119_900, sku: "SC-ROSE-100", position: 2 }),
        size(`${rose.id}-10`, { label: "10 ml", code: "10ml", size_ml: 10, price_cents: 14_900, sku: "SC-ROSE-10", position: 3, hidden: 1 }),
      ])
      .execute();
    await insertTier(db(), rose.id, { min_quantity: 3, max_quantity: null, price_cents: 89_900, size_id: `${rose.id}-100` });
    await refreshProductSummaries(db(), [rose.id]);
    return rose;
  }
  const cellsOf = (text: string) => parseSync(text.slice(1)) as string[][];
  const col = (name: string) => OUR_HEADER.indexOf(name);

  it("exports a row per size with its product's columns repeated, imports back unchanged, and into an empty shop re-exports the same bytes", async () => {
    await roseInSizes();
    const first = await exportText();
    const [, ...rows] = cellsOf(first);
    // the visible sizes in the owner's order; the hidden 10 ml isn't sold any more
    expect(rows.map((r) => [r[col("Slug")], r[col("Name")], r[col("Category")], r[col("Size")], r[col("Size SKU")], r[col("Price (ZAR)")], r[col("Was price (ZAR)")], r[col("Tier prices (ZAR)")], r[col("Stock")], r[col("Size (ml)")]])).toEqual([
      ["velvet-rose", "Velvet Rose", "For Her", "30 ml", "SC-ROSE-30", "449.00", "", "", "12", "30"],
      ["velvet-rose", "Velvet Rose", "For Her", "50 ml", "SC-ROSE-50", "649.00", "", "", "8", "50"],
      ["velvet-rose", "Velvet Rose", "For Her", "100 ml", "SC-ROSE-100", "999.00", "1199.00", "3+: 899.00", "", "100"],
    ]);
    expect(new Set(rows.map((r) => r[col("SKU")]))).toEqual(new Set(["SC-ROSE"]));

    const before = await catalogue();
    const again = await previewImport(db(), { fileName: "p.csv", bytes: bytes(first), adminId: null });
    expect(again.report.counts).toEqual({ create: 0, update: 0, unchanged: 3, skip: 0, error: 0 });
    expect(again.report.rows.map((r) => r.size)).toEqual(["30 ml", "50 ml", "100 ml"]);
    expect(await catalogue()).toEqual(before);

    await emptyCatalogue();
    const view = await importFile(first);
    expect(view.report.counts).toMatchObject({ create: 3, error: 0 });
    expect(view.report.products).toBe(1);
    const product = await db().selectFrom("products").select(["price_cents", "max_price_cents", "was_price_cents", "stock", "size_ml"]).executeTakeFirstOrThrow();
    // the product's summary: the cheapest size's price, "from" up to the dearest; the 100 ml isn't counted
    expect(product).toEqual({ price_cents: 44_900, max_price_cents: 99_900, was_price_cents: null, stock: null, size_ml: 30 });
    expect(await exportText()).toBe(first);
  });

  it("a spreadsheet's edit: later rows may leave the product's columns empty; a changed price updates that size only; a different product value is an error; a new row adds a size and none is removed", async () => {
    const rose = await roseInSizes();
    const [header, ...rows] = cellsOf(await exportText());
    for (const row of rows.slice(1)) for (const name of ["Name", "Category", "Description", "Images"]) row[col(name)] = "";
    rows[2]![col("Price (ZAR)")] = "949.00";
    const travel = [...rows[0]!];
    travel[col("Size")] = "Travel spray";
    travel[col("Size SKU")] = "SC-ROSE-TRAVEL";
    travel[col("Size (ml)")] = "10";
    travel[col("Price (ZAR)")] = "199.00";
    const changes: string[] = [];
    const stop = onStorefrontChange((reason) => changes.push(reason));
    const view = await importFile(`\uFEFF${stringify([header!, ...rows, travel])}`);
    stop();
    expect(view.rows.map((r) => [r.row, r.action, r.size, r.changes])).toEqual([
      [2, "unchanged", "30 ml", undefined],
      [3, "unchanged", "50 ml", undefined],
      [4, "update", "100 ml", ["Price (ZAR)"]],
      [5, "create", "Travel spray", undefined],
    ]);
    expect(changes).toHaveLength(1);
    const sizes = await db().selectFrom("product_sizes").select(["label", "code", "price_cents", "position", "hidden"]).where("product_id", "=", rose.id).orderBy("position").execute();
    expect(sizes).toEqual([
      { label: "30 ml", code: "30ml", price_cents: 44_900, position: 0, hidden: 0 },
      { label: "50 ml", code: "50ml", price_cents: 64_900, position: 1, hidden: 0 },
      { label: "100 ml", code: "100ml", price_cents: 94_900, position: 2, hidden: 0 },
      { label: "10 ml", code: "10ml", price_cents: 14_900, position: 3, hidden: 1 },
      { label: "Travel spray", code: "travelspray", price_cents: 19_900, position: 4, hidden: 0 },
    ]);
    expect(await db().selectFrom("products").select(["price_cents", "max_price_cents"]).where("id", "=", rose.id).executeTakeFirstOrThrow()).toEqual({ price_cents: 19_900, max_price_cents: 94_900 });

    rows[1]![col("Description")] = "Another description";
    const { report } = await previewImport(db(), { fileName: "p.csv", bytes: bytes(`\uFEFF${stringify([header!, ...rows])}`), adminId: null });
    expect(report.rows.find((r) => r.action === "error")).toMatchObject({ row: 3, errors: [{ column: "Description", message: `differs from row 2 of the same product: a product's columns are the same on each of its size rows (or left empty after the first)` }] });
  });

  it("a size renamed in the file (found by its Size SKU) keeps its old code, so links shared before name it still", async () => {
    const rose = await roseInSizes();
    const [header, ...rows] = cellsOf(await exportText());
    const hundred = rows.find((r) => r[col("Size SKU")] === "SC-ROSE-100")!;
    hundred[col("Size")] = "100 ml Intense";
    const view = await importFile(`\uFEFF${stringify([header!, ...rows])}`);
    expect(view.rows.find((r) => r.action !== "unchanged")).toMatchObject({ action: "update", size: "100 ml Intense", changes: ["Size"] });
    expect(await db().selectFrom("product_size_former_codes").select(["code", "size_id"]).where("product_id", "=", rose.id).execute()).toEqual([
      { code: "100ml", size_id: `${rose.id}-100` },
    ]);
    const shown = await listSizes(db(), [rose.id]);
    expect(await renamedSizeCode(db(), rose.id, shown, "100ml")).toBe("100mlintense");
    // a current code or an unknown one is not a renamed size's
    expect(await renamedSizeCode(db(), rose.id, shown, "100mlintense")).toBeNull();
    expect(await renamedSizeCode(db(), rose.id, shown, "magnum")).toBeNull();
  });

  it("an older file without the Size columns imports a product a row, its one size; it can't say which size of a product in several", async () => {
    await roseInSizes();
    const plain = await insertProduct(db(), { name: "Plain Musk", slug: "plain-musk", price_cents: 30_000, images: [DEFAULT_PRODUCT_IMAGES.men] });
    const older = "Slug,Name,Price (ZAR),Size (ml)\nplain-musk,Plain Musk,350.00,50\nvelvet-rose,Velvet Rose,500.00,\nnew-oud,New Oud,400.00,100\n";
    const { report } = await previewImport(db(), { fileName: "older.csv", bytes: bytes(older), adminId: null });
    expect(report.rows.map((r) => [r.row, r.action, r.size, r.changes ?? r.errors])).toEqual([
      [2, "update", undefined, ["Size (ml)", "Price (ZAR)"]],
      [3, "error", undefined, [{ column: "", message: IMPORT_MESSAGES.soldInSizes(["30 ml", "50 ml", "100 ml"]) }]],
      [4, "create", undefined, undefined],
    ]);
    const view = await importFile(older.replace(/velvet-rose.*\n/, ""));
    expect(view.status).toBe("applied");
    expect(await db().selectFrom("product_sizes").select(["label", "code", "size_ml", "price_cents"]).where("product_id", "=", plain.id).execute()).toEqual([{ label: "50 ml", code: "50ml", size_ml: 50, price_cents: 35_000 }]);
    const oud = await db().selectFrom("products as p").innerJoin("product_sizes as s", "s.product_id", "p.id").select(["s.id as sizeId", "p.id", "s.label", "s.price_cents"]).where("p.slug", "=", "new-oud").execute();
    expect(oud).toEqual([{ sizeId: oud[0]!.id, id: oud[0]!.id, label: "100 ml", price_cents: 40_000 }]);
  });
});

describe("a WooCommerce product export, unchanged", () => {
  it("imports simple products with their categories and images, a variable product with its sizes, skips what isn't a product here, and a second import changes nothing", async () => {
    await emptyCatalogue();
    const file = await readFile(join(import.meta.dirname, "../../../tests/fixtures/woocommerce-products.csv"));
    const png = await sharp({ create: { width: 800, height: 800, channels: 3, background: "#d8b4a0" } }).png().toBuffer();
    const fetched: string[] = [];
    const importImage = async (url: string) => (fetched.push(url), storeImage(png, url.split("/").pop()!.replace(/\.\w+$/, "")));

    // the fixture's host is made up: say it resolves, the fetch itself is the test's
    const checkHost = async () => null;
    const view = await importFile(new Uint8Array(file), { importImage, checkHost });
    expect(view.status).toBe("applied");
    // the variable product's row and its two size variations' rows are created
    expect(view.message).toBe("Imported: 7 created, 0 updated, 0 unchanged, 2 skipped");
    expect(view.report.format).toBe("woocommerce");
    expect(view.report.ignoredColumns).toEqual(expect.arrayContaining(["GTIN, UPC, EAN, or ISBN", "Tags", "Tax status", "Meta: _wp_page_template"]));
    expect(view.report.newCategories.sort()).toEqual(["For Her", "For Him", "Unisex"]);
    expect(fetched.sort()).toEqual(["https://shop.example.co.za/wp-content/uploads/2024/05/velvet-rose-box.jpg", "https://shop.example.co.za/wp-content/uploads/2024/05/velvet-rose.jpg"]);
    expect(view.rows.filter((r) => r.action === "skip").map((r) => [r.row, r.notes![0]])).toEqual([
      [7, expect.stringMatching(/draft/)],
      [10, expect.stringMatching(/Private/)],
    ]);
    expect(view.rows.filter((r) => r.row >= 4 && r.row <= 6).map((r) => [r.row, r.action, r.sku, r.size ?? null])).toEqual([
      [4, "create", "SC-OUD", null],
      [5, "create", "SC-OUD-30", "30 ml"],
      [6, "create", "SC-OUD-100", "100 ml"],
    ]);
    expect(view.rows.find((r) => r.row === 4)!.notes).toContain("2 sizes: 30 ml, 100 ml");

    const products = await db()
      .selectFrom("products as p")
      .leftJoin("categories as c", "c.id", "p.category_id")
      .select(["p.sku", "p.slug", "p.name", "p.price_cents", "p.was_price_cents", "p.stock", "p.size_ml", "p.weight_grams", "p.description", "p.images", "c.name as category"])
      .orderBy("p.name")
      .execute();
    // one product in two sizes: the cheapest's price on the product, "from" up to the dearest's, stock summed
    expect(products.find((p) => p.sku === "SC-OUD")).toMatchObject({ name: "Oud Collection", price_cents: 44900, stock: 7, size_ml: 30, category: "Unisex" });
    const oud = await db().selectFrom("product_sizes as s").innerJoin("products as p", "p.id", "s.product_id").select(["s.label", "s.code", "s.sku", "s.price_cents", "s.stock", "s.size_ml", "s.position"]).where("p.sku", "=", "SC-OUD").orderBy("s.position").execute();
    expect(oud).toEqual([
      { label: "30 ml", code: "30ml", sku: "SC-OUD-30", price_cents: 44900, stock: 5, size_ml: 30, position: 0 },
      { label: "100 ml", code: "100ml", sku: "SC-OUD-100", price_cents: 99900, stock: 2, size_ml: 100, position: 1 },
    ]);
    expect(products.filter((p) => p.sku !== "SC-OUD")).toEqual([
      { sku: "SC-GIFT", slug: "home-gift-card", name: "@Home Gift Card", price_cents: 50000, was_price_cents: null, stock: null, size_ml: null, weight_grams: null, description: 'A gift card, "sent by e-mail".', images: [DEFAULT_PRODUCT_IMAGES.men], category: null },
      { sku: null, slug: "cedar-smoke", name: "Cedar & Smoke", price_cents: 89900, was_price_cents: 129900, stock: 0, size_ml: null, weight_grams: null, description: "A dry, smoky cedar for evenings.\n\nBase notes: cedar, vetiver, smoke", images: [DEFAULT_PRODUCT_IMAGES.men], category: "For Him" },
      { sku: "SC-NEROLI-100", slug: "neroli-soleil", name: "Néroli Soleil", price_cents: 74950, was_price_cents: null, stock: 0, size_ml: 100, weight_grams: 420, description: "Bright neroli, orange blossom & bergamot — made for summer.", images: [DEFAULT_PRODUCT_IMAGES.men], category: "Unisex" },
      {
        sku: "SC-ROSE-50",
        slug: "velvet-rose",
        name: "Velvet Rose",
        price_cents: 64900,
        was_price_cents: null,
        stock: 24,
        size_ml: 50,
        weight_grams: 350,
        description: "A soft, powdery rose & musk.\n\nInspired by a Parisian classic.\n\n• Top notes: pink pepper, lychee\n• Heart notes: Turkish rose\n• Base notes: white musk, cedar",
        images: [expect.stringMatching(/^\/media\/products\/velvet-rose-[0-9a-f]{8}-1200\.webp$/), expect.stringMatching(/^\/media\/products\/velvet-rose-box-[0-9a-f]{8}-1200\.webp$/)],
        category: "For Her",
      },
    ]);

    const before = await catalogue();
    const second = await previewImport(db(), { fileName: "again.csv", bytes: new Uint8Array(file), adminId: null, checkHost });
    expect(second.report.counts).toEqual({ create: 0, update: 0, unchanged: 7, skip: 2, error: 0 });
    expect(second.report.imagesToFetch).toBe(0);
    expect(await catalogue()).toEqual(before);
  });
});

describe("bad input: a clear message, and nothing stored is lost", () => {
  // a file without sizes (an older export): a product a row, so a SKU twice is the same product twice
  const OLDER = OUR_HEADER.filter((h) => h !== "Size" && h !== "Size SKU");
  const ours = (...rows: string[]) => `${OLDER.join(",")}\n${rows.join("\n")}\n`;
  const row = (sku: string, name: string, price = "100.00", extra: Partial<Record<string, string>> = {}) =>
    stringify([OLDER.map((h) => (h === "SKU" ? sku : h === "Name" ? name : h === "Price (ZAR)" ? price : (extra[h] ?? "")))]).trimEnd();

  beforeAll(async () => {
    await emptyCatalogue();
    await insertProduct(db(), { name: "Kept", slug: "kept", images: [DEFAULT_PRODUCT_IMAGES.men] });
  });

  it("a wrong encoding: UTF-16 and Latin-1", async () => {
    await expectRefused(Buffer.from(`\uFEFF${ours(row("A", "Crème"))}`, "utf16le"), CSV_MESSAGES.utf16);
    await expectRefused(Buffer.from(ours(row("A", "Plain"), row("B", "Crème")), "latin1"), /^The file isn't UTF-8: line 3 has a byte \(0xE8\)/);
  });

  it("a missing required column, broken quotes mid-file, 100 000 rows", async () => {
    await expectRefused("SKU,Name,Stock\nA,Rose,3\n", CSV_MESSAGES.missingColumns(["Price (ZAR)"], "scentara"));
    await expectRefused(`SKU,Name,Price (ZAR)\nA,Rose,1\nB,"Oud "Royal" Wood,2\nC,Musk,3\n`, /^Row 3 \(line 3\): a quoted cell's closing quote is followed by more text/);
    await expectRefused(`SKU,Name,Price (ZAR)\nA,Rose,1\nB,"Oud,2\nC,Musk,3\n`, /^Row 3: a quoted cell opens and never closes/);
    const huge = `SKU,Name,Price (ZAR)\n${Array.from({ length: 100_000 }, (_, i) => `S${i},Scent ${i},1`).join("\n")}\n`;
    await expectRefused(huge, CSV_MESSAGES.tooManyRows);
  });

  it("duplicate SKUs and bad prices are errors naming row and column; private image addresses aren't (the product comes without them); the import isn't applied as it is", async () => {
    const before = await catalogue();
    const { id, report } = await previewImport(db(), {
      fileName: "dupes.csv",
      bytes: bytes(
        ours(
          row("DUP-1", "Rose"),
          row("OK-1", "Musk", "R 1 299,00"),
          row("DUP-1", "Oud"),
          row("P-1", "Amber", "12,345"),
          row("IMG-1", "Iris", "1", { Images: "http://127.0.0.1/x.png, http://10.0.0.8/y.png" }),
          row("IMG-2", "Vetiver", "1", { Images: "http://[::1]/z.png" }),
          row("IMG-3", "Tonka", "1", { Images: "http://192.168.1.20/t.png" }),
        ),
      ),
      adminId: null,
    });
    expect(report.counts).toEqual({ create: 4, update: 0, unchanged: 0, skip: 0, error: 3 });
    const errors = Object.fromEntries(report.rows.filter((r) => r.errors).map((r) => [r.row, r.errors]));
    expect(errors[2]).toEqual([{ column: "SKU", message: 'SKU "DUP-1" is also on row 4: each product may appear once' }]);
    expect(errors[4]).toEqual([{ column: "SKU", message: 'SKU "DUP-1" is also on row 2: each product may appear once' }]);
    expect(errors[5]).toEqual([{ column: "Price (ZAR)", message: '"12,345" isn\'t an amount in rand: write it like 1299.00 (or R 1 299,00)' }]);
    const failures = Object.fromEntries(report.rows.filter((r) => r.imageFailures).map((r) => [r.row, r.imageFailures]));
    expect(failures[6]).toEqual([
      { url: "http://127.0.0.1/x.png", reason: "the address is private or local (127.0.0.1): refused" },
      { url: "http://10.0.0.8/y.png", reason: "the address is private or local (10.0.0.8): refused" },
    ]);
    expect(failures[7]![0]!.reason).toMatch(/private or local \(::1\)/);
    expect(failures[8]![0]!.reason).toMatch(/private or local \(192\.168\.1\.20\)/);
    expect(report.imagesFailed).toBe(4);
    expect(report.imagesToFetch).toBe(0);
    await expect(claimImport(db(), id)).rejects.toThrow(IMPORT_MESSAGES.hasErrors);
    expect(await catalogue()).toEqual(before);
  });

  it("a host name that resolves to a loopback address is refused (the preview says so), and the product comes in without that image", async () => {
    const view = await importFile(ours(row("LOCAL-1", "Localhost Musk", "1", { Images: "http://localhost:9/x.png" }), row("FINE-1", "Fine", "2")));
    expect(view.status).toBe("applied");
    expect(view.message).toBe("Imported: 2 created, 0 updated, 0 unchanged; 1 image could not be fetched");
    expect(view.imageFailures).toEqual([{ row: 2, name: "Localhost Musk", url: "http://localhost:9/x.png", reason: expect.stringMatching(/^the address is private or local \((127\.0\.0\.1|::1)\)/) }]);
    const musk = await db().selectFrom("products").select(["id", "images"]).where("sku", "=", "LOCAL-1").executeTakeFirstOrThrow();
    expect(musk.images).toEqual([DEFAULT_PRODUCT_IMAGES.men]);
    expect(await db().selectFrom("import_missing_images").select(["product_id", "source_url", "position", "row_number"]).execute()).toEqual([
      { product_id: musk.id, source_url: "http://localhost:9/x.png", position: 0, row_number: 2 },
    ]);
    await db().deleteFrom("products").where("sku", "in", ["LOCAL-1", "FINE-1"]).execute();
  });

  it("a failure in the middle of the apply leaves nothing written; applying again then works", async () => {
    const before = await catalogue();
    const rows = Array.from({ length: 450 }, (_, i) => row(`MID-${i}`, `Midway ${i}`, "10", { Category: `Batch ${i % 3}`, "Tier prices (ZAR)": "2+: 9.00" }));
    const { id } = await previewImport(db(), { fileName: "mid.csv", bytes: bytes(ours(row("", "Kept", "55"), ...rows)), adminId: null });
    await applyImport(db(), id, await claimImport(db(), id), {
      onWrite: (n) => {
        if (n >= 400) throw new Error("the disk is full");
      },
    });
    const failed = (await getImportView(db(), id))!;
    expect(failed.status).toBe("failed");
    expect(failed.message).toBe(IMPORT_MESSAGES.failed);
    expect(await catalogue()).toEqual(before);

    await applyImport(db(), id, await claimImport(db(), id));
    const done = (await getImportView(db(), id))!;
    expect(done.message).toBe("Imported: 450 created, 1 updated, 0 unchanged");
    expect(await db().selectFrom("product_tiers").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).toEqual({ n: 450 });
    await expect(claimImport(db(), id)).rejects.toThrow(IMPORT_MESSAGES.applied);
  });
});

describe("the scent profile (issue 22)", () => {
  const PROFILE = {
    scent_family: "woody",
    scent_top: "saffron, pink pepper",
    scent_heart: "Turkish rose",
    scent_base: "oud, amber",
    scent_intensity: "strong",
    scent_occasion: "evening",
    scent_seasons: "autumn, winter",
    scent_for: "anyone",
  };
  const scentOf = (id: string) =>
    db()
      .selectFrom("products")
      .select(["scent_family", "scent_top", "scent_heart", "scent_base", "scent_intensity", "scent_occasion", "scent_seasons", "scent_for"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  /** The export with one cell of one product's row changed (the header names the column). */
  const withCell = (csv: string, name: string, header: string, value: string) => {
    const lines = csv.slice(1).split("\r\n");
    const column = OUR_HEADER.indexOf(header);
    return `\uFEFF${lines
      .map((line, i) => {
        if (i === 0 || !line.includes(name)) return line;
        const cells = parseSync(line)[0] as string[];
        cells[column] = value;
        return stringify([cells]).trimEnd();
      })
      .join("\r\n")}`;
  };
  let oud = "";
  let plain = "";

  beforeAll(async () => {
    await emptyCatalogue();
    oud = (await insertProduct(db(), { name: "Velvet Oud", slug: "velvet-oud", images: [DEFAULT_PRODUCT_IMAGES.men] })).id;
    plain = (await insertProduct(db(), { name: "Plain Musk", slug: "plain-musk", images: [DEFAULT_PRODUCT_IMAGES.men] })).id;
    await db().updateTable("products").set(PROFILE).where("id", "=", oud).execute();
    await updateProduct(db(), oud, { sku: "SC-OUD" });
  });

  it("is exported for every product and imports back unchanged", async () => {
    const csv = await exportText();
    expect(csv).toContain(`,woody,"saffron, pink pepper",Turkish rose,"oud, amber",strong,evening,"autumn, winter",anyone\r\n`);
    expect(csv).toMatch(/,plain-musk,Plain Musk,.*,,,,,,,,\r\n/);
    const before = await catalogue();
    const again = await previewImport(db(), { fileName: "p.csv", bytes: bytes(csv), adminId: null });
    expect(again.report.counts).toEqual({ create: 0, update: 0, unchanged: 2, skip: 0, error: 0 });
    expect(await catalogue()).toEqual(before);
  });

  it("one changed cell is an update naming its column; an empty cell clears that part only", async () => {
    const csv = await exportText();
    const view = await importFile(withCell(csv, "Velvet Oud", "Intensity", "Moderate"));
    expect(view.status).toBe("applied");
    expect(view.report.counts).toMatchObject({ update: 1, unchanged: 1 });
    expect(view.rows.find((r) => r.name === "Velvet Oud")).toMatchObject({ action: "update", changes: ["Intensity"] });
    expect(await scentOf(oud)).toEqual({ ...PROFILE, scent_intensity: "moderate" });

    const cleared = await importFile(withCell(await exportText(), "Velvet Oud", "Top notes", ""));
    expect(cleared.rows.find((r) => r.name === "Velvet Oud")).toMatchObject({ action: "update", changes: ["Top notes"] });
    expect(await scentOf(oud)).toEqual({ ...PROFILE, scent_intensity: "moderate", scent_top: "" });

    const profiled = await importFile(withCell(await exportText(), "Plain Musk", "Seasons", "Winter, summer"));
    expect(profiled.rows.find((r) => r.name === "Plain Musk")).toMatchObject({ action: "update", changes: ["Seasons"] });
    expect((await scentOf(plain)).scent_seasons).toBe("summer, winter");
    await db().updateTable("products").set(PROFILE).where("id", "=", oud).execute();
  });

  it("a file without its columns (an older export, WooCommerce) leaves every profile as it is", async () => {
    const older = `Slug,Name,Price (ZAR)\nvelvet-oud,Velvet Oud,1.00\n`;
    const view = await importFile(older);
    expect(view.rows[0]).toMatchObject({ action: "update", changes: ["Price (ZAR)"] });
    expect(await scentOf(oud)).toEqual(PROFILE);
    const woo = await importFile(`Type,SKU,Name,Published,Regular price\nsimple,SC-OUD,Velvet Oud,1,2.00\n`);
    expect(woo.report.format).toBe("woocommerce");
    expect(woo.rows[0]).toMatchObject({ action: "update", changes: ["Regular price"] });
    expect(await scentOf(oud)).toEqual(PROFILE);
    // only some of the columns: the others' parts stay
    const some = await importFile(`Slug,Name,Price (ZAR),Made for\nvelvet-oud,Velvet Oud,2.00,men\n`);
    expect(some.rows[0]).toMatchObject({ action: "update", changes: ["Made for"] });
    expect(await scentOf(oud)).toEqual({ ...PROFILE, scent_for: "men" });
    await db().updateTable("products").set(PROFILE).where("id", "=", oud).execute();
  });

  it("a value outside the lists is an error naming the row, the column and the allowed values; nothing is written", async () => {
    const csv = withCell(withCell(await exportText(), "Plain Musk", "Scent family", "citrus"), "Velvet Oud", "Seasons", "winter, monsoon");
    const before = await catalogue();
    const { id, report } = await previewImport(db(), { fileName: "bad.csv", bytes: bytes(csv), adminId: null });
    expect(report.counts).toEqual({ create: 0, update: 0, unchanged: 0, skip: 0, error: 2 });
    expect(report.rows.map((r) => [r.row, r.name, r.errors])).toEqual([
      [2, "Plain Musk", [{ column: "Scent family", message: expect.stringMatching(/^"citrus" isn't one of the choices: write fresh, aquatic, .* or leather, or leave the cell empty$/) }]],
      [3, "Velvet Oud", [{ column: "Seasons", message: '"monsoon" isn\'t a season: write any of spring, summer, autumn, winter (separated by commas), or leave the cell empty' }]],
    ]);
    await expect(claimImport(db(), id)).rejects.toThrow(IMPORT_MESSAGES.hasErrors);
    expect(await catalogue()).toEqual(before);
  });
});
