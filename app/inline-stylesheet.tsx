import { createContext, useContext, useEffect } from "react";
import { useNavigation } from "react-router";
// The same stylesheet as a file of the client build, for pages that were sent only the part they use (below).
import fullStylesheet from "./app.css?url";

/**
 * The shop's whole stylesheet (Tailwind, ~13 KB gzipped) travels inside the HTML instead of as a separate,
 * render-blocking file: the first paint needs no second round trip (docs/decisions/029-inline-stylesheet.md).
 * entry.server.tsx provides the CSS text and the response's CSP nonce; on the client there is neither.
 */
export const InlineStylesheetContext = createContext<{ css: string; nonce: string } | null>(null);

/** The `<style>` element's href (React writes it as `data-href`); server/page-css.ts finds the element by it. */
export const INLINE_STYLESHEET_HREF = "app-css";

/** The `<style>` in the head. React hoists it (href + precedence) before the module preloads. */
export function InlineStylesheet() {
  const inline = useContext(InlineStylesheetContext);
  const navigating = useNavigation().state !== "idle";
  useEffect(prefetchWholeStylesheet, []);
  useEffect(() => {
    if (navigating) addWholeStylesheet();
  }, [navigating]);
  // On the client the children are empty and that is fine: a style with href and precedence is a React resource, so
  // hydration finds the server's <style data-href="app-css"> and keeps it as it is rather than rendering it again.
  return (
    <style href={INLINE_STYLESHEET_HREF} precedence="default" nonce={inline?.nonce}>
      {inline?.css ?? ""}
    </style>
  );
}

/*
 * A cached storefront page carries only the rules its markup and its own scripts use (`data-subset`,
 * server/page-css.ts, docs/decisions/048). Another page shown by client-side navigation may need others: the whole
 * stylesheet is added when the first navigation starts (its loaders take a round trip; the file is already in the
 * cache, fetched while idle after the load), so the new page shows styled. Not earlier: applying a second stylesheet
 * restyles the whole page (~100-300 ms on a throttled phone, measured by Lighthouse), which a navigation pays anyway.
 * Its rules are the inlined ones' superset in the same order, so nothing already on screen changes.
 */
const subsetOnly = () => document.querySelector(`style[data-href="${INLINE_STYLESHEET_HREF}"][data-subset]`) !== null;

function prefetchWholeStylesheet() {
  if (!subsetOnly()) return;
  const prefetch = () => {
    const link = document.createElement("link");
    link.rel = "prefetch";
    link.as = "style";
    link.href = fullStylesheet;
    document.head.append(link);
  };
  const whenIdle = () => ("requestIdleCallback" in window ? requestIdleCallback(prefetch, { timeout: 5_000 }) : setTimeout(prefetch, 1_000));
  if (document.readyState === "complete") whenIdle();
  else addEventListener("load", whenIdle, { once: true });
}

function addWholeStylesheet() {
  if (!subsetOnly() || document.querySelector(`link[rel="stylesheet"][href="${fullStylesheet}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = fullStylesheet;
  document.head.append(link);
}
