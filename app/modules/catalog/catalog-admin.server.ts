import { inTransaction } from "~/db/in-transaction.server";
import { sql } from "kysely";
import { refreshProductSummaries, syncSingleSize } from "./sizes.server";
import { containsInsensitive, isUniqueViolation, type Queryable, type Trx } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import { DEFAULT_PRODUCT_IMAGES, defaultProductImage } from "~/modules/media/images";
import { isStoredProductImage, NotAnImageError, removeImageRenditions, storeImageRenditions, UnreadableImageError } from "~/modules/media/product-images.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { CATEGORY_MESSAGES, categorySlugFor, UNCATEGORISED, type ProductFormInput, type ProductSizesFormInput } from "./catalog-admin.schema";
import { assertSkusFree, listAdminSizes, writeSizes, type AdminSize } from "./product-sizes-admin.server";
import { SIZE_MESSAGES, type SizeRowValues } from "./size-rows.schema";
import { MAX_IMAGE_BYTES, MAX_PRODUCT_IMAGES, PRODUCT_MESSAGES } from "./product-admin.text";
import { imagesOf } from "./catalog.server";
import type { ProductSummary } from "./catalog.types";
import { profileFromRow, profileToColumns, SCENT_COLUMNS } from "~/modules/scent/scent-profile";
import type { ScentProfile } from "~/modules/scent/scent.logic";

/** The catalogue as the owner manages it: categories here; products and their images below. */

export interface AdminCategory {
  id: string;
  name: string;
  slug: string;
  createdAt: string;
  productCount: number;
}

/** Every category by name, with how many products each holds. */
export async function listAdminCategories(db: Queryable): Promise<AdminCategory[]> {
  // each category's products counted from the products_category_created_idx index (a join grouped by category read
  // every product: 0.3 s at 100 000, issue 39 point 5)
  const rows = await db
    .selectFrom("categories as c")
    .select(["c.id", "c.name", "c.slug", "c.created_at", (eb) => eb.selectFrom("products as p").select((p) => p.fn.countAll<number>().as("n")).whereRef("p.category_id", "=", "c.id").as("n")])
    .orderBy("c.name")
    .orderBy("c.slug")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, createdAt: r.created_at, productCount: Number(r.n) }));
}

/** Adds a category; a name or slug already taken (case-insensitively) is refused with a message. */
export async function addCategory(db: Queryable, input: { name: string }): Promise<AdminCategory> {
  const name = input.name.trim().replace(/\s+/g, " ");
  const slug = categorySlugFor(name);
  if (!slug) throw new DomainError("Category name needs at least one letter or digit", 400, "name");
  const clash = await db
    .selectFrom("categories")
    .select("id")
    .where((eb) => eb.or([eb(sql<string>`lower(name)`, "=", name.toLowerCase()), eb("slug", "=", slug)]))
    .executeTakeFirst();
  if (clash) throw new DomainError(CATEGORY_MESSAGES.duplicate, 409, "name");
  const row = { id: newId(), name, slug, created_at: new Date().toISOString() };
  try {
    await db.insertInto("categories").values(row).execute();
  } catch (error) {
    // Two admins adding the same name at once: the unique slug decides, the second hears why.
    if (isUniqueViolation(error)) throw new DomainError(CATEGORY_MESSAGES.duplicate, 409, "name");
    throw error;
  }
  return { id: row.id, name, slug, createdAt: row.created_at, productCount: 0 };
}

/**
 * Deletes a category. Its products stay in the shop, uncategorised (the foreign key sets their category to null);
 * the answer says how many, so nothing changes silently.
 */
export async function deleteCategory(db: Queryable, id: string): Promise<{ name: string; moved: number }> {
  const category = await db.selectFrom("categories").select(["id", "name"]).where("id", "=", id).executeTakeFirst();
  if (!category) throw new DomainError("That category no longer exists", 404);
  const { n } = await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).where("category_id", "=", id).executeTakeFirstOrThrow();
  await db.updateTable("products").set({ category_id: null }).where("category_id", "=", id).execute();
  await db.deleteFrom("categories").where("id", "=", id).execute();
  return { name: category.name, moved: Number(n) };
}

// ---------------------------------------------------------------------------------------------------------------
// Products

export const ADMIN_PRODUCTS_PAGE_SIZE = 25;

/** A row of the admin's product list: the storefront's card data, and when it was added. */
export interface AdminProductRow extends Omit<ProductSummary, "categorySlug" | "maxPriceCents"> {
  createdAt: string;
  /** the dearest shown size's price (the row says "from" the cheapest when they differ) */
  maxPriceCents: number | null;
  /** sizes shown in the shop */
  sizeCount: number;
}

