import { Pagination } from "~/components/pagination";

export interface Column<Row> {
  /** the column heading (also the label beside the value on a phone) */
  header: string;
  cell: (row: Row) => React.ReactNode;
  /** e.g. "text-right tabular-nums" */
  className?: string;
  /** hide the phone label (an image, the actions) */
  bare?: boolean;
  /** leave the column out of the phone's card (another cell shows it there) */
  phone?: "hide";
}

/**
 * An admin list: a table on a tablet or desktop; on a phone each row becomes a card of label–value lines, so nothing
 * is ever wider than the screen. `empty` is shown instead when there are no rows; pagination links keep the filters.
 */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  caption,
  empty,
  page,
  renderAfterRow,
}: {
  rows: Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  caption: string;
  empty: React.ReactNode;
  page?: { page: number; pageCount: number; hrefFor: (page: number) => string };
  /** a full-width row under a row (an inline editor, an expanded detail) */
  renderAfterRow?: (row: Row) => React.ReactNode;
}) {
  if (rows.length === 0) return <div className="border border-dashed border-line bg-white/60 px-6 py-12 text-center">{empty}</div>;
  return (
    <div>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden border-b border-ink/80 md:table-header-group">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`px-3 py-3 text-left text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft ${c.className ?? ""}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const after = renderAfterRow?.(row);
            return (
              <Rows key={rowKey(row)} after={after} span={columns.length}>
                <tr className="block border-b border-line bg-white px-4 py-3 md:table-row md:bg-transparent md:px-0 md:py-0 md:hover:bg-white">
                  {columns.map((c) => (
                    <td
                      key={c.header}
                      data-label={c.bare ? undefined : c.header}
                      className={`${c.phone === "hide" ? "hidden" : "flex"} min-w-0 items-start justify-between gap-4 py-1.5 align-middle md:table-cell md:px-3 md:py-3 ${
                        c.bare ? "" : "before:shrink-0 before:text-[0.68rem] before:font-medium before:uppercase before:tracking-[0.16em] before:text-muted before:content-[attr(data-label)] md:before:content-none"
                      } ${c.className ?? ""}`}
                    >
                      <div className="min-w-0 break-words max-md:text-right">{c.cell(row)}</div>
                    </td>
                  ))}
                </tr>
              </Rows>
            );
          })}
        </tbody>
      </table>
      {page ? <Pagination page={page.page} pageCount={page.pageCount} hrefFor={page.hrefFor} className="mt-8" label="Pages" /> : null}
    </div>
  );
}

function Rows({ children, after, span }: { children: React.ReactNode; after: React.ReactNode; span: number }) {
  return (
    <>
      {children}
      {after ? (
        <tr className="block md:table-row">
          <td colSpan={span} className="block border-b border-line bg-sand/60 p-4 md:table-cell">
            {after}
          </td>
        </tr>
      ) : null}
    </>
  );
}
