/**
 * Product sizes in the database (issue 33, docs/decisions/049). `product_sizes` is what is sold; the product row keeps
 * a summary of its visible sizes (cheapest price and its was price, millilitres and weight; dearest price; stock
 * total, or null when a size is not tracked) so that lists, sort, the price filter and search still read one row per
 * product. Whatever changes a size calls refreshProductSummaries in the same transaction.
 */
import { sql } from "kysely";
import { isPostgres, type Queryable } from "~/db/db.server";
import { namedSize, sizeCode, type SizeOption } from "./sizes.logic";

export interface SizeRow extends SizeOption {
  productId: string;
  sku: string | null;
  weightGrams: number | null;
  position: number;
  hidden: boolean;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

type RawSize = {
  id: string;
  product_id: string;
  code: string;
  label: string;
  size_ml: number | null;
  price_cents: number;
  was_price_cents: number | null;
  stock: number | null;
  sku: string | null;
  weight_grams: number | null;
  position: number;
  hidden: number;
};

function toSizeRow(r: RawSize): SizeRow {
  return {
    id: r.id,
    productId: r.product_id,
    code: r.code,
    label: r.label ?? "",
    sizeMl: num(r.size_ml),
    priceCents: Number(r.price_cents),
    wasPriceCents: num(r.was_price_cents),
    stock: num(r.stock),
    sku: r.sku,
    weightGrams: num(r.weight_grams),
    position: Number(r.position),
    hidden: Number(r.hidden) === 1,
  };
}

const SIZE_COLUMNS = ["id", "product_id", "code", "label", "size_ml", "price_cents", "was_price_cents", "stock", "sku", "weight_grams", "position", "hidden"] as const;

/** The sizes of these products in the owner's order, visible ones only unless asked. */
export async function listSizes(db: Queryable, productIds: readonly string[], options: { includeHidden?: boolean } = {}): Promise<SizeRow[]> {
  if (productIds.length === 0) return [];
  let q = db.selectFrom("product_sizes").select([...SIZE_COLUMNS]).where("product_id", "in", [...productIds]);
  if (!options.includeHidden) q = q.where("hidden", "=", 0);
  const rows = await q.orderBy("product_id").orderBy("position").orderBy("id").execute();
  return rows.map((r) => toSizeRow(r as RawSize));
}

/** The sizes with these ids (hidden ones too: an order line may name one). */
export async function sizesById(db: Queryable, ids: readonly string[]): Promise<Map<string, SizeRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("product_sizes").select([...SIZE_COLUMNS]).where("id", "in", [...ids]).execute();
  return new Map(rows.map((r) => [r.id, toSizeRow(r as RawSize)]));
}

/**
 * The current code of the size that `?size=` names by a code it had before the owner renamed it (a link shared before
 * the rename: "50ml" once "50 ml" became "50 ml EDP"), when that size is among `sizes` (the ones shown); else null:
 * the code is a current one, unknown, or a hidden size's. The former codes are kept by migration 0045's triggers.
 * Read only when the code names no current size, so a product page's usual request costs no query more.
 */
export async function renamedSizeCode(db: Queryable, productId: string, sizes: ReadonlyArray<{ id: string; code: string }>, asked: string | null): Promise<string | null> {
  if (!asked || namedSize(sizes, asked)) return null;
  const former = await db
    .selectFrom("product_size_former_codes")
    .select("size_id")
    .where("product_id", "=", productId)
    .where("code", "=", sizeCode(asked))
    .executeTakeFirst();
  return sizes.find((s) => s.id === former?.size_id)?.code ?? null;
}

/**
 * Rewrites the products' summary of their visible sizes. On PostgreSQL the product rows are locked first, in id order,
 * and the UPDATE is a statement of its own: under READ COMMITTED it then reads every size change committed by whoever
 * held the lock before (a subquery in a waiting UPDATE would read its older snapshot). Everything that changes a size
 * changes the size first and the product after, so two such transactions never wait on each other in a circle.
 */
export async function refreshProductSummaries(db: Queryable, productIds: readonly string[]): Promise<void> {
  const ids = [...new Set(productIds)].sort();
  if (ids.length === 0) return;
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    if (isPostgres(db)) await db.selectFrom("products").select("id").where("id", "in", batch).orderBy("id").forUpdate().execute();
    const cheapest = (column: string) =>
      sql.raw(`(select s.${column} from product_sizes s where s.product_id = products.id and s.hidden = 0 order by s.price_cents, s.position, s.id limit 1)`);
    await db
      .updateTable("products")
      .set({
        price_cents: sql`coalesce(${cheapest("price_cents")}, products.price_cents)`,
        was_price_cents: sql`${cheapest("was_price_cents")}`,
        size_ml: sql`${cheapest("size_ml")}`,
        weight_grams: sql`${cheapest("weight_grams")}`,
        max_price_cents: sql`(select max(s.price_cents) from product_sizes s where s.product_id = products.id and s.hidden = 0)`,
        // No visible size: nothing to sell (0). A size not counted: the product never runs out (null).
        stock: sql`case when exists (select 1 from product_sizes s where s.product_id = products.id and s.hidden = 0 and s.stock is null) then null
                   else coalesce((select sum(s.stock) from product_sizes s where s.product_id = products.id and s.hidden = 0), 0) end`,
      })
      .where("id", "in", batch)
      .execute();
  }
}

