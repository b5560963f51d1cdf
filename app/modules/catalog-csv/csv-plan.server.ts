/**
 * The import's plan (issue 20, docs/decisions/032): what the file would do to the catalogue as it is now, row by row
 * (create, update, unchanged, skip, error), read by the preview and planned again by the apply. Reads only.
 */
import { type Queryable } from "~/db/db.server";
import { categorySlugFor } from "~/modules/catalog/catalog-admin.schema";
import { defaultProductImage } from "~/modules/media/images";
import { profileToColumns } from "~/modules/scent/scent-profile";
import { EMPTY_PROFILE } from "~/modules/scent/scent.logic";
import { env } from "~/utils/env.server";
import { slugify } from "~/utils/slug";
import { columnLabel, fileNotes, readRow, VARIATION_MESSAGES, type CellError, type HeaderMap, type ImportCounts, type ImportReport, type ImportRowReport, type ProductCsvRow } from "./csv-columns";
import { IMPORT_MESSAGES } from "./import-messages";
import { type ImageFailure } from "./missing-images.server";
import { type ParsedCsv } from "./csv-parse.server";
import { type Existing, type ExistingSize, PRODUCT_FIELDS, type Plan, type PlanContext, type PlannedProduct, type PlannedRow, type ProductState, SIZE_FIELDS, chunks, classifyImage, flagDuplicates, isDefaultImage, loadExisting, targetScent, writes } from "./csv-plan-model.server";
import { PLAN_SLICE, type PlanProgress, type Read, differs, fillProductCells, groupRows, hasSizeColumns, pause, sizeColumn, targetSize } from "./csv-plan-rows.server";

/**
 * What the file would do to the catalogue as it is now. Reads only: the products the rows name (by SKU and slug),
 * their sizes and tiers, the sizes with the file's SKUs, the categories and the image map.
 */
