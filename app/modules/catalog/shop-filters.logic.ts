/**
 * The shop's filters live in the URL (shareable links, the back button works) and are applied on the server.
 * Pure and browser-safe: the loader parses with it, the page builds its links and form state with it.
 *
 *   q         search: trimmed, at most 100 characters; empty = no search. Each word must appear in the name, the
 *             description (scent notes) or the inspired-by house or fragrance; name matches are listed first
 *   category  a category slug; empty = All Categories
 *   house     an inspired-by designer house ("Dior"), case-insensitive; empty = all houses
 *   maxPrice  whole rand 0–990, the price slider's upper bound (inclusive); the slider's top (1000), absent or
 *             invalid = no price filter — a shopper who leaves the slider at its end hasn't filtered (and a form
 *             submitted without JavaScript always sends the slider's value)
 *   sort      the order: newest (default, left out of the URL), price-asc, price-desc or name; anything else = the
 *             default. With a search the default order lists name matches first, then newest ("Best match"); a sort
 *             the shopper picks is followed strictly. Every order ends on the product id, so pages never repeat or
 *             skip a product (docs/decisions/024)
 *   page      1-based page number of the results (24 a page); invalid = 1
 *   family    a fragrance family from the fixed list (app/modules/scent/scent.vocabulary.ts, "woody"); anything else
 *             = all families (issue 22)
 *   note      a note the scent carries, as its key ("rose": also "Turkish rose", never "rosemary"); letters, digits,
 *             spaces, '&' and '-', at most 40 characters; empty = any note (issue 22)
 */

import { isFamily, noteKey, NOTE_MAX_LENGTH, type ScentFamily } from "~/modules/scent/scent.vocabulary";
import { normalizeHouse } from "./inspired-by.logic";

export const SEARCH_MAX_LENGTH = 100;
/** At most this many words of a search count (the rest are ignored): each costs a pass over the candidate rows. */
export const SEARCH_MAX_WORDS = 6;
export const PRICE_MIN = 0;
export const PRICE_MAX = 1000;
export const PRICE_STEP = 10;
export const PAGE_SIZE = 24;
/** A sane upper bound for a page number in a URL (10 000 products / 24 ≈ 417 pages). */
export const PAGE_LIMIT = 100_000;

/** The shop's orders, as written in the URL (`sort=price-asc`). The first is the default. */
export const SHOP_SORTS = ["newest", "price-asc", "price-desc", "name"] as const;
export type ShopSort = (typeof SHOP_SORTS)[number];
export const DEFAULT_SORT: ShopSort = "newest";

/** The sort select's option labels. */
export const SORT_LABELS: Readonly<Record<ShopSort, string>> = Object.freeze({
  newest: "Newest",
  "price-asc": "Price: low to high",
  "price-desc": "Price: high to low",
  name: "Name: A to Z",
});

/** The default order's label: with a search it is 'Best match' (name matches first, then newest). */
export function sortLabel(sort: ShopSort, q: string): string {
  return sort === DEFAULT_SORT && normalizeSearch(q) !== "" ? "Best match" : SORT_LABELS[sort];
}

export interface ShopFilters {
  q: string;
  category: string;
  /** inspired-by house, or '' for all */
  house: string;
  /** whole rand, or null for no price filter */
  maxPrice: number | null;
  sort: ShopSort;
  page: number;
  /** fragrance family; absent or '' = all (issue 22). Optional, and left out when unset, so filters written before
   * it existed (links, tests) read the same */
  family?: ScentFamily | "";
  /** a note's key; absent or '' = any (issue 22) */
  note?: string;
}

export const EMPTY_FILTERS: Readonly<ShopFilters> = Object.freeze({ q: "", category: "", house: "", maxPrice: null, sort: DEFAULT_SORT, page: 1 });

/** A family from the fixed list, or '' for anything else. */
export function normalizeFamily(raw: string | null | undefined): ScentFamily | "" {
  const value = (raw ?? "").trim().toLowerCase();
  return isFamily(value) ? value : "";
}

/** A note's key (scent.vocabulary noteKey) made safe for the URL and the query, or '' when nothing usable is left. */
export function normalizeNote(raw: string | null | undefined): string {
  const value = Array.from(raw ?? "").slice(0, NOTE_MAX_LENGTH * 2).join("");
  const key = noteKey(value).replace(/[^a-z0-9 &-]/g, "").replace(/\s+/g, " ").trim();
  return key.length <= NOTE_MAX_LENGTH ? key : "";
}

