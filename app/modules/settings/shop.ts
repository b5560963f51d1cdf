/** The shop's public facts as the browser sees them (browser-safe). */
export interface ShopInfo {
  name: string;
  /** International format without '+', as wa.me expects: 27821234567 */
  whatsappNumber: string;
  contactEmail: string;
  /** Storefront free-delivery threshold in cents (FREE_DELIVERY_THRESHOLD_CENTS; R599 by default). */
  freeDeliveryThresholdCents: number;
}

/** The WhatsApp chat link for the shop's number. */
export function whatsappUrl(number: string, text?: string): string {
  const digits = number.replace(/\D/g, "");
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ""}`;
}

/** A South African number for people: 27821234567 → +27 82 123 4567; anything else as +digits. */
export function formatPhone(number: string): string {
  const digits = number.replace(/\D/g, "");
  const sa = /^27(\d{2})(\d{3})(\d{4})$/.exec(digits);
  if (sa) return `+27 ${sa[1]} ${sa[2]} ${sa[3]}`;
  return `+${digits}`;
}

export interface SocialLink {
  label: "Instagram" | "Facebook" | "TikTok";
  href: string;
}

/** The shop's social profiles, named after the configured shop name ('Scentara' → @scentara). */
export function socialLinks(shopName: string): SocialLink[] {
  const handle = shopName.toLowerCase().replace(/[^a-z0-9]+/g, "");
  if (!handle) return [];
  return [
    { label: "Instagram", href: `https://www.instagram.com/${handle}` },
    { label: "Facebook", href: `https://www.facebook.com/${handle}` },
    { label: "TikTok", href: `https://www.tiktok.com/@${handle}` },
  ];
}
