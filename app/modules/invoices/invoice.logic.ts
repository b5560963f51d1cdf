/**
 * The invoice of a paid order, as pure functions (docs/decisions/019; DESIGN.md "Payments", SARS tax invoice):
 * the VAT in a VAT-inclusive total, the invoice number's text, the date of issue, and the document's content model —
 * every word and amount the PDF prints, decided here so tests can read them without a PDF.
 * Browser-safe (no server imports), although only the server renders invoices.
 */
import { couponDiscountCents } from "~/modules/pricing/totals.logic";
import type { ShippingAddress } from "~/db/schema";
import { assertCents, formatRand, type Cents } from "~/utils/money";

/** South Africa's standard VAT rate, in percent. */
export const VAT_RATE_PERCENT = 15;

/**
 * The VAT contained in a VAT-inclusive total: round(total × 15 / 115) in cents, rounded once, on the whole total
 * (never line by line, so the VAT is not off by the sum of the lines' rounding). Integer arithmetic:
 * round(3t / 23) = floor((6t + 23) / 46) for t ≥ 0; 23 is odd, so 3t / 23 is never exactly half a cent.
 */
export function vatInInclusiveTotal(totalCents: Cents): Cents {
  assertCents(totalCents);
  if (totalCents < 0) return -vatInInclusiveTotal(-totalCents);
  return Math.floor((6 * totalCents + 23) / 46);
}

/** INV-000123: the prefix and the number, six digits at least (more once the shop passes 999 999 invoices). */
export function formatInvoiceNumber(n: number, prefix = "INV-"): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`An invoice number is a positive integer, got ${n}`);
  return `${prefix}${String(n).padStart(6, "0")}`;
}

/** Where an order's invoice is downloaded (app/routes/orders.invoice[.]pdf.ts). */
export function invoicePath(orderId: string): string {
  return `/orders/${encodeURIComponent(orderId)}/invoice.pdf`;
}

/** A South African VAT registration number: 10 digits, the first a 4. */
export function isSouthAfricanVatNumber(value: string): boolean {
  return /^4\d{9}$/.test(value);
}

/** The date of issue ("5 March 2026", South African day): app/utils/dates.ts; the PDF's WinAnsi text: app/utils/win-ansi.ts. */
import { formatIssueDate } from "~/utils/dates";
import { toWinAnsi } from "~/utils/win-ansi";
export { formatIssueDate, toWinAnsi };

// ---------------------------------------------------------------- the document's content

export interface InvoiceSupplier {
  /** The shop's trading name, printed as the wordmark. */
  shopName: string;
  /** The registered name (SHOP_LEGAL_NAME), or the shop name. */
  legalName: string;
  addressLines: string[];
  /** Set only when the shop is VAT-registered: the document is then a tax invoice. */
  vatNumber: string | null;
  email: string;
}

export interface InvoiceOrder {
  id: string;
  shortId: string;
  /** isGiftCard: a gift card sold, outside the VAT (VAT Act s10(18): charged when the card is redeemed) */
  lines: Array<{ name: string; quantity: number; unitPriceCents: number; totalPriceCents: number; isGiftCard?: boolean }>;
  subtotalCents: number;
  discountCents: number;
  couponCode: string | null;
  /** the part of discountCents that is sample credit and its row's label (docs/decisions/054); absent: none */
  sampleCreditCents?: number;
  sampleCreditLabel?: string | null;
  /** reward points spent: a discount of their own row (docs/decisions/062); absent: none */
  pointsUsed?: number;
  pointsCents?: number;
  /** a friend's reward on a first order: a discount of its own row (docs/decisions/063); absent: none */
  referralCents?: number;
  shippingCents: number;
  totalAmountCents: number;
  shippingAddress: ShippingAddress;
  /**
   * Gift cards that paid part or all of the total (docs/decisions/053): payments received, printed below the total.
   * The VAT is on the full total (VAT Act s10(18): a voucher's VAT is charged on what it buys when it is redeemed).
   */
  giftCardPayments?: Array<{ last4: string; amountCents: number }>;
  /** how the rest was paid (card, instant_eft, eft), when gift cards paid part */
  paymentMethod?: "card" | "instant_eft" | "eft";
}

