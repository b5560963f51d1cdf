import { Form, Link } from "react-router";
import { listHref, type ListQuery } from "~/modules/admin/list-query";
import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";

export type FilterField =
  | { name: string; label: string; kind: "search"; placeholder?: string }
  | { name: string; label: string; kind: "select"; options: ReadonlyArray<{ value: string; label: string }>; allLabel: string };

/**
 * The filters of an admin list as a GET form: the URL holds them, so it works without JavaScript and a filtered list
 * can be bookmarked. Clear All Filters shows whenever one is active.
 */
export function FilterBar({
  path,
  query,
  fields,
  keep = [],
}: {
  path: string;
  query: ListQuery;
  fields: FilterField[];
  /** filters set elsewhere on the page (a tab) that a search keeps */
  keep?: string[];
}) {
  const values = query.filters as Record<string, string>;
  return (
    <Form method="get" action={path} role="search" className="flex flex-col gap-3 border border-line bg-white p-4 sm:flex-row sm:flex-wrap sm:items-end">
      {keep.map((name) => (values[name] ? <input key={name} type="hidden" name={name} value={values[name]} /> : null))}
      {fields.map((field) => (
        <div key={field.name} className={field.kind === "search" ? "min-w-0 flex-1 sm:min-w-56" : "min-w-0 sm:w-52"}>
          <label htmlFor={`filter-${field.name}`} className="block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
            {field.label}
          </label>
          {field.kind === "search" ? (
            <input id={`filter-${field.name}`} type="search" name={field.name} defaultValue={values[field.name] ?? ""} placeholder={field.placeholder} className={`${controlClass} mt-1.5`} />
          ) : (
            <select id={`filter-${field.name}`} name={field.name} defaultValue={values[field.name] ?? ""} className={`${controlClass} mt-1.5`}>
              <option value="">{field.allLabel}</option>
              {field.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </div>
      ))}
      <div className="flex gap-2">
        <button type="submit" className={buttonClass("primary", "md")}>
          Apply
        </button>
        {fields.some((f) => values[f.name]) ? (
          <Link to={listHref(path, { ...query, filters: Object.fromEntries(Object.keys(values).map((k) => [k, keep.includes(k) ? values[k]! : ""])) }, { page: 1 })} className={buttonClass("ghost", "md")}>
            Clear All Filters
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
