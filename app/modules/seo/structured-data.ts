import type { ShopInfo } from "~/modules/settings/shop";
import { formatPhone } from "~/modules/settings/shop";
import { toDecimalString } from "~/utils/money";
import { absoluteUrl } from "./seo";

/** schema.org data for search engines (browser-safe builders; rendered with <JsonLd>). */

export function organizationJsonLd(shop: ShopInfo, baseUrl: string, sameAs: string[] = []) {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    "@id": absoluteUrl(baseUrl, "/#organization"),
    name: shop.name,
    url: absoluteUrl(baseUrl, "/"),
    logo: absoluteUrl(baseUrl, "/favicon.svg"),
    email: shop.contactEmail,
    ...(sameAs.length ? { sameAs } : {}),
    contactPoint: [
      {
        "@type": "ContactPoint",
        contactType: "customer service",
        email: shop.contactEmail,
        telephone: formatPhone(shop.whatsappNumber).replace(/ /g, "-"),
        areaServed: "ZA",
        availableLanguage: ["en"],
      },
    ],
  };
}

export interface ItemListProduct {
  name: string;
  slug: string;
  priceCents: number;
  image: string | null;
}

/** An ItemList of products (home shows up to 10), each a Product with its rand Offer. */
export function productItemListJsonLd(products: ItemListProduct[], baseUrl: string, max = 10) {
  return {
    "@context": "https://schema.org",
    "@type": "ItemList",
    itemListElement: products.slice(0, max).map((p, i) => {
      const url = absoluteUrl(baseUrl, `/products/${p.slug}`);
      return {
        "@type": "ListItem",
        position: i + 1,
        url,
        item: {
          "@type": "Product",
          name: p.name,
          url,
          ...(p.image ? { image: absoluteUrl(baseUrl, p.image) } : {}),
          offers: {
            "@type": "Offer",
            price: toDecimalString(p.priceCents),
            priceCurrency: "ZAR",
            availability: "https://schema.org/InStock",
            url,
          },
        },
      };
    }),
  };
}
