import { useEffect } from "react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { FORMAT_LABELS, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, OUR_HEADER, type ImportReport, type ImportRowReport, type RowAction } from "~/modules/catalog-csv/csv-columns";
import type { RecentImport } from "~/modules/catalog-csv/recent-imports.server";
import { groupCount, IMPORT_MESSAGES } from "~/modules/catalog-csv/import-messages";
import { DataTable, type Column } from "./data-table";

/** The product import page's parts (app/routes/admin.products.import.tsx): upload, progress, the rows of a preview. */

const ACTION_LABELS: Record<RowAction, string> = { create: "New", update: "Update", unchanged: "Unchanged", skip: "Skipped", error: "Error" };
const ACTION_STYLES: Record<RowAction, string> = {
  create: "border-success/40 text-success",
  update: "border-gold/60 text-ink",
  unchanged: "border-line text-muted",
  skip: "border-line text-muted",
  error: "border-danger/40 text-danger",
};

export function ActionBadge({ action }: { action: RowAction }) {
  return <span className={`inline-block border px-2 py-0.5 text-[0.68rem] font-medium uppercase tracking-[0.14em] ${ACTION_STYLES[action]}`}>{ACTION_LABELS[action]}</span>;
}

/** Step 1: choose a file. A plain multipart form: it works without JavaScript. */
export function UploadForm({ error, again = false }: { error?: string; again?: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "preview";
  return (
    <Form method="post" encType="multipart/form-data" className="border border-line bg-white p-4 sm:p-5">
      <h2 className="font-display text-xl text-ink">{again ? "Upload a corrected file" : "1. Choose a CSV file"}</h2>
      <p className="mt-1 text-sm text-ink-soft">
        Our own export, or a WooCommerce product export (Products → Export in WordPress) as it is. Nothing changes until you apply the preview.
      </p>
      <input type="hidden" name="intent" value="preview" />
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1 space-y-1.5">
          <label htmlFor="import-file" className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
            CSV file
          </label>
          <input
            id="import-file"
            name="file"
            type="file"
            required
            accept=".csv,text/csv"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "import-file-error" : "import-file-hint"}
            className="block w-full border border-line bg-white text-sm text-ink file:mr-3 file:h-11 file:border-0 file:bg-sand file:px-4 file:text-xs file:font-medium file:uppercase file:tracking-[0.14em] file:text-ink"
          />
          <p id="import-file-hint" className="text-xs text-muted">
            UTF-8 CSV, up to {MAX_IMPORT_ROWS.toLocaleString("en-US").replace(/,/g, " ")} rows and {MAX_IMPORT_BYTES / 1024 / 1024} MB.
          </p>
        </div>
        <Button type="submit" disabled={busy} className="sm:mb-6">
          {busy ? "Reading…" : "Preview import"}
        </Button>
      </div>
      {error ? (
        <div id="import-file-error" className="mt-4">
          <Notice tone="error">{error}</Notice>
        </div>
      ) : null}
    </Form>
  );
}

/** What the two formats carry (folded away: the owner reads it once). */
export function FormatHelp() {
  return (
    <details className="border border-line bg-white/60 px-4 py-3 text-sm text-ink-soft sm:px-5">
      <summary className="cursor-pointer text-xs font-medium uppercase tracking-[0.14em] text-ink">What the file may hold</summary>
      <div className="mt-3 space-y-3">
        <p>
          <strong className="text-ink">Our columns</strong> (the export writes them all): {OUR_HEADER.join(", ")}. Only Name and Price (ZAR) are needed;
          a column left out leaves that value as it is. Products are matched by SKU, then by slug; an empty Stock means not counted.
        </p>
        <p>
          <strong className="text-ink">Sizes</strong>: a row per size, from Size to Weight (g) the size&rsquo;s own values; the product&rsquo;s columns are
          repeated on each of its rows (or left empty after the first), and its rows are put together by Slug. Sizes are matched by Size SKU, then by
          Size; a size the file doesn&rsquo;t name stays as it is. A file without the Size columns is a product a row, in one size.
        </p>
        <p>
          <strong className="text-ink">WooCommerce</strong>: SKU, Name, Regular price, Sale price and its dates (a product on sale comes in at its sale
          price, its regular price shown struck through), Description and Short description (HTML becomes text), Categories (the first one), Images
          (fetched by the shop; one that can&rsquo;t be fetched is listed and can be fetched again later), Stock and In stock?, Weight (in its unit,
          converted to grams) and a Size attribute are read; the preview names the columns it ignores. A variable product comes in as one product
          with a size per variation by Size (its SKU, prices, stock and weight); variations by another attribute (a colour, a gift box) are listed
          and skipped, as are drafts and private products.
        </p>
        <p>Prices may be written 1299.00 or R 1 299,00. Categories that don't exist yet are made.</p>
      </div>
    </details>
  );
}

