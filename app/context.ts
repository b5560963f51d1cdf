import { createContext } from "react-router";

/** Per-request values the HTTP server hands to loaders and actions (see server/app.ts getLoadContext). */
export interface RequestInfo {
  requestId: string;
  /** CSP nonce of this response; every inline script carries it. */
  nonce: string;
  /** The client address as seen through the configured proxy chain, for rate limits. */
  ip: string;
}

export const requestInfoContext = createContext<RequestInfo>({ requestId: "-", nonce: "", ip: "unknown" });
