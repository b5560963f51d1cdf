/**
 * Redirect after login (SPEC §2): only a path on this site is followed; anything else (another site, a
 * protocol-relative '//host', a backslash trick, a javascript: URL) falls back to the default.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to) return fallback;
  const value = to.trim();
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // Control characters and backslashes can be normalised by browsers into another host.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  try {
    const base = "http://shop.invalid";
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
    // Dot segments are resolved only now ('/.//evil.example' → '//evil.example'), and an encoded backslash or control
    // character can be decoded by a browser later: the result itself must be a plain path of this site.
    if (url.pathname.startsWith("//") || /%5c|%0[0-9a-d]|%1[0-9a-f]|%7f/i.test(url.pathname + url.search)) return fallback;
    // Never bounce back into the auth pages themselves.
    if (url.pathname === "/auth/logout") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** /auth/login with a redirect back to `returnTo` (omitted for the home page). */
export function loginPath(returnTo?: string | null): string {
  const target = safeRedirect(returnTo ?? "/");
  return target === "/" ? "/auth/login" : `/auth/login?redirect=${encodeURIComponent(target)}`;
}
