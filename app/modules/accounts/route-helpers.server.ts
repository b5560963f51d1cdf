import type { RouterContextProvider } from "react-router";
import { requestInfoContext } from "~/context";
import type { RequestMeta } from "./accounts.server";

/** What the account use cases need to know about the request: client IP (for rate limits), agent, current cookie. */
export function requestMeta(request: Request, context: Readonly<RouterContextProvider>): RequestMeta {
  return {
    ip: context.get(requestInfoContext).ip || "unknown",
    userAgent: request.headers.get("user-agent"),
    cookie: request.headers.get("cookie"),
  };
}

/** Response headers carrying better-auth's Set-Cookie values (session cookie set or cleared). */
export function cookieHeaders(setCookies: string[]): Headers {
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
}
