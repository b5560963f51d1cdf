/**
 * The "Download my data" file is one ZIP archive: every phone and computer opens it without an app. Written with
 * fflate (a kept ZIP library, already in the shop through pdfkit): deflated text, PDFs stored as they are (their
 * streams are compressed already), UTF-8 names. A person's data is a few megabytes at most.
 */
import { zipSync, type Zippable } from "fflate";

export interface ZipEntry {
  /** path inside the archive, with "/" between folders ("invoices/INV-000123.pdf") */
  name: string;
  data: Uint8Array | string;
}

export function zipArchive(entries: ZipEntry[], modifiedAt: Date = new Date()): Uint8Array {
  const files: Zippable = {};
  for (const entry of entries) {
    if (!entry.name || entry.name.startsWith("/") || entry.name.split("/").includes("..")) throw new Error(`Not a name inside an archive: ${entry.name}`);
    if (entry.name in files) throw new Error(`Twice in one archive: ${entry.name}`);
    const data = typeof entry.data === "string" ? new TextEncoder().encode(entry.data) : entry.data;
    const compressed = entry.name.toLowerCase().endsWith(".pdf");
    files[entry.name] = [data, { level: compressed ? 0 : 9, mtime: modifiedAt }];
  }
  return zipSync(files);
}
