/**
 * The text a PDF shows, for tests: each content stream (inflated when FlateDecode) is read for its text operators
 * (`<hex> Tj` and `[<hex> kerning <hex> …] TJ`, as pdfkit writes them for its standard fonts), decoded from WinAnsi.
 * One string per text operator, in drawing order. Enough for our invoices; not a general PDF parser.
 */
import { inflateSync } from "node:zlib";

const winAnsi = new TextDecoder("windows-1252");

function decodeHex(hex: string): string {
  const clean = hex.replace(/\s+/g, "");
  const bytes = new Uint8Array(clean.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return winAnsi.decode(bytes);
}

export function pdfTextRuns(pdf: Uint8Array): string[] {
  const raw = Buffer.from(pdf);
  const text = raw.toString("latin1");
  const runs: string[] = [];
  const streamStart = /<<((?:(?!>>\s*stream)[\s\S])*)>>\s*stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = streamStart.exec(text))) {
    const dict = m[1]!;
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? NaN);
    if (!Number.isFinite(length)) continue;
    const begin = m.index + m[0].length;
    let body = raw.subarray(begin, begin + length);
    if (/\/FlateDecode/.test(dict)) {
      try {
        body = inflateSync(body);
      } catch {
        continue;
      }
    }
    if (/\/Subtype\s*\/Image|\/Type\s*\/XObject/.test(dict)) continue;
    const content = body.toString("latin1");
    for (const op of content.matchAll(/\[((?:<[0-9a-fA-F\s]*>|[-\d.\s])*)\]\s*TJ|<([0-9a-fA-F\s]*)>\s*Tj/g)) {
      if (op[1] !== undefined) runs.push([...op[1].matchAll(/<([0-9a-fA-F\s]*)>/g)].map((h) => decodeHex(h[1]!)).join(""));
      else runs.push(decodeHex(op[2]!));
    }
    streamStart.lastIndex = begin + length;
  }
  return runs;
}

/** All the PDF's text, one run per line. */
export function pdfText(pdf: Uint8Array): string {
  return pdfTextRuns(pdf).join("\n");
}

/**
 * The text as a PDF reader extracts it (Mozilla's pdf.js, as in Firefox and many accounting tools): one string per
 * line, the words as the reader joins them. Where pdfTextRuns reads what was written, this reads what a person copying
 * from the document or a tool importing it gets: letter-spacing that is too wide comes out as "T A X".
 */
export async function pdfReaderLines(pdf: Uint8Array): Promise<string[]> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = getDocument({ data: new Uint8Array(pdf), verbosity: 0, useSystemFonts: false });
  const doc = await task.promise;
  const lines: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    let line = "";
    for (const item of content.items) {
      if (!("str" in item)) continue;
      line += item.str;
      if (item.hasEOL) {
        lines.push(line);
        line = "";
      }
    }
    if (line) lines.push(line);
  }
  await task.destroy();
  return lines.map((l) => l.replace(/\s+/g, " ").trim()).filter(Boolean);
}
