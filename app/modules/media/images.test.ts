import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { DEFAULT_PRODUCT_IMAGES, defaultProductImage, IMAGE_WIDTHS, inlineOnPhone, PLACEHOLDER_IMAGE, sizedImage, srcSetFor } from "./images";

const stored = "/media/products/velvet-oud-3f9a2c1b-1200.webp";

describe("product image URLs", () => {
  it("marks the phone's rendition of a page's largest image, and nothing for a URL off the convention", () => {
    expect(inlineOnPhone(stored, 800)).toEqual({ "data-inline-on-phone": "/media/products/velvet-oud-3f9a2c1b-800.webp" });
    expect(inlineOnPhone("https://cdn.example.com/photo.jpg", 400)).toEqual({});
  });

  it("has three widths, largest last", () => {
    expect([...IMAGE_WIDTHS]).toEqual([400, 800, 1200]);
  });

  it("swaps the width of a stored rendition", () => {
    expect(sizedImage(stored, 400)).toBe("/media/products/velvet-oud-3f9a2c1b-400.webp");
    expect(sizedImage(stored, 800)).toBe("/media/products/velvet-oud-3f9a2c1b-800.webp");
    expect(sizedImage(stored, 1200)).toBe(stored);
    expect(sizedImage("/media/products/x-abc-400.webp", 1200)).toBe("/media/products/x-abc-1200.webp");
  });

  it("keeps names that contain digits intact", () => {
    expect(sizedImage("/media/products/no-5-800-ab12cd34-1200.webp", 400)).toBe("/media/products/no-5-800-ab12cd34-400.webp");
  });

  it("returns other URLs unchanged", () => {
    for (const url of [PLACEHOLDER_IMAGE, "https://cdn.example.com/a.jpg", "/media/products/a-1200.png", "/media/a-1200.webp?v=2", "", "/media/a-600.webp"]) {
      expect(sizedImage(url, 400)).toBe(url);
      expect(srcSetFor(url)).toBeUndefined();
    }
  });

  it("returns the URL unchanged for a width that has no rendition", () => {
    expect(sizedImage(stored, 600)).toBe(stored);
  });

  it("lists every rendition in the srcset", () => {
    expect(srcSetFor(stored)).toBe(
      "/media/products/velvet-oud-3f9a2c1b-400.webp 400w, /media/products/velvet-oud-3f9a2c1b-800.webp 800w, /media/products/velvet-oud-3f9a2c1b-1200.webp 1200w",
    );
  });

  it("points the placeholder at a static file", () => {
    expect(PLACEHOLDER_IMAGE).toBe("/images/placeholder.svg");
  });
});

describe("default product image by category (SPEC §5)", () => {
  it("gives the ladies image to women's categories, checked before 'men' and 'male'", () => {
    for (const slug of ["for-her", "women", "womens-fragrances", "female", "ladies"]) expect(defaultProductImage(slug), slug).toBe(DEFAULT_PRODUCT_IMAGES.ladies);
  });

  it("gives the men's image to men's categories and to everything else", () => {
    for (const slug of ["for-him", "men", "male", "unisex", "gift-sets", "", null, undefined, "heritage"]) expect(defaultProductImage(slug), String(slug)).toBe(DEFAULT_PRODUCT_IMAGES.men);
  });

  it("points at static files that exist in every width", () => {
    for (const url of Object.values(DEFAULT_PRODUCT_IMAGES)) {
      for (const w of IMAGE_WIDTHS) expect(existsSync(`public${sizedImage(url, w)}`), sizedImage(url, w)).toBe(true);
      expect(srcSetFor(url)).toContain("-400.webp 400w");
    }
    expect(existsSync(`public${PLACEHOLDER_IMAGE}`)).toBe(true);
  });
});
