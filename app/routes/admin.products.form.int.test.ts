import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { WEIGHT_MESSAGE } from "~/modules/catalog/catalog-admin.schema";
import { imagesOf } from "~/modules/catalog/catalog.server";
import { PRODUCT_MESSAGES } from "~/modules/catalog/product-admin.text";
import { DEFAULT_PRODUCT_IMAGES } from "~/modules/media/images";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { insertCategory, insertProduct, updateProduct } from "../../tests/factories/catalog";
import * as add from "./admin.products.add";
import * as edit from "./admin.products.edit";
import * as upload from "./admin.products.images";
import * as product from "./product";
import { deleteProduct } from "~/modules/catalog/catalog-admin.server";

const db = () => getDb();
let cookie = "";
let media = "";
let forHer = "";
let forHim = "";

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), "scentara-admin-media-"));
  process.env.MEDIA_DIR = media;
  const admin = await createUser(db(), { isAdmin: true });
  cookie = await sessionCookieFor(db(), admin.id);
  forHer = (await insertCategory(db(), { name: "Female Favourites", slug: "female-favourites" })).id;
  forHim = (await insertCategory(db(), { name: "Male Classics", slug: "male-classics" })).id;
});

afterAll(async () => {
  delete process.env.MEDIA_DIR;
  await rm(media, { recursive: true, force: true });
});

