/**
 * A product's stock status beside its price. Today every product reads "In stock"; when products carry a stock
 * quantity, the page passes "out_of_stock" (or "low" with the count) — this is the one place that words it.
 */
export type StockState = { status: "in_stock" } | { status: "low"; left: number } | { status: "out_of_stock" };

export function StockStatus(state: StockState) {
  const text = state.status === "out_of_stock" ? "Out of stock" : state.status === "low" ? `Only ${state.left} left` : "In stock";
  const tone = state.status === "out_of_stock" ? "text-danger" : state.status === "low" ? "text-gold" : "text-success";
  return (
    <p className={`inline-flex items-center gap-1.5 text-sm ${tone}`} data-testid="stock-status">
      <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-current" />
      {text}
    </p>
  );
}
