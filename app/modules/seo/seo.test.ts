import { describe, expect, it } from "vitest";
import { absoluteUrl, canonicalPath, seoMeta, truncateDescription } from "./seo";
import { productItemListJsonLd, organizationJsonLd } from "./structured-data";

describe("absoluteUrl", () => {
  it.each([
    ["https://scentara.co.za", "/shop", "https://scentara.co.za/shop"],
    ["https://scentara.co.za/", "/shop", "https://scentara.co.za/shop"],
    ["https://scentara.co.za//", "shop", "https://scentara.co.za/shop"],
    ["https://scentara.co.za", "/", "https://scentara.co.za/"],
    ["https://scentara.co.za", "https://cdn.example.com/a.png", "https://cdn.example.com/a.png"],
  ])("%s + %s → %s", (base, path, expected) => {
    expect(absoluteUrl(base, path)).toBe(expected);
  });
});

describe("canonicalPath", () => {
  it("drops query strings, fragments and trailing slashes", () => {
    expect(canonicalPath("/shop?category=men#top")).toBe("/shop");
    expect(canonicalPath("/products/oud/")).toBe("/products/oud");
    expect(canonicalPath("/")).toBe("/");
    expect(canonicalPath("")).toBe("/");
  });
});

describe("truncateDescription", () => {
  it("keeps short text and cuts long text at a word under the limit", () => {
    expect(truncateDescription("  A  short\ntext ")).toBe("A short text");
    const long = "word ".repeat(60);
    const cut = truncateDescription(long);
    expect(cut.length).toBeLessThanOrEqual(160);
    expect(cut.endsWith("…")).toBe(true);
    expect(cut).not.toMatch(/wor…$/);
  });
});

describe("seoMeta", () => {
  const meta = seoMeta({
    title: "Velvet Oud | Scentara",
    description: "A deep, smoky oud.",
    path: "/products/velvet-oud?ref=ig",
    baseUrl: "https://scentara.co.za/",
    type: "product",
    image: "/media/products/velvet-oud-1200.webp",
    siteName: "Scentara",
  });
  const find = (key: string, value: string) => meta.find((m) => (m as Record<string, unknown>)[key] === value) as Record<string, string> | undefined;

  it("sets the title and description", () => {
    expect(meta).toContainEqual({ title: "Velvet Oud | Scentara" });
    expect(find("name", "description")?.content).toBe("A deep, smoky oud.");
  });

  it("sets an absolute canonical link without the query string", () => {
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://scentara.co.za/products/velvet-oud" });
  });

  it("sets Open Graph and Twitter card tags from the same facts", () => {
    expect(find("property", "og:title")?.content).toBe("Velvet Oud | Scentara");
    expect(find("property", "og:description")?.content).toBe("A deep, smoky oud.");
    expect(find("property", "og:url")?.content).toBe("https://scentara.co.za/products/velvet-oud");
    expect(find("property", "og:type")?.content).toBe("product");
    expect(find("property", "og:image")?.content).toBe("https://scentara.co.za/media/products/velvet-oud-1200.webp");
    expect(find("property", "og:site_name")?.content).toBe("Scentara");
    expect(find("property", "og:locale")?.content).toBe("en_ZA");
    expect(find("name", "twitter:card")?.content).toBe("summary_large_image");
    expect(find("name", "twitter:title")?.content).toBe("Velvet Oud | Scentara");
    expect(find("name", "twitter:image")?.content).toBe("https://scentara.co.za/media/products/velvet-oud-1200.webp");
  });

  it("defaults to a website with the shop's default image, indexable", () => {
    const m = seoMeta({ title: "T", description: "D", path: "/", baseUrl: "http://localhost:3000" });
    const og = (p: string) => (m.find((x) => (x as Record<string, unknown>).property === p) as Record<string, string>).content;
    expect(og("og:type")).toBe("website");
    expect(og("og:image")).toBe("http://localhost:3000/og-image.png");
    expect(m.some((x) => (x as Record<string, unknown>).name === "robots")).toBe(false);
  });

  it("marks noindex pages", () => {
    const m = seoMeta({ title: "T", description: "D", path: "/x", baseUrl: "http://localhost:3000", noindex: true });
    expect(m).toContainEqual({ name: "robots", content: "noindex, follow" });
  });
});

describe("structured data", () => {
  it("Organization carries the configured name, URL and contacts", () => {
    const org = organizationJsonLd({ name: "Scentara", whatsappNumber: "27821234567", contactEmail: "hi@example.co.za", freeDeliveryThresholdCents: 59900 }, "https://s.co.za");
    expect(org).toMatchObject({ "@type": "Organization", name: "Scentara", url: "https://s.co.za/", email: "hi@example.co.za" });
    expect(org.contactPoint[0].telephone).toBe("+27-82-123-4567");
  });

  it("ItemList holds at most 10 products with absolute URLs and rand prices", () => {
    const products = Array.from({ length: 12 }, (_, i) => ({ name: `P${i}`, slug: `p-${i}`, priceCents: 34999 + i, image: i === 0 ? "/media/a-1200.webp" : null }));
    const list = productItemListJsonLd(products, "https://s.co.za", 10);
    expect(list.itemListElement).toHaveLength(10);
    expect(list.itemListElement[0]).toMatchObject({
      position: 1,
      url: "https://s.co.za/products/p-0",
      item: { "@type": "Product", name: "P0", image: "https://s.co.za/media/a-1200.webp", offers: { price: "349.99", priceCurrency: "ZAR" } },
    });
    expect(list.itemListElement[1].item).not.toHaveProperty("image");
  });
});