/** Step 3: the apply runs on the server; the page asks for its progress every second. */
export function ImportProgress({ phase, done, total }: { phase: string | null; done: number; total: number }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 1000);
    return () => window.clearInterval(timer);
  }, [revalidator]);
  // checking the rows 2–40 %, fetching images 40–90 %, writing (one transaction, no steps to show) 95 %
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const percent = phase === "images" ? 40 + Math.round(share * 50) : phase === "writing" ? 95 : 2 + Math.round(share * 38);
  const label =
    phase === "images"
      ? `Fetching images: ${groupCount(done)} of ${groupCount(total)}`
      : phase === "writing"
        ? `Writing ${groupCount(total)} products (one transaction)…`
        : total > 1
          ? `Checking the rows against the catalogue: ${groupCount(done)} of ${groupCount(total)}`
          : "Checking the file against the catalogue…";
  return (
    <section aria-labelledby="import-progress" className="border border-line bg-white p-4 sm:p-5">
      <h2 id="import-progress" className="font-display text-xl text-ink">
        Importing…
      </h2>
      <p className="mt-1 text-sm text-ink-soft" aria-live="polite">
        {label}
      </p>
      <div role="progressbar" aria-labelledby="import-progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="mt-4 h-2 w-full overflow-hidden bg-sand">
        <div className="h-full bg-gold transition-[width] duration-500" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-3 text-xs text-muted">
        You may leave this page: the import carries on. <Link to="." className="underline underline-offset-4">Refresh</Link>
      </p>
    </section>
  );
}

