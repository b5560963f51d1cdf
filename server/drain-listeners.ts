import type { RequestHandler } from "express";

type Listener = (...args: unknown[]) => void;

/**
 * One "drain" listener per response, in front of which the waits for a drain queue.
 *
 * The `compression` middleware forwards `res.on("drain")` to its zlib stream but not `res.removeListener`
 * (expressjs/compression#135 and #152, open): React Router's writer waits for every backpressured write with
 * `res.once("drain")` and removes the listener afterwards, so each wait left a listener on the zlib stream. Streaming
 * the accountant's export of every order, thousands were left (MaxListenersExceededWarning), and each later drain
 * called them all. Mounted right after `compression`, this keeps the waits in a set here and registers one listener
 * (through `res.on`, which reaches the zlib stream when there is one) that hands each drain to the waits made since.
 */
export function oneDrainListener(): RequestHandler {
  return (_req, res, next) => {
    let waiting = new Set<Listener>();
    let listening = false;
    const { once, removeListener } = res;
    res.once = function (this: typeof res, event: string | symbol, listener: Listener) {
      if (event !== "drain") return once.call(this, event, listener);
      waiting.add(listener);
      if (!listening) {
        listening = true;
        res.on("drain", (...args: unknown[]) => {
          const drained = waiting;
          waiting = new Set();
          for (const wait of drained) wait(...args);
        });
      }
      return this;
    } as typeof res.once;
    const remove = function (this: typeof res, event: string | symbol, listener: Listener) {
      if (event === "drain" && waiting.delete(listener)) return this;
      return removeListener.call(this, event, listener);
    } as typeof res.removeListener;
    res.removeListener = remove;
    res.off = remove;
    next();
  };
}
