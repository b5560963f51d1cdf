import { useId } from "react";
import { controlClass } from "~/components/ui/field";

/** A size as the product form edits it: text as typed (issue 33, docs/decisions/051). */
export interface SizeFormRow {
  /** absent: a size added in this form */
  id?: string;
  label: string;
  /** in rand as typed */
  price: string;
  wasPrice: string;
  sku: string;
  /** '' = not tracked */
  stock: string;
  /** '' = the shop's default bottle weight */
  weightGrams: string;
  hidden: boolean;
  /** an order line names it: it can be hidden, not deleted */
  ordered: boolean;
}

/** A row of the table on the page: the size, a key that survives reordering, and the owner's "delete" mark. */
export interface SizeTableRow extends SizeFormRow {
  key: string;
  remove: boolean;
  /** added by the owner just now: its label field takes the focus */
  fresh?: boolean;
  /** the stock the form was opened with, when the field starts with another (the one-size form's typed stock) */
  stockWas?: string;
}

export const BLANK_SIZE: SizeFormRow = { label: "", price: "", wasPrice: "", sku: "", stock: "", weightGrams: "", hidden: false, ordered: false };

const cell = `${controlClass} px-2.5 py-2 tabular-nums`;
const labelClass = "block text-[0.68rem] font-medium uppercase tracking-[0.14em] text-ink-soft xl:sr-only";
/** the columns on a wide screen (a row per size; below it, a card per size): order, label, price, was price, SKU, stock, weight, hide/delete */
const columns = "xl:grid xl:grid-cols-[4.5rem_minmax(5rem,1fr)_minmax(5.5rem,1fr)_minmax(5.5rem,1fr)_minmax(6.5rem,1.4fr)_4.75rem_4.75rem_5.25rem] xl:items-start xl:gap-2";

/**
 * The sizes table of the product form. Each size posts as `size.N.*` in table order. Without JavaScript ↑/↓ are
 * submit buttons (the save writes the new order) and Delete is a tick; with it, rows move, are added and marked for
 * deletion on the page, and nothing is written until the owner saves.
 */
export function ProductSizesFields({
  rows,
  errors,
  hydrated,
  defaultWeightGrams,
  onMove,
  onLabel,
  onRemove,
  addHref,
  onAdd,
}: {
  rows: SizeTableRow[];
  errors: Record<string, string>;
  hydrated: boolean;
  defaultWeightGrams: number;
  onMove: (index: number, by: -1 | 1) => void;
  onLabel: (index: number, label: string) => void;
  onRemove: (index: number) => void;
  addHref: string;
  onAdd: () => void;
}) {
  const shown = rows.filter((r) => !r.remove);
  return (
    <section aria-labelledby="product-sizes" className="border border-line bg-white p-4 sm:p-6">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between sm:gap-6">
        <h2 id="product-sizes" className="font-display text-2xl text-ink">
          Sizes
        </h2>
        <p className="text-xs text-muted sm:max-w-xl sm:text-right">
          Each size has its own price, stock and SKU; the shop lists them in this order and the card says “from” the cheapest size shown. A size that has been ordered can be hidden, not deleted.
        </p>
      </div>
      {errors.sizes ? (
        <p className="mt-3 text-sm text-danger" role="alert">
          {errors.sizes}
        </p>
      ) : null}
      <div aria-hidden="true" className={`mt-5 hidden border-b border-line pb-2 text-[0.68rem] font-medium uppercase leading-tight tracking-[0.14em] text-ink-soft ${columns}`}>
        <span>Order</span>
        <span>Size</span>
        <span>Price (R)</span>
        <span>Was price (R)</span>
        <span>SKU</span>
        <span>Stock</span>
        <span>Weight (g)</span>
        <span>Shop</span>
      </div>
      <ol className="mt-4 space-y-4 xl:mt-0 xl:space-y-0">
        {rows.map((row, i) => (
          <SizeRowFields
            key={row.key}
            row={row}
            index={i}
            count={rows.length}
            errors={errors}
            hydrated={hydrated}
            defaultWeightGrams={defaultWeightGrams}
            onlyShown={shown.length === 1 && !row.remove}
            onMove={onMove}
            onLabel={onLabel}
            onRemove={onRemove}
          />
        ))}
      </ol>
      <div className="mt-5 flex flex-wrap items-center gap-x-4 gap-y-2">
        <a
          href={addHref}
          onClick={
            hydrated
              ? (e) => {
                  e.preventDefault();
                  onAdd();
                }
              : undefined
          }
          className="inline-flex min-h-11 items-center border border-ink px-4 text-xs font-medium uppercase tracking-[0.14em] text-ink hover:bg-ink hover:text-ivory"
        >
          + Add another size
        </a>
        {!hydrated ? <span className="text-xs text-muted">Save your changes first: adding a size opens the form again.</span> : null}
      </div>
    </section>
  );
}