/**
 * A product sold in one size keeps the spec's form: its price, was price, SKU, stock, weight and millilitres are
 * edited on the product (the admin form, a CSV row, the demo seed) and this copies them into that size, making the
 * size when the product has none. Products with several sizes are left alone: their sizes are edited as sizes.
 * Call it in the same transaction as the product write.
 */
export async function syncSingleSize(db: Queryable, productIds: readonly string[]): Promise<void> {
  const ids = [...new Set(productIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    const inList = sql.join(batch.map((id) => sql`${id}`));
    await sql`
      insert into product_sizes (id, product_id, label, code, size_ml, price_cents, was_price_cents, sku, stock, weight_grams, position, hidden, created_at)
      select p.id, p.id,
             case when p.size_ml is null then '' else cast(p.size_ml as text) || ' ml' end,
             case when p.size_ml is null then 'standard' else cast(p.size_ml as text) || 'ml' end,
             p.size_ml, p.price_cents, p.was_price_cents, p.sku, p.stock, p.weight_grams, 0, 0, p.created_at
      from products p
      where p.id in (${inList}) and not exists (select 1 from product_sizes s where s.product_id = p.id)`.execute(db);
    const from = (column: string) => sql.raw(`(select p.${column} from products p where p.id = product_sizes.product_id)`);
    await db
      .updateTable("product_sizes")
      .set({
        price_cents: sql`${from("price_cents")}`,
        was_price_cents: sql`${from("was_price_cents")}`,
        sku: sql`${from("sku")}`,
        stock: sql`${from("stock")}`,
        weight_grams: sql`${from("weight_grams")}`,
        size_ml: sql`${from("size_ml")}`,
        label: sql`(select case when p.size_ml is null then '' else cast(p.size_ml as text) || ' ml' end from products p where p.id = product_sizes.product_id)`,
        code: sql`(select case when p.size_ml is null then 'standard' else cast(p.size_ml as text) || 'ml' end from products p where p.id = product_sizes.product_id)`,
      })
      .where("product_id", "in", batch)
      // A hidden only size is not for sale: the product's summary then says 0 left, which is not the size's stock.
      .where("hidden", "=", 0)
      .where(sql<boolean>`(select count(*) from product_sizes s2 where s2.product_id = product_sizes.product_id) = 1`)
      .execute();
    await sql`update products set max_price_cents = price_cents
      where id in (${inList}) and (select count(*) from product_sizes s where s.product_id = products.id) = 1`.execute(db);
    // Tiers written on the product (no size named) price its first size.
    await sql`update product_tiers set size_id = (select s.id from product_sizes s where s.product_id = product_tiers.product_id order by s.position, s.id limit 1)
      where product_id in (${inList}) and size_id is null`.execute(db);
  }
}

/**
 * An order line's name as every surface shows it, composed in SQL so each reader keeps selecting one `name` column:
 * "Velvet Rose (50 ml)", or the bare name (lineName in sizes.logic.ts is the same rule for lines not yet stored).
 */
export function lineNameSql(alias: string) {
  const a = sql.raw(alias);
  return sql<string>`case when ${a}.size_label is null or ${a}.size_label = '' then ${a}.name else ${a}.name || ' (' || ${a}.size_label || ')' end`;
}

/**
 * The size each cart line buys: the one it names when that size is still offered, the product's first visible size for
 * a line that names none (a cart saved before sizes), else null (no longer sold). The cart quote and the courier's
 * parcel weights read lines the same way.
 */
export async function sizesForLines(db: Queryable, lines: ReadonlyArray<{ productId: string; sizeId?: string | null }>): Promise<Array<SizeRow | null>> {
  const sizes = await listSizes(db, [...new Set(lines.map((l) => l.productId))]);
  return lines.map((l) => {
    const ofProduct = sizes.filter((s) => s.productId === l.productId);
    return l.sizeId ? (ofProduct.find((s) => s.id === l.sizeId) ?? null) : (ofProduct[0] ?? null);
  });
}
