/**
 * Redirect after login (SPEC §2): only a path on this site is followed; anything else (another site, a
 * protocol-relative '//host', a backslash trick, a javascript: URL) falls back to the default.
 */
const BASE = "http://shop.invalid";

// Browsers drop tabs and newlines from URLs and read '\' as '/', so either can turn a path into '//host'.
const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f\\]/;
// Percent-encoded forms of the same, which a later decode (ours, a proxy's or the browser's) could bring back.
const ENCODED_CONTROL_OR_BACKSLASH = /%(?:[01][0-9a-f]|7f|5c)/i;
// Exactly one '/' and then something that is neither '/' nor '\': never a scheme, never a host.
const ONE_LEADING_SLASH = /^\/(?![/\\])/;

export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to) return fallback;
  const value = to.trim();
  // The original is checked as given, because URL parsing below would quietly repair what a browser might not.
  if (!ONE_LEADING_SLASH.test(value)) return fallback;
  if (CONTROL_OR_BACKSLASH.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  // Dot segments are resolved only now ('/.//evil.example', '/%2e//evil.example' → '//evil.example'): the
  // normalised path must itself be a plain path of this site.
  if (url.pathname.startsWith("//") || ENCODED_CONTROL_OR_BACKSLASH.test(url.pathname + url.search)) return fallback;
  // Never bounce back into signing out.
  if (url.pathname === "/auth/logout") return fallback;
  const result = url.pathname + url.search + url.hash;
  // The answer is what a browser will follow: check it on its own terms once more.
  if (!ONE_LEADING_SLASH.test(result) || new URL(result, BASE).origin !== BASE) return fallback;
  return result;
}

/** /auth/login with a redirect back to `returnTo` (omitted for the home page). */
export function loginPath(returnTo?: string | null): string {
  const target = safeRedirect(returnTo ?? "/");
  return target === "/" ? "/auth/login" : `/auth/login?redirect=${encodeURIComponent(target)}`;
}