type ParamsLike = URLSearchParams | string | Record<string, string | undefined>;

function toParams(input: ParamsLike): URLSearchParams {
  if (input instanceof URLSearchParams) return input;
  if (typeof input === "string") return new URLSearchParams(input);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(input)) if (v !== undefined) params.set(k, v);
  return params;
}

/** Trimmed, inner whitespace collapsed, at most 100 characters (cut at a character, never half a surrogate pair). */
export function normalizeSearch(raw: string | null | undefined): string {
  if (!raw) return "";
  const clean = raw.replace(/\s+/g, " ").trim();
  return Array.from(clean).slice(0, SEARCH_MAX_LENGTH).join("").trim();
}

/** The search's words for the query: lower-cased, distinct, at most 6, longest first (usually the rarest, so a row fails fast). */
export function searchWords(q: string): string[] {
  const words = [...new Set(normalizeSearch(q).toLowerCase().split(" ").filter(Boolean))].slice(0, SEARCH_MAX_WORDS);
  return words.sort((a, b) => b.length - a.length);
}

/** A slug of lower-case letters, digits and single dashes, or '' for anything else. */
export function normalizeCategory(raw: string | null | undefined): string {
  const value = (raw ?? "").trim().toLowerCase();
  return value.length <= 100 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value) ? value : "";
}

/**
 * Whole rand below the slider's top, written as plain digits. The top itself (1000) means no bound; anything else
 * (decimals, signs, out of range) is ignored. Both give null.
 */
export function parseMaxPrice(raw: string | null | undefined): number | null {
  const value = (raw ?? "").trim();
  if (!/^\d{1,7}$/.test(value)) return null;
  const n = Number(value);
  return n >= PRICE_MIN && n < PRICE_MAX ? n : null;
}

/** One of the shop's orders, or the default for anything else (absent, unknown, odd case or spacing). */
export function parseSort(raw: string | null | undefined): ShopSort {
  const value = (raw ?? "").trim();
  return (SHOP_SORTS as readonly string[]).includes(value) ? (value as ShopSort) : DEFAULT_SORT;
}

/**
 * The ORDER BY of a sort, as (key, direction) pairs for the query, most significant first; each ends on the id so
 * equal keys keep one fixed order across pages. 'rank' (0 = every search word is in the name) leads only the
 * default order of a search. 'name' compares lower-cased names.
 */
export type SortKey = "rank" | "created_at" | "price_cents" | "name" | "id";
export function sortKeys(sort: ShopSort, searching: boolean): Array<[SortKey, "asc" | "desc"]> {
  switch (sort) {
    case "price-asc":
      return [["price_cents", "asc"], ["created_at", "desc"], ["id", "desc"]];
    case "price-desc":
      return [["price_cents", "desc"], ["created_at", "desc"], ["id", "desc"]];
    case "name":
      return [["name", "asc"], ["id", "asc"]];
    case "newest":
      return [...(searching ? ([["rank", "asc"]] as Array<[SortKey, "asc" | "desc"]>) : []), ["created_at", "desc"], ["id", "desc"]];
  }
}

export function parsePage(raw: string | null | undefined): number {
  const value = (raw ?? "").trim();
  if (!/^\d{1,9}$/.test(value)) return 1;
  const n = Number(value);
  return n >= 1 ? Math.min(n, PAGE_LIMIT) : 1;
}

/** The filters a URL asks for. The first value of a repeated parameter counts. */
export function parseShopFilters(input: ParamsLike): ShopFilters {
  const params = toParams(input);
  return {
    q: normalizeSearch(params.get("q")),
    category: normalizeCategory(params.get("category")),
    house: normalizeHouse(params.get("house")),
    maxPrice: parseMaxPrice(params.get("maxPrice")),
    sort: parseSort(params.get("sort")),
    page: parsePage(params.get("page")),
    ...scentFilters(params),
  };
}

/** The family and note filters of a URL, each only when set (see ShopFilters.family). */
function scentFilters(params: URLSearchParams): Pick<ShopFilters, "family" | "note"> {
  const family = normalizeFamily(params.get("family"));
  const note = normalizeNote(params.get("note"));
  return { ...(family ? { family } : {}), ...(note ? { note } : {}) };
}

