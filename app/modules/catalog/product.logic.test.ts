import { describe, expect, it } from "vitest";
import type { ReviewSummary } from "~/modules/reviews/reviews.logic";
import type { ProductDetail } from "./catalog.types";
import {
  formatDateZA,
  isoDateZA,
  isProductQuantity,
  PRODUCT_QUANTITIES,
  productJsonLd,
  productSeoText,
  ratingText,
  splitScentNotes,
  tierRangeLabel,
} from "./product.logic";

const product: ProductDetail = {
  id: "p1",
  name: "Velvet Oud",
  slug: "velvet-oud",
  description: "A warm, smoky oud.\n\nTop notes: saffron, pink pepper\nHeart notes: rose\nBase notes: oud, amber and musk",
  priceCents: 45000,
  wasPriceCents: null,
  images: ["/media/products/velvet-oud-1200.webp"],
  categoryName: "For Him",
  categorySlug: "for-him",
  metaTitle: null,
  metaDesc: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  stock: null,
  inspiredHouse: "Maison Francis Kurkdjian",
  inspiredFragrance: "Oud Satin Mood",
  sizeMl: 100,
};

describe("quantities", () => {
  it("are exactly 1–6, 10, 20, 50, 100", () => {
    expect(PRODUCT_QUANTITIES).toEqual([1, 2, 3, 4, 5, 6, 10, 20, 50, 100]);
    expect(isProductQuantity(10)).toBe(true);
    expect(isProductQuantity(7)).toBe(false);
    expect(isProductQuantity(0)).toBe(false);
  });
});

describe("tierRangeLabel", () => {
  it("shows min–max, N+ for open-ended, a single number when equal", () => {
    expect(tierRangeLabel({ minQuantity: 5, maxQuantity: 9 })).toBe("5–9");
    expect(tierRangeLabel({ minQuantity: 10, maxQuantity: null })).toBe("10+");
    expect(tierRangeLabel({ minQuantity: 3, maxQuantity: 3 })).toBe("3");
  });
});

describe("splitScentNotes", () => {
  it("separates prose from the note pyramid", () => {
    expect(splitScentNotes(product.description)).toEqual({
      paragraphs: ["A warm, smoky oud."],
      notes: [
        { label: "Top notes", notes: ["saffron", "pink pepper"] },
        { label: "Heart notes", notes: ["rose"] },
        { label: "Base notes", notes: ["oud", "amber", "musk"] },
      ],
    });
  });
  it("accepts variants: 'Top:', 'Middle notes -', 'Notes:'", () => {
    const out = splitScentNotes("Top: bergamot; lemon.\nMiddle notes - jasmine\nNotes: vanilla · tonka");
    expect(out.notes).toEqual([
      { label: "Top notes", notes: ["bergamot", "lemon"] },
      { label: "Heart notes", notes: ["jasmine"] },
      { label: "Notes", notes: ["vanilla", "tonka"] },
    ]);
    expect(out.paragraphs).toEqual([]);
  });
  it("leaves a description without notes as paragraphs (single line breaks joined)", () => {
    expect(splitScentNotes("First line\ncontinues.\n\nSecond paragraph.")).toEqual({
      paragraphs: ["First line continues.", "Second paragraph."],
      notes: [],
    });
  });
  it("does not mistake prose with a colon for notes", () => {
    expect(splitScentNotes("Note: limited edition.\nInspired by: a classic.").notes).toEqual([]);
  });
  it("handles an empty description", () => {
    expect(splitScentNotes("")).toEqual({ paragraphs: [], notes: [] });
  });
});

describe("dates (en-ZA, South African time)", () => {
  it("writes the day, month name and year", () => {
    expect(formatDateZA("2025-03-05T10:00:00.000Z")).toBe("5 March 2025");
  });
  it("uses SAST (UTC+2) for the day", () => {
    expect(formatDateZA("2025-12-31T22:30:00.000Z")).toBe("1 January 2026");
    expect(isoDateZA("2025-12-31T22:30:00.000Z")).toBe("2026-01-01");
  });
  it("is empty for garbage", () => {
    expect(formatDateZA("not a date")).toBe("");
  });
});

describe("ratingText", () => {
  it("reads the rating out of 5", () => {
    expect(ratingText(4.5)).toBe("Rated 4.5 out of 5");
    expect(ratingText(4)).toBe("Rated 4 out of 5");
    expect(ratingText(3.67)).toBe("Rated 3.7 out of 5");
  });
});

