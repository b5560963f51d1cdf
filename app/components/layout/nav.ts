/**
 * The header's entries (SPEC §2). Home, Our Story and Contact are sections of the home page: plain links to
 * '/#…' work without JavaScript, and React Router scrolls to the section after navigating (smoothly, through the
 * stylesheet's scroll-behavior) — from any page, it goes to the home page first.
 */
export interface NavEntry {
  label: string;
  to: string;
  /** id of the home-page section, for section links */
  section?: string;
  /** shown in the header's bar only from 1280 px (the bar, from 1024 px, has no room for it below that); always in the menu */
  widestOnly?: boolean;
  /**
   * shown in the header's bar only to signed-out visitors (from 1280 px): a signed-in bar's Admin link, cart and
   * Account menu take its room. Always in the menu and the footer.
   */
  signedOutOnly?: boolean;
}

export const NAV_ENTRIES: NavEntry[] = [
  { label: "Home", to: "/#home", section: "home" },
  { label: "Our Story", to: "/#our-story", section: "our-story" },
  { label: "Contact", to: "/#contact", section: "contact" },
  { label: "Shop", to: "/shop" },
  // issue 22: five questions, three picks (app/routes/scent-finder.tsx)
  { label: "Scent Finder", to: "/scent-finder" },
  // issue 33: gift cards sold by amount, e-mailed on a chosen day (app/routes/gift-cards.tsx)
  { label: "Gift Cards", to: "/gift-cards", widestOnly: true },
];

/** The discovery set (docs/decisions/054): in the header and footer only while samples are on (RootData.discoverySet). */
export const DISCOVERY_SET_ENTRY: NavEntry = { label: "Discovery Set", to: "/discovery-set", widestOnly: true, signedOutOnly: true };

/** The header's entries for this shop: the discovery set's only while it is offered. */
export function navEntries(discoverySet: boolean): NavEntry[] {
  return discoverySet ? [...NAV_ENTRIES, DISCOVERY_SET_ENTRY] : NAV_ENTRIES;
}

/** The header is solid on the admin area, once scrolled more than 10 px, or while the mobile menu is open. */
export const SOLID_AFTER_PX = 10;

export function isHeaderSolid(pathname: string, scrollY: number, menuOpen = false): boolean {
  return menuOpen || isAdminPath(pathname) || scrollY > SOLID_AFTER_PX;
}

export function isAdminPath(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/");
}
