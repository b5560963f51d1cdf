import { ProductCard } from "~/components/product-card";
import type { ProductSummary } from "~/modules/catalog/catalog.types";

/**
 * "If you love X, try Y": three similar scents under the product (same family, shared notes, same house, in stock
 * first; app/modules/scent/scent.logic.ts similarTo). On a phone a row that scrolls sideways within itself (two and a
 * bit cards show, so the third is seen to be there); from 640 px three columns, kept narrower than the shop's grid.
 */
export function SimilarScents({ name, products }: { name: string; products: ProductSummary[] }) {
  if (products.length === 0) return null;
  return (
    <section aria-labelledby="similar-heading" className="mt-20 sm:mt-24" data-testid="similar-scents">
      <p className="eyebrow">If you love {name}</p>
      <h2 id="similar-heading" className="mt-2 text-3xl leading-tight text-ink sm:text-4xl">
        Try these next
      </h2>
      <span aria-hidden="true" className="mt-4 mb-8 block h-px w-12 bg-gold-light" />
      <ul role="list" className="-mx-4 flex snap-x gap-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:max-w-4xl sm:grid-cols-3 sm:gap-6 sm:overflow-visible sm:px-0 lg:gap-8">
        {products.map((p) => (
          <li key={p.id} className="w-[44%] shrink-0 snap-start sm:w-auto">
            <ProductCard product={p} />
          </li>
        ))}
      </ul>
    </section>
  );
}
