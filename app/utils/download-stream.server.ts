/**
 * A download streamed as it is made (the sitemap, the products CSV, the consent log, the orders export): one place
 * that turns a generator of text chunks into the Response body, and knows that a client who hangs up is not an error
 * (issue 39 point 6).
 *
 * Each chunk is made only when the client has taken the previous one (pull), so memory holds about one batch however
 * long the file. When the client goes away mid-download the server cancels the body: that is logged once, at info,
 * with what had been handed to the connection, and the generator is closed (`return()`): it reads nothing more, and
 * its `finally` blocks release what it holds (a cursor, a transaction) as soon as the read in progress, if any, has
 * finished. A read that was in flight when the client left is dropped: before, its chunk was enqueued into the
 * cancelled stream, which threw "Invalid state: Controller is already closed", logged as the download failing
 * (PostgreSQL's reads are asynchronous, so it happened there; SQLite's finish before the cancel is seen).
 *
 * A real failure (a query that fails) is still logged at error level, once, and ends the body with an error, so the
 * browser reports a failed download rather than keeping half a file.
 */
import { logger } from "./logger.server";

export interface DownloadStreamOptions {
  /** what the log lines call the download ("sitemap", "products export") */
  name: string;
  /** said with each log line (an export's range, …) */
  context?: Record<string, unknown>;
}

/** The generator's chunks as a byte stream for a Response (text is UTF-8 encoded). */
export function downloadStream(
  produce: () => AsyncGenerator<string | Uint8Array, void, undefined>,
  { name, context = {} }: DownloadStreamOptions,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let chunks: AsyncGenerator<string | Uint8Array, void, undefined> | undefined;
  let bytes = 0;
  let sent = 0;
  let gone = false;
  const started = performance.now();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      chunks ??= produce();
      // an empty chunk is skipped: a pull that enqueues nothing is not called again
      for (;;) {
        let next: IteratorResult<string | Uint8Array, void>;
        try {
          next = await chunks.next();
        } catch (error) {
          // failed after the client left: nobody to tell, and the cancel has said what happened
          if (gone) return;
          logger.error({ err: error, ...context, bytes, chunks: sent }, `${name} failed`);
          controller.error(error);
          return;
        }
        // the client left while this chunk was being made: it goes nowhere
        if (gone) return;
        if (next.done) {
          controller.close();
          return;
        }
        const chunk = typeof next.value === "string" ? encoder.encode(next.value) : next.value;
        if (chunk.byteLength === 0) continue;
        bytes += chunk.byteLength;
        sent++;
        controller.enqueue(chunk);
        return;
      }
    },
    async cancel(reason) {
      gone = true;
      // waits for a read in progress, then ends the generator (its finally blocks run): nothing more is read
      await chunks?.return(undefined).catch(() => undefined);
      logger.info(
        { ...context, bytes, chunks: sent, ms: Math.round(performance.now() - started), ...(reason instanceof Error ? { reason: reason.message } : {}) },
        `${name}: the client closed the connection before the end (download abandoned)`,
      );
    },
  });
}