function form(fields: Record<string, string>, files: Array<{ name: string; bytes: Buffer; type: string }> = []) {
  const f = new FormData();
  for (const [k, v] of Object.entries({ intent: "save", ...fields })) f.append(k, v);
  for (const file of files) f.append("newImages", new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
  return f;
}
const save = (fields: Record<string, string>, files?: Array<{ name: string; bytes: Buffer; type: string }>) => callAction(add.action, "/admin/products/add", form(fields, files), { headers: { cookie } });
const png = () => sharp({ create: { width: 900, height: 1200, channels: 3, background: "#c9a86a" } }).png().toBuffer();
const productBySlug = (slug: string) => db().selectFrom("products").selectAll().where("slug", "=", slug).executeTakeFirst();

describe("product form: validation in the spec's order", () => {
  it.each([
    [{ name: "  ", price: "-1", slug: "", categoryId: "" }, PRODUCT_MESSAGES.nameRequired],
    [{ name: "Sea Mist", price: "", slug: "", categoryId: "" }, PRODUCT_MESSAGES.priceRequired],
    [{ name: "Sea Mist", price: "abc", slug: "", categoryId: "" }, PRODUCT_MESSAGES.priceRequired],
    [{ name: "Sea Mist", price: "-5", slug: "", categoryId: "" }, PRODUCT_MESSAGES.priceRequired],
    [{ name: "Sea Mist", price: "349.99", slug: "", categoryId: "", id: "existing" }, PRODUCT_MESSAGES.slugRequired],
    [{ name: "Sea Mist", price: "349.99", slug: "sea-mist", categoryId: "" }, PRODUCT_MESSAGES.categoryRequired],
  ])("%j → %s, and nothing is saved", async (fields, message) => {
    const before = await db().selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    const result = await save(fields);
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).error).toBe(message);
    const after = await db().selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe("product form: saving", () => {
  it("creates a product: slug from the name, price in rand stored in cents, meta title filled, the storefront told at once", async () => {
    const heard: string[] = [];
    const stop = onStorefrontChange((r) => heard.push(r));
    const result = await save({ name: "Crème de Rooibos", price: "R 1 299,50", slug: "", categoryId: forHer, description: "Warm.\n\nNotes: rooibos, honey" });
    stop();
    expect(await dataOf(result)).toMatchObject({ ok: true, message: PRODUCT_MESSAGES.created });
    const row = await productBySlug("creme-de-rooibos");
    expect(row).toMatchObject({ name: "Crème de Rooibos", price_cents: 129950, category_id: forHer, meta_title: "Crème de Rooibos | Scentara" });
    expect(heard).toHaveLength(1);
    // a visitor's product page shows it (the page cache was told; the loader reads the database)
    const page = await dataOf(await callLoader(product.loader, "/products/creme-de-rooibos", { params: { slug: "creme-de-rooibos" } }));
    expect(page.product.name).toBe("Crème de Rooibos");
  });

  it("gives a product without images its category's default image ('female' is the ladies' image, not the men's)", async () => {
    await save({ name: "Default Her", price: "300", slug: "", categoryId: forHer });
    await save({ name: "Default Him", price: "300", slug: "", categoryId: forHim });
    expect(imagesOf((await productBySlug("default-her"))!.images)).toEqual([DEFAULT_PRODUCT_IMAGES.ladies]);
    expect(imagesOf((await productBySlug("default-him"))!.images)).toEqual([DEFAULT_PRODUCT_IMAGES.men]);
  });

  it("refuses a slug another product has, with a clear message", async () => {
    await insertProduct(db(), { name: "Taken", slug: "taken-slug" });
    const result = await save({ name: "Another", price: "100", slug: "taken-slug", categoryId: forHim });
    expect(statusOf(result)).toBe(409);
    expect(await dataOf(result)).toMatchObject({ error: PRODUCT_MESSAGES.slugTaken, fieldErrors: { slug: PRODUCT_MESSAGES.slugTaken } });
  });

  it("edits a product: the slug stays as given (not regenerated from a new name), removed images leave the disk", async () => {
    await save({ name: "Edit Me", price: "100", slug: "", categoryId: forHim }, [{ name: "bottle.png", bytes: await png(), type: "image/png" }]);
    const row = (await productBySlug("edit-me"))!;
    const [image] = imagesOf(row.images);
    expect(image).toMatch(/^\/media\/products\/bottle-[0-9a-f]{8}-1200\.webp$/);
    expect((await readdir(join(media, "products"))).filter((f) => f.startsWith("bottle-"))).toHaveLength(3);

    const loaded = await dataOf(await callLoader(edit.loader, `/admin/products/edit/${row.id}`, { params: { id: row.id }, headers: { cookie } }));
    expect(loaded.product).toMatchObject({ name: "Edit Me", slug: "edit-me", priceCents: 10000, images: [image] });

    const result = await callAction(edit.action, `/admin/products/edit/${row.id}`, form({ id: row.id, name: "Edited Name", price: "120.00", slug: "edit-me", categoryId: forHim, images: JSON.stringify([]) }), { headers: { cookie } });
    expect(await dataOf(result)).toMatchObject({ ok: true, message: PRODUCT_MESSAGES.updated });
    const after = (await db().selectFrom("products").selectAll().where("id", "=", row.id).executeTakeFirst())!;
    expect(after).toMatchObject({ name: "Edited Name", slug: "edit-me", price_cents: 12000 });
    expect((await readdir(join(media, "products"))).filter((f) => f.startsWith("bottle-"))).toHaveLength(0);
  });
});

describe("product images are checked by content", () => {
  it("stores a real PNG as WebP renditions; refuses a renamed .txt and a 6 MB file with the spec's messages", async () => {
    const good = await callAction(upload.action, "/admin/products/images", imageForm("amber.png", await png(), "image/png"), { headers: { cookie } });
    expect(await dataOf(good)).toMatchObject({ ok: true, url: expect.stringMatching(/^\/media\/products\/amber-[0-9a-f]{8}-1200\.webp$/) });

    const renamed = await callAction(upload.action, "/admin/products/images", imageForm("photo.jpg", Buffer.from("just some text, not a picture"), "image/jpeg"), { headers: { cookie } });
    expect(statusOf(renamed)).toBe(400);
    expect((await dataOf(renamed)).error).toBe(PRODUCT_MESSAGES.notAnImage);

    const huge = await callAction(upload.action, "/admin/products/images", imageForm("huge.png", Buffer.alloc(5 * 1024 * 1024 + 1), "image/png"), { headers: { cookie } });
    expect(statusOf(huge)).toBe(413);
    expect((await dataOf(huge)).error).toBe(PRODUCT_MESSAGES.tooLarge);

    // the no-JavaScript form refuses the same way and saves nothing
    const viaForm = await save({ name: "Text Image", price: "100", slug: "", categoryId: forHim }, [{ name: "notes.png", bytes: Buffer.from("hello"), type: "image/png" }]);
    expect((await dataOf(viaForm)).error).toBe(PRODUCT_MESSAGES.notAnImage);
    expect(await productBySlug("text-image")).toBeUndefined();
  });

  it("a file whose header says PNG but whose data is broken is a 400 that says so, not a 500 (issue 20 review)", async () => {
    const broken = Buffer.concat([(await png()).subarray(0, 100), Buffer.alloc(400, 7)]);
    const result = await callAction(upload.action, "/admin/products/images", imageForm("broken.png", broken, "image/png"), { headers: { cookie } });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).error).toBe(PRODUCT_MESSAGES.unreadableImage);
    expect((await readdir(join(media, "products"))).filter((f) => f.startsWith("broken-"))).toHaveLength(0);
  });
});

function imageForm(name: string, bytes: Buffer, type: string) {
  const f = new FormData();
  f.set("image", new File([new Uint8Array(bytes)], name, { type }));
  return f;
}

describe("product form: stock and inspired by (issue 13)", () => {
  const editSave = (id: string, fields: Record<string, string>) =>
    callAction(edit.action, `/admin/products/edit/${id}`, form({ id, ...fields }), { headers: { cookie }, params: { id } });

  it("saves stock (empty = not tracked) and the inspired-by house and fragrance, and the product page shows them", async () => {
    const result = await save({ name: "Sauvage Style Test", price: "399", slug: "", categoryId: forHim, stock: " 12 ", inspiredHouse: "  Dior ", inspiredFragrance: "Sauvage" });
    expect(await dataOf(result)).toMatchObject({ ok: true });
    const row = await productBySlug("sauvage-style-test");
    expect(row).toMatchObject({ stock: 12, inspired_house: "Dior", inspired_fragrance: "Sauvage" });
    const page = await dataOf(await callLoader(product.loader, "/products/sauvage-style-test", { params: { slug: "sauvage-style-test" } }));
    expect(page.product).toMatchObject({ stock: 12, inspiredHouse: "Dior", inspiredFragrance: "Sauvage" });

    await save({ name: "Untracked Test", price: "399", slug: "", categoryId: forHim, stock: "", inspiredHouse: "", inspiredFragrance: "" });
    expect(await productBySlug("untracked-test")).toMatchObject({ stock: null, inspired_house: null, inspired_fragrance: null });
  });

  it.each([["-1"], ["2.5"], ["lots"], ["1000001"]])("refuses stock %j with a message and saves nothing", async (stock) => {
    const result = await save({ name: `Bad Stock ${stock}`, price: "399", slug: "", categoryId: forHim, stock });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).fieldErrors.stock).toMatch(/whole number/);
  });

  it("saves the bottle size ('100 ml' or '100'; empty = not stated), the product page shows it, and the edit form gets it", async () => {
    expect(await dataOf(await save({ name: "Sized Test", price: "399", slug: "", categoryId: forHim, sizeMl: " 100 ml " }))).toMatchObject({ ok: true });
    const row = await productBySlug("sized-test");
    expect(row).toMatchObject({ size_ml: 100 });
    const page = await dataOf(await callLoader(product.loader, "/products/sized-test", { params: { slug: "sized-test" } }));
    expect(page.product).toMatchObject({ sizeMl: 100 });
    const loaded = await dataOf(await callLoader(edit.loader, `/admin/products/edit/${row!.id}`, { headers: { cookie }, params: { id: row!.id } }));
    expect(loaded.product).toMatchObject({ sizeMl: 100 });
    await save({ name: "Unsized Test", price: "399", slug: "", categoryId: forHim, sizeMl: "" });
    expect(await productBySlug("unsized-test")).toMatchObject({ size_ml: null });
  });

  it.each([["0"], ["-5"], ["7.5"], ["big"], ["1001"]])("refuses size %j with a message and saves nothing", async (sizeMl) => {
    const result = await save({ name: `Bad Size ${sizeMl}`, price: "399", slug: "", categoryId: forHim, sizeMl });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).fieldErrors.sizeMl).toMatch(/millilitres/);
    expect(await productBySlug(`bad-size-${sizeMl}`.replace(/[^a-z0-9]+/g, "-").replace(/-$/, ""))).toBeUndefined();
  });

  it("refuses an overlong house", async () => {
    const result = await save({ name: "Long House", price: "399", slug: "", categoryId: forHim, inspiredHouse: "x".repeat(61) });
    expect(statusOf(result)).toBe(400);
    expect((await dataOf(result)).fieldErrors.inspiredHouse).toBeTruthy();
  });

  it("an edit writes the stock only when the owner changed it: a sale meanwhile is not overwritten; the loader gives the form its values", async () => {
    const p = await insertProduct(db(), { category_id: forHim, stock: 10, inspired_house: "Chanel", inspired_fragrance: "Bleu de Chanel" });
    const loaded = await dataOf(await callLoader(edit.loader, `/admin/products/edit/${p.id}`, { headers: { cookie }, params: { id: p.id } }));
    expect(loaded.product).toMatchObject({ stock: 10, inspiredHouse: "Chanel", inspiredFragrance: "Bleu de Chanel" });
    // a sale takes one while the form is open
    await updateProduct(db(), p.id, { stock: 9 });
    const base = { name: p.name, price: "349.99", slug: p.slug, categoryId: forHim, images: "[]", inspiredHouse: "Chanel", inspiredFragrance: "Bleu de Chanel" };
    expect(await dataOf(await editSave(p.id, { ...base, stock: "10", stockWas: "10" }))).toMatchObject({ ok: true });
    expect((await productBySlug(p.slug))!.stock).toBe(9);
    // the owner types a new number: it is written
    expect(await dataOf(await editSave(p.id, { ...base, stock: "25", stockWas: "10" }))).toMatchObject({ ok: true });
    expect((await productBySlug(p.slug))!.stock).toBe(25);
    // emptied: no longer tracked
    await editSave(p.id, { ...base, inspiredHouse: "", stock: "", stockWas: "25" });
    expect(await productBySlug(p.slug)).toMatchObject({ stock: null, inspired_house: null });
  });
});