function SizeRowFields({
  row,
  index: i,
  count,
  errors,
  hydrated,
  defaultWeightGrams,
  onlyShown,
  onMove,
  onLabel,
  onRemove,
}: {
  row: SizeTableRow;
  index: number;
  count: number;
  errors: Record<string, string>;
  hydrated: boolean;
  defaultWeightGrams: number;
  onlyShown: boolean;
  onMove: (index: number, by: -1 | 1) => void;
  onLabel: (index: number, label: string) => void;
  onRemove: (index: number) => void;
}) {
  const id = useId();
  const name = (field: string) => `size.${i}.${field}`;
  const error = (field: string) => errors[name(field)];
  const title = row.label.trim() || (row.id ? `size ${i + 1}` : "the new size");
  const input = (field: keyof SizeFormRow, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => {
    const message = error(field);
    return (
      <div className="min-w-0 space-y-1">
        <label htmlFor={`${id}-${field}`} className={labelClass}>
          {label}
          <span className="sr-only"> of {title}</span>
        </label>
        <input
          id={`${id}-${field}`}
          name={name(field)}
          className={cell}
          autoComplete="off"
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-${field}-error` : undefined}
          {...(field === "label" ? { value: row.label, onChange: (e: React.ChangeEvent<HTMLInputElement>) => onLabel(i, e.currentTarget.value) } : { defaultValue: String(row[field] ?? "") })}
          {...props}
        />
        {message ? (
          <p id={`${id}-${field}-error`} className="text-sm text-danger">
            {message}
          </p>
        ) : null}
      </div>
    );
  };
  const moveButton = (by: -1 | 1) => {
    const label = `Move ${title} ${by < 0 ? "up" : "down"}`;
    const disabled = by < 0 ? i === 0 : i === count - 1;
    const common = { "aria-label": label, title: label, disabled, className: "h-10 w-10 xl:h-9 xl:w-9 border border-line text-ink hover:border-ink disabled:opacity-30" };
    return hydrated ? (
      <button type="button" onClick={() => onMove(i, by)} {...common}>
        {by < 0 ? "↑" : "↓"}
      </button>
    ) : (
      // Without JavaScript: saves the form with this size moved.
      <button type="submit" name="moveSize" value={`${i}:${by < 0 ? "up" : "down"}`} formNoValidate {...common}>
        {by < 0 ? "↑" : "↓"}
      </button>
    );
  };

  return (
    <li className={`border border-line p-3 xl:border-0 xl:border-b xl:px-0 xl:py-3 ${row.remove ? "bg-sand/60" : ""}`}>
      {row.id ? <input type="hidden" name={name("id")} value={row.id} /> : null}
      {row.id ? <input type="hidden" name={name("stockWas")} value={row.stockWas ?? row.stock} /> : null}
      {row.remove && hydrated ? <input type="hidden" name={name("remove")} value="1" /> : null}
      <div className={`grid grid-cols-2 gap-3 ${columns}`}>
        <div className="col-span-2 flex items-center justify-between gap-2 xl:col-span-1 xl:pt-0.5">
          <span className="font-display text-lg text-ink xl:hidden">{row.label.trim() || (row.id ? `Size ${i + 1}` : "New size")}</span>
          <span className="flex gap-1">
            {moveButton(-1)}
            {moveButton(1)}
          </span>
        </div>
        {row.remove ? (
          <p className="col-span-2 self-center text-sm text-ink-soft xl:col-span-6">
            <span className="font-medium text-ink">{title}</span> will be deleted when you save.
          </p>
        ) : (
          <>
            <div className="col-span-2 xl:col-span-1">{input("label", "Size", { placeholder: "50 ml", maxLength: 40, autoFocus: row.fresh })}</div>
            {input("price", "Price (R)", { inputMode: "decimal", placeholder: "349.00" })}
            {input("wasPrice", "Was price (R)", { inputMode: "decimal", placeholder: "None" })}
            <div className="col-span-2 xl:col-span-1">{input("sku", "SKU", { placeholder: "Optional", maxLength: 64, spellCheck: false })}</div>
            {input("stock", "Stock", { inputMode: "numeric", placeholder: "Not tracked" })}
            {input("weightGrams", "Weight (g)", { inputMode: "numeric", placeholder: String(defaultWeightGrams) })}
          </>
        )}
        <div className="col-span-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm xl:col-span-1 xl:flex-col xl:items-start xl:gap-1.5 xl:pt-1.5">
          {row.remove ? null : (
            <label className="inline-flex min-h-10 items-center gap-2 text-ink-soft xl:min-h-0">
              <input type="checkbox" name={name("hidden")} value="1" defaultChecked={row.hidden} className="h-4 w-4 accent-gold" />
              Hide
            </label>
          )}
          {row.ordered ? (
            <span className="text-xs text-muted">Ordered: hide, not delete</span>
          ) : hydrated ? (
            <button type="button" onClick={() => onRemove(i)} disabled={onlyShown && !row.remove && count === 1} className="min-h-10 text-xs font-medium uppercase tracking-[0.12em] text-danger hover:underline disabled:opacity-40 xl:min-h-0">
              {row.remove ? "Undo delete" : "Delete"}
            </button>
          ) : row.id ? (
            <label className="inline-flex min-h-10 items-center gap-2 text-danger xl:min-h-0">
              <input type="checkbox" name={name("remove")} value="1" className="h-4 w-4 accent-danger" />
              Delete
            </label>
          ) : null}
          {error("remove") ? <p className="text-sm text-danger">{error("remove")}</p> : null}
        </div>
      </div>
    </li>
  );
}