export async function planImport(db: Queryable, parsed: ParsedCsv, map: HeaderMap, onProgress?: PlanProgress, context: PlanContext = {}): Promise<Plan> {
  const ownOrigin = new URL(env().PUBLIC_BASE_URL).origin;
  // Reading (zod) and planning are half of the work each; both pause every PLAN_SLICE rows (see PlanProgress).
  const total = parsed.records.length;
  const sized = hasSizeColumns(map);
  const prepared = sized ? fillProductCells(parsed, map) : null;
  const reads: Read[] = [];
  for (const [i, r] of parsed.records.entries()) {
    if (i > 0 && i % PLAN_SLICE === 0) await pause(onProgress, i / 2, total);
    const fill = prepared?.[i];
    const read = readRow(fill?.cells ?? r.cells, map, context.today);
    if (fill?.errors.length && !read.skip) read.errors.push(...fill.errors);
    reads.push({ row: r.row, cells: r.cells, read, key: fill?.key ?? `row:${r.row}` });
  }
  // Cells beyond the header's columns: a stray delimiter or quote shifted the row.
  for (const r of reads) {
    const extra = r.cells.slice(parsed.header.length).filter((c) => c.trim() !== "");
    if (extra.length && !r.read.skip) r.read.errors.push({ column: "", message: `The row has ${r.cells.length} cells but the header has ${parsed.header.length}: a stray comma or quote?` });
  }
  const groups = groupRows(reads, map);
  const ok = (r: Read | null | undefined): boolean => !!r?.read.product && !r.read.skip && !r.read.errors.length;
  const isOk = (r: Read | null | undefined): r is Read => ok(r);
  const skuLabel = columnLabel(map, "sku");
  const slugLabel = columnLabel(map, "slug");
  const leads = groups.map((g) => g.lead).filter(isOk);
  flagDuplicates(leads.filter((r) => r.read.product!.sku).map((r) => ({ row: r.row, value: r.read.product!.sku!, read: r.read })), skuLabel, "SKU");
  flagDuplicates(leads.filter((r) => r.read.product!.slug).map((r) => ({ row: r.row, value: r.read.product!.slug!, read: r.read })), slugLabel, "Slug");
  // A size's SKU is one size's (WooCommerce's variations and simple products share one SKU column).
  const sizeSkuOf = (r: Read) => r.read.product?.sizeSku ?? (map.format === "woocommerce" && !r.read.woo?.variable ? r.read.product?.sku : undefined) ?? null;
  const sizeRows = groups.flatMap((g) => g.sizes).filter(isOk);
  flagDuplicates(
    sizeRows.filter((r) => sizeSkuOf(r) && (map.format === "woocommerce" ? r.read.woo?.parent : true)).map((r) => ({ row: r.row, value: sizeSkuOf(r)!, read: r.read })),
    columnLabel(map, "sizeSku"),
    "Size SKU",
    "each size may appear once",
  );

  const candidates = (p: ProductCsvRow) => [p.slug ?? slugify(p.name), ...(p.sku ? [slugify(`${p.name} ${p.sku}`)] : [])].filter(Boolean);
  const existing = await loadExisting(
    db,
    [...new Set([...leads.map((r) => r.read.product!.sku), ...groups.map((g) => g.shopSku)].filter((s): s is string => !!s))],
    [...new Set(leads.flatMap((r) => candidates(r.read.product!)))],
  );
  const bySku = new Map(existing.filter((p) => p.sku).map((p) => [p.sku!, p]));
  const bySlug = new Map(existing.map((p) => [p.slug, p]));
  // Who holds each size SKU of the file now (a size SKU is unique across the shop).
  const sizeSkus = [...new Set(sizeRows.map((r) => sizeSkuOf(r) ?? (!sized && map.format === "scentara" ? r.read.product?.sku : null)).filter((s): s is string => !!s))];
  const skuHolders = new Map<string, { productId: string; name: string }>();
  for (const part of chunks(sizeSkus)) {
    const held = await db.selectFrom("product_sizes as s").innerJoin("products as p", "p.id", "s.product_id").select(["s.sku", "p.id", "p.name"]).where("s.sku", "in", part).execute();
    for (const h of held) skuHolders.set(h.sku!, { productId: h.id, name: h.name });
  }
  const categories = await db.selectFrom("categories").select(["name", "slug"]).execute();
  const categoryBySlug = new Map(categories.map((c) => [c.slug, c.slug]));
  const categoryByName = new Map(categories.map((c) => [c.name.toLowerCase(), c.slug]));
  const sources = [...new Set(leads.flatMap((r) => r.read.product!.images ?? []))].filter((u) => !u.startsWith("/"));
  const cache = new Map<string, string>();
  for (const part of chunks(sources)) {
    for (const row of await db.selectFrom("imported_images").select(["source_url", "url"]).where("source_url", "in", part).execute()) cache.set(row.source_url, row.url);
  }

  const newCategories = new Map<string, string>();
  /** slug → who will hold it after the import: a product id, or a row that creates */
  const slugOwner = new Map<string, string>(existing.map((p) => [p.slug, p.id]));
  const pendingAll = new Set<string>();
  /** product id → the row that updates it */
  const matchedBy = new Map<string, number>();

  // Every row's report, in file order: skipped and unreadable rows as they are; the others as their product plans.
  const planned = new Map<number, PlannedRow>();
  for (const { row, read } of reads) {
    const report: ImportRowReport = { row, action: "error", sku: read.label.sku, slug: read.label.slug, name: read.label.name };
    if (read.notes.length) report.notes = [...read.notes];
    if (read.skip) {
      report.action = "skip";
      report.notes = [read.skip, ...(report.notes ?? [])];
    } else if (read.errors.length || !read.product) report.errors = [...read.errors];
    planned.set(row, { report });
  }
  const rowOf = (r: Read) => planned.get(r.row)!;
  const fail = (r: Read, errors: CellError[]) => {
    const report = rowOf(r).report;
    report.action = "error";
    report.errors = [...(report.errors ?? []), ...errors];
  };
  const skip = (r: Read, reason: string) => {
    const report = rowOf(r).report;
    report.action = "skip";
    report.notes = [reason, ...(report.notes ?? [])];
  };
  const products: PlannedProduct[] = [];

  let processed = 0;
  let sincePause = 0;
  for (const group of groups) {
    const count = group.sizes.length + group.others.length + (group.lead && !group.sizes.includes(group.lead) ? 1 : 0);
    processed += count;
    sincePause += count;
    if (sincePause >= PLAN_SLICE) {
      sincePause = 0;
      await pause(onProgress, (total + processed) / 2, total);
    }
    const { lead } = group;
    const variable = !!lead?.read.woo?.variable;
    const followers = group.sizes.filter((s) => s !== lead);
    if (lead && lead.read.skip) {
      for (const s of followers) if (ok(s)) skip(s, VARIATION_MESSAGES.parentSkipped(lead.row));
      continue;
    }
    if (lead && !ok(lead)) {
      for (const s of followers) if (ok(s)) fail(s, [{ column: "", message: VARIATION_MESSAGES.parentError(lead.row) }]);
      continue;
    }
    if (variable && !group.sizes.length) {
      const broken = group.others.filter((o) => !o.read.skip).map((o) => o.row);
      if (broken.length) fail(lead!, [{ column: "", message: IMPORT_MESSAGES.noGoodSizes(broken) }]);
      else if (group.others.length) skip(lead!, VARIATION_MESSAGES.noSizes(group.others.length, [...new Set(group.others.flatMap((o) => o.read.woo?.by ?? []))]));
      else skip(lead!, VARIATION_MESSAGES.noVariations);
      continue;
    }

    // The product: its own row's columns over the product the shop has (matched by SKU, then slug).
    let product: PlannedProduct;
    if (!lead) {
      const match = bySku.get(group.shopSku!);
      if (!match) {
        for (const s of group.sizes) if (ok(s)) fail(s, [{ column: "Parent", message: VARIATION_MESSAGES.parentMissing(group.shopSku!) }]);
        continue;
      }
      product = { existing: match, target: { ...match }, changes: [], sizes: [], lead: null, pending: [], fromCache: [], failures: [], hasImages: false };
    } else {
      const p = lead.read.product!;
      const errors: CellError[] = [];
      let match: Existing | null = p.sku ? (bySku.get(p.sku) ?? null) : null;
      let slug = p.slug ?? match?.slug ?? slugify(p.name);
      if (!slug) errors.push({ column: slugLabel, message: "The name has no letters or digits to make a slug from: give the row a slug" });
      if (!match && slug) {
        const bySlugMatch = bySlug.get(slug);
        if (bySlugMatch && (!bySlugMatch.sku || !p.sku)) match = bySlugMatch;
        else if (bySlugMatch) {
          // The slug is another SKU's product.
          if (p.slug) errors.push({ column: slugLabel, message: `Slug "${slug}" belongs to the product with SKU "${bySlugMatch.sku}"` });
          else slug = slugify(`${p.name} ${p.sku}`);
        }
      }
      if (match) {
        const earlier = matchedBy.get(match.id);
        if (earlier !== undefined) {
          errors.push({ column: p.sku && bySku.get(p.sku) === match ? skuLabel : slugLabel, message: `Row ${earlier} is the same product ("${match.name}"): each product may appear once` });
        } else matchedBy.set(match.id, lead.row);
      }
      const key = match?.id ?? `row:${lead.row}`;
      if (slug && !errors.length) {
        const owner = slugOwner.get(slug);
        if (owner && owner !== key) {
          if (!match && !p.slug && p.sku && owner.startsWith("row:")) slug = slugify(`${p.name} ${p.sku}`);
          const again = slugOwner.get(slug);
          if (again && again !== key) {
            const who = again.startsWith("row:") ? `row ${again.slice(4)}` : `another product ("${existing.find((e) => e.id === again)?.name ?? slug}")`;
            errors.push({ column: p.slug ? slugLabel : columnLabel(map, "name"), message: `Slug "${slug}" is taken by ${who}: give this row its own slug${p.sku ? "" : " or a SKU"}` });
          }
        }
        if (!errors.length) {
          if (match && match.slug !== slug) slugOwner.delete(match.slug);
          slugOwner.set(slug, key);
        }
      }

      // Category: matched by slug or name, made when new.
      let category: string | null = match?.category ?? null;
      if (p.category !== undefined) {
        if (p.category === null) category = null;
        else {
          const catSlug = categorySlugFor(p.category);
          if (!catSlug) errors.push({ column: columnLabel(map, "category"), message: `Category "${p.category}" needs a letter or digit` });
          else {
            category = categoryBySlug.get(catSlug) ?? categoryByName.get(p.category.toLowerCase()) ?? catSlug;
            if (!categoryBySlug.has(category) && !newCategories.has(category)) newCategories.set(category, p.category);
          }
        }
      }

      // Images: the shop's own kept, known URLs mapped, the rest fetched at the apply.
      let images: string[] | undefined;
      const pending: string[] = [];
      const fromCache: Array<{ source: string; url: string }> = [];
      const failures: ImageFailure[] = [];
      if (p.images !== undefined) {
        images = [];
        for (const [position, value] of p.images.entries()) {
          const c = classifyImage(value, ownOrigin, context.isAllowedAddress);
          if ("error" in c) errors.push({ column: columnLabel(map, "images"), message: c.error });
          else if ("refused" in c) failures.push({ url: value, reason: c.refused, position });
          else if ("local" in c) images.push(c.local);
          else if (context.failed?.has(c.remote)) failures.push({ url: c.remote, reason: context.failed.get(c.remote)!, position });
          else if (cache.has(c.remote)) {
            const url = cache.get(c.remote)!;
            images.push(url);
            if (!match?.images.includes(url)) fromCache.push({ source: c.remote, url });
          } else {
            pending.push(c.remote);
            images.push(`pending:${c.remote}`);
          }
        }
        images = [...new Set(images)];
      }
      if (errors.length) {
        fail(lead, errors);
        for (const s of followers) if (ok(s)) fail(s, [{ column: "", message: VARIATION_MESSAGES.parentError(lead.row) }]);
        continue;
      }

      const base: ProductState = match ?? {
        sku: null,
        slug,
        name: p.name,
        description: "",
        images: [],
        category: null,
        meta_title: null,
        meta_desc: null,
        inspired_house: null,
        inspired_fragrance: null,
        ...profileToColumns(EMPTY_PROFILE),
      };
      const own = (list: string[]) => list.filter((u) => !isDefaultImage(u));
      // Every image of the row failed: a product that has images of its own keeps them rather than lose them.
      if (images !== undefined && images.length === 0 && failures.length && match && own(match.images).length) images = match.images;
      if (images !== undefined && images.length === 0) {
        // An empty cell: no images of its own, so its category's default image (as the product form does).
        images = match && own(match.images).length === 0 && match.category === category ? match.images : [defaultProductImage(category)];
      }
      if (!match && images === undefined) images = [defaultProductImage(category)];
      const target: ProductState = {
        sku: p.sku ?? base.sku,
        slug,
        name: p.name,
        description: p.description ?? base.description,
        images: images ?? base.images,
        category,
        meta_title: p.metaTitle !== undefined ? p.metaTitle : base.meta_title,
        meta_desc: p.metaDesc !== undefined ? p.metaDesc : base.meta_desc,
        inspired_house: p.inspiredHouse !== undefined ? p.inspiredHouse : base.inspired_house,
        inspired_fragrance: p.inspiredFragrance !== undefined ? p.inspiredFragrance : base.inspired_fragrance,
        ...targetScent(p, base),
      };
      const changes = match ? PRODUCT_FIELDS.filter(([field]) => differs(match!, target, field)).map(([, key]) => columnLabel(map, key)) : [];
      product = { existing: match, target, changes, sizes: [], lead: rowOf(lead), pending, fromCache, failures, hasImages: p.images !== undefined };
    }

    // Its sizes: matched by their SKU, then their code; a product sold in one size by its only size.
    const single = !sized && !variable && !group.shopSku;
    const sizesNow = product.existing?.sizes ?? [];
    const visible = sizesNow.filter((s) => !s.hidden);
    const usedBy = new Map<string, number>();
    const codes = new Map<string, number>();
    for (const s of group.sizes) {
      if (!ok(s)) continue;
      const p = s.read.product!;
      if (single && visible.length > 1) {
        fail(s, [{ column: "", message: IMPORT_MESSAGES.soldInSizes(visible.map((v) => v.label || v.code)) }]);
        continue;
      }
      const wanted = targetSize(p, null, { single, productSku: product.target.sku });
      let match: ExistingSize | null = (wanted.sku && sizesNow.find((x) => x.sku === wanted.sku)) || sizesNow.find((x) => x.code === wanted.code) || null;
      if (!match && group.sizes.length === 1 && visible.length === 1) match = visible[0]!;
      const errors: CellError[] = [];
      if (match && usedBy.has(match.id)) {
        errors.push({ column: sizeColumn(map, "sizeLabel"), message: IMPORT_MESSAGES.sameSize(usedBy.get(match.id)!) });
      }
      const target = targetSize(p, match, { single, productSku: product.target.sku, inheritedWeight: variable ? lead!.read.product!.weightGrams : undefined });
      const other = sizesNow.find((x) => x !== match && x.code === target.code);
      if (other) errors.push({ column: sizeColumn(map, "sizeLabel"), message: IMPORT_MESSAGES.sizeTaken(target.label || target.code, other.sku) });
      else if (codes.has(target.code)) errors.push({ column: sizeColumn(map, "sizeLabel"), message: IMPORT_MESSAGES.sameSize(codes.get(target.code)!) });
      const holder = target.sku ? skuHolders.get(target.sku) : undefined;
      if (holder && holder.productId !== product.existing?.id) errors.push({ column: sizeColumn(map, "sizeSku"), message: IMPORT_MESSAGES.sizeSkuTaken(target.sku!, holder.name) });
      if (errors.length) {
        fail(s, errors);
        continue;
      }
      if (match) usedBy.set(match.id, s.row);
      codes.set(target.code, s.row);
      const changes = match ? [...new Set(SIZE_FIELDS.filter(([field]) => differs(match!, target, field)).map(([, key]) => sizeColumn(map, key)))] : [];
      const row = rowOf(s);
      row.product = product;
      product.sizes.push({ row, existing: match, target, changes });
      if (match?.hidden) row.report.notes = [...(row.report.notes ?? []), IMPORT_MESSAGES.hiddenSize];
    }
    // The product's own row is its first size (our file, a simple product): without it, none of its rows is written.
    if (lead && group.sizes.includes(lead) && rowOf(lead).report.errors?.length) {
      for (const size of product.sizes) {
        delete size.row.product;
        fail(group.sizes.find((s) => s.row === size.row.report.row)!, [{ column: "", message: VARIATION_MESSAGES.parentError(lead.row) }]);
      }
      continue;
    }
    if (!product.existing && !product.sizes.length) {
      if (lead && !group.sizes.includes(lead)) fail(lead, [{ column: "", message: IMPORT_MESSAGES.noGoodSizes(group.sizes.map((s) => s.row)) }]);
      continue;
    }

    // The rows' reports: the product's own changes on its row, each size's on its own.
    const productNew = !product.existing;
    if (product.lead) {
      const report = product.lead.report;
      product.lead.product = product;
      report.slug = product.target.slug;
      report.sku = product.target.sku ?? "";
      report.action = productNew ? "create" : product.changes.length ? "update" : "unchanged";
      if (product.changes.length) report.changes = [...product.changes];
      if (productNew && product.target.category && newCategories.has(product.target.category)) report.notes = [...(report.notes ?? []), `New category "${newCategories.get(product.target.category)}"`];
      if (product.pending.length) report.notes = [...(report.notes ?? []), `${product.pending.length} image${product.pending.length === 1 ? "" : "s"} to fetch`];
      if (product.failures.length) report.imageFailures = product.failures.map(({ url, reason }) => ({ url, reason }));
      if (variable) {
        const skipped = group.others.filter((o) => o.read.skip).length;
        report.notes = [...(report.notes ?? []), VARIATION_MESSAGES.sizes(product.sizes.map((s) => s.target.label || s.target.code)), ...(skipped ? [IMPORT_MESSAGES.variationsSkipped(skipped)] : [])];
      }
    }
    for (const size of product.sizes) {
      const report = size.row.report;
      if (sized || variable || group.shopSku) report.size = size.target.label || size.target.code;
      if (size.row === product.lead) {
        if (size.changes.length) report.changes = [...new Set([...(report.changes ?? []), ...size.changes])];
        if (!productNew) report.action = !size.existing ? "create" : report.changes?.length ? "update" : "unchanged";
        continue;
      }
      report.slug = product.target.slug;
      if (size.target.sku) report.sku = size.target.sku;
      report.action = productNew || !size.existing ? "create" : size.changes.length ? "update" : "unchanged";
      if (size.changes.length) report.changes = size.changes;
    }
    for (const source of product.pending) pendingAll.add(source);
    products.push(product);
  }
  return { map, rows: [...planned.values()], products, newCategories, pending: [...pendingAll] };
}

export function reportOf(plan: Plan): ImportReport {
  const counts: ImportCounts = { create: 0, update: 0, unchanged: 0, skip: 0, error: 0 };
  for (const r of plan.rows) counts[r.report.action]++;
  return {
    format: plan.map.format,
    counts,
    rows: plan.rows.map((r) => r.report),
    newCategories: [...plan.newCategories.values()],
    imagesToFetch: plan.pending.length,
    imagesFailed: plan.products.reduce((n, p) => n + p.failures.length, 0),
    ignoredColumns: plan.map.ignored,
    notes: fileNotes(plan.map),
    products: plan.products.filter(writes).length,
  };
}