describe("product form: packed weight (couriers)", () => {
  const editWeight = (id: string, slug: string, weightGrams: string) =>
    callAction(edit.action, `/admin/products/edit/${id}`, form({ id, name: "Weighed Test", price: "399", slug, categoryId: forHim, images: "[]", weightGrams }), { headers: { cookie }, params: { id } });
  const weightOf = async (id: string) => (await db().selectFrom("products").select("weight_grams").where("id", "=", id).executeTakeFirstOrThrow()).weight_grams;

  it("saves the weight in grams ('420', '1 200 g'), the edit form gets it with the shop's default beside it, and empty clears it", async () => {
    expect(await dataOf(await save({ name: "Weighed Test", price: "399", slug: "", categoryId: forHim, weightGrams: " 420 " }))).toMatchObject({ ok: true });
    const row = (await productBySlug("weighed-test"))!;
    expect(row.weight_grams).toBe(420);
    const loaded = await dataOf(await callLoader(edit.loader, `/admin/products/edit/${row.id}`, { headers: { cookie }, params: { id: row.id } }));
    expect(loaded.product).toMatchObject({ weightGrams: 420 });
    expect(loaded.defaultWeightGrams).toBe(350);

    expect(await dataOf(await editWeight(row.id, row.slug, "1 200 g"))).toMatchObject({ ok: true });
    expect(await weightOf(row.id)).toBe(1200);
    expect(await dataOf(await editWeight(row.id, row.slug, "25000"))).toMatchObject({ ok: true });
    expect(await weightOf(row.id)).toBe(25_000);
    // emptied: the shop's default bottle weight applies again
    expect(await dataOf(await editWeight(row.id, row.slug, ""))).toMatchObject({ ok: true });
    expect(await weightOf(row.id)).toBeNull();
    // a new product without one: null too
    await save({ name: "Unweighed Test", price: "399", slug: "", categoryId: forHim, weightGrams: "" });
    expect((await productBySlug("unweighed-test"))!.weight_grams).toBeNull();
  });

  it.each([["0"], ["-5"], ["350.5"], ["heavy"], ["25001"], ["1e3"], ["g"], ["99999999"]])("refuses weight %j with its message, and changes nothing", async (weightGrams) => {
    const p = await insertProduct(db(), { category_id: forHim });
    await updateProduct(db(), p.id, { weight_grams: 500 });
    const result = await editWeight(p.id, p.slug, weightGrams);
    expect(statusOf(result)).toBe(400);
    expect(await dataOf(result)).toMatchObject({ error: WEIGHT_MESSAGE, fieldErrors: { weightGrams: WEIGHT_MESSAGE } });
    expect(await db().selectFrom("products").select(["name", "weight_grams"]).where("id", "=", p.id).executeTakeFirstOrThrow()).toEqual({ name: p.name, weight_grams: 500 });

    const created = await save({ name: `Bad Weight ${weightGrams}`, price: "399", slug: "bad-weight-test", categoryId: forHim, weightGrams });
    expect(statusOf(created)).toBe(400);
    expect(await productBySlug("bad-weight-test")).toBeUndefined();
  });
});

