import { useRouteLoaderData } from "react-router";
import type { ShopInfo } from "./shop";

/**
 * What the root loader gives every page: whether someone is signed in and as what, the shop's public facts, the public
 * base URL. Only the role: storefront pages are shared by everyone of a role (docs/decisions/023), so nothing personal
 * (not even the e-mail) may be in here; the account menu asks /api/me for the e-mail when it is opened.
 */
export interface RootUser {
  isAdmin: boolean;
}

/** /api/me's answer: the signed-in user's own e-mail (null for a visitor). */
export interface Me {
  email: string | null;
}

export interface RootData {
  user: RootUser | null;
  shop: ShopInfo;
  baseUrl: string;
  /** the header and footer link to /discovery-set (samples on; the same for everyone: docs/decisions/054 addendum) */
  discoverySet: boolean;
  /** the footer links to /rewards (the rewards programme on; the same for everyone: issue 40). Absent: off */
  rewards?: boolean;
}

/** Only while the root loader has no data (an error before it ran): empty facts, so nothing wrong is shown. */
export const EMPTY_ROOT_DATA: RootData = {
  user: null,
  shop: { name: "", whatsappNumber: "", contactEmail: "", freeDeliveryThresholdCents: 0 },
  baseUrl: "",
  discoverySet: false,
  rewards: false,
};

/** The root loader's data from any route or component: shop name, WhatsApp number, contact e-mail, base URL, user. */
export function useRootData(): RootData {
  return (useRouteLoaderData("root") as RootData | undefined) ?? EMPTY_ROOT_DATA;
}

/** The root loader's data inside a meta function (from its `matches`). */
export function rootDataOf(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>): RootData {
  const root = matches.find((m) => m?.id === "root");
  return (root?.loaderData as RootData | undefined) ?? EMPTY_ROOT_DATA;
}
