/**
 * The invoice as a PDF (A4), drawn with pdfkit from the content model of invoice.logic.ts: every word and amount is
 * decided there; this file only places them. Built-in fonts only (Times for the wordmark and title, Helvetica for
 * the rest): nothing to ship, and the text is WinAnsi, which toWinAnsi() already guaranteed.
 *
 * pdfkit stays outside the server bundle (Vite leaves package.json dependencies external in the SSR build): it loads
 * its font metrics from its own package at run time (`#standard-fonts/*`), which a bundled copy could not find.
 * Checked with `react-router build` and `node server.js` serving /orders/:id/invoice.pdf.
 */
import { pdfBytes, type PdfDoc } from "~/utils/pdf-bytes.server";
import type { InvoiceDocument } from "./invoice.logic";

const INK = "#1c1714";
const SOFT = "#4a413a";
const MUTED = "#6e645b";
const GOLD = "#7d5c2c";
const HAIRLINE = "#d9cfbf";

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const LEFT = MARGIN;
const RIGHT = A4.width - MARGIN;
const WIDTH = RIGHT - LEFT;
const BOTTOM = A4.height - MARGIN - 28; // room for the footer

/** Columns of the lines table: description, quantity, unit price, amount (the last three right-aligned). */
const COLS = { desc: { x: LEFT, w: 255 }, qty: { x: LEFT + 255, w: 48 }, unit: { x: LEFT + 303, w: 86 }, total: { x: LEFT + 389, w: WIDTH - 389 } };

export interface RenderOptions {
  /** false writes the content streams uncompressed (tests read the text operators). */
  compress?: boolean;
}

/**
 * What the renderer prints: an invoice, or another document drawn the same way (the credit note, credit-note.logic.ts)
 * with its own title, the facts under the title (its number, its date, the invoice it corrects …), the label over the
 * recipient, and a note under the totals.
 */
export type PrintedDocument = Omit<InvoiceDocument, "title"> & {
  title: string;
  facts?: Array<[label: string, value: string]>;
  recipientLabel?: string;
  note?: string | null;
};

export function renderInvoicePdf(invoice: PrintedDocument, options: RenderOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  return pdfBytes(
    {
      size: "A4",
      margin: MARGIN,
      compress: options.compress ?? true,
      bufferPages: true,
      info: { Title: `${invoice.title} ${invoice.number}`, Author: invoice.supplier.name, Subject: invoice.reference, Creator: invoice.supplier.wordmark },
      lang: "en-ZA",
    },
    (doc) => draw(doc, invoice),
  );
}

type Doc = PdfDoc;

/**
 * Letter-spacing for the capitals (the storefront's tracked labels), in points for a font size. Kept small: a PDF
 * reader or an accountant's tool turns a gap wider than about a tenth of the font size into a space, and wider
 * tracking made "TAX INVOICE" extract as "T A X I N V O I C E". 0.06 em reads as tracked and extracts as words.
 */
function tracking(fontSize: number): number {
  return Math.round(fontSize * 0.06 * 100) / 100;
}

function hairline(doc: Doc, y: number, color = HAIRLINE, from = LEFT, to = RIGHT) {
  doc.save().moveTo(from, y).lineTo(to, y).lineWidth(0.5).strokeColor(color).stroke().restore();
}

function label(doc: Doc, text: string, x: number, y: number, width: number, align: "left" | "right" = "left") {
  doc.font("Helvetica").fontSize(6.5).fillColor(MUTED).text(text.toUpperCase(), x, y, { width, align, characterSpacing: tracking(6.5), lineBreak: false });
}

