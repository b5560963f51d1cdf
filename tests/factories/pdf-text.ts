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
