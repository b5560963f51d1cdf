/**
 * The import's writes (issue 20), inside the apply's one transaction: new categories, products, sizes and tiers
 * through their owners' bulk functions (catalog/catalog-bulk.server.ts, pricing/tiers-bulk.server.ts), and on
 * PostgreSQL the search index merged in bulk for a large import (bulkSearchIndex).
 */
import { refreshProductSummaries } from "~/modules/catalog/sizes.server";
import { insertCategoriesBulk, insertProductsBulk, insertSizesBulk, updateProductColumns, updateSizeColumns } from "~/modules/catalog/catalog-bulk.server";
import { deleteTiersOfSizes, insertTiersBulk } from "~/modules/pricing/tiers-bulk.server";
import { sql } from "kysely";
import { isPostgres, type Queryable } from "~/db/db.server";
import type { PriceTier } from "~/modules/pricing/tiers.logic";
import { newId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { replaceMissingImages } from "./missing-images.server";
import { type Plan, type PlannedProduct, type ProductState, type SizeState, chunks, sameTiers, writes } from "./csv-plan-model.server";

const CHUNK = 200;

/** From this many products written, PostgreSQL's search index is brought up to date in bulk (bulkSearchIndex). */
export const BULK_SEARCH_INDEX_FROM = 1000;
/** The shop search's trigram index (migration 0018; PostgreSQL with pg_trgm only). */
const SEARCH_INDEX = "products_search_trgm_idx";

/**
 * PostgreSQL's search index (a GIN trigram index, kept with fastupdate off so searches never scan a pending list)
 * costs about a millisecond per product written, one product at a time: 10 000 new products spent 6–13 s there,
 * most of the apply. For a large import, inside its transaction: fast update on (new entries go to the index's
 * pending list), and before the commit the pending list merged into the index in one sorted pass
 * (gin_clean_pending_list) and fast update off again — about 1 s for 10 000 products. The price: ALTER INDEX holds
 * the index's exclusive lock until the commit, so queries on products wait that long (about a second at 10 000
 * products); below BULK_SEARCH_INDEX_FROM the index is updated row by row as before and nothing waits.
 *
 * Only when the index exists, is the GIN index the shop made, and this role owns it; the ALTER waits at most 3 s for
 * the lock (a long search in progress) and otherwise gives up, under a savepoint, leaving the row-by-row path. Undone
 * with the transaction when anything fails. Answers null when not used.
 */
export async function bulkSearchIndex(trx: Queryable, writes: number): Promise<{ finish: () => Promise<void> } | null> {
  if (writes < BULK_SEARCH_INDEX_FROM || !isPostgres(trx)) return null;
  const { rows } = await sql<{ owned: boolean; options: string[] | null }>`
    select pg_has_role(c.relowner, 'MEMBER') as owned, c.reloptions as options
    from pg_class c join pg_am a on a.oid = c.relam
    where c.oid = to_regclass(${SEARCH_INDEX}) and c.relkind = 'i' and a.amname = 'gin'
  `.execute(trx);
  const index = rows[0];
  if (!index?.owned) return null;
  const wasOff = (index.options ?? []).includes("fastupdate=off");
  if (!wasOff) return null; // fast update is on already: inserts are cheap, and nothing to restore
  await sql`savepoint bulk_search_index`.execute(trx);
  try {
    await sql`set local lock_timeout = '3s'`.execute(trx);
    await sql`set local gin_pending_list_limit = '1GB'`.execute(trx);
    await sql`alter index ${sql.id(SEARCH_INDEX)} set (fastupdate = on)`.execute(trx);
    await sql`set local lock_timeout to default`.execute(trx);
    await sql`release savepoint bulk_search_index`.execute(trx);
  } catch (error) {
    await sql`rollback to savepoint bulk_search_index`.execute(trx);
    logger.warn({ err: error }, "product import: the search index is updated row by row (its lock wasn't free)");
    return null;
  }
  return {
    finish: async () => {
      await sql`select gin_clean_pending_list(${SEARCH_INDEX}::regclass)`.execute(trx);
      await sql`alter index ${sql.id(SEARCH_INDEX)} set (fastupdate = off)`.execute(trx);
    },
  };
}

/**
 * Every write of the plan, inside the caller's transaction: new categories, new products with their sizes, changed
 * products, new and changed sizes, their tiers; then each written product's summary of its sizes (docs/decisions/049).
 * A size the file doesn't name is left as it is: an import never removes one.
 */
export async function writePlan(trx: Queryable, plan: Plan, importId: string, onWrite?: (written: number) => void) {
  const now = new Date().toISOString();
  const categoryIds = new Map<string, string>();
  const newCategories = [...plan.newCategories].map(([slug, name]) => ({ id: newId(), name: name.replace(/\s+/g, " ").trim(), slug, created_at: now }));
  await insertCategoriesBulk(trx, newCategories);
  const toWrite = plan.products.filter(writes);
  const slugs = [...new Set(toWrite.map((p) => p.target.category).filter((s): s is string => !!s))];
  for (const part of chunks(slugs)) {
    for (const c of await trx.selectFrom("categories").select(["id", "slug"]).where("slug", "in", part).execute()) categoryIds.set(c.slug, c.id);
  }
  const categoryId = (slug: string | null) => (slug ? (categoryIds.get(slug) ?? null) : null);
  const columns = (t: ProductState) => ({
    sku: t.sku,
    name: t.name,
    slug: t.slug,
    description: t.description,
    images: JSON.stringify(t.images),
    category_id: categoryId(t.category),
    meta_title: t.meta_title,
    meta_desc: t.meta_desc,
    inspired_house: t.inspired_house,
    inspired_fragrance: t.inspired_fragrance,
    scent_family: t.scent_family,
    scent_top: t.scent_top,
    scent_heart: t.scent_heart,
    scent_base: t.scent_base,
    scent_intensity: t.scent_intensity,
    scent_occasion: t.scent_occasion,
    scent_seasons: t.scent_seasons,
    scent_for: t.scent_for,
  });
  const sizeColumns = (t: SizeState) => ({
    label: t.label,
    code: t.code,
    size_ml: t.size_ml,
    price_cents: t.price_cents,
    was_price_cents: t.was_price_cents,
    sku: t.sku,
    stock: t.stock,
    weight_grams: t.weight_grams,
  });
  let written = 0;
  const start = Date.now();
  /** the products written whose row has images: their missing images are the row's failures now */
  const missing: Array<{ productId: string; planned: PlannedProduct }> = [];
  const newSizes: Array<ReturnType<typeof sizeColumns> & { id: string; product_id: string; position: number; hidden: number; created_at: string }> = [];
  const newTiers: Array<{ id: string; product_id: string; size_id: string; min_quantity: number; max_quantity: number | null; price_cents: number }> = [];
  const tiersOf = (productId: string, sizeId: string, tiers: PriceTier[]) => {
    for (const t of tiers) newTiers.push({ id: newId(), product_id: productId, size_id: sizeId, min_quantity: t.minQuantity, max_quantity: t.maxQuantity, price_cents: t.priceCents });
  };
  const writtenIds: string[] = [];
  for (const part of chunks(toWrite.filter((p) => !p.existing), CHUNK)) {
    const values = part.map((p, i) => {
      const id = newId();
      writtenIds.push(id);
      if (p.hasImages) missing.push({ productId: id, planned: p });
      for (const [position, size] of p.sizes.entries()) {
        // the first size takes the product's id, as every product's one size does (docs/decisions/049)
        const sizeId = position === 0 ? id : newId();
        newSizes.push({ id: sizeId, product_id: id, ...sizeColumns(size.target), position, hidden: 0, created_at: now });
        tiersOf(id, sizeId, size.target.tiers);
      }
      // the price is the summary of its sizes, written again from them below (refreshProductSummaries)
      // One millisecond apart in file order, so "newest first" lists them in a fixed order.
      return { id, ...columns(p.target), price_cents: p.sizes[0]!.target.price_cents, created_at: new Date(start + written + i).toISOString() };
    });
    await insertProductsBulk(trx, values);
    written += part.length;
    onWrite?.(written);
  }
  const replacedTiers: string[] = [];
  for (const p of toWrite) {
    const before = p.existing;
    if (!before) continue;
    writtenIds.push(before.id);
    if (p.hasImages) missing.push({ productId: before.id, planned: p });
    if (p.changes.length) {
      const after = columns(p.target);
      const current = { ...columns(before), category_id: undefined };
      const changed: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(after)) {
        if (key === "category_id") {
          if (before.category !== p.target.category) changed.category_id = value;
        } else if (value !== (current as Record<string, unknown>)[key]) changed[key] = value;
      }
      await updateProductColumns(trx, before.id, changed);
    }
    let position = Math.max(-1, ...before.sizes.map((s) => s.position)) + 1;
    for (const size of p.sizes) {
      if (!size.existing) {
        const sizeId = newId();
        newSizes.push({ id: sizeId, product_id: before.id, ...sizeColumns(size.target), position: position++, hidden: 0, created_at: now });
        tiersOf(before.id, sizeId, size.target.tiers);
        continue;
      }
      if (!size.changes.length) continue;
      const after = sizeColumns(size.target);
      const current = sizeColumns(size.existing);
      const changed = Object.fromEntries(Object.entries(after).filter(([key, value]) => value !== current[key as keyof typeof current]));
      await updateSizeColumns(trx, size.existing.id, changed);
      if (!sameTiers(size.existing.tiers, size.target.tiers)) {
        replacedTiers.push(size.existing.id);
        tiersOf(before.id, size.existing.id, size.target.tiers);
      }
    }
    written++;
    onWrite?.(written);
  }
  await insertSizesBulk(trx, newSizes);
  await deleteTiersOfSizes(trx, replacedTiers);
  await insertTiersBulk(trx, newTiers);
  // The product row keeps the summary of its sizes that lists, sort and the price filter read.
  await refreshProductSummaries(trx, writtenIds);
  for (const { productId, planned } of missing) await replaceMissingImages(trx, productId, planned.failures, importId, planned.lead?.report.row ?? 0);
}
