import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { unzip } from "../../../tests/factories/unzip";
import { zipArchive } from "./zip.server";

describe("ZIP archive", () => {
  const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0xff, 0x00, 0x10]);
  const archive = zipArchive(
    [
      { name: "my-data.json", data: JSON.stringify({ name: "Zoë Nkosi", orders: Array.from({ length: 50 }, (_, i) => ({ i })) }) },
      { name: "invoices/INV-000001.pdf", data: pdf },
    ],
    new Date("2026-11-26T10:20:30Z"),
  );

  it("holds each file byte for byte, with UTF-8 text and names", () => {
    const files = unzip(archive);
    expect([...files.keys()]).toEqual(["my-data.json", "invoices/INV-000001.pdf"]);
    expect(JSON.parse(files.get("my-data.json")!.text()).name).toBe("Zoë Nkosi");
    expect(new Uint8Array(files.get("invoices/INV-000001.pdf")!.data)).toEqual(pdf);
    // text shrinks (deflate); the small binary file is stored as it is
    expect(archive.length).toBeLessThan(JSON.stringify({ orders: Array.from({ length: 50 }, (_, i) => ({ i })) }).length);
  });

  it("deflates the text and stores the PDFs as they are (their streams are compressed already)", () => {
    const methods: Record<string, number> = {};
    unzipSync(archive, {
      filter: (file) => {
        methods[file.name] = file.compression;
        return true;
      },
    });
    expect(methods).toEqual({ "my-data.json": 8, "invoices/INV-000001.pdf": 0 });
  });

  it("refuses names that would leave the folder, and the same name twice", () => {
    expect(() => zipArchive([{ name: "../etc/passwd", data: "x" }])).toThrow(/Not a name/);
    expect(() => zipArchive([{ name: "/abs", data: "x" }])).toThrow(/Not a name/);
    expect(() => zipArchive([{ name: "a", data: "x" }, { name: "a", data: "y" }])).toThrow(/Twice/);
  });
});
