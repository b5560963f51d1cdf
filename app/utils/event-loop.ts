/**
 * Lets the process answer what is waiting (requests, timers, I/O) before going on. A long piece of work on SQLite
 * (whose driver is synchronous: every statement blocks the process) or in plain JavaScript calls it between two steps,
 * so a shopper's page waits for one step, not for the whole work. Promises alone don't: their callbacks run before
 * any I/O.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