describe("product form: the was price (issue 32)", () => {
  it("is saved when above the price, reaches the product page and the shop's cards at once, and is refused when not above it", async () => {
    const heard: string[] = [];
    const stop = onStorefrontChange((r) => heard.push(r));
    const created = await save({ name: "Was Oud", price: "899.00", wasPrice: "R 1 299,00", slug: "", categoryId: forHim });
    expect(await dataOf(created)).toMatchObject({ ok: true });
    stop();
    expect(heard).toHaveLength(1);
    const row = (await productBySlug("was-oud"))!;
    expect(row).toMatchObject({ price_cents: 89_900, was_price_cents: 129_900 });
    const page = await dataOf(await callLoader(product.loader, "/products/was-oud", { params: { slug: "was-oud" } }));
    expect(page.product).toMatchObject({ priceCents: 89_900, wasPriceCents: 129_900 });

    // the edit form shows it; a was price not above the price is refused and nothing changes
    const editing = await dataOf(await callLoader(edit.loader, `/admin/products/edit/${row.id}`, { params: { id: row.id }, headers: { cookie } }));
    expect(editing.product.wasPriceCents).toBe(129_900);
    const same = await callAction(edit.action, `/admin/products/edit/${row.id}`, form({ id: row.id, name: "Was Oud", price: "899.00", wasPrice: "899", slug: "was-oud", categoryId: forHim }), { headers: { cookie }, params: { id: row.id } });
    expect(statusOf(same)).toBe(400);
    expect((await dataOf(same)).error).toBe(PRODUCT_MESSAGES.wasPriceNotHigher);
    const garbled = await callAction(edit.action, `/admin/products/edit/${row.id}`, form({ id: row.id, name: "Was Oud", price: "899.00", wasPrice: "soon", slug: "was-oud", categoryId: forHim }), { headers: { cookie }, params: { id: row.id } });
    expect((await dataOf(garbled)).error).toBe(PRODUCT_MESSAGES.wasPrice);
    expect(await productBySlug("was-oud")).toMatchObject({ was_price_cents: 129_900 });

    // emptied: no was price any more
    const cleared = await callAction(edit.action, `/admin/products/edit/${row.id}`, form({ id: row.id, name: "Was Oud", price: "899.00", wasPrice: "", slug: "was-oud", categoryId: forHim }), { headers: { cookie }, params: { id: row.id } });
    expect(await dataOf(cleared)).toMatchObject({ ok: true });
    expect(await productBySlug("was-oud")).toMatchObject({ was_price_cents: null });
  });
});

