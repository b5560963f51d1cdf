/**
 * "What the storefront shows has changed": raised by every admin use case that changes the catalogue, prices, tiers,
 * reviews, shipping or settings, once its transaction has committed. The HTTP server subscribes its visitor page
 * cache (server/app.ts), so a visitor sees the change on the very next request (docs/decisions/008).
 * App modules can't import the server, and needn't: they raise the event, whoever listens acts on it.
 *
 * Several app processes (workers, servers) share one database: the server's change feed (server/change-feed.ts,
 * docs/decisions/026) writes every change raised here to the database, and raises the changes other processes wrote
 * with storefrontChangedElsewhere(), so every process's listeners hear every change, this process's at once.
 */
import { afterCommit } from "./after-commit.server";

export type StorefrontChangeOrigin = "here" | "elsewhere";
type Listener = (reason: string, origin: StorefrontChangeOrigin) => void;

const listeners = new Set<Listener>();

export function onStorefrontChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A change made by this process (after its commit: inside the admin's dispatcher, once its transaction is done). */
export function storefrontChanged(reason: string): void {
  afterCommit(() => {
    for (const listener of listeners) listener(reason, "here");
  });
}

/** A change another process made, heard through the change feed: listeners act on it, nobody passes it on again. */
export function storefrontChangedElsewhere(reason: string): void {
  for (const listener of listeners) listener(reason, "elsewhere");
}
