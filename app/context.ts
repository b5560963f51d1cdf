import { createContext } from "react-router";

/** Per-request values the HTTP server hands to loaders and actions (see server/app.ts getLoadContext). */
export interface RequestInfo {
  requestId: string;
  /** CSP nonce of this response; every inline script carries it. */
  nonce: string;
  /** The client address as seen through the configured proxy chain, for rate limits. */
  ip: string;
  /**
   * Set when the page is rendered once for everyone of this audience (the shared page cache, server/page-cache.ts):
   * loaders then decide by the audience alone and must not read the session or anything personal — whatever they
   * return is served to every visitor, every customer or every admin. Unset: an ordinary render for this request.
   */
  audience?: PageAudience;
}

/** Who a shared page is rendered for: the header and the page differ only by role (docs/decisions/023). */
export type PageAudience = "visitor" | "customer" | "admin";

export const requestInfoContext = createContext<RequestInfo>({ requestId: "-", nonce: "", ip: "unknown" });