export interface InvoiceSource {
  supplier: InvoiceSupplier;
  invoiceNumber: number;
  prefix: string;
  /** ISO timestamp the number was allocated (the payment's confirmation). */
  issuedAt: string;
  order: InvoiceOrder;
  customerEmail: string | null;
}

export interface InvoiceTotalRow {
  label: string;
  amount: string;
  /** the grand total */
  strong?: boolean;
}

/** Every word and amount on the invoice, WinAnsi-safe, in the order it is printed. */
export interface InvoiceDocument {
  /** "Tax Invoice" when VAT-registered, otherwise "Invoice" (never claiming a VAT registration the shop lacks). */
  title: "Tax Invoice" | "Invoice";
  number: string;
  issueDate: string;
  /** The order it invoices: its short id, as on the confirmation page and e-mails. */
  reference: string;
  supplier: { wordmark: string; name: string; addressLines: string[]; vatNumber: string | null; email: string };
  recipient: { name: string; addressLines: string[]; telephone: string; email: string | null };
  lines: Array<{ description: string; quantity: string; unitPrice: string; total: string }>;
  totals: InvoiceTotalRow[];
  /** Cents behind the totals (for tests and the e-mail). */
  amounts: { totalCents: number; vatCents: number | null };
  /** The VAT statement under the totals (tax invoices only). */
  vatNote: string | null;
  /** Download name: Scentara-INV-000123.pdf */
  filename: string;
}

export function buildInvoiceDocument(source: InvoiceSource): InvoiceDocument {
  const { supplier, order } = source;
  const taxInvoice = supplier.vatNumber !== null && isSouthAfricanVatNumber(supplier.vatNumber);
  const number = formatInvoiceNumber(source.invoiceNumber, source.prefix);
  const a = order.shippingAddress;
  const totals: InvoiceTotalRow[] = [{ label: "Subtotal", amount: formatRand(order.subtotalCents) }];
  // A sample credit is a discount of its own row (docs/decisions/054); the coupon's is the rest.
  const sampleCredit = order.sampleCreditCents ?? 0;
  // Reward points are a discount too (docs/decisions/062: not a payment), a row of their own.
  const points = order.pointsCents ?? 0;
  const referral = order.referralCents ?? 0;
  const couponDiscount = couponDiscountCents(order);
  if (couponDiscount > 0 || order.couponCode) {
    totals.push({ label: order.couponCode ? `Discount (coupon ${order.couponCode})` : "Discount", amount: formatRand(-couponDiscount) });
  }
  if (sampleCredit > 0) totals.push({ label: toWinAnsi(order.sampleCreditLabel ?? "Sample credit"), amount: formatRand(-sampleCredit) });
  if (referral > 0) totals.push({ label: "Friend's welcome reward", amount: formatRand(-referral) });
  if (points > 0) totals.push({ label: `Reward points (${order.pointsUsed ?? 0} points)`, amount: formatRand(-points) });
  totals.push({ label: "Delivery", amount: order.shippingCents === 0 ? "Free" : formatRand(order.shippingCents) });
  // Gift cards sold carry no VAT (VAT Act s10(18)): the VAT is on the rest of the total, goods and delivery, once.
  const giftCardLinesCents = order.lines.reduce((s, l) => s + (l.isGiftCard ? l.totalPriceCents : 0), 0);
  const vatCents = taxInvoice ? vatInInclusiveTotal(order.totalAmountCents - giftCardLinesCents) : null;
  totals.push({ label: taxInvoice ? "Total (including VAT)" : "Total", amount: formatRand(order.totalAmountCents), strong: true });
  if (vatCents !== null) totals.push({ label: `VAT at ${VAT_RATE_PERCENT}% included`, amount: formatRand(vatCents) });
  totals.push(...paymentRows(order));
  return {
    title: taxInvoice ? "Tax Invoice" : "Invoice",
    number,
    issueDate: formatIssueDate(source.issuedAt),
    reference: `Order #${order.shortId}`,
    ...documentParties(supplier, taxInvoice, a, source.customerEmail),
    lines: order.lines.map((l) => ({
      description: toWinAnsi(l.isGiftCard ? `${l.name} - not subject to VAT` : l.name),
      quantity: String(l.quantity),
      unitPrice: formatRand(l.unitPriceCents),
      total: formatRand(l.totalPriceCents),
    })),
    totals,
    amounts: { totalCents: order.totalAmountCents, vatCents },
    vatNote: taxInvoice
      ? giftCardLinesCents > 0
        ? `Prices include VAT at ${VAT_RATE_PERCENT}%, except gift cards (${formatRand(giftCardLinesCents)}): a voucher is not subject to VAT when sold; VAT is charged on what it buys (VAT Act s10(18)). The total of ${formatRand(order.totalAmountCents)} includes VAT of ${formatRand(vatCents!)}.`
        : `All prices include VAT at ${VAT_RATE_PERCENT}%. The total of ${formatRand(order.totalAmountCents)} includes VAT of ${formatRand(vatCents!)}.`
      : null,
    filename: documentFilename(supplier.shopName, number, "invoice"),
  };
}

