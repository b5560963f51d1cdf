/** Reads a ZIP archive for tests (fflate, which checks each file's CRC-32 and size). */
import { unzipSync } from "fflate";

export interface UnzippedFile {
  name: string;
  data: Buffer;
  text: () => string;
}

export function unzip(archive: Uint8Array): Map<string, UnzippedFile> {
  const files = new Map<string, UnzippedFile>();
  for (const [name, bytes] of Object.entries(unzipSync(archive))) {
    const data = Buffer.from(bytes);
    files.set(name, { name, data, text: () => data.toString("utf8") });
  }
  return files;
}
