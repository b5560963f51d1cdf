/**
 * "What the storefront shows has changed": raised by every admin use case that changes the catalogue, prices, tiers,
 * reviews, shipping or settings, once its transaction has committed. The HTTP server subscribes its visitor page
 * cache (server/app.ts), so a visitor sees the change on the very next request (docs/decisions/008).
 * App modules can't import the server, and needn't: they raise the event, whoever listens acts on it.
 */
type Listener = (reason: string) => void;

const listeners = new Set<Listener>();

export function onStorefrontChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function storefrontChanged(reason: string): void {
  for (const listener of listeners) listener(reason);
}