/** Step 2's button: apply what the preview lists (or, when the owner chooses, only its good rows). */
export function ApplyForm({ id, count, label, goodRowsOnly = false }: { id: string; count: number; label: string; goodRowsOnly?: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "apply";
  return (
    <Form method="post" className="flex flex-col gap-3 border border-gold/40 bg-sand/60 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
      <p className="text-sm text-ink">
        {groupCount(count)} {count === 1 ? "product" : "products"} will be created or updated in one go{goodRowsOnly ? ", the rows with errors left out" : ""}: if anything fails, nothing
        is written.
      </p>
      <input type="hidden" name="intent" value="apply" />
      <input type="hidden" name="id" value={id} />
      {goodRowsOnly ? <input type="hidden" name="goodRowsOnly" value="1" /> : null}
      <Button type="submit" disabled={busy} className="shrink-0">
        {busy ? "Starting…" : label}
      </Button>
    </Form>
  );
}

function Details({ r }: { r: ImportRowReport }) {
  return (
    <div className="space-y-1 text-left text-xs">
      {r.errors?.map((e, i) => (
        <p key={i} className="text-danger">
          {e.column ? <strong className="font-semibold">{e.column}: </strong> : null}
          {e.message}
        </p>
      ))}
      {r.changes?.length ? <p className="text-ink-soft">Changes: {r.changes.join(", ")}</p> : null}
      {r.imageFailures?.map((f, i) => (
        <p key={`img-${i}`} className="text-ink-soft">
          <span className="font-medium text-ink">Image not fetched:</span> <span className="break-all">{f.url}</span> ({f.reason})
        </p>
      ))}
      {r.notes?.map((n, i) => (
        <p key={i} className="text-muted">
          {n}
        </p>
      ))}
    </div>
  );
}

/** The preview's rows, a page at a time, with a tab per kind. */
export function ImportRows({
  rows,
  show,
  hrefFor,
  page,
  pageCount,
  counts,
}: {
  rows: ImportRowReport[];
  show: string;
  hrefFor: (changes: { show?: string; page?: number }) => string;
  page: number;
  pageCount: number;
  counts: { all: number; errors: number; changes: number };
}) {
  const columns: Column<ImportRowReport>[] = [
    { header: "Row", cell: (r) => r.row, className: "tabular-nums whitespace-nowrap" },
    { header: "Result", cell: (r) => <ActionBadge action={r.action} /> },
    {
      header: "Product",
      cell: (r) => (
        <span className="block min-w-0 text-right md:text-left">
          <span className="block font-medium text-ink">{r.name || <span className="text-muted">(no name)</span>}</span>
          {r.size ? <span className="block text-xs text-ink">Size {r.size}</span> : null}
          <span className="block break-all text-xs text-muted">{[r.sku && `SKU ${r.sku}`, r.slug].filter(Boolean).join(" · ")}</span>
        </span>
      ),
    },
    { header: "Details", bare: true, cell: (r) => <Details r={r} />, className: "md:w-1/2" },
  ];
  const tabs = [
    { key: "all", label: "All rows", n: counts.all },
    { key: "changes", label: "New and updated", n: counts.changes },
    { key: "errors", label: "Errors", n: counts.errors },
  ];
  return (
    <section aria-labelledby="import-rows" className="space-y-4">
      <h2 id="import-rows" className="sr-only">
        Rows of the file
      </h2>
      <nav aria-label="Show rows" className="flex flex-wrap gap-2">
        {tabs.map((t) => (
          <Link key={t.key} to={hrefFor({ show: t.key, page: 1 })} aria-current={show === t.key ? "page" : undefined} className={buttonClass(show === t.key ? "primary" : "secondary", "sm")}>
            {t.label} <span className="tabular-nums">({groupCount(t.n)})</span>
          </Link>
        ))}
      </nav>
      <DataTable<ImportRowReport>
        rows={rows}
        columns={columns}
        rowKey={(r) => String(r.row)}
        caption="Rows of the file and what the import does with each"
        empty={<p className="text-sm text-ink-soft">No rows of this kind.</p>}
        page={{ page, pageCount, hrefFor: (p) => hrefFor({ page: p }) }}
      />
    </section>
  );
}

/** The images of a file that can't be had: row, product, address and why (the preview's and the result's list). */
export function ImageFailureList({
  failures,
  total,
  refetch = false,
}: {
  failures: Array<{ row: number; name: string; url: string; reason: string }>;
  total: number;
  /** the import is applied and images are still missing: offer to fetch them again here */
  refetch?: boolean;
}) {
  return (
    <section aria-labelledby="image-failures" className="border border-line bg-white p-4 sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id="image-failures" className="font-display text-xl text-ink">
            Images that can&rsquo;t be fetched ({groupCount(total)})
          </h2>
          <p className="mt-1 text-sm text-ink-soft">{IMPORT_MESSAGES.imagesOffer(total)}</p>
        </div>
        {refetch ? <RefetchForm /> : null}
      </div>
      <ul className="mt-3 divide-y divide-line text-sm">
        {failures.map((f, i) => (
          <li key={i} className="grid gap-x-4 gap-y-0.5 py-2 sm:grid-cols-[5rem_minmax(0,1fr)]">
            <span className="text-xs uppercase tracking-[0.14em] text-muted tabular-nums">Row {f.row}</span>
            <span className="min-w-0">
              <span className="block font-medium text-ink">{f.name}</span>
              <span className="block break-all text-xs text-ink-soft">{f.url}</span>
              <span className="block text-xs text-danger">{f.reason}</span>
            </span>
          </li>
        ))}
      </ul>
      {total > failures.length ? <p className="mt-2 text-xs text-muted">and {groupCount(total - failures.length)} more (each row lists its own).</p> : null}
    </section>
  );
}

/** "Fetch the missing images again": every image imports left behind, with the import's limits. */
function RefetchForm() {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "refetch";
  return (
    <Form method="post" className="shrink-0">
      <input type="hidden" name="intent" value="refetch" />
      <Button type="submit" variant="secondary" disabled={busy} className="w-full sm:w-auto">
        {busy ? "Fetching…" : "Fetch the missing images again"}
      </Button>
    </Form>
  );
}

/** The images imports left behind, and the button that fetches them again (the same limits as the import). */
export function MissingImages({ missing }: { missing: { total: number; products: number; images: Array<{ productName: string; url: string; reason: string; row: number | null }> } }) {
  return (
    <section aria-labelledby="missing-images" className="border border-line bg-white p-4 sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id="missing-images" className="font-display text-xl text-ink">
            Missing images
          </h2>
          <p className="mt-1 text-sm text-ink-soft">
            {groupCount(missing.total)} {missing.total === 1 ? "image" : "images"} of {groupCount(missing.products)} {missing.products === 1 ? "product" : "products"} could not be
            fetched when imported. Once the addresses answer again, fetch them: each one takes its place among the product&rsquo;s images.
          </p>
        </div>
        <RefetchForm />
      </div>
      <ul className="mt-3 divide-y divide-line text-sm">
        {missing.images.map((m, i) => (
          <li key={i} className="min-w-0 py-2">
            <span className="block font-medium text-ink">{m.productName}</span>
            <span className="block break-all text-xs text-ink-soft">{m.url}</span>
            <span className="block text-xs text-danger">{m.reason}</span>
          </li>
        ))}
      </ul>
      {missing.total > missing.images.length ? <p className="mt-2 text-xs text-muted">and {groupCount(missing.total - missing.images.length)} more.</p> : null}
    </section>
  );
}

export function formatLabel(format: string): string {
  return FORMAT_LABELS[format as keyof typeof FORMAT_LABELS] ?? format;
}

/** The latest imports, each linked to its page (the import page's start). */
export function RecentImports({ path, imports }: { path: string; imports: RecentImport[] }) {
  if (!imports.length) return null;
  return (
    <section aria-labelledby="recent-imports" className="border border-line bg-white p-4 sm:p-5">
      <h2 id="recent-imports" className="font-display text-xl text-ink">
        Recent imports
      </h2>
      <ul className="mt-3 divide-y divide-line text-sm">
        {imports.map((r) => (
          <li key={r.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
            <Link to={`${path}?id=${r.id}`} className="min-w-0 break-all font-medium text-ink underline-offset-4 hover:underline">
              {r.fileName}
            </Link>
            <span className="text-xs text-muted">
              {r.created} · {r.status === "previewed" ? "previewed, not applied" : r.status}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the preview noticed beside the rows: its notes, new categories, images to fetch, columns ignored. */
export function ReportNotes({ report, applied }: { report: Pick<ImportReport, "notes" | "newCategories" | "imagesToFetch" | "ignoredColumns">; applied: boolean }) {
  if (!(report.ignoredColumns.length || report.newCategories.length || report.imagesToFetch || report.notes?.length)) return null;
  return (
    <div className="space-y-1 border border-line bg-white/60 px-4 py-3 text-sm text-ink-soft sm:px-5">
      {report.notes?.map((note) => (
        <p key={note} className="text-ink">
          {note}
        </p>
      ))}
      {report.newCategories.length ? (
        <p>
          {applied ? "Categories made" : "New categories"}: {report.newCategories.join(", ")}.
        </p>
      ) : null}
      {report.imagesToFetch && !applied ? (
        <p>
          {report.imagesToFetch} {report.imagesToFetch === 1 ? "image" : "images"} will be fetched from {report.imagesToFetch === 1 ? "its address" : "their addresses"} and stored here.
        </p>
      ) : null}
      {report.ignoredColumns.length ? (
        <p>
          <span className="text-ink">
            {report.ignoredColumns.length} ignored {report.ignoredColumns.length === 1 ? "column" : "columns"}
          </span>{" "}
          (they mean nothing here): <span className="text-xs text-muted">{report.ignoredColumns.join(", ")}.</span>
        </p>
      ) : null}
    </div>
  );
}