const PAID_BY: Record<NonNullable<InvoiceOrder["paymentMethod"]>, string> = { card: "Paid by card", instant_eft: "Paid by instant EFT", eft: "Paid by EFT" };

/** Gift cards as payments received, and what paid the rest (only when a gift card paid something). */
function paymentRows(order: InvoiceOrder): InvoiceTotalRow[] {
  const cards = (order.giftCardPayments ?? []).filter((p) => p.amountCents > 0);
  if (cards.length === 0) return [];
  const rows = cards.map((p) => ({ label: `Paid by gift card ending ${toWinAnsi(p.last4)}`, amount: formatRand(-p.amountCents) }));
  const rest = order.totalAmountCents - cards.reduce((s, p) => s + p.amountCents, 0);
  if (rest > 0) rows.push({ label: PAID_BY[order.paymentMethod ?? "card"], amount: formatRand(-rest) });
  return rows;
}

/**
 * The supplier and recipient blocks a printed document (tax invoice, credit note) shows, WinAnsi-safe; the supplier's
 * VAT number only when `showVat` (a VAT-registered shop).
 */
export function documentParties(supplier: InvoiceSupplier, showVat: boolean, a: ShippingAddress, email: string | null): Pick<InvoiceDocument, "supplier" | "recipient"> {
  const safe = (lines: string[]) => lines.map((l) => toWinAnsi(l.trim())).filter(Boolean);
  return {
    supplier: {
      wordmark: toWinAnsi(supplier.shopName),
      name: toWinAnsi(supplier.legalName),
      addressLines: safe(supplier.addressLines),
      vatNumber: showVat ? supplier.vatNumber : null,
      email: toWinAnsi(supplier.email),
    },
    recipient: {
      name: toWinAnsi(a.name),
      addressLines: safe([a.street, [a.suburb, a.city].filter(Boolean).join(", "), [a.province, a.postalCode].filter(Boolean).join(" ")]),
      telephone: toWinAnsi(a.telephone),
      email: email ? toWinAnsi(email) : null,
    },
  };
}

/** A document's download name, "Scentara-INV-000123.pdf": the shop's name as letters, digits and dashes (or `fallback`). */
export function documentFilename(shopName: string, number: string, fallback: string): string {
  const safeName =
    toWinAnsi(shopName)
      .normalize("NFKD")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || fallback;
  return `${safeName}-${number}.pdf`;
}