describe("productSeoText", () => {
  it("uses meta title and description when set", () => {
    expect(productSeoText({ ...product, metaTitle: "Velvet Oud Perfume", metaDesc: "Smoky." }, "Scentara")).toEqual({
      title: "Velvet Oud Perfume",
      description: "Smoky.",
    });
  });
  it("falls back to name and description", () => {
    const out = productSeoText({ ...product, metaTitle: "  ", description: "Warm\n oud." }, "Scentara");
    expect(out).toEqual({ title: "Velvet Oud | Scentara", description: "Warm oud." });
  });
  it("has a description even without one", () => {
    expect(productSeoText({ ...product, description: "" }, "Scentara").description).toMatch(/^Velvet Oud, for him: /);
  });
});

describe("productJsonLd", () => {
  const reviews: ReviewSummary = {
    count: 7,
    average: 4.3,
    reviews: Array.from({ length: 7 }, (_, i) => ({
      id: `r${i}`,
      rating: i % 2 ? 4 : 5,
      comment: `Comment ${i}`,
      createdAt: "2025-02-01T08:00:00.000Z",
      author: i ? `buyer${i}` : "Anonymous",
    })),
  };

  it("has the real offer: decimal price, ZAR, in stock, absolute url", () => {
    const ld = productJsonLd(product, null, "https://shop.example", "Scentara") as any;
    expect(ld["@type"]).toBe("Product");
    expect(ld.offers).toMatchObject({
      "@type": "Offer",
      price: "450.00",
      priceCurrency: "ZAR",
      availability: "https://schema.org/InStock",
      url: "https://shop.example/products/velvet-oud",
    });
    expect(ld.image).toEqual(["https://shop.example/media/products/velvet-oud-1200.webp"]);
  });

  it("says out of stock when no bottle is left, in stock otherwise or when stock is not tracked", () => {
    const ld = (stock: number | null) => (productJsonLd({ ...product, stock }, null, "https://shop.example", "Scentara") as any).offers.availability;
    expect(ld(0)).toBe("https://schema.org/OutOfStock");
    expect(ld(1)).toBe("https://schema.org/InStock");
    expect(ld(null)).toBe("https://schema.org/InStock");
  });

  it("has one Offer per size for a product sold in several, each with its price, SKU, stock and ?size= link", () => {
    const size = (code: string, priceCents: number, stock: number | null, sku: string | null) => ({ id: code, code, label: code.replace("ml", " ml"), sizeMl: null, priceCents, wasPriceCents: null, stock, sku });
    const ld = productJsonLd(product, null, "https://shop.example", "Scentara", [size("50ml", 45000, null, null), size("100ml", 75000, 0, "VO-100")]) as any;
    expect(ld.offers).toEqual([
      { "@type": "Offer", name: "50 ml", sku: "velvet-oud-50ml", price: "450.00", priceCurrency: "ZAR", availability: "https://schema.org/InStock", url: "https://shop.example/products/velvet-oud?size=50ml", seller: { "@type": "Organization", name: "Scentara" } },
      { "@type": "Offer", name: "100 ml", sku: "VO-100", price: "750.00", priceCurrency: "ZAR", availability: "https://schema.org/OutOfStock", url: "https://shop.example/products/velvet-oud?size=100ml", seller: { "@type": "Organization", name: "Scentara" } },
    ]);
    // one size: the product's own Offer, as before sizes
    const one = productJsonLd(product, null, "https://shop.example", "Scentara", [size("50ml", 45000, null, null)]) as any;
    expect(one.offers).toMatchObject({ "@type": "Offer", price: "450.00", url: "https://shop.example/products/velvet-oud" });
  });

  it("keeps the shop as the brand: the inspired-by house and fragrance are never claimed", () => {
    const ld = productJsonLd(product, null, "https://shop.example", "Scentara") as any;
    expect(ld.brand).toEqual({ "@type": "Brand", name: "Scentara" });
    const text = JSON.stringify(ld);
    expect(text).not.toContain("Kurkdjian");
    expect(text).not.toContain("Oud Satin Mood");
  });

  it("has no rating without reviews (never a made-up one)", () => {
    const ld = productJsonLd(product, { count: 0, average: null, reviews: [] }, "https://shop.example", "Scentara") as any;
    expect(ld.aggregateRating).toBeUndefined();
    expect(ld.review).toBeUndefined();
  });

  it("adds the aggregate rating and at most 5 reviews", () => {
    const ld = productJsonLd(product, reviews, "https://shop.example", "Scentara") as any;
    expect(ld.aggregateRating).toMatchObject({ ratingValue: "4.3", reviewCount: 7, bestRating: 5 });
    expect(ld.review).toHaveLength(5);
    expect(ld.review[0]).toMatchObject({ author: { name: "Anonymous" }, datePublished: "2025-02-01", reviewRating: { ratingValue: 5 } });
  });
});
