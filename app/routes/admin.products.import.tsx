import { redirect, useActionData } from "react-router";
import { clientIp, recordAdminEvent } from "~/modules/admin/admin-audit.server";
import { z } from "zod";
import type { Route } from "./+types/admin.products.import";
import { AdminPage } from "~/components/admin/admin-page";
import { ApplyForm, FormatHelp, formatLabel, ImageFailureList, ImportProgress, ImportRows, MissingImages, RecentImports, ReportNotes, UploadForm } from "~/components/admin/product-import";
import { ButtonLink, buttonClass } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission, requirePermissionAction } from "~/modules/accounts/session.server";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { MAX_IMPORT_UPLOAD_BYTES } from "~/modules/catalog-csv/csv-columns";
import { getImportView, previewImport, startApply } from "~/modules/catalog-csv/csv-import.server";
import { fetchMissingImagesAgain, listMissingImages } from "~/modules/catalog-csv/missing-images.server";
import { recentImports } from "~/modules/catalog-csv/recent-imports.server";
import { groupCount, IMPORT_MESSAGES } from "~/modules/catalog-csv/import-messages";
import { isAdminResult } from "~/modules/admin/admin-result";
import { formatDateZA } from "~/utils/dates";
import { DomainError, fieldErrorsOf, formError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { fieldsOf, readForm, readQuery } from "~/utils/request.server";

/**
 * /admin/products/import — products in from a CSV (issue 20, docs/decisions/032): upload → preview (per row: new,
 * update, unchanged, skipped or error, with row, column and reason) → apply, which runs on the server while the page
 * shows its progress. The work is app/modules/catalog-csv; every step's state is in the database, so any worker
 * process answers any step.
 */
const PATH = "/admin/products/import";
const filters = { id: { kind: "text", max: 100 }, show: { kind: "choice", values: ["all", "errors", "changes"] } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "products.io");
  const query = parseListQuery(readQuery(request), filters);
  const db = getDb();
  const view = query.filters.id ? await getImportView(db, query.filters.id, { page: query.page, show: (query.filters.show || "all") as "all" }) : null;
  const recent = view ? [] : await recentImports(db);
  // the images imports could not fetch, with the button to fetch them again (shown unless an import is running)
  const missing = view?.status === "applying" ? null : await listMissingImages(db, 20);
  return {
    query,
    missing: missing && missing.total > 0 ? missing : null,
    gone: !!query.filters.id && !view,
    view: view && { ...view, created: formatDateZA(view.createdAt) },
    recent,
  };
}

const importIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("preview") }),
  z.object({ intent: z.literal("apply"), id: z.string().trim().min(1).max(100), goodRowsOnly: z.literal("1").optional() }),
  z.object({ intent: z.literal("refetch") }),
]);

