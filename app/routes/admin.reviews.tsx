import type { Route } from "./+types/admin.reviews";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { DataTable, type Column } from "~/components/admin/data-table";
import { FilterBar } from "~/components/admin/filter-bar";
import { EditLink, RowEditorForm, useRowEditor } from "~/components/admin/row-editor";
import { ButtonLink } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { hasActiveFilters, listHref, parseListQuery } from "~/modules/admin/list-query";
import { reviewAuthor } from "~/modules/reviews/reviews.logic";
import { deleteReview, listAdminReviews, reviewStats, updateReview } from "~/modules/reviews/reviews-admin.server";
import { REVIEW_ADMIN_MESSAGES, REVIEW_COMMENT_MAX, reviewAdminIntent } from "~/modules/reviews/reviews.schema";
import { formatDateZA } from "~/utils/dates";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/reviews";
const RATINGS = ["5", "4", "3", "2", "1"] as const;
const filters = { q: { kind: "text" }, rating: { kind: "choice", values: RATINGS } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "reviews");
  const query = parseListQuery(readQuery(request), filters);
  const db = getDb();
  const [list, stats] = await Promise.all([listAdminReviews(db, { ...query.filters, page: query.page }), reviewStats(db)]);
  return { query, stats, list: { ...list, rows: list.rows.map((r) => ({ ...r, author: reviewAuthor(r.userEmail), created: formatDateZA(r.createdAt) })) } };
}

export const action = adminAction(
  reviewAdminIntent,
  {
    update: async (db, input) => (await updateReview(db, input), REVIEW_ADMIN_MESSAGES.updated),
    delete: async (db, { id }) => (await deleteReview(db, id), REVIEW_ADMIN_MESSAGES.deleted),
  },
  // The product page shows the reviews and their average: both changes reach visitors at once.
  { permission: "reviews", record: "review", failure: { update: REVIEW_ADMIN_MESSAGES.failedUpdate, delete: REVIEW_ADMIN_MESSAGES.failedDelete }, storefront: ["update", "delete"] },
);

export function meta() {
  return [{ title: "Reviews | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["list"]["rows"][number];

function Stars({ rating }: { rating: number }) {
  return (
    <span className="whitespace-nowrap text-gold" aria-label={`${rating} out of 5 stars`}>
      {"★".repeat(rating)}
      <span className="text-line">{"★".repeat(5 - rating)}</span>
    </span>
  );
}

export default function Reviews({ loaderData: d }: Route.ComponentProps) {
  const { query, list, stats } = d;
  const here = listHref(PATH, query);
  const editor = useRowEditor(query.edit);
  const columns: Column<Row>[] = [
    {
      header: "Product",
      cell: (r) => (
        <a href={`/products/${r.productSlug}`} target="_blank" rel="noreferrer" className="font-medium text-ink underline-offset-4 hover:underline">
          {r.productName}
        </a>
      ),
    },
    { header: "Rating", cell: (r) => <Stars rating={r.rating} /> },
    { header: "Comment", cell: (r) => <span className="line-clamp-3 max-w-md text-ink-soft">{r.comment || <em className="text-muted">No comment</em>}</span> },
    { header: "Author", cell: (r) => <span className="break-all">{r.userEmail ?? "Anonymous"}</span> },
    { header: "Date", cell: (r) => r.created, className: "whitespace-nowrap", phone: "hide" },
    {
      header: "Actions",
      bare: true,
      className: "md:text-right",
      cell: (r) => (
        <span className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2">
          <EditLink href={listHref(PATH, query, { edit: r.id })} onEdit={() => editor.start(r.id)} label={`review by ${r.author}`} />
          <ConfirmDelete id={r.id} name={`${r.productName}, ${r.rating}★ by ${r.author}`} what="review" confirmHref={listHref(PATH, query, { confirm: r.id })} cancelHref={here} openOnLoad={query.confirm === r.id} />
        </span>
      ),
    },
  ];
  return (
    <AdminPage
      title="Reviews"
      description="What customers say. Correct a rating or a comment, or remove a review; the product page changes at once."
      stats={[
        { label: "Reviews", value: stats.count },
        { label: "Average rating", value: stats.average === null ? "–" : `${stats.average.toFixed(1)} ★` },
        { label: hasActiveFilters(query) ? "Matching" : "Shown", value: list.matching },
      ]}
      status={<AdminStatus />}
    >
      <FilterBar
        path={PATH}
        query={query}
        fields={[
          { name: "q", label: "Search", kind: "search", placeholder: "Product, comment or e-mail" },
          { name: "rating", label: "Rating", kind: "select", allLabel: "All ratings", options: RATINGS.map((r) => ({ value: r, label: `${r} star${r === "1" ? "" : "s"}` })) },
        ]}
      />
      <DataTable<Row>
        rows={list.rows}
        columns={columns}
        rowKey={(r) => r.id}
        caption="Reviews"
        empty={
          list.total === 0 ? (
            <p className="font-display text-2xl text-ink">{REVIEW_ADMIN_MESSAGES.none}</p>
          ) : (
            <>
              <p className="font-display text-2xl text-ink">{REVIEW_ADMIN_MESSAGES.noMatches}</p>
              <ButtonLink to={PATH} variant="secondary" className="mt-5">
                Clear All Filters
              </ButtonLink>
            </>
          )
        }
        page={{ page: list.page, pageCount: list.pageCount, hrefFor: (page) => listHref(PATH, query, { page }) }}
        renderAfterRow={(r) =>
          editor.editing === r.id ? (
            <RowEditorForm id={r.id} action={here} cancelHref={here} onCancel={editor.stop} label={`review by ${r.author}`}>
              <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
                <label className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
                  Rating
                  <select name="rating" defaultValue={String(r.rating)} className={`${controlClass} mt-1`}>
                    {RATINGS.map((n) => (
                      <option key={n} value={n}>
                        {n} {n === "1" ? "star" : "stars"}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
                  Comment
                  <textarea name="comment" defaultValue={r.comment} rows={3} maxLength={REVIEW_COMMENT_MAX} className={`${controlClass} mt-1 normal-case tracking-normal`} />
                </label>
              </div>
            </RowEditorForm>
          ) : null
        }
      />
    </AdminPage>
  );
}
