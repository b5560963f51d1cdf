import { OUT_OF_STOCK, stockState } from "~/modules/catalog/stock.logic";

/**
 * A product's stock status beside its price: "In stock" (also for a product whose stock isn't counted), "Only 3 left"
 * at LOW_STOCK_AT or fewer, "Out of stock". The words come from stock.logic.ts, shared with cards and the cart.
 */
export type StockState = { status: "in_stock" } | { status: "low"; left: number } | { status: "out_of_stock" };

export function StockStatus(state: StockState) {
  const text = state.status === "out_of_stock" ? OUT_OF_STOCK : state.status === "low" ? `Only ${state.left} left` : "In stock";
  const tone = state.status === "out_of_stock" ? "text-danger" : state.status === "low" ? "text-gold" : "text-success";
  return (
    <p className={`inline-flex items-center gap-1.5 text-sm ${tone}`} data-testid="stock-status">
      <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-current" />
      {text}
    </p>
  );
}

/** The status for a product's stock (null: not counted, so always in stock). */
export function stockStatusOf(stock: number | null | undefined): StockState {
  const s = stockState(stock);
  if (s.kind === "out") return { status: "out_of_stock" };
  if (s.kind === "low") return { status: "low", left: s.left };
  return { status: "in_stock" };
}
