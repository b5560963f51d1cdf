import { Link } from "react-router";

export interface Crumb {
  label: string;
  /** the crumb's link; the last crumb is the current page (aria-current) and may omit it */
  to?: string;
}

/** Home / Shop / For Her: a labelled nav with the current page marked (aria-current). */
export function Breadcrumbs({ items, className = "" }: { items: Crumb[]; className?: string }) {
  return (
    <nav aria-label="Breadcrumb" className={className}>
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[0.7rem] uppercase tracking-[0.18em] text-muted">
        {items.map((item, i) => {
          const last = i === items.length - 1;
          return (
            <li key={`${item.label}-${i}`} className="flex items-center gap-2">
              {item.to ? (
                <Link
                  to={item.to}
                  aria-current={last ? "page" : undefined}
                  className={`transition-colors hover:text-gold focus-visible:text-gold ${last ? "text-ink" : ""}`}
                >
                  {item.label}
                </Link>
              ) : (
                <span aria-current={last ? "page" : undefined} className={last ? "text-ink" : undefined}>
                  {item.label}
                </span>
              )}
              {last ? null : (
                <span aria-hidden="true" className="text-gold-light">
                  /
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** schema.org BreadcrumbList for the same crumbs (links made absolute with the shop's base URL). */
export function breadcrumbJsonLd(items: Crumb[], baseUrl: string, currentPath: string) {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: item.label,
      item: `${base}${item.to ?? currentPath}`,
    })),
  };
}
