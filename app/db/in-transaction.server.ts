import { AsyncLocalStorage } from "node:async_hooks";
import type { Queryable, Trx } from "./db.server";

/** Wraps the body of a transaction: runs inside it, before and after the body (the activity log's entry). */
export type TransactionWrap = <T>(trx: Trx, body: () => Promise<T>) => Promise<T>;

const firstTransaction = new AsyncLocalStorage<{ wrap: TransactionWrap; used: boolean; committed: boolean }>();

/**
 * Runs `fn` in the caller's transaction, or opens one. Kysely refuses a transaction inside a transaction, so a use case
 * that must be all or nothing on its own, and may also be one step of a larger change (an admin action, which runs its
 * handler and the change's activity-log entry in one transaction: docs/decisions/060), opens its transaction here.
 *
 * Inside `withFirstTransaction(wrap, run)`, the first transaction opened here (the outermost) runs its body through
 * `wrap`: an admin action that calls an outside service (a courier, a payment provider, a mail server) runs outside a
 * transaction, and its use case's own transaction then carries the change's activity-log entry.
 */
export function inTransaction<T>(db: Queryable, fn: (trx: Trx) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Trx);
  const hook = firstTransaction.getStore();
  if (hook && !hook.used) {
    hook.used = true;
    return db
      .transaction()
      .execute((trx) => hook.wrap(trx, () => fn(trx)))
      .then((result) => {
        hook.committed = true;
        return result;
      });
  }
  return db.transaction().execute(fn);
}

/**
 * Runs `run`; the first transaction it opens through inTransaction runs its body through `wrap`. Answers whether one
 * was opened and committed (when none was, the caller does what `wrap` would have done, after `run`).
 */
export async function withFirstTransaction<T>(wrap: TransactionWrap, run: () => Promise<T>): Promise<{ result: T; wrapped: boolean }> {
  const hook = { wrap, used: false, committed: false };
  const result = await firstTransaction.run(hook, run);
  return { result, wrapped: hook.committed };
}
