import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { Fold } from "./fold";
import { DataTable, type Column } from "./data-table";

/** An entry as the admin pages show it (the loader formats times and links). */
export interface ActivityItem {
  id: number;
  when: string;
  who: string;
  ip: string | null;
  kind: string;
  summary: string;
  record: { label: string; href: string | null } | null;
  changes: Array<{ field: string; before: string; after: string }>;
}

const labelClass = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";

/** The fields that changed, before and after: a small table that wraps rather than widening the page. */
export function ChangesTable({ changes, caption }: { changes: ActivityItem["changes"]; caption: string }) {
  if (changes.length === 0) return <p className="text-sm text-ink-soft">No field values recorded.</p>;
  return (
    <table className="w-full table-fixed border-collapse text-left text-xs">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-line text-[0.65rem] uppercase tracking-[0.14em] text-ink-soft">
          <th scope="col" className="w-[34%] py-1.5 pr-2 font-medium">
            Field
          </th>
          <th scope="col" className="w-[33%] py-1.5 pr-2 font-medium">
            Before
          </th>
          <th scope="col" className="w-[33%] py-1.5 font-medium">
            After
          </th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.field} className="border-b border-line/60 align-top last:border-0">
            <th scope="row" className="break-words py-1.5 pr-2 font-medium text-ink">
              {c.field}
            </th>
            <td className="break-words py-1.5 pr-2 text-ink-soft">{c.before}</td>
            <td className="break-words py-1.5 text-ink">{c.after}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Under an entry, the width of the list: its changed fields, folded (a details element: no script needed). */
function Changes({ item }: { item: ActivityItem }) {
  return (
    <Fold
      label="Changes"
      className="min-w-0"
      note={
        <>
          <span>
            {item.changes.length} {item.changes.length === 1 ? "field" : "fields"}
          </span>
          <span className="sr-only"> of entry {item.id}</span>
        </>
      }
    >
      <div className="mt-3 min-w-0 border border-line bg-white p-3">
        <ChangesTable changes={item.changes} caption={`Changes of entry ${item.id}`} />
      </div>
    </Fold>
  );
}

const columns: Column<ActivityItem>[] = [
  { header: "When", cell: (e) => <span className="whitespace-nowrap tabular-nums">{e.when}</span> },
  {
    header: "Who",
    cell: (e) => (
      <span className="block min-w-0 break-words">
        {e.who}
        {e.ip ? <span className="block text-xs text-ink-soft">{e.ip}</span> : null}
      </span>
    ),
  },
  {
    header: "What",
    cell: (e) => (
      <span className="block min-w-0 break-words md:max-w-md">
        {e.summary}
        <span className="block font-mono text-[0.7rem] text-ink-soft">{e.kind}</span>
      </span>
    ),
  },
  {
    header: "Record",
    cell: (e) =>
      e.record ? (
        e.record.href ? (
          <Link to={e.record.href} className="break-words underline decoration-line underline-offset-4 hover:decoration-ink">
            {e.record.label}
          </Link>
        ) : (
          <span className="break-words">{e.record.label}</span>
        )
      ) : (
        <span className="text-ink-soft">—</span>
      ),
  },
];

export function ActivityTable({ rows, empty }: { rows: ActivityItem[]; empty: string }) {
  return (
    <DataTable
      rows={rows}
      columns={columns}
      rowKey={(e) => String(e.id)}
      caption="Activity log, newest first"
      empty={<p className="text-ink-soft">{empty}</p>}
      renderAfterRow={(e) => (e.changes.length ? <Changes item={e} /> : null)}
    />
  );
}

export interface ActivityFilterValues {
  person: string;
  kind: string;
  type: string;
  record: string;
  from: string;
  to: string;
}

/** The filters as a GET form (works without JavaScript; the URL can be bookmarked or shared with a colleague). */
export function ActivityFilterForm({
  path,
  values,
  people,
  kinds,
  types,
}: {
  path: string;
  values: ActivityFilterValues;
  people: Array<{ id: string; email: string }>;
  kinds: string[];
  types: Array<{ value: string; label: string }>;
}) {
  const active = Object.values(values).some(Boolean);
  const select = (name: keyof ActivityFilterValues, label: string, all: string, options: Array<{ value: string; label: string }>) => (
    <div className="min-w-0">
      <label htmlFor={`activity-${name}`} className={labelClass}>
        {label}
      </label>
      <select id={`activity-${name}`} name={name} defaultValue={values[name]} className={`${controlClass} mt-1.5`}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  const text = (name: keyof ActivityFilterValues, label: string, type: "date" | "search", placeholder?: string) => (
    <div className="min-w-0">
      <label htmlFor={`activity-${name}`} className={labelClass}>
        {label}
      </label>
      <input id={`activity-${name}`} type={type} name={name} defaultValue={values[name]} placeholder={placeholder} className={`${controlClass} mt-1.5`} />
    </div>
  );
  return (
    <Form method="get" action={path} role="search" className="grid grid-cols-1 gap-3 border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-3 lg:items-end">
      {select("person", "Person", "Everyone", people.map((p) => ({ value: p.id, label: p.email })))}
      {select("kind", "Kind", "Every kind", kinds.map((k) => ({ value: k, label: k })))}
      {select("type", "Record", "Every record", types)}
      {text("record", "Record id", "search", "e.g. an order's id")}
      {text("from", "From", "date")}
      {text("to", "To", "date")}
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-3">
        <button type="submit" className={buttonClass("primary", "md")}>
          Filter
        </button>
        {active ? (
          <Link to={path} className={buttonClass("ghost", "md")}>
            Clear All Filters
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** Newer / older: keyset pages, so the links stay fast however deep the log goes. */
export function ActivityPager({ newerHref, olderHref }: { newerHref: string | null; olderHref: string | null }) {
  if (!newerHref && !olderHref) return null;
  const link = (href: string | null, text: string, rel: string) =>
    href ? (
      <Link to={href} rel={rel} className={buttonClass("secondary", "md")}>
        {text}
      </Link>
    ) : (
      <span aria-disabled="true" className={`${buttonClass("secondary", "md")} pointer-events-none opacity-40`}>
        {text}
      </span>
    );
  return (
    <nav aria-label="Activity pages" className="flex justify-between gap-3">
      {link(newerHref, "← Newer", "prev")}
      {link(olderHref, "Older →", "next")}
    </nav>
  );
}

/** A record's own history (the order, product and gift card pages): when, who, what, and the changes on demand. */
export function RecordHistory({ items, allHref, title = "History", compact = false }: { items: ActivityItem[]; allHref?: string; title?: string; compact?: boolean }) {
  if (compact) {
    // under an order's row: folded, like its details
    return (
      <Fold label="History" className="mt-4 min-w-0" note={<span>{items.length === 0 ? "no changes recorded" : `${items.length}${items.length >= 10 ? "+" : ""} ${items.length === 1 ? "change" : "changes"}`}</span>}>
        <div className="mt-3">
          <HistoryList items={items} allHref={allHref} />
        </div>
      </Fold>
    );
  }
  return (
    <section aria-labelledby="record-history" className="min-w-0 border border-line bg-white p-4 sm:p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="record-history" className="text-xl text-ink">
          {title}
        </h2>
        {allHref && items.length > 0 ? (
          <Link to={allHref} className="text-sm underline decoration-line underline-offset-4 hover:decoration-ink">
            All of its activity
          </Link>
        ) : null}
      </div>
      <div className="mt-3">
        <HistoryList items={items} />
      </div>
    </section>
  );
}

function HistoryList({ items, allHref }: { items: ActivityItem[]; allHref?: string }) {
  if (items.length === 0) return <p className="text-sm text-ink-soft">No changes recorded yet.</p>;
  return (
    <>
        <ol className="divide-y divide-line">
          {items.map((e) => (
            <li key={e.id} className="min-w-0 py-3">
              <details>
                <summary className="cursor-pointer list-none [&::-webkit-details-marker]:hidden">
                  <span className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                    <span className="min-w-0 break-words text-sm text-ink">{e.summary}</span>
                    <span className="shrink-0 text-xs tabular-nums text-ink-soft">
                      {e.when} · {e.who}
                    </span>
                  </span>
                  {e.changes.length ? <span className="mt-1 block text-xs text-ink-soft underline decoration-line underline-offset-4">{e.changes.length === 1 ? "1 field changed" : `${e.changes.length} fields changed`}</span> : null}
                </summary>
                <div className="mt-2 min-w-0">
                  <ChangesTable changes={e.changes} caption={`Changes of entry ${e.id}`} />
                </div>
              </details>
            </li>
          ))}
        </ol>
        {allHref ? (
          <Link to={allHref} className="mt-2 inline-block text-xs underline decoration-line underline-offset-4 hover:decoration-ink">
            All of its activity
          </Link>
        ) : null}
    </>
  );
}
