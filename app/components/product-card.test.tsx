import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { ProductSummary } from "~/modules/catalog/catalog.types";
import { ProductCard } from "./product-card";

const rose: ProductSummary = {
  id: "p1",
  name: "Velvet Rose",
  slug: "velvet-rose",
  priceCents: 45000,
  wasPriceCents: null,
  maxPriceCents: 45000,
  image: null,
  categoryName: null,
  categorySlug: null,
  stock: null,
  inspiredHouse: null,
  inspiredFragrance: null,
};

function priceOf(product: ProductSummary): string {
  const Stub = createRoutesStub([{ path: "/", Component: () => <ProductCard product={product} /> }]);
  const html = renderToString(<Stub initialEntries={["/"]} />);
  // the price line: the card's only tabular figures
  return /<p[^>]*tabular-nums[^>]*>(.*?)<\/p>/.exec(html)![1]!
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

describe("a product card's price (issue 33)", () => {
  it("says 'from' the cheapest size when its sizes' prices differ", () => {
    expect(priceOf({ ...rose, maxPriceCents: 75000 })).toBe("from R450.00");
    expect(priceOf({ ...rose, maxPriceCents: 75000, wasPriceCents: 50000 })).toBe("from Was R500.00 now R450.00");
  });

  it("is the plain price for one size, or sizes at one price", () => {
    expect(priceOf(rose)).toBe("R450.00");
    expect(priceOf({ ...rose, maxPriceCents: null })).toBe("R450.00");
  });
});