export interface AdminProductList extends Page<AdminProductRow> {
  /** every product in the shop, whatever the filters */
  total: number;
}

/** The admin's product list: search by name, a category (or none), newest first, one page. */
export async function listAdminProducts(db: Queryable, input: { q: string; category: string; page: number }): Promise<AdminProductList> {
  let matching = db.selectFrom("products as p");
  if (input.q) matching = matching.where(containsInsensitive("p.name", input.q));
  if (input.category === UNCATEGORISED) matching = matching.where("p.category_id", "is", null);
  else if (input.category) matching = matching.where("p.category_id", "=", input.category);
  const query = matching
    .leftJoin("categories as c", "c.id", "p.category_id")
    .select(["p.id", "p.name", "p.slug", "p.price_cents", "p.was_price_cents", "p.images", "p.created_at", "c.name as category_name", "p.stock", "p.inspired_house", "p.inspired_fragrance", "p.max_price_cents"]);
  const [page, total] = await Promise.all([
    // counted without the category's join (one row each): a search is then counted on the name index on SQLite
    // (100 000 products: the table read whole, ~100–200 ms; the index, a third of that)
    paginate(query.orderBy("p.created_at", "desc").orderBy("p.id", "desc"), { page: input.page, pageSize: ADMIN_PRODUCTS_PAGE_SIZE, counting: matching }),
    db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  // The page's sizes counted for its rows only: a count in the select list was run for every row an OFFSET skips
  // (PostgreSQL, page 200 of 10 000 products: 308 ms).
  const ids = page.rows.map((r) => r.id);
  const counted = ids.length
    ? await db.selectFrom("product_sizes").select(["product_id", (eb) => eb.fn.countAll<number>().as("n")]).where("product_id", "in", ids).where("hidden", "=", 0).groupBy("product_id").execute()
    : [];
  const sizeCount = new Map(counted.map((c) => [c.product_id, Number(c.n)]));
  return {
    ...page,
    total: Number(total.n),
    rows: page.rows.map((r) => ({
      id: r.id,
      name: r.name,
      slug: r.slug,
      priceCents: Number(r.price_cents),
      wasPriceCents: r.was_price_cents === null ? null : Number(r.was_price_cents),
      image: imagesOf(r.images)[0] ?? null,
      categoryName: r.category_name,
      createdAt: r.created_at,
      stock: r.stock === null ? null : Number(r.stock),
      inspiredHouse: r.inspired_house,
      inspiredFragrance: r.inspired_fragrance,
      maxPriceCents: r.max_price_cents === null ? null : Number(r.max_price_cents),
      sizeCount: sizeCount.get(r.id) ?? 0,
    })),
  };
}

/**
 * Deletes a product with its tiers and reviews (the database cascades); orders keep their lines (name and price
 * are stored on the line). Its image files go after the commit; a failure there is only logged.
 */
export async function deleteProduct(db: Queryable, id: string): Promise<{ name: string }> {
  const product = await db.selectFrom("products").select(["id", "name", "images"]).where("id", "=", id).executeTakeFirst();
  if (!product) throw new DomainError("That product no longer exists", 404);
  await db.deleteFrom("products").where("id", "=", id).execute();
  await removeUnusedImages(db, imagesOf(product.images));
  return { name: product.name };
}

/** Removes the files of images no product uses any more (two products may share an uploaded image). */
async function removeUnusedImages(db: Queryable, urls: string[]) {
  for (const url of urls) {
    // Stored image URLs are [a-z0-9-/.] only, so a LIKE over the JSON text is exact (and portable: jsonb cast to text).
    const stillUsed = await db.selectFrom("products").select("id").where(sql<boolean>`cast(images as text) like ${`%"${url}"%`}`).executeTakeFirst();
    if (!stillUsed) await removeImageRenditions(url);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The product form

export interface AdminProductForm {
  id: string;
  name: string;
  slug: string;
  description: string;
  priceCents: number;
  /** the price before a sale; null = none */
  wasPriceCents: number | null;
  categoryId: string | null;
  metaTitle: string;
  metaDesc: string;
  images: string[];
  stock: number | null;
  inspiredHouse: string;
  inspiredFragrance: string;
  sizeMl: number | null;
  /** packed grams; null: the shop's default bottle weight */
  weightGrams: number | null;
  /** the product's SKU: its one size's while it has one (docs/decisions/051) */
  sku: string;
  /** the scent profile (issue 22, docs/decisions/035) */
  scent: ScentProfile;
  /** every size, hidden ones too, in the owner's order (issue 33) */
  sizes: AdminSize[];
}

export async function getAdminProduct(db: Queryable, id: string): Promise<AdminProductForm | null> {
  const row = await db
    .selectFrom("products")
    .select(["id", "name", "slug", "description", "price_cents", "was_price_cents", "category_id", "meta_title", "meta_desc", "images", "stock", "inspired_house", "inspired_fragrance", "size_ml", "weight_grams", "sku", ...SCENT_COLUMNS])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    priceCents: Number(row.price_cents),
    wasPriceCents: row.was_price_cents === null ? null : Number(row.was_price_cents),
    categoryId: row.category_id,
    metaTitle: row.meta_title ?? "",
    metaDesc: row.meta_desc ?? "",
    images: imagesOf(row.images),
    stock: row.stock === null ? null : Number(row.stock),
    inspiredHouse: row.inspired_house ?? "",
    inspiredFragrance: row.inspired_fragrance ?? "",
    sizeMl: row.size_ml === null ? null : Number(row.size_ml),
    weightGrams: row.weight_grams === null ? null : Number(row.weight_grams),
    sku: row.sku ?? "",
    scent: profileFromRow(row),
    sizes: await listAdminSizes(db, row.id),
  };
}

/** An image a product may point at: one stored here, or a default image shipped with the shop. */
function isKnownImage(url: string): boolean {
  return isStoredProductImage(url) || (Object.values(DEFAULT_PRODUCT_IMAGES) as string[]).includes(url);
}

/**
 * Checks an uploaded file and stores it as WebP renditions (by content, not by its name: a renamed .txt is refused).
 * Returns the URL to keep in products.images.
 */
export async function storeUploadedImage(file: File): Promise<string> {
  if (file.size > MAX_IMAGE_BYTES) throw new DomainError(PRODUCT_MESSAGES.tooLarge, 413, "images");
  try {
    return await storeImageRenditions(Buffer.from(await file.arrayBuffer()), file.name.replace(/\.[^.]*$/, ""));
  } catch (error) {
    if (error instanceof NotAnImageError) throw new DomainError(PRODUCT_MESSAGES.notAnImage, 400, "images");
    // A header that says PNG over broken data: the owner's file, not the shop, is at fault (400, nothing logged).
    if (error instanceof UnreadableImageError) throw new DomainError(PRODUCT_MESSAGES.unreadableImage, 400, "images");
    throw error;
  }
}

/** What the product form saves: the one-size form, or the form with its sizes table read (readSizeRows). */
export type SaveProductInput = (Omit<ProductFormInput, "sku"> & { sku?: string | null }) | (Omit<ProductSizesFormInput, "sizes"> & { sizes: SizeRowValues[] });

/**
 * Creates or updates a product from the admin form. New image files (the no-JavaScript form sends them with the
 * product; with JavaScript they were uploaded one by one before) are checked and stored first; then the product and
 * its sizes are written in one transaction, its summary of its sizes refreshed in it; images no product uses any more
 * are removed from disk afterwards. The one-size form writes the product's price, stock and SKU, which are its one
 * size's (syncSingleSize); the sizes table writes the sizes (writeSizes).
 */
export async function saveProduct(
  db: Queryable,
  input: SaveProductInput,
  /** scent: the profile from the form (issue 22); absent = the product's profile is left as it is */
  options: { uploads: File[]; shopName: string; scent?: ScentProfile },
): Promise<{ id: string; created: boolean }> {
  const category = await db.selectFrom("categories").select(["id", "slug"]).where("id", "=", input.categoryId).executeTakeFirst();
  if (!category) throw new DomainError(PRODUCT_MESSAGES.categoryRequired, 400, "categoryId");
  const previous = input.id ? await getAdminProduct(db, input.id) : null;
  if (input.id && !previous) throw new DomainError("That product no longer exists", 404);
  if (input.intent === "save" && input.wasPrice !== null && input.wasPrice <= input.price) throw new DomainError(PRODUCT_MESSAGES.wasPriceNotHigher, 400, "wasPrice");

  const clash = await db
    .selectFrom("products")
    .select("id")
    .where("slug", "=", input.slug)
    .$if(!!input.id, (q) => q.where("id", "<>", input.id!))
    .executeTakeFirst();
  if (clash) throw new DomainError(PRODUCT_MESSAGES.slugTaken, 409, "slug");
  const id = previous?.id ?? newId();
  if (input.intent === "save" && input.sku) await assertSkusFree(db, id, [{ sku: input.sku, field: "sku" }]);
  const skusWritten =
    input.intent === "save" ? (input.sku ? [{ sku: input.sku, field: "sku" }] : []) : input.sizes.flatMap((r) => (r.sku && !r.remove ? [{ sku: r.sku, field: `size.${r.index}.sku` }] : []));

  const kept = input.images.filter(isKnownImage);
  const files = options.uploads.filter((f) => f.size > 0);
  if (kept.length + files.length > MAX_PRODUCT_IMAGES) throw new DomainError(`A product can have at most ${MAX_PRODUCT_IMAGES} images`, 400, "images");
  const added: string[] = [];
  for (const file of files) added.push(await storeUploadedImage(file));
  let images = [...new Set([...kept, ...added])];
  // SPEC §5: a product saved without images gets its category's default image.
  if (images.length === 0) images = [defaultProductImage(category.slug)];

  const values = {
    name: input.name,
    slug: input.slug,
    description: input.description,
    category_id: category.id,
    meta_title: input.metaTitle || `${input.name} | ${options.shopName}`,
    meta_desc: input.metaDesc || null,
    images: JSON.stringify(images),
    inspired_house: input.inspiredHouse.replace(/\s+/g, " ") || null,
    inspired_fragrance: input.inspiredFragrance.replace(/\s+/g, " ") || null,
    ...(options.scent ? profileToColumns(options.scent) : {}),
  };
  const write = async (trx: Trx) => {
    if (input.intent === "save") {
      const one = {
        ...values,
        price_cents: input.price,
        was_price_cents: input.wasPrice,
        size_ml: input.sizeMl,
        weight_grams: input.weightGrams,
        // absent (a form from before SKUs were on it): left as it is
        ...(input.sku === undefined ? {} : { sku: input.sku }),
        // A new product gets the stock typed; an edit writes it only when the owner changed it (decision 020).
        ...(!previous || input.stock !== input.stockWas ? { stock: input.stock } : {}),
      };
      if (previous) await trx.updateTable("products").set(one).where("id", "=", id).execute();
      else await trx.insertInto("products").values({ id, ...one, created_at: new Date().toISOString() }).execute();
      await syncSingleSize(trx, [id]);
    } else {
      // The product's price is its sizes' summary, written by refreshProductSummaries below.
      const first = input.sizes.find((s) => !s.remove);
      if (previous) await trx.updateTable("products").set(values).where("id", "=", id).execute();
      else await trx.insertInto("products").values({ id, ...values, price_cents: first?.priceCents ?? 0, created_at: new Date().toISOString() }).execute();
      await writeSizes(trx, id, input.sizes);
      await keepProductSku(trx, id, previous?.sizes.map((s) => s.sku) ?? []);
    }
    // A form opened before another tab added a size still leaves the product's summary true to its sizes.
    await refreshProductSummaries(trx, [id]);
  };
  try {
    await inTransaction(db, write);
  } catch (error) {
    if (isUniqueViolation(error, /sku/i)) {
      // another save took a SKU between the check and this write (it committed first): name its product now (a
      // caller's transaction is aborted on PostgreSQL and can't be asked: the message then says "another product")
      if (!db.isTransaction) await assertSkusFree(db, id, skusWritten);
      throw new DomainError(SIZE_MESSAGES.skuTaken(skusWritten[0]?.sku ?? "", "another product"), 409, skusWritten[0]?.field ?? "sku");
    }
    if (isUniqueViolation(error)) throw new DomainError(PRODUCT_MESSAGES.slugTaken, 409, "slug");
    throw error;
  }
  if (previous) await removeUnusedImages(db, previous.images.filter((url) => !images.includes(url)));
  return { id, created: !previous };
}

/**
 * The product's own SKU after its sizes changed: its only size's SKU (the one-size form shows and edits it as the
 * product's); with several sizes, none when it was only a copy of a size's SKU (`before`), else it is kept (a
 * catalogue's parent SKU from a CSV import).
 */
async function keepProductSku(trx: Trx, id: string, before: ReadonlyArray<string | null>): Promise<void> {
  const sizes = await trx.selectFrom("product_sizes").select("sku").where("product_id", "=", id).execute();
  const product = await trx.selectFrom("products").select("sku").where("id", "=", id).executeTakeFirstOrThrow();
  if (sizes.length === 1) await trx.updateTable("products").set({ sku: sizes[0]!.sku }).where("id", "=", id).execute();
  else if (product.sku !== null && before.includes(product.sku)) await trx.updateTable("products").set({ sku: null }).where("id", "=", id).execute();
}
