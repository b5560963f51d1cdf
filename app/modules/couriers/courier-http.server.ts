/**
 * The HTTP every courier client speaks through (Shiplogic, PUDO, Pargo), so a slow, failing or odd service reads the
 * same to the shop whichever it is:
 * - every exchange runs under the client's deadline joined with the caller's signal, and the body is read under the
 *   same deadline (a service that sends its headers and then stalls is still late); the caller's own abort passes
 *   through as is, a timeout or a network failure is `unavailable`;
 * - a status says what the failure is: 401/403 → `misconfigured` (the credentials in settings), 429 and 5xx →
 *   `unavailable`, another 4xx → `refused` with the service's own words;
 * - a JSON answer is read against its schema, a waybill must be a PDF, or the service is `unavailable`.
 * The in-process fakes (the demo's test courier) ignore signals, so the deadline never relies on `fetch` honouring it.
 */
import type { z } from "zod";
import { logger } from "~/utils/logger.server";
import { CourierError } from "./courier";

export interface CourierAnswer {
  status: number;
  contentType: string;
  bytes: Uint8Array;
}

export interface CourierHttpOptions {
  /** the service as the owner knows it, at the start of every message ("PUDO", "The Courier Guy (Shiplogic)") */
  service: string;
  /** the log lines' prefix ("pudo") */
  log: string;
  /** what the owner should check in settings when the credentials are refused */
  settingsHint: string;
  timeoutMs: number;
  /** injected for the in-process fake (demo) and tests; defaults to the global fetch */
  fetch?: typeof fetch;
  /** the service's own words in a refusal's body, short enough for the admin to read */
  said: (body: unknown, text: string) => string | null;
}

/** Resolves with the promise, or rejects as soon as the signal aborts (whatever the fetch implementation does). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {}); // the loser's own rejection must not surface as unhandled
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** A PDF starts with "%PDF-". */
export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && new TextDecoder().decode(bytes.subarray(0, 5)) === "%PDF-";
}

export const answerText = (answer: CourierAnswer) => new TextDecoder().decode(answer.bytes);

/** The body as JSON, or undefined when it is not JSON (an empty body too). */
export function answerJson(answer: CourierAnswer): unknown {
  const text = answerText(answer).trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const ok = (status: number) => status >= 200 && status < 300;

export function courierHttp(options: CourierHttpOptions) {
  const { service, log, timeoutMs } = options;
  const doFetch = options.fetch ?? globalThis.fetch;
  const seconds = `${timeoutMs / 1000} s`;

  /** One exchange under the deadline; the body read under it too. */
  async function exchange(url: string, init: RequestInit, what: string, caller?: AbortSignal): Promise<CourierAnswer> {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = caller ? AbortSignal.any([caller, deadline]) : deadline;
    try {
      signal.throwIfAborted();
      const response = await abortable(doFetch(url, { ...init, signal }), signal);
      const bytes = new Uint8Array(await abortable(response.arrayBuffer(), signal));
      return { status: response.status, contentType: response.headers.get("content-type") ?? "", bytes };
    } catch (error) {
      // the caller gave up (not our deadline): its own reason goes through
      if (caller?.aborted) throw caller.reason;
      const timedOut = deadline.aborted;
      logger.warn({ err: error, what, timedOut }, `${log}: no answer`);
      throw new CourierError(
        timedOut ? `${service} did not answer within ${seconds} (${what}); try again in a few minutes.` : `${service} could not be reached (${what}); try again in a few minutes.`,
        "unavailable",
      );
    }
  }

  /** What an unsuccessful status means for the owner. */
  function failure(answer: CourierAnswer, what: string): CourierError {
    const { status } = answer;
    const said = options.said(answerJson(answer), answerText(answer));
    if (status === 401 || status === 403) {
      logger.error({ status, what }, `${log}: credentials refused`);
      return new CourierError(`${service} refused the shop's credentials (${what}): ${options.settingsHint}.`, "misconfigured", status);
    }
    if (status === 429) return new CourierError(`${service} is busy (too many requests; ${what}); try again in a minute.`, "unavailable", status);
    if (status >= 400 && status < 500) {
      logger.warn({ status, what, said }, `${log}: refused`);
      return new CourierError(said ? `${service} refused ${what}: ${said}` : `${service} refused ${what} (HTTP ${status}).`, "refused", status);
    }
    logger.warn({ status, what }, `${log}: failed`);
    return new CourierError(`${service} had a problem with ${what} (HTTP ${status}); try again in a few minutes.`, "unavailable", status);
  }

  /** The answer, or its failure when the status is not 2xx. */
  function succeeded(answer: CourierAnswer, what: string): CourierAnswer {
    if (!ok(answer.status)) throw failure(answer, what);
    return answer;
  }

  /** A 2xx answer's JSON checked against `schema` (an empty 2xx is read as {}); anything else: the service is not itself. */
  function json<T>(answer: CourierAnswer, what: string, schema: z.ZodType<T>): T {
    succeeded(answer, what);
    const body = answerText(answer).trim() ? answerJson(answer) : {};
    if (body === undefined) {
      logger.warn({ status: answer.status, what, contentType: answer.contentType }, `${log}: answer is not JSON`);
      throw new CourierError(`${service} sent an answer we could not read (${what}); try again in a few minutes.`, "unavailable", answer.status);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw unexpected(what, parsed.error.issues.slice(0, 5));
    return parsed.data;
  }

  function unexpected(what: string, issues: unknown): CourierError {
    logger.warn({ what, issues }, `${log}: unexpected answer shape`);
    return new CourierError(`${service} sent an answer we did not expect (${what}); try again in a few minutes.`, "unavailable");
  }

  /** A 2xx answer that must be a PDF (a waybill). */
  function pdf(answer: CourierAnswer, what: string): Uint8Array {
    succeeded(answer, what);
    if (!isPdf(answer.bytes)) {
      logger.warn({ what, contentType: answer.contentType }, `${log}: not a PDF`);
      throw new CourierError(`${service} sent ${what} that is not a PDF; try again in a few minutes.`, "unavailable");
    }
    return answer.bytes;
  }

  return { exchange, failure, succeeded, json, unexpected, pdf };
}
