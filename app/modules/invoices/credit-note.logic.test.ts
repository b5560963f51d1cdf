import { describe, expect, it } from "vitest";
import { buildCreditNoteDocument, creditNotePath, formatCreditNoteNumber, type CreditNoteSource } from "./credit-note.logic";

const SOURCE: CreditNoteSource = {
  supplier: { shopName: "Scentara", legalName: "Scentara Fragrances (Pty) Ltd", addressLines: ["Unit 4, The Old Biscuit Mill", "Cape Town 7925"], vatNumber: "4123456789", email: "hello@scentara.co.za" },
  number: 7,
  prefix: "CN-",
  issuedAt: "2026-03-20T09:00:00.000Z",
  invoice: { number: 123, prefix: "INV-", issuedAt: "2026-03-01T21:30:00.000Z" },
  orderShortId: "3f2a9c1e",
  reason: "goods returned, cooling-off (ECTA s44)",
  lines: [{ name: "Oud Noir 100 ml", quantity: 1, unitPriceCents: 34999 }],
  goodsCents: 34999,
  discountCents: 3500,
  couponCode: "SPRING10",
  deliveryCents: 0,
  amountCents: 31499,
  recipient: { name: "Thandi Nkosi", telephone: "+27821234567", street: "12 Jacaranda Street", suburb: "Menlo Park", city: "Pretoria", postalCode: "0081", province: "Gauteng" },
  customerEmail: "thandi@example.co.za",
};

describe("the credit note", () => {
  it("has its own series, says 'Credit Note' and names the tax invoice it corrects, with its date", () => {
    expect(formatCreditNoteNumber(7)).toBe("CN-000007");
    expect(creditNotePath("abc")).toBe("/returns/abc/credit-note.pdf");
    const doc = buildCreditNoteDocument(SOURCE);
    expect(doc.title).toBe("Credit Note");
    expect(doc.number).toBe("CN-000007");
    expect(doc.facts).toEqual([
      ["Credit note number", "CN-000007"],
      ["Date of issue", "20 March 2026"],
      ["Corrects tax invoice", "INV-000123"],
      // 21:30 UTC on 1 March is 23:30 in South Africa: still 1 March
      ["Invoice dated", "1 March 2026"],
      ["Reference", "Order #3f2a9c1e"],
    ]);
    expect(doc.note).toBe("Issued for: goods returned, cooling-off (ECTA s44). This credit note corrects tax invoice INV-000123 of 1 March 2026.");
    expect(doc.filename).toBe("Scentara-CN-000007.pdf");
  });

  it("credits the goods less their discount, and the VAT at 15 % in the credited total", () => {
    const doc = buildCreditNoteDocument(SOURCE);
    expect(doc.totals).toEqual([
      { label: "Goods returned", amount: "R349.99" },
      { label: "Less their discount (coupon SPRING10)", amount: "-R35.00" },
      { label: "Total credited (including VAT)", amount: "R314.99", strong: true },
      // round(31 499 × 15 / 115) = 4 108.6 → 4 109
      { label: "VAT at 15% credited", amount: "R41.09" },
    ]);
    expect(doc.amounts).toEqual({ totalCents: 31499, vatCents: 4109 });
    expect(doc.vatNote).toContain("includes VAT of R41.09 at 15%");
  });

  it("shows the delivery refunded and any other difference the owner chose, so its rows add up to the total", () => {
    const doc = buildCreditNoteDocument({ ...SOURCE, deliveryCents: 7000, amountCents: 37499 });
    expect(doc.totals.map((t) => t.label)).toEqual(["Goods returned", "Less their discount (coupon SPRING10)", "Delivery refunded", "Less other deductions", "Total credited (including VAT)", "VAT at 15% credited"]);
    expect(doc.totals[3]!.amount).toBe("-R10.00");
  });

  it("a shop without a VAT number issues a credit note that claims no VAT and corrects an 'invoice'", () => {
    const doc = buildCreditNoteDocument({ ...SOURCE, supplier: { ...SOURCE.supplier, vatNumber: null } });
    expect(doc.title).toBe("Credit Note");
    expect(doc.facts[2]).toEqual(["Corrects invoice", "INV-000123"]);
    expect(doc.vatNote).toBeNull();
    expect(doc.amounts.vatCents).toBeNull();
    expect(doc.totals.map((t) => t.label).join(" ")).not.toMatch(/VAT/);
  });
});
