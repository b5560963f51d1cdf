import { Link } from "react-router";
import { pageWindow } from "~/modules/catalog/shop-filters.logic";

/**
 * Previous / numbered / Next page links. Every link is a real URL (works without JS, can be shared); `hrefFor`
 * builds it, so the current filters are kept. The current page is marked with aria-current.
 */
export function Pagination({
  page,
  pageCount,
  hrefFor,
  label = "Pagination",
  className = "mt-16",
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
  label?: string;
  className?: string;
}) {
  if (pageCount <= 1) return null;
  const cell = "inline-flex h-10 min-w-10 items-center justify-center px-3 text-sm tabular-nums transition-colors";
  const edge = "inline-flex h-10 items-center gap-2 px-3 text-xs font-medium uppercase tracking-[0.16em] transition-colors";
  return (
    <nav aria-label={label} className={`${className} flex justify-center`}>
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          {page > 1 ? (
            <Link to={hrefFor(page - 1)} rel="prev" className={`${edge} text-ink hover:text-gold`}>
              <span aria-hidden="true">←</span> Previous
            </Link>
          ) : (
            <span aria-disabled="true" className={`${edge} text-muted`}>
              <span aria-hidden="true">←</span> Previous
            </span>
          )}
        </li>
        {pageWindow(page, pageCount).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className={`${cell} text-muted`}>
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span aria-current="page" className={`${cell} border border-ink bg-ink text-ivory`}>
                  <span className="sr-only">Page </span>
                  {p}
                </span>
              ) : (
                <Link to={hrefFor(p)} className={`${cell} border border-transparent text-ink hover:border-line hover:text-gold`}>
                  <span className="sr-only">Page </span>
                  {p}
                </Link>
              )}
            </li>
          ),
        )}
        <li>
          {page < pageCount ? (
            <Link to={hrefFor(page + 1)} rel="next" className={`${edge} text-ink hover:text-gold`}>
              Next <span aria-hidden="true">→</span>
            </Link>
          ) : (
            <span aria-disabled="true" className={`${edge} text-muted`}>
              Next <span aria-hidden="true">→</span>
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
