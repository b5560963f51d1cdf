/**
 * Samples in the database (docs/decisions/054): the owner's settings (one JSON value in `settings`), each product's
 * own choice and bulk (`product_samples`), and the cart's sample and discovery-set lines priced from them. The
 * browser names a product and the sample token; every price here comes from the settings.
 */
import { lineName } from "~/modules/catalog/sizes.logic";
import { hasSavedSettings, loadSavedSettings, saveSettings } from "~/modules/settings/saved-settings.server";
import type { Queryable } from "~/db/db.server";
import { cartLineKey, type CartQuoteLine } from "~/modules/orders/cart-quote";
import type { CartLineInput } from "~/modules/orders/orders.schema";
import { stockShortMessage } from "~/modules/catalog/stock.logic";
import {
  DEFAULT_SAMPLE_SETTINGS,
  isSampleOffered,
  parseSetToken,
  SAMPLE_LABEL,
  sampleKindOf,
  samplesLeft,
  setCredits,
  setLabel,
  setName,
  type SampleableProduct,
  type SampleOffer,
  type SampleSettings,
} from "./samples.logic";

const SETTINGS_KEY = "samples";

export async function loadSampleSettings(db: Queryable): Promise<SampleSettings> {
  return loadSavedSettings(db, SETTINGS_KEY, DEFAULT_SAMPLE_SETTINGS, "samples");
}

/** Has the owner ever saved them (the demo turns them on only for a shop that never chose)? */
export async function hasSampleSettings(db: Queryable): Promise<boolean> {
  return hasSavedSettings(db, SETTINGS_KEY);
}

/** Saves checked settings (samples.schema.ts). The caller raises storefrontChanged: product pages show the offer. */
export async function saveSampleSettings(db: Queryable, settings: SampleSettings, now: Date = new Date()): Promise<void> {
  await saveSettings(db, SETTINGS_KEY, settings, now);
}

export interface ProductSampling {
  /** the product's own choice; null = as the catalogue */
  offered: boolean | null;
  /** bulk millilitres left; null = not tracked */
  bulkMl: number | null;
}

const NOT_SET: ProductSampling = { offered: null, bulkMl: null };

export async function productSampling(db: Queryable, productIds: readonly string[]): Promise<Map<string, ProductSampling>> {
  if (productIds.length === 0) return new Map();
  const rows = await db.selectFrom("product_samples").select(["product_id", "offered", "bulk_ml"]).where("product_id", "in", [...productIds]).execute();
  return new Map(rows.map((r) => [r.product_id, { offered: r.offered === null ? null : Number(r.offered) === 1, bulkMl: r.bulk_ml === null ? null : Number(r.bulk_ml) }]));
}

/** The owner's choice for one product. The caller raises storefrontChanged after it. */
export async function saveProductSampling(db: Queryable, productId: string, sampling: ProductSampling, now: Date = new Date()): Promise<void> {
  const values = { offered: sampling.offered === null ? null : sampling.offered ? 1 : 0, bulk_ml: sampling.bulkMl, updated_at: now.toISOString() };
  await db
    .insertInto("product_samples")
    .values({ product_id: productId, ...values })
    .onConflict((oc) => oc.column("product_id").doUpdateSet(values))
    .execute();
}

/** The product page's offer, or null when this product isn't sampled. */
export async function sampleOfferFor(db: Queryable, productId: string): Promise<SampleOffer | null> {
  const [settings, sampling] = await Promise.all([loadSampleSettings(db), productSampling(db, [productId])]);
  const own = sampling.get(productId) ?? NOT_SET;
  if (!isSampleOffered(settings, own.offered)) return null;
  return { priceCents: settings.priceCents, left: samplesLeft(own.bulkMl), creditDays: settings.creditDays };
}

