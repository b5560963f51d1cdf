import type PDFDocument from "pdfkit";

type PdfOptions = ConstructorParameters<typeof PDFDocument>[0];
export type PdfDoc = InstanceType<typeof PDFDocument>;

/**
 * A PDF drawn by `draw` on a pdfkit document made with `options`, as bytes: pdfkit streams its output, so the chunks
 * are gathered until it ends (the tax invoice, the gift card, the test courier's waybill).
 */
export async function pdfBytes(options: PdfOptions, draw: (doc: PdfDoc) => void): Promise<Uint8Array<ArrayBuffer>> {
  // loaded on the first PDF, not at start: pdfkit and its fonts cost every server process ~0.2 s of CPU to load
  const { default: PDFKit } = await import("pdfkit");
  const doc = new PDFKit(options);
  const chunks: Uint8Array[] = [];
  const done = new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
    doc.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  draw(doc);
  doc.end();
  return done;
}
