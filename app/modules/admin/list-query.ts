/**
 * An admin list's filters live in the URL (a GET form: works without JavaScript, can be bookmarked and shared).
 * A page declares its filters once; the same declaration parses the query on the server and builds every link
 * (pagination, tabs, clear) in the browser. Browser-safe: no zod, no server code.
 */
export type FilterSpec =
  | { kind: "text"; max?: number }
  | { kind: "choice"; values: readonly string[] };

export type FilterSpecs = Record<string, FilterSpec>;

export interface ListQuery<F extends FilterSpecs = FilterSpecs> {
  /** every declared filter, "" when not set (a choice outside its values counts as not set) */
  filters: { [K in keyof F]: string };
  page: number;
  /** the row a confirmation is open for (?confirm=<id>), so it also works without JavaScript */
  confirm: string;
  /** the row being edited in place (?edit=<id>), likewise */
  edit: string;
}

const MAX_TEXT = 100;

export function parseListQuery<F extends FilterSpecs>(params: URLSearchParams, specs: F): ListQuery<F> {
  const filters = {} as { [K in keyof F]: string };
  for (const [name, spec] of Object.entries(specs) as [keyof F & string, FilterSpec][]) {
    const raw = (params.get(name) ?? "").trim();
    filters[name] = spec.kind === "text" ? raw.slice(0, spec.max ?? MAX_TEXT) : spec.values.includes(raw) ? raw : "";
  }
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    filters,
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
    confirm: (params.get("confirm") ?? "").slice(0, 100),
    edit: (params.get("edit") ?? "").slice(0, 100),
  };
}

export function hasActiveFilters(query: ListQuery): boolean {
  return Object.values(query.filters).some((v) => v !== "");
}

/**
 * The list's URL with some filters (or the page) changed. Changing a filter goes back to page 1; empty values are
 * left out, so links stay short.
 */
export function listHref(
  path: string,
  query: ListQuery,
  changes: { page?: number; confirm?: string; edit?: string } & Record<string, string | number | undefined> = {},
): string {
  const params = new URLSearchParams();
  const own = new Set(["page", "confirm", "edit"]);
  const filterChanged = Object.keys(changes).some((k) => !own.has(k));
  for (const [name, value] of Object.entries({ ...query.filters, ...changes })) {
    if (own.has(name) || value === undefined || value === "") continue;
    params.set(name, String(value));
  }
  const page = changes.page ?? (filterChanged ? 1 : query.page);
  if (page > 1) params.set("page", String(page));
  if (changes.confirm) params.set("confirm", changes.confirm);
  if (changes.edit) params.set("edit", String(changes.edit));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
