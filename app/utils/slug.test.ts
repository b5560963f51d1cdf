import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { categorySlug, isSlug, slugify } from "./slug";

describe("slugify (new product slugs, SPEC §5)", () => {
  it.each([
    ["Velvet Oud", "velvet-oud"],
    ["  Amber & Smoke No. 7  ", "amber-smoke-no-7"],
    ["--Rose--Noir--", "rose-noir"],
    ["Crème Brûlée", "creme-brulee"],
    ["ÉCLAT d'Été", "eclat-d-ete"],
    ["100% Pure", "100-pure"],
    ["", ""],
    ["!!!", ""],
  ])("%j → %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it("always yields a valid slug or nothing, and is idempotent", () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const slug = slugify(name);
        return (slug === "" || isSlug(slug)) && slugify(slug) === slug;
      }),
    );
  });
});

describe("categorySlug (SPEC §5: lower-cased, spaces turned into '-')", () => {
  it.each([
    ["For Him", "for-him"],
    ["  For   Her ", "for-her"],
    ["Unisex", "unisex"],
  ])("%j → %j", (name, slug) => {
    expect(categorySlug(name)).toBe(slug);
  });
});
