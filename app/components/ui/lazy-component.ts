import { lazy, type ComponentType } from "react";

/**
 * A component whose code the browser downloads only when a page renders it (one that is on a page only in rare states:
 * a verified buyer's review form, a sold-out product's "Notify me"), to keep the storefront's first load within its
 * JavaScript budget (DESIGN.md). Only for the browser: the server imports the component eagerly,
 *
 *   const Form = import.meta.env.SSR ? (await import("./form")).Form : lazyComponent(() => import("./form").then((m) => m.Form));
 *
 * and renders it inside a <Suspense> that then never suspends there, so the HTML streamed with the shell is whole
 * (a suspended boundary would arrive hidden, revealed only by script: nothing for a shopper without JavaScript).
 * In the browser the boundary keeps the server's HTML in place while the code loads, then hydrates it.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}