/** Every product a discovery set may hold, by name (products sampled by their own choice or the catalogue's). */
export async function sampleableProducts(db: Queryable, settings: SampleSettings): Promise<SampleableProduct[]> {
  let q = db
    .selectFrom("products")
    .leftJoin("product_samples", "product_samples.product_id", "products.id")
    .select(["products.id", "products.slug", "products.name", "products.images", "products.scent_family", "products.inspired_house", "products.inspired_fragrance", "product_samples.bulk_ml"]);
  q = settings.enabled
    ? q.where((eb) => eb.or([eb("product_samples.offered", "is", null), eb("product_samples.offered", "=", 1)]))
    : q.where("product_samples.offered", "=", 1);
  const rows = await q.orderBy("products.name").orderBy("products.id").execute();
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    image: Array.isArray(r.images) && typeof r.images[0] === "string" ? r.images[0] : null,
    family: r.scent_family ?? null,
    inspired: r.inspired_fragrance ? [r.inspired_house, r.inspired_fragrance].filter(Boolean).join(" ") : null,
    left: samplesLeft(r.bulk_ml === null ? null : Number(r.bulk_ml)),
  }));
}

/** A scent inside a quoted sample line: what is decanted and what it gives back once paid. */
export interface QuotedSamplePick {
  productId: string;
  name: string;
  creditCents: number;
}

/** A quoted sample or set line: the cart's line shape plus its scents. */
export type QuotedSampleLine = CartQuoteLine & { sampleKind: "sample" | "set"; samplePicks: QuotedSamplePick[] };

export function isSampleLine(line: CartLineInput): boolean {
  return sampleKindOf(line) !== null;
}

/**
 * Prices the cart's sample and set lines from the settings. A line that is no longer on offer (samples turned off for
 * the product, a set of the wrong size or with a scent gone) comes back in `missing` (its key), like a deleted product.
 */
export async function quoteSampleLines(db: Queryable, lines: readonly CartLineInput[]): Promise<{ lines: QuotedSampleLine[]; missing: string[] }> {
  if (lines.length === 0) return { lines: [], missing: [] };
  const wantedIds = new Set<string>();
  for (const l of lines) for (const id of parseSetToken(l.productId, l.sizeId) ?? [l.productId]) wantedIds.add(id);
  const ids = [...wantedIds];
  const [settings, sampling, products] = await Promise.all([
    loadSampleSettings(db),
    productSampling(db, ids),
    db.selectFrom("products").select(["id", "name", "slug", "images"]).where("id", "in", ids).execute(),
  ]);
  const byId = new Map(products.map((p) => [p.id, p]));
  const offered = (id: string) => byId.has(id) && isSampleOffered(settings, (sampling.get(id) ?? NOT_SET).offered);
  const out: QuotedSampleLine[] = [];
  const missing: string[] = [];
  for (const l of lines) {
    const key = cartLineKey(l);
    const kind = sampleKindOf(l)!;
    const pickIds = kind === "set" ? (parseSetToken(l.productId, l.sizeId) ?? []) : [l.productId];
    const distinct = new Set(pickIds).size === pickIds.length;
    if (!distinct || !pickIds.every(offered) || (kind === "set" && pickIds.length !== settings.setSize)) {
      missing.push(key);
      continue;
    }
    const picks = pickIds.map((id) => byId.get(id)!);
    const unitPriceCents = kind === "set" ? settings.setPriceCents : settings.priceCents;
    const credits = kind === "set" ? setCredits(settings.setPriceCents, picks.length) : [settings.priceCents];
    // the scarcest scent decides how many of this line can be decanted
    const lefts = picks.map((p) => samplesLeft((sampling.get(p.id) ?? NOT_SET).bulkMl)).filter((n): n is number => n !== null);
    const left = lefts.length ? Math.min(...lefts) : null;
    const name = kind === "set" ? setName(picks.map((p) => p.name)) : picks[0].name;
    const sizeLabel = kind === "set" ? setLabel(picks.length) : SAMPLE_LABEL;
    const first = picks[0];
    out.push({
      productId: l.productId,
      sizeId: l.sizeId!,
      sizeLabel,
      sizeCode: "",
      key,
      name,
      slug: kind === "set" ? "" : first.slug,
      image: Array.isArray(first.images) && typeof first.images[0] === "string" ? first.images[0] : null,
      quantity: l.quantity,
      basePriceCents: unitPriceCents,
      wasPriceCents: null,
      unitPriceCents,
      lineTotalCents: unitPriceCents * l.quantity,
      tierApplied: false,
      nextTier: null,
      stockLeft: left,
      stockProblem: left !== null && l.quantity > left ? stockShortMessage(lineName(name, sizeLabel), left) : null,
      sampleKind: kind,
      samplePicks: picks.map((p, i) => ({ productId: p.id, name: p.name, creditCents: credits[i] })),
    });
  }
  return { lines: out, missing };
}
