import { useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { ChevronDownIcon } from "~/components/layout/icons";
import type { CategoryOption, HouseOption } from "~/modules/catalog/catalog.types";
import {
  SHOP_SORTS,
  activeFilterCount,
  PRICE_MAX,
  PRICE_MIN,
  PRICE_STEP,
  SEARCH_MAX_LENGTH,
  clearFilters,
  isFilterActive,
  normalizeSearch,
  parseSort,
  priceLabel,
  serializeShopFilters,
  sortLabel,
  shopHref,
  withFilter,
  type ShopFilters,
  type ShopSort,
} from "~/modules/catalog/shop-filters.logic";
import { FAMILY_TEXT, NOTE_VOCABULARY, SCENT_FAMILIES, type ScentFamily } from "~/modules/scent/scent.vocabulary";

const SEARCH_DEBOUNCE_MS = 350;
const PRICE_DEBOUNCE_MS = 120;

const noop = () => () => {};
/** false during server rendering and hydration, true after: the no-JS Apply button hides once JS runs. */
function useHydrated() {
  return useSyncExternalStore(noop, () => true, () => false);
}

type Kind = "search" | "category" | "house" | "price" | "sort" | "family" | "note";

/** The width from which the filters stand open as a bar (Tailwind's md); below it they fold into 'Filter and sort'. */
const BAR_QUERY = "(min-width: 768px)";

/**
 * The shop's filters and sort as one GET form: it works without JavaScript (Apply submits
 * /shop?q=…&category=…&maxPrice=…&sort=…). With JavaScript every change updates the URL at once — search debounced,
 * the slider replacing its own history entries while it is dragged — so a shared link or the back button always shows
 * the same list. On a phone the form folds into one native disclosure, 'Filter and sort' with the number of active
 * filters, so the products start in the first screen; from 768 px it stands open as a bar (CSS ::details-content;
 * where a browser lacks it, the script opens it).
 */
export function ShopFilterBar({ filters, categories, houses = [] }: { filters: ShopFilters; categories: CategoryOption[]; houses?: HouseOption[] }) {
  const [, setSearchParams] = useSearchParams();
  const location = useLocation();
  const hydrated = useHydrated();
  const ids = { q: useId(), category: useId(), house: useId(), price: useId(), priceValue: useId(), sort: useId(), family: useId(), note: useId() };
  // The note filter's choices: the shared vocabulary, and the URL's own note when it is another (a pyramid's link).
  const notes = filters.note && !NOTE_VOCABULARY.includes(filters.note) ? [...NOTE_VOCABULARY, filters.note].sort() : NOTE_VOCABULARY;
  const fold = useRef<HTMLDetailsElement>(null);
  const active = activeFilterCount(filters);

  // On a slow phone the shopper may pick a category, a house or an order before the script has loaded: apply what
  // the selects show once it has. (The text and the slider wait for the shopper's next change or Apply.)
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const el = form.current?.elements;
    if (!el) return;
    const shown = (name: string) => (el.namedItem(name) as HTMLSelectElement | null)?.value;
    const chosen = withFilter(filters, {
      category: shown("category") ?? filters.category,
      house: shown("house") ?? filters.house,
      family: (shown("family") ?? filters.family ?? "") as ScentFamily | "",
      note: shown("note") ?? filters.note ?? "",
      sort: parseSort(shown("sort")),
    });
    if (shopHref(chosen) !== shopHref(filters)) go("sort", chosen);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Browsers without ::details-content keep the fold shut on a wide screen: open it there.
  useEffect(() => {
    const details = fold.current;
    if (!details || CSS.supports("selector(::details-content)")) return;
    const wide = window.matchMedia(BAR_QUERY);
    const sync = () => {
      if (wide.matches) details.open = true;
    };
    sync();
    wide.addEventListener("change", sync);
    return () => wide.removeEventListener("change", sync);
  }, []);

  const [q, setQ] = useState(filters.q);
  const [price, setPrice] = useState<number | null>(filters.maxPrice);

  // The URL is the truth: when it changes (back button, a link, Clear All) the controls follow it.
  useEffect(() => {
    setQ((current) => (normalizeSearch(current) === filters.q ? current : filters.q));
    setPrice(filters.maxPrice);
  }, [filters.q, filters.maxPrice]);

  // On a slow phone the box is there seconds before the script: what was typed into it meanwhile is in the element,
  // not in React's state (hydration leaves the element as it is and fires no change). Take it over once hydrated, so
  // it stays and the search below applies it.
  const searchInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const typed = searchInput.current?.value ?? "";
    if (typed !== filters.q) setQ(typed);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Consecutive changes of the same control replace one history entry rather than piling up entries.
  const pendingKind = useRef<Kind | null>(null);
  const last = useRef<{ kind: Kind | null; key: string | null }>({ kind: null, key: null });
  useEffect(() => {
    last.current = { kind: pendingKind.current, key: location.key };
    pendingKind.current = null;
  }, [location.key]);

  function go(kind: Kind, next: ShopFilters) {
    if (shopHref(next) === shopHref(filters)) return;
    const replace = last.current.kind === kind && last.current.key === location.key;
    pendingKind.current = kind;
    setSearchParams(serializeShopFilters(next), { replace, preventScrollReset: true });
  }

  // search: debounced while typing
  useEffect(() => {
    if (normalizeSearch(q) === filters.q) return;
    const t = setTimeout(() => go("search", withFilter(filters, { q })), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q, filters]);

  // price: lightly debounced while dragging
  useEffect(() => {
    if (price === filters.maxPrice) return;
    const t = setTimeout(() => go("price", withFilter(filters, { maxPrice: price })), PRICE_DEBOUNCE_MS);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [price, filters]);

  const sliderPosition = price ?? PRICE_MAX;

  return (
    <details ref={fold} className="shop-fold group border-y border-line">
      <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-4 py-3 [&::-webkit-details-marker]:hidden">
        <span className="flex items-center gap-3">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 text-ink" fill="none" stroke="currentColor" strokeWidth="1.5">
            <path d="M4 7h10M18 7h2M4 17h4M12 17h8" strokeLinecap="round" />
            <circle cx="16" cy="7" r="2" />
            <circle cx="10" cy="17" r="2" />
          </svg>
          <span className="text-xs font-medium uppercase tracking-[0.18em] text-ink">Filter and sort</span>
          {active > 0 ? (
            <span className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-ink px-1.5 text-[0.65rem] font-medium text-ivory tabular-nums">
              <span aria-hidden="true">{active}</span>
              <span className="sr-only">, {active === 1 ? "1 filter" : `${active} filters`} active</span>
            </span>
          ) : null}
        </span>
        <span className="flex min-w-0 items-center gap-2 text-xs text-ink-soft">
          <span className="truncate">{sortLabel(filters.sort, filters.q)}</span>
          <ChevronDownIcon className="h-3.5 w-3.5 shrink-0 transition-transform group-open:rotate-180" />
        </span>
      </summary>
      <form
        ref={form}
        method="get"
        action="/shop"
        role="search"
        aria-label="Filter products"
        onSubmit={(e) => {
          e.preventDefault();
          go("search", withFilter(filters, { q, maxPrice: price }));
        }}
        className={`grid grid-cols-2 gap-x-5 gap-y-5 border-t border-line pt-4 pb-5 md:grid-cols-4 md:items-start md:gap-x-8 md:gap-y-6 md:border-t-0 md:py-6 ${
          hydrated
            ? "lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.2fr)_minmax(0,1fr)]"
            : "lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.2fr)_minmax(0,1fr)_auto]"
        }`}
      >
        <div className="col-span-2 lg:col-span-1">
          <label htmlFor={ids.q} className="filter-label">
            Search
          </label>
          <div className="relative mt-2">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="pointer-events-none absolute top-1/2 left-0 h-4 w-4 -translate-y-1/2 text-muted" fill="none" stroke="currentColor" strokeWidth="1.5">
              <circle cx="11" cy="11" r="6.5" />
              <path d="m16 16 4.5 4.5" strokeLinecap="round" />
            </svg>
            <input
              ref={searchInput}
              id={ids.q}
              type="search"
              name="q"
              value={q}
              maxLength={SEARCH_MAX_LENGTH}
              onChange={(e) => setQ(e.target.value)}
              placeholder="Name, note or designer"
              autoComplete="off"
              enterKeyHint="search"
              className="filter-control pl-7"
            />
          </div>
        </div>

        <FilterSelect id={ids.category} label="Category" name="category" value={filters.category} onChange={(v) => go("category", withFilter(filters, { category: v, q, maxPrice: price }))}>
          <option value="">All Categories</option>
          {categories.map((c) => (
            <option key={c.id} value={c.slug}>
              {c.name}
            </option>
          ))}
        </FilterSelect>

        <FilterSelect id={ids.house} label="Inspired by" name="house" value={filters.house} onChange={(v) => go("house", withFilter(filters, { house: v, q, maxPrice: price }))}>
          <option value="">All Houses</option>
          {houses.map((h) => (
            <option key={h.name} value={h.name}>
              {h.name} ({h.count})
            </option>
          ))}
        </FilterSelect>

        {/* issue 22: the scent profile's family and notes */}
        <FilterSelect id={ids.family} label="Family" name="family" value={filters.family ?? ""} onChange={(v) => go("family", withFilter(filters, { family: v as ScentFamily | "", q, maxPrice: price }))}>
          <option value="">All Families</option>
          {SCENT_FAMILIES.map((f) => (
            <option key={f} value={f}>
              {FAMILY_TEXT[f].label}
            </option>
          ))}
        </FilterSelect>

        <FilterSelect id={ids.note} label="Note" name="note" value={filters.note ?? ""} onChange={(v) => go("note", withFilter(filters, { note: v, q, maxPrice: price }))}>
          <option value="">Any Note</option>
          {notes.map((n) => (
            <option key={n} value={n}>
              {n.charAt(0).toUpperCase() + n.slice(1)}
            </option>
          ))}
        </FilterSelect>

        <div className="col-span-2 lg:col-span-1">
          <div className="flex items-end justify-between gap-3">
            <label htmlFor={ids.price} className="filter-label">
              Price
            </label>
            <output id={ids.priceValue} htmlFor={ids.price} className="-mb-0.5 font-display text-base leading-none text-ink lining-nums tabular-nums sm:text-lg">
              {priceLabel(price)}
            </output>
          </div>
          <input
            id={ids.price}
            type="range"
            name="maxPrice"
            min={PRICE_MIN}
            max={PRICE_MAX}
            step={PRICE_STEP}
            value={sliderPosition}
            aria-valuetext={priceLabel(price)}
            aria-describedby={ids.priceValue}
            onChange={(e) => setPrice(Number(e.target.value))}
            className="price-range mt-3 w-full"
            style={{ "--fill": `${(sliderPosition / PRICE_MAX) * 100}%` } as React.CSSProperties}
          />
          <div aria-hidden="true" className="mt-1 flex justify-between text-[0.65rem] tracking-[0.12em] text-muted">
            <span>R{PRICE_MIN}</span>
            <span>R{PRICE_MAX}</span>
          </div>
        </div>

        <FilterSelect
          id={ids.sort}
          label="Sort by"
          name="sort"
          value={filters.sort}
          onChange={(v) => go("sort", withFilter(filters, { sort: v as ShopSort, q, maxPrice: price }))}
          className={hydrated ? "col-span-2 md:col-span-1" : "col-span-1"}
        >
          {SHOP_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {sortLabel(sort, filters.q)}
            </option>
          ))}
        </FilterSelect>

        {hydrated ? null : (
          <div className="col-span-1 self-end">
            <button type="submit" className="h-11 w-full border border-ink px-5 text-xs font-medium uppercase tracking-[0.14em] text-ink transition-colors hover:bg-ink hover:text-ivory">
              Apply
            </button>
          </div>
        )}
      </form>
    </details>
  );
}

/** 'Clear All Filters', shown whenever a filter is active (SPEC §2); the shopper's sort stays. */
export function ClearAllFilters({ filters }: { filters: ShopFilters }) {
  if (!isFilterActive(filters)) return null;
  return (
    <Link
      to={shopHref(clearFilters(filters.sort))}
      preventScrollReset
      className="whitespace-nowrap text-xs font-medium uppercase tracking-[0.16em] text-gold underline decoration-gold/40 underline-offset-[6px] transition-colors hover:text-ink hover:decoration-ink"
    >
      Clear All Filters
    </Link>
  );
}

/** One labelled select of the filter bar, with its chevron: category, house and sort look and behave alike. */
function FilterSelect(props: { id: string; label: string; name: string; value: string; onChange: (value: string) => void; className?: string; children: React.ReactNode }) {
  return (
    <div className={props.className}>
      <label htmlFor={props.id} className="filter-label">
        {props.label}
      </label>
      <div className="relative mt-2">
        <select id={props.id} name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)} className="filter-control appearance-none pr-8">
          {props.children}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-1 h-3.5 w-3.5 -translate-y-1/2 text-ink-soft" />
      </div>
    </div>
  );
}