/** Like every admin action (admin-action.server.ts), but each step answers with a redirect to the import's page. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermissionAction(request, "products.io");
  const form = await readForm(request, { maxBytes: MAX_IMPORT_UPLOAD_BYTES });
  const parsed = importIntent.safeParse(fieldsOf(form));
  if (!parsed.success) return formError(parsed.error.issues[0]?.message ?? "Please check the form", 400, fieldErrorsOf(parsed.error.issues));
  const db = getDb();
  try {
    if (parsed.data.intent === "apply") {
      await startApply(db, parsed.data.id, { goodRowsOnly: parsed.data.goodRowsOnly === "1", audit: { actor: { id: admin.id, email: admin.email }, ip: clientIp(context) } });
      return redirect(`${PATH}?id=${encodeURIComponent(parsed.data.id)}`);
    }
    if (parsed.data.intent === "refetch") {
      const { fetched, failed } = await fetchMissingImagesAgain(db);
      // images fetched over the network: logged right after, not in a transaction held across the fetches (decision 060)
      await recordAdminEvent(db, { admin, context }, { kind: "import.refetch-images", record: null, summary: IMPORT_MESSAGES.fetchedAgain(fetched, failed), after: { fetched, failed } });
      return { ok: true as const, intent: "refetch", message: IMPORT_MESSAGES.fetchedAgain(fetched, failed) };
    }
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new DomainError(IMPORT_MESSAGES.noFile, 400, "file");
    const { id } = await previewImport(db, { fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()), adminId: admin.id });
    return redirect(`${PATH}?id=${id}`);
  } catch (error) {
    if (error instanceof DomainError) return error.toFormError();
    logger.error({ err: error, intent: parsed.data.intent }, "product import action failed");
    return formError(IMPORT_MESSAGES.failed, 500);
  }
}

export function meta() {
  return [{ title: "Import products | Admin | Scentara" }];
}

export default function ImportProducts({ loaderData }: Route.ComponentProps) {
  const { query, view, recent, gone, missing } = loaderData;
  const result = useActionData<typeof action>();
  const error = isAdminResult(result) && !result.ok ? result.error : undefined;
  const done = isAdminResult(result) && result.ok ? <Notice tone="success">{result.message}</Notice> : null;
  const actions = (
    <div className="flex flex-wrap gap-2 lg:shrink-0 lg:flex-nowrap [&>*]:whitespace-nowrap">
      <a href="/admin/products/export.csv" download className={buttonClass("secondary")}>
        Export CSV
      </a>
      <ButtonLink to="/admin/products" variant="ghost">
        Back to products
      </ButtonLink>
    </div>
  );
  if (!view) {
    return (
      <AdminPage title="Import products" description="Bring products in from a CSV: our own export edited in a spreadsheet, or a WooCommerce shop's product export." actions={actions}>
        {gone ? <Notice tone="error">{IMPORT_MESSAGES.notFound}</Notice> : null}
        {done}
        <UploadForm error={error} />
        {missing ? <MissingImages missing={missing} /> : null}
        <FormatHelp />
        <RecentImports path={PATH} imports={recent} />
      </AdminPage>
    );
  }
  const { report, status } = view;
  const { counts } = report;
  const changes = counts.create + counts.update;
  // a product's size rows are one product (issue 33); reports stored before count rows
  const products = report.products ?? changes;
  const hrefFor = (c: { show?: string; page?: number }) => listHref(PATH, query, c);
  const canApply = (status === "previewed" && counts.error === 0 && changes > 0) || status === "failed" || status === "interrupted";
  // rows with errors beside good ones: the owner may import the good rows now (and fix the others later)
  const canApplyGood = status === "previewed" && counts.error > 0 && changes > 0;
  const imagesFailed = report.imagesFailed ?? 0;
  return (
    <AdminPage
      title="Import products"
      description={`${view.fileName}: a ${formatLabel(report.format)}, read ${view.created}.`}
      actions={actions}
      // while it applies, the progress comes first (on a phone the figures would push it below the fold)
      stats={
        status === "applying"
          ? undefined
          : [
              { label: "New", value: groupCount(counts.create) },
              { label: "Updated", value: groupCount(counts.update) },
              { label: "Unchanged", value: groupCount(counts.unchanged) },
              { label: "Skipped", value: groupCount(counts.skip) },
              { label: "Errors", value: groupCount(counts.error) },
            ]
      }
      status={error ? <Notice tone="error">{error}</Notice> : done}
    >
      {status === "applying" ? <ImportProgress {...view.progress} /> : null}
      {status === "applied" ? (
        <Notice tone="success" title={view.message ?? "Imported"}>
          <a href="/admin/products" className="underline underline-offset-4">
            See the products
          </a>
        </Notice>
      ) : null}
      {status === "failed" ? <Notice tone="error" title="The import failed">{view.message}</Notice> : null}
      {status === "interrupted" ? <Notice tone="error">{IMPORT_MESSAGES.interrupted}</Notice> : null}
      {status === "previewed" && counts.error > 0 && !canApplyGood ? <Notice tone="error">{IMPORT_MESSAGES.hasErrors}</Notice> : null}
      {canApplyGood ? <Notice tone="error">{IMPORT_MESSAGES.goodRowsOffer(counts.error, changes)}</Notice> : null}
      {view.failedRowsDownload ? (
        <p className="text-sm">
          <a href={`${PATH}/rows-with-errors.csv?id=${encodeURIComponent(view.id)}`} download className="font-medium text-ink underline underline-offset-4 hover:text-gold">
            Download the {groupCount(counts.error)} {counts.error === 1 ? "row" : "rows"} with errors (CSV)
          </a>{" "}
          <span className="text-ink-soft">: the file&rsquo;s own columns, to fix and import again.</span>
        </p>
      ) : null}
      {status === "previewed" && counts.error === 0 && changes === 0 ? <Notice tone="info">{IMPORT_MESSAGES.nothingToDo}</Notice> : null}
      <ReportNotes report={report} applied={status === "applied"} />
      {canApply ? <ApplyForm id={view.id} count={products} label={status === "previewed" ? `Import ${groupCount(products)} ${products === 1 ? "product" : "products"}` : "Try again"} /> : null}
      {canApplyGood ? <ApplyForm id={view.id} count={products} goodRowsOnly label={`Import the ${groupCount(changes)} good ${changes === 1 ? "row" : "rows"}`} /> : null}
      {imagesFailed && view.imageFailures.length ? <ImageFailureList failures={view.imageFailures} total={imagesFailed} refetch={status === "applied" && !!missing} /> : null}
      <ImportRows
        rows={view.rows}
        show={query.filters.show || "all"}
        hrefFor={hrefFor}
        page={view.page}
        pageCount={view.pageCount}
        counts={{ all: counts.create + counts.update + counts.unchanged + counts.skip + counts.error, errors: counts.error, changes }}
      />
      {status !== "applying" ? <UploadForm error={undefined} again /> : null}
    </AdminPage>
  );
}
