import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Field, Notice } from "~/components/ui/field";
import { MAX_IMAGE_BYTES, MAX_PRODUCT_IMAGES, PRODUCT_MESSAGES } from "~/modules/catalog/product-admin.text";
import { PLACEHOLDER_IMAGE, sizedImage } from "~/modules/media/images";
import { slugify } from "~/utils/slug";
import { useAdminFetcher, useAdminResult, useTransientMessage } from "./admin-status";
import { ScentProfileFields } from "~/components/scent/scent-profile-fields";
import { PROFILE_FIELDS } from "~/modules/scent/scent-profile";
import { EMPTY_PROFILE, type ScentProfile } from "~/modules/scent/scent.logic";
import { BLANK_SIZE, ProductSizesFields, type SizeFormRow, type SizeTableRow } from "./product-sizes-fields";

export interface ProductFormValues {
  id?: string;
  name: string;
  slug: string;
  description: string;
  /** in rand, as typed: "349.99" */
  price: string;
  /** the price before a sale, in rand as typed; '' = none */
  wasPrice: string;
  categoryId: string;
  metaTitle: string;
  metaDesc: string;
  images: string[];
  /** bottles in stock as typed; '' = not tracked */
  stock: string;
  inspiredHouse: string;
  inspiredFragrance: string;
  /** bottle size in ml as typed; '' = not stated */
  sizeMl: string;
  /** packed weight in grams as typed; '' = the shop's default bottle weight */
  weightGrams: string;
  /** the one size's SKU as typed; '' = none */
  sku: string;
  /** the scent profile (issue 22); absent = a new product, nothing set */
  scent?: ScentProfile;
  /**
   * every size, hidden ones too (issue 33). One shown size: the spec's one-price form, whose price, stock and SKU are
   * that size's; more (or `sizesTable`): the sizes table.
   */
  sizes: SizeFormRow[];
}

let rowKeys = 0;
const tableRow = (size: SizeFormRow, fresh = false): SizeTableRow => ({ ...size, key: `size-${(rowKeys += 1)}`, remove: false, fresh });

interface Upload {
  key: string;
  name: string;
  /** 0–100 */
  progress: number;
  error?: string;
}

/** SPEC §9: back to the list 1.5 s after a save. */
const BACK_TO_LIST_MS = 1500;

/**
 * The product form (SPEC §2, §5) for adding and editing. The server validates everything again; this form only
 * helps: the slug follows the name for a new product until the owner edits it, the meta title fills in as
 * '{name} | {shop}' while it is empty, and images upload one by one with progress, to be reordered or removed.
 * Without JavaScript it is a plain multipart form: one new image per save, remove by ticking.
 */
