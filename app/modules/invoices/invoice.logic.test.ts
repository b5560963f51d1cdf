import { describe, expect, it } from "vitest";
import { vatIncluded } from "~/utils/money";
import { buildInvoiceDocument, formatInvoiceNumber, formatIssueDate, isSouthAfricanVatNumber, toWinAnsi, vatInInclusiveTotal, type InvoiceSource } from "./invoice.logic";

describe("vatInInclusiveTotal: round(total × 15 / 115), once, in cents", () => {
  it.each([
    // total, VAT, why
    [0, 0, "nothing"],
    [1, 0, "0.13 of a cent rounds down"],
    [4, 1, "0.52 rounds up"],
    [3, 0, "0.39 rounds down"],
    [11500, 1500, "R115 is R100 + R15 VAT exactly"],
    [11499, 1500, "1499.87 rounds up"],
    [11496, 1499, "1499.48 rounds down"],
    [41999, 5478, "R419.99: 5478.13"],
    [59900, 7813, "R599: 7813.04"],
    [34999, 4565, "R349.99: 4565.09"],
    [100, 13, "R1: 13.04"],
    [23, 3, "3 exactly"],
    [27, 4, "3.52 rounds up"],
    [12, 2, "1.565 rounds up"],
    [11, 1, "1.43 rounds down"],
    [999_999_99, 130_434_78, "R999 999.99: 13043478.13"],
  ])("VAT in %i cents is %i (%s)", (total, vat) => {
    expect(vatInInclusiveTotal(total)).toBe(vat);
  });

  it("is never a tie: the result is the nearest cent for every total up to R2 000, and agrees with the cart's figure", () => {
    // 200 001 totals: checked in plain code and reported once (200 001 expect calls took 2–7 s, and timed out on a
    // loaded machine)
    const wrong: Array<{ total: number; vat: number; cart?: number }> = [];
    for (let total = 0; total <= 200_000; total++) {
      const vat = vatInInclusiveTotal(total);
      if (!(Math.abs(vat - (total * 15) / 115) < 0.5)) wrong.push({ total, vat });
      else if (total % 97 === 0 && vat !== vatIncluded(total)) wrong.push({ total, vat, cart: vatIncluded(total) });
    }
    expect(wrong).toEqual([]);
  });

  it("refuses fractions of a cent", () => {
    expect(() => vatInInclusiveTotal(10.5)).toThrow(TypeError);
  });
});

describe("invoice numbers and dates", () => {
  it.each([
    [1, "INV-", "INV-000001"],
    [123, "INV-", "INV-000123"],
    [999_999, "INV-", "INV-999999"],
    [1_234_567, "INV-", "INV-1234567"],
    [42, "", "000042"],
    [42, "SC-2026-", "SC-2026-000042"],
  ])("%i with prefix %j is %s", (n, prefix, text) => {
    expect(formatInvoiceNumber(n, prefix)).toBe(text);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses %d", (n) => {
    expect(() => formatInvoiceNumber(n)).toThrow(RangeError);
  });

  it.each([
    ["2026-03-05T10:00:00.000Z", "5 March 2026"],
    // 23:30 UTC on 31 December is 01:30 on 1 January in South Africa
    ["2025-12-31T23:30:00.000Z", "1 January 2026"],
    ["2026-06-30T21:59:59.999Z", "30 June 2026"],
    ["2026-06-30T22:00:00.000Z", "1 July 2026"],
  ])("issued at %s is dated %s (South African calendar day)", (iso, text) => {
    expect(formatIssueDate(iso)).toBe(text);
  });

  it.each([
    ["4123456789", true],
    ["4000000000", true],
    ["5123456789", false],
    ["412345678", false],
    ["41234567890", false],
    ["41234 6789", false],
    ["", false],
  ])("VAT number %j valid: %s", (value, valid) => {
    expect(isSouthAfricanVatNumber(value)).toBe(valid);
  });
});

describe("toWinAnsi: text the PDF's standard fonts can print", () => {
  it.each([
    ["Thandi Nkosi", "Thandi Nkosi"],
    ["Zoë Müller-Lüdenscheidt", "Zoë Müller-Lüdenscheidt"],
    ["R1 299.00 – “Eau de Parfum” €", "R1 299.00 – “Eau de Parfum” €"],
    ["Łukasz Wałęsa", "Lukasz Walesa"],
    ["Ngũgĩ wa Thiong'o", "Ngugi wa Thiong'o"],
    ["Ōsaka Ā", "Osaka A"],
    ["香水 Oud", "?? Oud"],
    ["rose 🌹", "rose ?"],
    ["line\nbreak\ttab", "line break tab"],
    ["non\u00a0breaking", "non breaking"],
  ])("%j → %j", (input, output) => {
    expect(toWinAnsi(input)).toBe(output);
  });
});

const source = (over: Partial<InvoiceSource> = {}, supplier: Partial<InvoiceSource["supplier"]> = {}): InvoiceSource => ({
  supplier: { shopName: "Scentara", legalName: "Scentara (Pty) Ltd", addressLines: ["12 Long Street", "Cape Town", "8001"], vatNumber: "4123456789", email: "hello@scentara.co.za", ...supplier },
  invoiceNumber: 123,
  prefix: "INV-",
  issuedAt: "2026-03-05T10:00:00.000Z",
  order: {
    id: "3f2a9c1e-0000-4000-8000-000000000000",
    shortId: "3f2a9c1e",
    lines: [
      { name: "Oud Noir 100 ml", quantity: 2, unitPriceCents: 34999, totalPriceCents: 69998 },
      { name: "Fleur de Nuit", quantity: 1, unitPriceCents: 29900, totalPriceCents: 29900 },
    ],
    subtotalCents: 99898,
    discountCents: 9990,
    couponCode: "WELCOME10",
    shippingCents: 0,
    totalAmountCents: 89908,
    shippingAddress: { name: "Thandi Nkosi", telephone: "+27821234567", street: "12 Jacaranda Street", suburb: "Menlo Park", city: "Pretoria", postalCode: "0081", province: "Gauteng" },
  },
  customerEmail: "thandi@example.co.za",
  ...over,
});

