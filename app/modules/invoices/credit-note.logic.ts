/**
 * The credit note of a refund (issue 21 point 8, docs/decisions/041), as pure functions: its number's text and every
 * word and amount it prints, decided here so tests read them without a PDF. The PDF is drawn by the invoice's renderer
 * (invoice-pdf.server.ts), so the two documents look alike.
 *
 * A credit note says "Credit Note", has its own number series, names the (tax) invoice it corrects, and shows the
 * amount credited with the VAT it adjusts (Tax Administration Act s29 keeps it five years; VAT Act s21(3) lists what a
 * credit note holds: the words, the supplier's and recipient's names and addresses, the supplier's VAT number, a serial
 * number and date, the adjusted amount with its VAT, why it was issued, and the supply it corrects).
 */
import {
  documentFilename,
  documentParties,
  formatInvoiceNumber,
  formatIssueDate,
  isSouthAfricanVatNumber,
  toWinAnsi,
  VAT_RATE_PERCENT,
  vatInInclusiveTotal,
  type InvoiceSupplier,
  type InvoiceTotalRow,
} from "./invoice.logic";
import type { ShippingAddress } from "~/db/schema";
import { formatRand } from "~/utils/money";

/** CN-000123: the credit note series' prefix and number (the same shape as invoice numbers). */
export function formatCreditNoteNumber(n: number, prefix = "CN-"): string {
  return formatInvoiceNumber(n, prefix);
}

/** Where a refund's credit note is downloaded (app/routes/returns.credit-note[.]pdf.ts). */
export function creditNotePath(returnId: string): string {
  return `/returns/${encodeURIComponent(returnId)}/credit-note.pdf`;
}

export interface CreditNoteSource {
  supplier: InvoiceSupplier;
  number: number;
  prefix: string;
  issuedAt: string;
  invoice: { number: number; prefix: string; issuedAt: string };
  orderShortId: string;
  /** why it was issued, in the shop's words ("Goods returned: cooling-off (ECTA s44)") */
  reason: string;
  lines: Array<{ name: string; quantity: number; unitPriceCents: number }>;
  goodsCents: number;
  discountCents: number;
  couponCode: string | null;
  deliveryCents: number;
  /** what was refunded: the credit note's total */
  amountCents: number;
  recipient: ShippingAddress;
  customerEmail: string | null;
}

export interface CreditNoteDocument {
  title: "Credit Note";
  number: string;
  issueDate: string;
  reference: string;
  /** the invoice it corrects: "Tax invoice INV-000123" */
  corrects: { label: string; number: string; date: string };
  facts: Array<[string, string]>;
  supplier: { wordmark: string; name: string; addressLines: string[]; vatNumber: string | null; email: string };
  recipient: { name: string; addressLines: string[]; telephone: string; email: string | null };
  recipientLabel: string;
  lines: Array<{ description: string; quantity: string; unitPrice: string; total: string }>;
  totals: InvoiceTotalRow[];
  amounts: { totalCents: number; vatCents: number | null };
  vatNote: string | null;
  note: string;
  filename: string;
}

export function buildCreditNoteDocument(source: CreditNoteSource): CreditNoteDocument {
  const { supplier } = source;
  const vatRegistered = supplier.vatNumber !== null && isSouthAfricanVatNumber(supplier.vatNumber);
  const number = formatCreditNoteNumber(source.number, source.prefix);
  const invoiceNumber = formatInvoiceNumber(source.invoice.number, source.invoice.prefix);
  const invoiceDate = formatIssueDate(source.invoice.issuedAt);
  const correctsLabel = vatRegistered ? "Tax invoice" : "Invoice";
  const totals: InvoiceTotalRow[] = [{ label: "Goods returned", amount: formatRand(source.goodsCents) }];
  if (source.discountCents > 0) totals.push({ label: source.couponCode ? `Less their discount (coupon ${source.couponCode})` : "Less their discount", amount: formatRand(-source.discountCents) });
  if (source.deliveryCents > 0) totals.push({ label: "Delivery refunded", amount: formatRand(source.deliveryCents) });
  const adjustment = source.amountCents - (source.goodsCents - source.discountCents + source.deliveryCents);
  if (adjustment !== 0) totals.push({ label: adjustment < 0 ? "Less other deductions" : "Other amounts refunded", amount: formatRand(adjustment) });
  const vatCents = vatRegistered ? vatInInclusiveTotal(source.amountCents) : null;
  totals.push({ label: vatRegistered ? "Total credited (including VAT)" : "Total credited", amount: formatRand(source.amountCents), strong: true });
  if (vatCents !== null) totals.push({ label: `VAT at ${VAT_RATE_PERCENT}% credited`, amount: formatRand(vatCents) });
  const a = source.recipient;
  return {
    title: "Credit Note",
    number,
    issueDate: formatIssueDate(source.issuedAt),
    reference: `Order #${source.orderShortId}`,
    corrects: { label: correctsLabel, number: invoiceNumber, date: invoiceDate },
    facts: [
      ["Credit note number", number],
      ["Date of issue", formatIssueDate(source.issuedAt)],
      [`Corrects ${correctsLabel.toLowerCase()}`, invoiceNumber],
      ["Invoice dated", invoiceDate],
      ["Reference", `Order #${source.orderShortId}`],
    ],
    ...documentParties(supplier, vatRegistered, a, source.customerEmail),
    recipientLabel: "Credited to",
    lines: source.lines.map((l) => ({
      description: toWinAnsi(l.name),
      quantity: String(l.quantity),
      unitPrice: formatRand(l.unitPriceCents),
      total: formatRand(l.quantity * l.unitPriceCents),
    })),
    totals,
    amounts: { totalCents: source.amountCents, vatCents },
    vatNote:
      vatCents !== null
        ? `The total credited of ${formatRand(source.amountCents)} includes VAT of ${formatRand(vatCents)} at ${VAT_RATE_PERCENT}%, by which the VAT of ${correctsLabel.toLowerCase()} ${invoiceNumber} is reduced.`
        : null,
    note: toWinAnsi(`Issued for: ${source.reason}. This credit note corrects ${correctsLabel.toLowerCase()} ${invoiceNumber} of ${invoiceDate}.`),
    filename: documentFilename(supplier.shopName, number, "credit-note"),
  };
}