/** What a link to /products/{slug} opens: a redirect (where to, and whether a browser may keep it), a 404, or the product's name. */
async function openProduct(slug: string, query = "") {
  const result = await callLoader(product.loader, `/products/${slug}${query}`, { params: { slug } });
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location"), cacheControl: result.headers.get("Cache-Control") };
  if (statusOf(result) === 404) return { status: 404 };
  return { name: (await dataOf<{ product: { name: string } }>(result)).product.name };
}

describe("a link from before the owner changed a product's slug (migration 0048)", () => {
  const editSlug = async (id: string, name: string, slug: string) => {
    const result = await callAction(edit.action, `/admin/products/edit/${id}`, form({ id, name, price: "450.00", slug, categoryId: forHer, images: JSON.stringify([]) }), { headers: { cookie } });
    expect(await dataOf(result)).toMatchObject({ ok: true, message: PRODUCT_MESSAGES.updated });
  };

  it("leads to the product's address now, for good, with the link's query; renamed twice, both old ones; renamed back, no loop", async () => {
    await save({ name: "Rose Veil", price: "450", slug: "rose-veil", categoryId: forHer });
    const { id } = (await productBySlug("rose-veil"))!;
    await editSlug(id, "Rose Veil", "rose-veil-edp");
    expect(await openProduct("rose-veil", "?size=50ml&utm_source=whatsapp")).toEqual({ status: 301, location: "/products/rose-veil-edp?size=50ml&utm_source=whatsapp", cacheControl: "no-cache" });
    expect(await openProduct("rose-veil-edp")).toEqual({ name: "Rose Veil" });

    await editSlug(id, "Rose Veil", "rose-veil-parfum");
    expect((await openProduct("rose-veil")).location).toBe("/products/rose-veil-parfum");
    expect((await openProduct("rose-veil-edp")).location).toBe("/products/rose-veil-parfum");

    // back to the first: it is the product's own address again, and the others lead to it
    await editSlug(id, "Rose Veil", "rose-veil");
    expect(await openProduct("rose-veil")).toEqual({ name: "Rose Veil" });
    expect((await openProduct("rose-veil-parfum")).location).toBe("/products/rose-veil");
    expect((await openProduct("rose-veil-edp")).location).toBe("/products/rose-veil");
  });

  it("a former slug another product now has opens that product; a deleted product's former slugs and unknown slugs are 404s", async () => {
    await save({ name: "Oud Dusk", price: "450", slug: "oud-dusk", categoryId: forHim });
    const dusk = (await productBySlug("oud-dusk"))!;
    await editSlug(dusk.id, "Oud Dusk", "oud-dusk-intense");
    // the owner gives the freed address to a new scent: the current product's slug wins over the former one
    await save({ name: "Oud Dusk Light", price: "300", slug: "oud-dusk", categoryId: forHim });
    expect(await openProduct("oud-dusk")).toEqual({ name: "Oud Dusk Light" });
    expect(await db().selectFrom("product_former_slugs").select("slug").where("product_id", "=", dusk.id).execute()).toEqual([]);

    await editSlug(dusk.id, "Oud Dusk", "oud-dusk-noir");
    expect((await openProduct("oud-dusk-intense")).location).toBe("/products/oud-dusk-noir");
    await deleteProduct(db(), dusk.id);
    expect(await openProduct("oud-dusk-intense")).toEqual({ status: 404 });
    expect(await openProduct("oud-dusk-noir")).toEqual({ status: 404 });
    expect(await openProduct("never-a-product")).toEqual({ status: 404 });
  });
});

