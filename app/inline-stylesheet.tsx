import { createContext, useContext } from "react";

/**
 * The shop's whole stylesheet (Tailwind, ~13 KB gzipped) travels inside the HTML instead of as a separate,
 * render-blocking file: the first paint needs no second round trip (docs/decisions/029-inline-stylesheet.md).
 * entry.server.tsx provides the CSS text and the response's CSP nonce; on the client there is neither.
 */
export const InlineStylesheetContext = createContext<{ css: string; nonce: string } | null>(null);

/** The `<style>` in the head. React hoists it (href + precedence) before the module preloads. */
export function InlineStylesheet() {
  const inline = useContext(InlineStylesheetContext);
  // On the client the children are empty and that is fine: a style with href and precedence is a React resource, so
  // hydration finds the server's <style data-href="app-css"> and keeps it as it is rather than rendering it again.
  return (
    <style href="app-css" precedence="default" nonce={inline?.nonce}>
      {inline?.css ?? ""}
    </style>
  );
}