/** The filters as URL parameters, in a stable order, defaults left out (so equal filters give equal URLs). */
export function serializeShopFilters(filters: Partial<ShopFilters>): URLSearchParams {
  const params = new URLSearchParams();
  const q = normalizeSearch(filters.q);
  const category = normalizeCategory(filters.category);
  const house = normalizeHouse(filters.house);
  const maxPrice = filters.maxPrice == null ? null : parseMaxPrice(String(filters.maxPrice));
  const sort = parseSort(filters.sort);
  const page = filters.page == null ? 1 : parsePage(String(filters.page));
  if (q) params.set("q", q);
  if (category) params.set("category", category);
  if (house) params.set("house", house);
  if (maxPrice !== null) params.set("maxPrice", String(maxPrice));
  const family = normalizeFamily(filters.family);
  const note = normalizeNote(filters.note);
  if (family) params.set("family", family);
  if (note) params.set("note", note);
  if (sort !== DEFAULT_SORT) params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  return params;
}

/** '/shop' plus the filters' query string. */
export function shopHref(filters: Partial<ShopFilters>): string {
  const query = serializeShopFilters(filters).toString();
  return query ? `/shop?${query}` : "/shop";
}

/** The filters with one change; changing a filter or the sort goes back to page 1, changing the page keeps the rest. */
export function withFilter(filters: ShopFilters, change: Partial<ShopFilters>): ShopFilters {
  const next = { ...filters, ...change };
  if (!("page" in change)) next.page = 1;
  return next;
}

/** Whether any filter narrows the list (the page number and the sort are not filters). Shows 'Clear All Filters'. */
export function isFilterActive(filters: ShopFilters): boolean {
  return activeFilterCount(filters) > 0;
}

/** How many filters narrow the list (search, category, house, price, family, note): the phone's 'Filter and sort' control shows it. */
export function activeFilterCount(filters: ShopFilters): number {
  return [filters.q !== "", filters.category !== "", filters.house !== "", filters.maxPrice !== null, Boolean(filters.family), Boolean(filters.note)].filter(Boolean).length;
}

/** No search, all categories, any price, first page; the shopper's sort stays (it is not a filter). */
export function clearFilters(sort: ShopSort = DEFAULT_SORT): ShopFilters {
  return { ...EMPTY_FILTERS, sort };
}

/** The price bound in cents for the query (inclusive), or null. */
export function maxPriceCents(filters: ShopFilters): number | null {
  return filters.maxPrice === null ? null : filters.maxPrice * 100;
}

/** The slider's position: the bound, or the top of the range when there is none. */
export function sliderValue(filters: ShopFilters): number {
  return filters.maxPrice ?? PRICE_MAX;
}

/** The slider's label: 'Up to R{n}', or 'Any price' while no bound is set. */
export function priceLabel(maxPrice: number | null): string {
  return maxPrice === null || maxPrice >= PRICE_MAX ? "Any price" : `Up to R${maxPrice}`;
}

export interface PageInfo {
  page: number;
  pageCount: number;
  /** 1-based position of the first and last product on this page; 0 when there are none */
  from: number;
  to: number;
}

/** Which page to show for `matching` results: the requested one, clamped to the last page. */
export function pageInfo(requested: number, matching: number, pageSize = PAGE_SIZE): PageInfo {
  const pageCount = Math.max(1, Math.ceil(matching / pageSize));
  const page = Math.min(Math.max(1, requested), pageCount);
  const from = matching === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(matching, page * pageSize);
  return { page, pageCount, from, to };
}

/**
 * The page numbers to link to: always the first and the last, the current one with `around` neighbours,
 * and null where a run of pages is left out ('…').
 */
export function pageWindow(page: number, pageCount: number, around = 1): Array<number | null> {
  const shown = new Set<number>([1, pageCount]);
  for (let p = page - around; p <= page + around; p++) if (p >= 1 && p <= pageCount) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: Array<number | null> = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0) {
      const gap = sorted[i] - sorted[i - 1];
      if (gap === 2) out.push(sorted[i] - 1); // a gap of one page: show it rather than '…'
      else if (gap > 2) out.push(null);
    }
    out.push(sorted[i]);
  }
  return out;
}
