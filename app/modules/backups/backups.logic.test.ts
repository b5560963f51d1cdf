import { describe, expect, it } from "vitest";
import {
  backupFileName,
  backupsToDelete,
  backupTimeOf,
  canonicalJson,
  dependencyOrder,
  formatBytes,
  isBackupDue,
  NIGHTLY_BACKUP_MIN_AGE_MS,
  parseEntryName,
  sidecarName,
  tablePartEntry,
} from "./backups.logic";

describe("canonicalJson", () => {
  it("sorts keys at every depth and adds no spaces, so equal rows give equal text", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: null, y: "x" }], c: true } })).toBe('{"a":{"c":true,"d":[1,{"y":"x","z":null}]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson("line\nbreak “quoted” 🌸")).toBe(JSON.stringify("line\nbreak “quoted” 🌸"));
  });
  it("refuses what is not plain JSON", () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(/not a JSON number/);
    expect(() => canonicalJson(new Date())).toThrow(/not a plain JSON object/);
    expect(() => canonicalJson(undefined)).toThrow(/not a JSON value/);
    expect(() => canonicalJson(1n)).toThrow(/not a JSON value/);
  });
});

describe("archive entries", () => {
  it("names and reads back table parts, media and the manifest", () => {
    expect(tablePartEntry("orders", 12)).toBe("tables/orders/000012.jsonl");
    expect(parseEntryName("tables/orders/000012.jsonl")).toEqual({ kind: "table", table: "orders", part: 12 });
    expect(parseEntryName("manifest.json")).toEqual({ kind: "manifest" });
    expect(parseEntryName("media/products/a-400.webp")).toEqual({ kind: "media", key: "products/a-400.webp" });
    for (const odd of ["tables/Orders/000001.jsonl", "tables/orders/1.jsonl", "tables/../x/000001.jsonl", "media/", "etc/passwd", "/manifest.json"]) {
      expect(parseEntryName(odd), odd).toEqual({ kind: "unknown" });
    }
  });
});

describe("archive file names", () => {
  const at = new Date("2026-05-01T00:30:00.123Z");
  it("are UTC, sortable and safe in a URL; the time reads back", () => {
    expect(backupFileName(at)).toBe("scentara-2026-05-01T00-30-00-123Z.tar.gz");
    expect(backupTimeOf(backupFileName(at))).toEqual(at);
    expect(sidecarName(backupFileName(at))).toBe("scentara-2026-05-01T00-30-00-123Z.manifest.json");
  });
  it("anything else is not a backup (no path, no traversal, no impossible date)", () => {
    for (const name of ["../scentara-2026-05-01T00-30-00-123Z.tar.gz", "scentara-2026-05-01T00-30-00-123Z.tar.gz/..", "scentara-2026-02-30T00-30-00-123Z.tar.gz", "x.tar.gz", "scentara-2026-05-01T00-30-00-123Z.manifest.json", "%2e%2e%2fshop.db", ""]) {
      expect(backupTimeOf(name), name).toBeNull();
    }
  });
});

describe("retention (BACKUP_KEEP)", () => {
  const names = ["scentara-2026-05-03T00-00-00-000Z.tar.gz", "scentara-2026-05-01T00-00-00-000Z.tar.gz", "scentara-2026-05-02T00-00-00-000Z.tar.gz", "notes.txt", "scentara-2026-05-02T00-00-00-000Z.manifest.json"];
  it("keeps the newest `keep` archives by the time in their name and deletes the rest; ignores other files", () => {
    expect(backupsToDelete(names, 2)).toEqual(["scentara-2026-05-01T00-00-00-000Z.tar.gz"]);
    expect(backupsToDelete(names, 1)).toEqual(["scentara-2026-05-02T00-00-00-000Z.tar.gz", "scentara-2026-05-01T00-00-00-000Z.tar.gz"]);
    expect(backupsToDelete(names, 3)).toEqual([]);
    expect(backupsToDelete(names, 7)).toEqual([]);
    expect(backupsToDelete([], 2)).toEqual([]);
  });
});

describe("isBackupDue", () => {
  const now = new Date("2026-05-02T10:00:00Z");
  it("is due with no archive, or when the newest is at least 20 hours old", () => {
    expect(isBackupDue(now, null)).toBe(true);
    expect(isBackupDue(now, new Date(now.getTime() - NIGHTLY_BACKUP_MIN_AGE_MS))).toBe(true);
    expect(isBackupDue(now, new Date(now.getTime() - NIGHTLY_BACKUP_MIN_AGE_MS + 1))).toBe(false);
    expect(isBackupDue(now, new Date(now.getTime() - 60_000))).toBe(false);
  });
});

describe("dependencyOrder", () => {
  it("puts every table after the tables it references, alphabetically where free", () => {
    const order = dependencyOrder([
      { name: "order_lines", parents: ["orders", "products"] },
      { name: "orders", parents: ["users", "shipping_zones"] },
      { name: "users", parents: [] },
      { name: "products", parents: ["categories", "products"] },
      { name: "categories", parents: [] },
      { name: "reviews", parents: ["users", "products", "gone"] },
    ]);
    expect(order).toEqual(["categories", "users", "orders", "products", "order_lines", "reviews"]);
  });
  it("puts tables caught in a cycle last instead of looping", () => {
    expect(dependencyOrder([{ name: "b", parents: ["a"] }, { name: "a", parents: ["b"] }, { name: "c", parents: [] }])).toEqual(["c", "a", "b"]);
  });
});

describe("formatBytes", () => {
  it("says sizes for people", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(1_300_000)).toBe("1.2 MB");
    expect(formatBytes(250 * 1024 * 1024)).toBe("250 MB");
  });
});