export function ProductForm({
  product,
  categories,
  shopName,
  defaultWeightGrams,
  action,
  sizesTable = false,
  addSizeHref,
}: {
  product: ProductFormValues;
  categories: Array<{ id: string; name: string }>;
  shopName: string;
  /** the shop's default bottle weight (delivery settings), said in the weight field's hint */
  defaultWeightGrams: number;
  action: string;
  /** show the sizes table even for one size, with a new row (the no-JavaScript "Add another size": `?sizes=add`) */
  sizesTable?: boolean;
  /** where "Add another size" goes without JavaScript */
  addSizeHref: string;
}) {
  const fetcher = useAdminFetcher();
  const result = useAdminResult();
  const shown = useTransientMessage(result);
  const navigate = useNavigate();
  const isNew = !product.id;
  const [hydrated, setHydrated] = useState(false);
  const [name, setName] = useState(product.name);
  const [slug, setSlug] = useState(product.slug);
  const [slugTouched, setSlugTouched] = useState(!isNew);
  const [metaTitle, setMetaTitle] = useState(product.metaTitle);
  const [metaTouched, setMetaTouched] = useState(product.metaTitle !== "");
  const [images, setImages] = useState(product.images);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const [table, setTable] = useState(sizesTable || product.sizes.length > 1 || product.sizes.some((s) => s.hidden));
  const [sizes, setSizes] = useState<SizeTableRow[]>(() => {
    const rows = product.sizes.map((s) => tableRow(s));
    return sizesTable ? [...(rows.length ? rows : [tableRow(BLANK_SIZE)]), tableRow(BLANK_SIZE)] : rows;
  });
  // A save that added or deleted sizes starts the table afresh from what was saved, so a new row now carries its id and
  // a second save updates it instead of adding it again. The form is not remounted for this (a remount would drop
  // the save's "updated" message and the trip back to the list with it).
  const savedSizeIds = product.sizes.map((s) => s.id).join(",");
  const [sizesFrom, setSizesFrom] = useState(savedSizeIds);
  if (sizesFrom !== savedSizeIds) {
    setSizesFrom(savedSizeIds);
    setSizes(product.sizes.map((s) => tableRow(s)));
  }
  useEffect(() => setHydrated(true), []);

  const errors = result && !result.ok ? result.fieldErrors : {};
  const busy = fetcher.state !== "idle";
  const uploading = uploads.some((u) => u.progress < 100 && !u.error);

  // Saved: back to the list after 1.5 s (SPEC §9).
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.ok) return;
    const timer = setTimeout(() => navigate("/admin/products"), BACK_TO_LIST_MS);
    return () => clearTimeout(timer);
  }, [fetcher.state, fetcher.data, navigate]);

  function onName(value: string) {
    setName(value);
    if (!slugTouched) setSlug(slugify(value));
    if (!metaTouched) setMetaTitle(value.trim() ? `${value.trim()} | ${shopName}` : "");
  }

  function move(index: number, by: -1 | 1) {
    setImages((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      next.splice(index + by, 0, item!);
      return next;
    });
  }

  function moveSize(index: number, by: -1 | 1) {
    setSizes((list) => {
      const next = [...list];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      return next;
    });
  }

  /** "Add another size": the one-size form's price, stock and SKU become the table's first row, and a new row follows. */
  function addSize() {
    if (table) {
      setSizes((list) => [...list, tableRow(BLANK_SIZE, true)]);
      return;
    }
    const typed = new FormData(form.current ?? undefined);
    const value = (name: string) => String(typed.get(name) ?? "").trim();
    const ml = value("sizeMl").replace(/\s*ml$/i, "");
    const first: SizeFormRow = {
      ...(product.sizes[0] ?? BLANK_SIZE),
      label: ml ? `${ml} ml` : (product.sizes[0]?.label ?? ""),
      price: value("price"),
      wasPrice: value("wasPrice"),
      sku: value("sku"),
      stock: value("stock"),
      weightGrams: value("weightGrams"),
    };
    // its stock as loaded stays what the save compares with (a sale meanwhile is kept unless the owner changed it)
    setSizes([{ ...tableRow(first), stockWas: product.sizes[0]?.stock ?? "" }, tableRow(BLANK_SIZE, true)]);
    setTable(true);
  }

  function upload(files: FileList | null) {
    for (const file of Array.from(files ?? [])) {
      const key = `${file.name}-${Math.random().toString(36).slice(2)}`;
      const fail = (error: string) => setUploads((u) => [...u.filter((x) => x.key !== key), { key, name: file.name, progress: 100, error }]);
      if (!file.type.startsWith("image/")) {
        fail(PRODUCT_MESSAGES.notAnImage);
        continue;
      }
      if (file.size > MAX_IMAGE_BYTES) {
        fail(PRODUCT_MESSAGES.tooLarge);
        continue;
      }
      setUploads((u) => [...u, { key, name: file.name, progress: 0 }]);
      // XMLHttpRequest, not fetch: only it reports upload progress.
      const xhr = new XMLHttpRequest();
      xhr.open("POST", "/admin/products/images");
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) setUploads((u) => u.map((x) => (x.key === key ? { ...x, progress: Math.min(99, Math.round((e.loaded / e.total) * 100)) } : x)));
      };
      xhr.onload = () => {
        let body: { ok?: boolean; url?: string; error?: string } = {};
        try {
          body = JSON.parse(xhr.responseText) as typeof body;
        } catch {
          // not JSON: a proxy's error page
        }
        if (xhr.status === 200 && body.ok && body.url) {
          setImages((list) => (list.includes(body.url!) ? list : [...list, body.url!]));
          setUploads((u) => u.filter((x) => x.key !== key));
        } else fail(body.error ?? PRODUCT_MESSAGES.uploadFailed);
      };
      xhr.onerror = () => fail(PRODUCT_MESSAGES.uploadFailed);
      const body = new FormData();
      body.set("image", file);
      xhr.send(body);
    }
    if (fileInput.current) fileInput.current.value = "";
  }

  return (
    <fetcher.Form ref={form} method="post" action={sizesTable ? `${action}?sizes=add` : action} encType="multipart/form-data" noValidate className="space-y-6">
      <input type="hidden" name="intent" value={table ? "saveSizes" : "save"} />
      {product.id ? <input type="hidden" name="id" value={product.id} /> : null}
      <input type="hidden" name="images" value={JSON.stringify(images)} />
      <div aria-live="polite" className="empty:hidden">
        {shown ? shown.ok ? <Notice tone="success">{shown.message} Back to the product list…</Notice> : <Notice tone="error">{shown.error}</Notice> : null}
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="product-details" className="space-y-5 border border-line bg-white p-4 sm:p-6">
          <h2 id="product-details" className="font-display text-2xl text-ink">
            Details
          </h2>
          <Field label="Name" error={errors.name}>
            {(p) => <input {...p} name="name" value={name} onChange={(e) => onName(e.currentTarget.value)} maxLength={120} required autoComplete="off" />}
          </Field>
          <Field label="Slug" error={errors.slug} hint={isNew ? "Made from the name; the product's address is /products/{slug}." : "Changing it changes the product's address; links to the old one lead here."}>
            {(p) => (
              <input
                {...p}
                name="slug"
                value={slug}
                onChange={(e) => {
                  setSlug(e.currentTarget.value.toLowerCase());
                  setSlugTouched(true);
                }}
                maxLength={120}
                autoComplete="off"
                spellCheck={false}
              />
            )}
          </Field>
          <Field label="Description" error={errors.description} hint="Paragraphs are kept. Lines such as 'Top notes: bergamot, pink pepper' (top, heart, base) show as the scent pyramid.">
            {(p) => <textarea {...p} name="description" defaultValue={product.description} rows={8} maxLength={5000} />}
          </Field>
        </section>

        <div className="space-y-6">
          <section aria-labelledby="product-price" className="space-y-5 border border-line bg-white p-4 sm:p-6">
            <h2 id="product-price" className="font-display text-2xl text-ink">
              {table ? "Category" : "Price and category"}
            </h2>
            {table ? null : (
              <>
                <RandField label="Price (rand, VAT included)" name="price" defaultValue={product.price} placeholder="349.99" error={errors.price} />
                <RandField
                  label="Was price (rand, optional)"
                  name="wasPrice"
                  defaultValue={product.wasPrice}
                  placeholder="None"
                  error={errors.wasPrice}
                  hint="The price before a sale: shoppers see it struck through beside the price while it is higher. Leave empty when the product isn't on sale."
                />
              </>
            )}
            <Field label="Category" error={errors.categoryId}>
              {(p) => (
                <select {...p} name="categoryId" defaultValue={product.categoryId}>
                  <option value="">Select a category</option>
                  {categories.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {categories.length === 0 ? (
              <p className="text-sm text-ink-soft">
                No categories yet: <Link to="/admin/categories" className="text-gold underline">add one first</Link>.
              </p>
            ) : null}
            {table ? (
              <p className="text-sm text-ink-soft">
                Prices, stock, SKUs and weights are per size: see <a href="#product-sizes" className="text-gold underline">Sizes</a> below.
              </p>
            ) : (
              <>
                <Field label="Bottle size (ml)" error={errors.sizeMl} hint="Shown beside the price, e.g. 100 ml. Leave empty if you'd rather not say.">
                  {(p) => <input {...p} name="sizeMl" defaultValue={product.sizeMl} inputMode="numeric" placeholder="100" autoComplete="off" />}
                </Field>
                <Field
                  label="Weight (packed), grams"
                  error={errors.weightGrams}
                  hint="One bottle in its own box, for the couriers' prices. Leave empty for the shop's default bottle weight (Shipping → Couriers and parcels)."
                >
                  {(p) => <input {...p} name="weightGrams" defaultValue={product.weightGrams} inputMode="numeric" placeholder={`Shop default (${defaultWeightGrams} g)`} maxLength={8} autoComplete="off" />}
                </Field>
                <input type="hidden" name="stockWas" value={product.stock} />
                <Field label="Stock (bottles)" error={errors.stock} hint="Leave empty if you don't count this product's stock. At 0 the shop shows it as out of stock; paid orders take from it.">
                  {(p) => <input {...p} name="stock" defaultValue={product.stock} inputMode="numeric" placeholder="Not tracked" autoComplete="off" />}
                </Field>
                <Field label="SKU (optional)" error={errors.sku} hint="Your stock-keeping code; each product and size has its own.">
                  {(p) => <input {...p} name="sku" defaultValue={product.sku} maxLength={64} autoComplete="off" spellCheck={false} />}
                </Field>
                <div className="border-t border-dashed border-line pt-4">
                  <a
                    href={addSizeHref}
                    onClick={
                      hydrated
                        ? (e) => {
                            e.preventDefault();
                            addSize();
                          }
                        : undefined
                    }
                    className="inline-flex min-h-11 items-center border border-ink px-4 text-xs font-medium uppercase tracking-[0.14em] text-ink hover:bg-ink hover:text-ivory"
                  >
                    + Add another size
                  </a>
                  <p className="mt-2 text-xs text-muted">Sell it in more than one size (30 ml, 50 ml, 100 ml), each with its own price, stock and SKU.</p>
                </div>
              </>
            )}
          </section>

          <section aria-labelledby="product-inspired" className="space-y-5 border border-line bg-white p-4 sm:p-6">
            <h2 id="product-inspired" className="font-display text-2xl text-ink">
              Inspired by
            </h2>
            <p className="text-xs text-muted">The designer fragrance this blend is inspired by. Shown as "Inspired by Dior Sauvage — our own blend, not affiliated with Dior"; both may stay empty.</p>
            <Field label="Designer house" error={errors.inspiredHouse}>
              {(p) => <input {...p} name="inspiredHouse" defaultValue={product.inspiredHouse} maxLength={60} placeholder="Dior" autoComplete="off" />}
            </Field>
            <Field label="Fragrance" error={errors.inspiredFragrance}>
              {(p) => <input {...p} name="inspiredFragrance" defaultValue={product.inspiredFragrance} maxLength={80} placeholder="Sauvage" autoComplete="off" />}
            </Field>
          </section>

          <ScentProfileFields
            profile={product.scent ?? EMPTY_PROFILE}
            errors={Object.fromEntries(Object.entries(PROFILE_FIELDS).flatMap(([key, field]) => (errors[field] ? [[key, errors[field]]] : [])))}
          />

          <section aria-labelledby="product-seo" className="space-y-5 border border-line bg-white p-4 sm:p-6">
            <h2 id="product-seo" className="font-display text-2xl text-ink">
              Search engines
            </h2>
            <Field label="Meta title" error={errors.metaTitle} hint={`Filled in as "{name} | ${shopName}" while empty.`}>
              {(p) => (
                <input
                  {...p}
                  name="metaTitle"
                  value={metaTitle}
                  onChange={(e) => {
                    setMetaTitle(e.currentTarget.value);
                    setMetaTouched(e.currentTarget.value !== "");
                  }}
                  maxLength={200}
                />
              )}
            </Field>
            <Field label="Meta description" error={errors.metaDesc}>
              {(p) => <textarea {...p} name="metaDesc" defaultValue={product.metaDesc} rows={3} maxLength={500} />}
            </Field>
          </section>
        </div>
      </div>

      {table ? (
        <ProductSizesFields
          rows={sizes}
          errors={errors}
          hydrated={hydrated}
          defaultWeightGrams={defaultWeightGrams}
          onMove={moveSize}
          onLabel={(index, label) => setSizes((list) => list.map((r, i) => (i === index ? { ...r, label } : r)))}
          onRemove={(index) => setSizes((list) => (list[index]!.id ? list.map((r, i) => (i === index ? { ...r, remove: !r.remove } : r)) : list.filter((_, i) => i !== index)))}
          addHref={addSizeHref}
          onAdd={addSize}
        />
      ) : null}

      <section aria-labelledby="product-images" className="border border-line bg-white p-4 sm:p-6">
        <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
          <h2 id="product-images" className="font-display text-2xl text-ink">
            Images
          </h2>
          <p className="text-xs text-muted">
            The first image is the main one. Up to {MAX_PRODUCT_IMAGES}, 5 MB each; stored as WebP. With none, the category's default image is used.
          </p>
        </div>
        {errors.images ? (
          <p className="mt-3 text-sm text-danger" role="alert">
            {errors.images}
          </p>
        ) : null}
        {images.length > 0 ? (
          <ol className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
            {images.map((url, i) => (
              <li key={url} className="border border-line bg-ivory">
                <div className="relative">
                  <img src={sizedImage(url, 400)} alt={`Image ${i + 1} of ${name || "the product"}`} width={400} height={400} className="aspect-square w-full object-cover" />
                  {i === 0 ? <span className="absolute left-2 top-2 bg-ink px-2 py-0.5 text-[0.62rem] font-semibold uppercase tracking-[0.14em] text-ivory">Main</span> : null}
                </div>
                {hydrated ? (
                  <div className="flex items-center justify-between gap-1 px-2 py-1.5">
                    <span className="flex gap-1">
                      <IconButton label={`Move image ${i + 1} earlier`} disabled={i === 0} onClick={() => move(i, -1)}>
                        ←
                      </IconButton>
                      <IconButton label={`Move image ${i + 1} later`} disabled={i === images.length - 1} onClick={() => move(i, 1)}>
                        →
                      </IconButton>
                    </span>
                    <button type="button" onClick={() => setImages((list) => list.filter((u) => u !== url))} className="px-2 py-2 text-xs font-medium uppercase tracking-[0.12em] text-danger hover:underline">
                      Remove
                    </button>
                  </div>
                ) : (
                  <label className="flex items-center gap-2 px-2 py-2 text-xs text-ink-soft">
                    <input type="checkbox" name="removeImage" value={url} /> Remove
                  </label>
                )}
              </li>
            ))}
          </ol>
        ) : (
          <div className="mt-4 flex items-center gap-4 border border-dashed border-line bg-ivory p-4">
            <img src={PLACEHOLDER_IMAGE} alt="" width={64} height={64} className="h-16 w-16 object-cover" />
            <p className="text-sm text-ink-soft">No images yet.</p>
          </div>
        )}
        {uploads.length > 0 ? (
          <ul className="mt-4 space-y-2" aria-label="Uploads">
            {uploads.map((u) => (
              <li key={u.key} className="text-sm">
                <div className="flex justify-between gap-3">
                  <span className="min-w-0 truncate text-ink">{u.name}</span>
                  <span className={u.error ? "text-danger" : "text-muted"}>{u.error ?? `${u.progress}%`}</span>
                </div>
                {u.error ? null : (
                  <progress value={u.progress} max={100} aria-label={`Uploading ${u.name}`} className="mt-1 h-1.5 w-full accent-gold">
                    {u.progress}%
                  </progress>
                )}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-4">
          {hydrated ? (
            <Button variant="secondary" onClick={() => fileInput.current?.click()}>
              Add images
            </Button>
          ) : (
            <label htmlFor="product-image-files" className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
              Add an image (one per save)
            </label>
          )}
          <input
            ref={fileInput}
            id="product-image-files"
            type="file"
            accept="image/*"
            multiple={hydrated}
            // Without JavaScript the file goes with the form; with it, each file uploads at once (with progress).
            name={hydrated ? undefined : "newImages"}
            onChange={hydrated ? (e) => upload(e.currentTarget.files) : undefined}
            hidden={hydrated}
            tabIndex={hydrated ? -1 : undefined}
            className="mt-2 block max-w-full text-sm"
          />
        </div>
      </section>

      <div className="flex flex-col-reverse gap-3 border-t border-line pt-6 sm:flex-row sm:justify-end">
        <Link to="/admin/products" className={buttonClass("ghost", "lg")}>
          Cancel
        </Link>
        <Button type="submit" size="lg" disabled={busy || uploading}>
          {busy ? "Saving…" : uploading ? "Uploading images…" : isNew ? "Create Product" : "Save Changes"}
        </Button>
      </div>
    </fetcher.Form>
  );
}

function IconButton({ label, disabled, onClick, children }: { label: string; disabled: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button type="button" aria-label={label} title={label} disabled={disabled} onClick={onClick} className="h-9 w-9 border border-line text-ink hover:border-ink disabled:opacity-30">
      {children}
    </button>
  );
}

/** An amount in rand: the field with an R before it (the price, the was price). */
function RandField({ label, name, defaultValue, placeholder, error, hint }: { label: string; name: string; defaultValue: string; placeholder: string; error?: string; hint?: string }) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(p) => (
        <div className="flex">
          <span aria-hidden="true" className="flex items-center border border-r-0 border-line bg-sand px-3 text-ink-soft">
            R
          </span>
          <input {...p} name={name} defaultValue={defaultValue} inputMode="decimal" placeholder={placeholder} autoComplete="off" />
        </div>
      )}
    </Field>
  );
}