describe("buildInvoiceDocument", () => {
  it("a VAT-registered shop issues a Tax Invoice with every item of VAT Act s20(4)", () => {
    const d = buildInvoiceDocument(source());
    expect(d.title).toBe("Tax Invoice");
    expect(d.number).toBe("INV-000123");
    expect(d.issueDate).toBe("5 March 2026");
    expect(d.reference).toBe("Order #3f2a9c1e");
    expect(d.supplier).toEqual({ wordmark: "Scentara", name: "Scentara (Pty) Ltd", addressLines: ["12 Long Street", "Cape Town", "8001"], vatNumber: "4123456789", email: "hello@scentara.co.za" });
    expect(d.recipient).toEqual({ name: "Thandi Nkosi", addressLines: ["12 Jacaranda Street", "Menlo Park, Pretoria", "Gauteng 0081"], telephone: "+27821234567", email: "thandi@example.co.za" });
    expect(d.lines).toEqual([
      { description: "Oud Noir 100 ml", quantity: "2", unitPrice: "R349.99", total: "R699.98" },
      { description: "Fleur de Nuit", quantity: "1", unitPrice: "R299.00", total: "R299.00" },
    ]);
    expect(d.totals).toEqual([
      { label: "Subtotal", amount: "R998.98" },
      { label: "Discount (coupon WELCOME10)", amount: "-R99.90" },
      { label: "Delivery", amount: "Free" },
      { label: "Total (including VAT)", amount: "R899.08", strong: true },
      { label: "VAT at 15% included", amount: "R117.27" }, // 89908 × 15 / 115 = 11727.13
    ]);
    expect(d.amounts).toEqual({ totalCents: 89908, vatCents: 11727 });
    expect(d.vatNote).toBe("All prices include VAT at 15%. The total of R899.08 includes VAT of R117.27.");
    expect(d.filename).toBe("Scentara-INV-000123.pdf");
  });

  it("a shop without a VAT number issues an ordinary Invoice: no 'Tax Invoice', no VAT number, no VAT amount", () => {
    const d = buildInvoiceDocument(source({}, { vatNumber: null }));
    expect(d.title).toBe("Invoice");
    expect(d.supplier.vatNumber).toBeNull();
    expect(d.vatNote).toBeNull();
    expect(d.amounts.vatCents).toBeNull();
    expect(d.totals.map((t) => t.label)).toEqual(["Subtotal", "Discount (coupon WELCOME10)", "Delivery", "Total"]);
    expect(JSON.stringify(d)).not.toMatch(/VAT|Tax Invoice/);
  });

  it("an invalid VAT number never makes a tax invoice", () => {
    expect(buildInvoiceDocument(source({}, { vatNumber: "123" })).title).toBe("Invoice");
  });

  it("shows the delivery charged, and no discount row without a discount", () => {
    const base = source();
    const d = buildInvoiceDocument({ ...base, order: { ...base.order, discountCents: 0, couponCode: null, shippingCents: 7000, totalAmountCents: 106898 } });
    expect(d.totals.map((t) => [t.label, t.amount])).toEqual([
      ["Subtotal", "R998.98"],
      ["Delivery", "R70.00"],
      ["Total (including VAT)", "R1 068.98"],
      ["VAT at 15% included", "R139.43"], // 106898 × 15 / 115 = 13943.2
    ]);
  });

  it("lists gift cards as payments received below the total, with what paid the rest; the VAT stays on the full total", () => {
    const base = source();
    const order = { ...base.order, discountCents: 0, couponCode: null, shippingCents: 0, subtotalCents: 34999, totalAmountCents: 34999, paymentMethod: "card" as const };
    const d = buildInvoiceDocument({ ...base, order: { ...order, giftCardPayments: [{ last4: "RB4N", amountCents: 15001 }] } });
    expect(d.totals.map((t) => [t.label, t.amount])).toEqual([
      ["Subtotal", "R349.99"],
      ["Delivery", "Free"],
      ["Total (including VAT)", "R349.99"],
      ["VAT at 15% included", "R45.65"],
      ["Paid by gift card ending RB4N", "-R150.01"],
      ["Paid by card", "-R199.98"],
    ]);
    expect(d.amounts).toEqual({ totalCents: 34999, vatCents: 4565 });
    const whole = buildInvoiceDocument({ ...base, order: { ...order, giftCardPayments: [{ last4: "RB4N", amountCents: 34999 }] } });
    expect(whole.totals.slice(-1)).toEqual([{ label: "Paid by gift card ending RB4N", amount: "-R349.99" }]);
  });

  it("makes what the customer typed printable, and a safe file name", () => {
    const base = source();
    const d = buildInvoiceDocument({ ...base, supplier: { ...base.supplier, shopName: "Maison Ōud / Cape" }, order: { ...base.order, shippingAddress: { ...base.order.shippingAddress, name: "Łucja 🌹" } } });
    expect(d.recipient.name).toBe("Lucja ?");
    expect(d.supplier.wordmark).toBe("Maison Oud / Cape");
    expect(d.filename).toBe("Maison-Oud-Cape-INV-000123.pdf");
  });
});
