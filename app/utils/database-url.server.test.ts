import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";
import { DATABASE_URL_FORMS, parseDatabaseUrl } from "./database-url.server";

const shop = "/srv/scentara";

describe("DATABASE_URL: the forms it takes", () => {
  it.each([
    ["data/shop.db", "/srv/scentara/data/shop.db"],
    ["./data/shop.db", "/srv/scentara/data/shop.db"],
    ["/var/lib/scentara/shop.db", "/var/lib/scentara/shop.db"],
    ["file:/var/lib/scentara/shop.db", "/var/lib/scentara/shop.db"],
    ["file:///var/lib/scentara/shop.db", "/var/lib/scentara/shop.db"],
    ["file://localhost/var/lib/scentara/shop.db", "/var/lib/scentara/shop.db"],
    ["file:data/shop.db", "/srv/scentara/data/shop.db"],
    ["file:shop.db", "/srv/scentara/shop.db"],
    ["file:///var/lib/my%20shop/shop.db", "/var/lib/my shop/shop.db"],
    ["file:my%20shop.db", "/srv/scentara/my shop.db"],
    ["  data/shop.db  ", "/srv/scentara/data/shop.db"],
    // a colon after the first slash is part of a file name, not a scheme
    ["data/shop:2026.db", "/srv/scentara/data/shop:2026.db"],
  ])("%s is the SQLite file %s", (value, path) => {
    expect(parseDatabaseUrl(value, shop)).toEqual({ kind: "sqlite", path });
  });

  it("never answers a path that begins with file: (no folder named file: is made anywhere)", () => {
    for (const value of ["file:/srv/shop.db", "file:shop.db", "file:///srv/shop.db"]) {
      const location = parseDatabaseUrl(value, shop);
      expect(location.kind === "sqlite" && location.path.startsWith("/")).toBe(true);
      expect(JSON.stringify(location)).not.toContain("file:");
    }
  });

  it.each([":memory:", "file::memory:"])("%s is an in-memory SQLite database", (value) => {
    expect(parseDatabaseUrl(value, shop)).toEqual({ kind: "sqlite-memory" });
  });

  it.each([
    "postgres://scentara:secret@127.0.0.1:5432/scentara",
    "postgresql://scentara@db.example.co.za/scentara?sslmode=require",
    "postgres:///scentara?host=/var/run/postgresql",
  ])("%s is PostgreSQL, the URL as given", (url) => {
    expect(parseDatabaseUrl(url, shop)).toEqual({ kind: "postgres", url });
  });

  it("takes the unset default, data/shop.db, from the shop's folder", () => {
    expect(parseDatabaseUrl(parseEnv({}).DATABASE_URL, shop)).toEqual({ kind: "sqlite", path: "/srv/scentara/data/shop.db" });
  });
});

describe("DATABASE_URL: what it refuses, naming the variable and the forms", () => {
  it.each([
    ["mysql://shop:secret@db/shop", /starts with mysql:/],
    ["sqlite://data/shop.db", /starts with sqlite:/],
    ["sqlite:data/shop.db", /starts with sqlite:/],
    ["http://db.example.co.za/shop", /starts with http:/],
    ["", /is empty \(leave it unset for data\/shop.db\)/],
    ["   ", /is empty/],
    ["postgres:db.example.co.za", /without the \/\//],
    ["postgres://scentara:sec ret@[bad/scentara", /is not a valid postgres:\/\/ URL/],
    ["file:", /no file name/],
    ["file:data/", /no file name/],
    ["file:///", /naming a folder/],
    ["file://backup-server/srv/shop.db", /another host/],
    ["file:/srv/shop.db?mode=ro", /\?options/],
    ["file:shop%zz.db", /%-escape/],
  ])("%j", (value, problem) => {
    const refuse = () => parseDatabaseUrl(value, shop);
    expect(refuse).toThrow(problem);
    expect(refuse).toThrow(/^DATABASE_URL /);
    expect(refuse).toThrow(DATABASE_URL_FORMS);
  });

  it("keeps a password out of the message", () => {
    expect(() => parseDatabaseUrl("mysql://shop:hunter2@db/shop", shop)).toThrow(expect.objectContaining({ message: expect.not.stringContaining("hunter2") }));
    expect(() => parseDatabaseUrl("postgres://shop:hunter2@[bad/shop", shop)).toThrow(expect.objectContaining({ message: expect.not.stringContaining("hunter2") }));
  });

  it("stops the start: the configuration is refused with the same message", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://shop@db/shop" })).toThrow(/Invalid configuration:\n {2}DATABASE_URL: starts with mysql:.*postgres:\/\//s);
    expect(() => parseEnv({ DATABASE_URL: "" })).toThrow(/DATABASE_URL: is empty/);
    expect(parseEnv({ DATABASE_URL: "file:/srv/shop.db" }).DATABASE_URL).toBe("file:/srv/shop.db");
  });
});
