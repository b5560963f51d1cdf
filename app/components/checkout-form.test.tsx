import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { CartQuote } from "~/modules/orders/cart-quote";
import { CheckoutForm } from "./checkout-form";

/**
 * ECTA s43(2) (docs/decisions/037): before paying, the shopper sees the whole order — every line, the delivery, the VAT
 * and the total — and can correct it (back to the cart) or withdraw; the seller information, terms and privacy notice
 * are linked beside the pay button.
 */
const quote: CartQuote = {
  lines: [
    { productId: "p1", sizeId: "p1", sizeLabel: "", sizeCode: "standard", key: "p1", name: "Amber Lantern", slug: "amber-lantern", image: null, quantity: 2, basePriceCents: 24900, wasPriceCents: null, unitPriceCents: 24900, lineTotalCents: 49800, tierApplied: false, nextTier: null, stockLeft: null, stockProblem: null },
    { productId: "p2", sizeId: "p2", sizeLabel: "", sizeCode: "standard", key: "p2", name: "Oud Noir", slug: "oud-noir", image: null, quantity: 1, basePriceCents: 34999, wasPriceCents: null, unitPriceCents: 34999, lineTotalCents: 34999, tierApplied: false, nextTier: null, stockLeft: null, stockProblem: null },
  ],
  missingProductIds: [],
  subtotalCents: 84799,
  discountCents: 0,
  shippingCents: 7000,
  totalCents: 91799,
  vatIncludedCents: 11974,
  freeDeliveryRemainingCents: 0,
  freeThresholdCents: 100000,
  deliveryFree: false,
  coupon: null,
  couponError: null,
  zones: [{ id: "z1", name: "Western Cape", provinces: ["Western Cape"], deliveryCents: 7000 }],
  zoneId: "z1",
};

function render(shown: CartQuote = quote) {
  const Form = () => (
    <CheckoutForm
      lines={[
        { id: "p1", name: "Amber Lantern", price: 24900, quantity: 2 },
        { id: "p2", name: "Oud Noir", price: 34999, quantity: 1 },
      ]}
      quote={shown}
      loading={false}
      zones={[{ id: "z1", name: "Western Cape", provinces: ["Western Cape"] }]}
      zoneId="z1"
      onZone={() => {}}
      province="Western Cape"
      onProvince={() => {}}
      couponCode=""
      fieldErrors={{}}
      error={null}
      notices={[]}
      submitting={false}
      methods={[{ method: "card", label: "Card", hint: "" }]}
      lastAddress={null}
    />
  );
  const Stub = createRoutesStub([{ path: "/checkout", Component: Form }]);
  return renderToString(<Stub initialEntries={["/checkout"]} />);
}

const summaryOf = (html: string) => html.slice(html.indexOf('aria-label="Order summary"'));
const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("checkout before paying (ECTA s43(2))", () => {
  it("shows every line with its quantity and price, the delivery, the total and the VAT it includes", () => {
    const summary = text(summaryOf(render()));
    expect(summary).toContain("Amber Lantern × 2");
    expect(summary).toContain("R249.00 each");
    expect(summary).toContain("R498.00");
    expect(summary).toContain("Oud Noir × 1");
    expect(summary).toContain("R349.99");
    expect(summary).toMatch(/Subtotal R847\.99/);
    expect(summary).toMatch(/Delivery R70\.00/);
    expect(summary).toMatch(/Total R917\.99/);
    expect(summary).toMatch(/VAT included \(15%\) R119\.74/);
    expect(summary).toContain("Pay R917.99");
  });

  it("names each line's size: two sizes of one scent are two lines (issue 33)", () => {
    const amber = quote.lines[0]!;
    const sized: CartQuote = {
      ...quote,
      lines: [
        { ...amber, sizeId: "p1", sizeLabel: "50 ml", sizeCode: "50ml", key: "p1" },
        { ...amber, sizeId: "s100", sizeLabel: "100 ml", sizeCode: "100ml", key: "p1@s100", quantity: 1, unitPriceCents: 39900, lineTotalCents: 39900 },
      ],
    };
    const summary = text(summaryOf(render(sized)));
    expect(summary).toContain("Amber Lantern (50 ml) × 2");
    expect(summary).toContain("Amber Lantern (100 ml) × 1 R399.00 each");
  });

  it("lets the shopper go back and change the cart, and links the seller information, terms and privacy notice by the pay button", () => {
    const summary = summaryOf(render());
    const links = [...summary.matchAll(/<a[^>]*href="([^"]+)"[^>]*>(.*?)<\/a>/g)].map((m) => [m[1], text(m[2]!).trim()]);
    expect(links).toEqual([
      ["/cart", "Change cart"],
      ["/cart", "change your cart"],
      ["/seller", "seller information"],
      ["/terms", "terms"],
      ["/privacy", "privacy notice"],
    ]);
    const pay = summary.indexOf("Pay R917.99");
    expect(summary.indexOf('href="/privacy"')).toBeGreaterThan(pay);
    expect(text(summary)).toContain("Nothing is charged until you pay");
  });
});
