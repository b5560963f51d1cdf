import { AsyncLocalStorage } from "node:async_hooks";

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
const scope = new AsyncLocalStorage<Array<() => void>>();

export async function deferringEffects<T>(work: () => Promise<T>): Promise<T> {
  const queue: Array<() => void> = [];
  try {
    return await scope.run(queue, work);
  } finally {
    for (const effect of queue) effect();
  }
}

/** Runs `effect` now, or, inside deferringEffects, when its work is done. */
export function afterCommit(effect: () => void): void {
  const queue = scope.getStore();
  if (queue) queue.push(effect);
  else effect();
}
