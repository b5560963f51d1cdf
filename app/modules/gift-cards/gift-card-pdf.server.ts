/**
 * A sold gift card as a printable PDF (A5 landscape, to print and fold into a gift or forward): drawn with pdfkit and
 * its built-in fonts, as the invoice is (app/modules/invoices/invoice-pdf.server.ts): Times for the wordmark and the
 * amount, Helvetica for the rest; every word WinAnsi-safe (toWinAnsi).
 */
import { pdfBytes, type PdfDoc } from "~/utils/pdf-bytes.server";
import { toWinAnsi } from "~/utils/win-ansi";
import { formatIssueDate } from "~/utils/dates";
import { formatRand } from "~/utils/money";

export interface PrintedGiftCard {
  shopName: string;
  shopUrl: string;
  amountCents: number;
  /** the full code, formatted (XXXX-XXXX-XXXX-XXXX) */
  code: string;
  recipientName: string | null;
  senderName: string | null;
  message: string | null;
  expiresAt: string;
}

const INK = "#1c1714";
const IVORY = "#faf6ef";
const GOLD = "#b08a4a";
const SOFT = "#4a413a";

/** A5 landscape, in points */
const PAGE = { width: 595.28, height: 419.53 };

export function giftCardFilename(shopName: string, last4: string): string {
  const safe = toWinAnsi(shopName).normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "gift-card";
  return `${safe}-gift-card-${last4}.pdf`;
}

export function renderGiftCardPdf(card: PrintedGiftCard, options: { compress?: boolean } = {}): Promise<Uint8Array<ArrayBuffer>> {
  return pdfBytes(
    {
      size: [PAGE.width, PAGE.height],
      margin: 0,
      compress: options.compress ?? true,
      info: { Title: `${toWinAnsi(card.shopName)} gift card ${formatRand(card.amountCents)}`, Author: toWinAnsi(card.shopName), Subject: "Gift card" },
      lang: "en-ZA",
    },
    (doc) => draw(doc, card),
  );
}

function draw(doc: PdfDoc, card: PrintedGiftCard) {
  const W = PAGE.width;
  const H = PAGE.height;
  // the card: ink ground, a gold hairline frame, the wordmark and the amount
  doc.rect(0, 0, W, H).fill(INK);
  doc.save().rect(18, 18, W - 36, H - 36).lineWidth(0.6).strokeColor(GOLD).stroke().restore();
  doc.save().rect(24, 24, W - 48, H - 48).lineWidth(0.3).strokeColor(GOLD).stroke().restore();

  const left = 56;
  const width = W - 112;
  doc.font("Times-Roman").fontSize(26).fillColor(IVORY).text(toWinAnsi(card.shopName).toUpperCase(), left, 52, { width, characterSpacing: 1.6, lineBreak: false });
  doc.font("Helvetica").fontSize(7).fillColor(GOLD).text("PARFUMS - SOUTH AFRICA", left + 1, 84, { characterSpacing: 0.5, lineBreak: false });
  doc.font("Helvetica").fontSize(8).fillColor(GOLD).text("GIFT CARD", left, 56, { width, align: "right", characterSpacing: 0.5, lineBreak: false });

  doc.font("Times-Roman").fontSize(58).fillColor(IVORY).text(formatRand(card.amountCents), left, 118, { width, lineBreak: false });

  let y = 196;
  if (card.recipientName) {
    doc.font("Helvetica").fontSize(9).fillColor(GOLD).text(toWinAnsi(`FOR ${card.recipientName.toUpperCase()}`), left, y, { width, characterSpacing: 0.5, lineBreak: false });
    y += 16;
  }
  if (card.message) {
    doc.font("Times-Italic").fontSize(12).fillColor(IVORY).text(toWinAnsi(`"${card.message.replace(/\s*\n\s*/g, " ")}"`), left, y, { width: width - 40, height: 48, ellipsis: true });
    y = doc.y + 4;
  }
  if (card.senderName) doc.font("Helvetica").fontSize(9).fillColor(IVORY).text(toWinAnsi(`From ${card.senderName}`), left, y, { width, lineBreak: false });

  // the code on an ivory band: what the recipient types at checkout
  const bandY = H - 118;
  doc.rect(left, bandY, width, 44).fill(IVORY);
  doc.font("Helvetica").fontSize(6.5).fillColor(SOFT).text("GIFT CARD CODE", left + 16, bandY + 8, { characterSpacing: 0.4, lineBreak: false });
  doc.font("Courier-Bold").fontSize(17).fillColor(INK).text(card.code, left + 16, bandY + 19, { lineBreak: false });
  doc.font("Helvetica").fontSize(7).fillColor(SOFT).text(`Valid until ${formatIssueDate(card.expiresAt)}`, left, bandY + 26, { width: width - 16, align: "right", lineBreak: false });

  doc.font("Helvetica").fontSize(7.5).fillColor(IVORY).text(toWinAnsi(`Shop at ${card.shopUrl} and enter the code at checkout. Spend it at once or over several orders; the balance stays on the card.`), left, H - 62, { width, lineBreak: true });
}