function draw(doc: Doc, inv: PrintedDocument) {
  // --- masthead: the wordmark left, the document's title and facts right
  let y = MARGIN;
  doc.font("Times-Roman").fontSize(24).fillColor(INK).text(inv.supplier.wordmark.toUpperCase(), LEFT, y, { characterSpacing: tracking(24), lineBreak: false });
  // The storefront header's line under the wordmark.
  doc.font("Helvetica").fontSize(6).fillColor(GOLD).text("PARFUMS · SOUTH AFRICA", LEFT + 1, y + 30, { characterSpacing: tracking(6), lineBreak: false });

  doc.font("Times-Roman").fontSize(15).fillColor(INK).text(inv.title.toUpperCase(), LEFT, y + 2, { width: WIDTH, align: "right", characterSpacing: tracking(15), lineBreak: false });
  const facts: Array<[string, string]> = inv.facts ?? [
    ["Invoice number", inv.number],
    ["Date of issue", inv.issueDate],
    ["Reference", inv.reference],
  ];
  let fy = y + 26;
  for (const [k, v] of facts) {
    label(doc, k, LEFT + WIDTH - 250, fy + 1.5, 150, "right");
    doc.font("Helvetica").fontSize(8.5).fillColor(INK).text(v, LEFT + WIDTH - 95, fy, { width: 95, align: "right", lineBreak: false });
    fy += 13;
  }
  y = Math.max(fy, y + 48) + 14;
  hairline(doc, y, GOLD);
  y += 18;

  // --- the parties: supplier and recipient side by side
  const colW = (WIDTH - 40) / 2;
  const rightX = LEFT + colW + 40;
  label(doc, "From", LEFT, y, colW);
  label(doc, inv.recipientLabel ?? "Billed and delivered to", rightX, y, colW);
  y += 13;
  const from = [inv.supplier.name, ...inv.supplier.addressLines];
  const fromExtra = [...(inv.supplier.vatNumber ? [`VAT registration number ${inv.supplier.vatNumber}`] : []), inv.supplier.email];
  const to = [inv.recipient.name, ...inv.recipient.addressLines];
  const toExtra = [inv.recipient.telephone, ...(inv.recipient.email ? [inv.recipient.email] : [])].filter(Boolean);
  const leftEnd = partyBlock(doc, from, fromExtra, LEFT, y, colW);
  const rightEnd = partyBlock(doc, to, toExtra, rightX, y, colW);
  y = Math.max(leftEnd, rightEnd) + 22;

  // --- the lines
  const header = (top: number) => {
    label(doc, "Description", COLS.desc.x, top, COLS.desc.w);
    label(doc, "Qty", COLS.qty.x, top, COLS.qty.w, "right");
    label(doc, "Unit price", COLS.unit.x, top, COLS.unit.w, "right");
    label(doc, "Amount", COLS.total.x, top, COLS.total.w, "right");
    hairline(doc, top + 12, INK);
    return top + 20;
  };
  y = header(y);
  doc.font("Helvetica").fontSize(9);
  for (const line of inv.lines) {
    const h = Math.max(doc.heightOfString(line.description, { width: COLS.desc.w - 12 }), 11);
    if (y + h + 10 > BOTTOM) {
      doc.addPage();
      y = header(MARGIN);
      doc.font("Helvetica").fontSize(9);
    }
    doc.fillColor(INK).text(line.description, COLS.desc.x, y, { width: COLS.desc.w - 12 });
    doc.fillColor(SOFT).text(line.quantity, COLS.qty.x, y, { width: COLS.qty.w, align: "right", lineBreak: false });
    doc.text(line.unitPrice, COLS.unit.x, y, { width: COLS.unit.w, align: "right", lineBreak: false });
    doc.fillColor(INK).text(line.total, COLS.total.x, y, { width: COLS.total.w, align: "right", lineBreak: false });
    y += h + 7;
    hairline(doc, y - 3.5);
  }

  // --- the totals, right-aligned under the amounts
  const needed = inv.totals.length * 16 + 60;
  if (y + needed > BOTTOM) {
    doc.addPage();
    y = MARGIN;
  }
  y += 8;
  const tx = COLS.unit.x - 90;
  const tw = RIGHT - tx;
  for (const row of inv.totals) {
    if (row.strong) {
      hairline(doc, y - 3, INK, tx, RIGHT);
      y += 4;
      doc.font("Helvetica-Bold").fontSize(10.5).fillColor(INK);
    } else {
      doc.font("Helvetica").fontSize(9).fillColor(SOFT);
    }
    doc.text(row.label, tx, y, { width: tw - COLS.total.w, lineBreak: false });
    doc.text(row.amount, COLS.total.x, y, { width: COLS.total.w, align: "right", lineBreak: false });
    y += row.strong ? 20 : 15;
  }

  if (inv.vatNote) {
    y += 6;
    doc.font("Helvetica").fontSize(8).fillColor(MUTED).text(inv.vatNote, LEFT, y, { width: WIDTH, align: "right" });
  }
  if (inv.note) {
    y = Math.max(y, doc.y) + 12;
    doc.font("Helvetica").fontSize(8.5).fillColor(SOFT).text(inv.note, LEFT, y, { width: WIDTH });
  }

  // --- footer on every page: thanks, the shop's address for questions, page n of m
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const fy2 = A4.height - MARGIN - 6;
    hairline(doc, fy2 - 10);
    // Writing below the bottom margin must not start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("Times-Italic").fontSize(9).fillColor(GOLD).text(`Thank you for choosing ${inv.supplier.wordmark}.`, LEFT, fy2, { lineBreak: false });
    doc
      .font("Helvetica")
      .fontSize(7)
      .fillColor(MUTED)
      .text(`${inv.number}  ·  ${inv.supplier.email}  ·  Page ${i - range.start + 1} of ${range.count}`, LEFT, fy2 + 1.5, { width: WIDTH, align: "right", lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

/** A party's name (first line, in ink) and lines, then its extra lines (VAT number, contact) in the softer tone. */
function partyBlock(doc: Doc, lines: string[], extra: string[], x: number, y: number, width: number): number {
  let cy = y;
  lines.forEach((text, i) => {
    doc.font(i === 0 ? "Helvetica-Bold" : "Helvetica").fontSize(9).fillColor(i === 0 ? INK : SOFT).text(text, x, cy, { width });
    cy = doc.y + 1;
  });
  if (extra.length) cy += 4;
  for (const text of extra) {
    doc.font("Helvetica").fontSize(8).fillColor(MUTED).text(text, x, cy, { width });
    cy = doc.y + 1;
  }
  return cy;
}
