import { AsyncLocalStorage } from "node:async_hooks";
import { logger } from "./logger.server";

/**
 * Effects that must follow a commit, not precede it: telling the visitor page cache that the storefront changed, and
 * forgetting remembered sessions after a role change. A use case raises them "once its transaction has committed";
 * but the admin's dispatcher runs a use case inside its own transaction (the change and its activity-log entry
 * commit together, docs/decisions/060), so the use case's "after" is still before the real commit. A visitor request
 * arriving in between would cache the old page again, or a session look-up remember the old role.
 *
 * So the dispatcher runs its work in `deferringEffects`: effects raised inside wait there and run when the work is
 * done (committed or rolled back: a needless cache drop or session look-up is harmless; a missed one is not). Outside
 * such a scope an effect runs at once, as before.
 */
type Effect = () => void | Promise<void>;
const scope = new AsyncLocalStorage<Effect[]>();

export async function deferringEffects<T>(work: () => Promise<T>): Promise<T> {
  const queue: Effect[] = [];
  try {
    return await scope.run(queue, work);
  } finally {
    // in order, each awaited (a flow's messages: flows/reactions.server.ts), so the answer follows what it did
    for (const effect of queue) {
      // the change has committed: an effect that fails is logged, it doesn't turn the answer into an error
      await Promise.resolve()
        .then(effect)
        .catch((error: unknown) => logger.error({ err: error }, "an effect after the commit failed"));
    }
  }
}

/** Runs `effect` now, or, inside deferringEffects, when its work is done. */
export function afterCommit(effect: () => void): void {
  const queue = scope.getStore();
  if (queue) queue.push(effect);
  else effect();
}

/**
 * Runs `effect` now when the caller's transaction is its own and has committed (`inTransaction` false), or, inside
 * deferringEffects, when the work is done. Answers false when neither holds: the caller's transaction is still open and
 * nothing will run the effect after it (the caller's own affair; a reaction's job then takes it: flows/reactions).
 */
export async function afterCommitAsync(inTransaction: boolean, effect: () => Promise<void>): Promise<boolean> {
  const queue = scope.getStore();
  if (queue) {
    queue.push(effect);
    return true;
  }
  if (inTransaction) return false;
  await effect();
  return true;
}
