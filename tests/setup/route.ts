import { RouterContextProvider } from "react-router";
import { type PageAudience, requestInfoContext } from "~/context";

/**
 * Calls a route module's loader or action the way React Router would, so integration tests exercise the real
 * server code. A thrown Response (redirect, 404, 403) is returned as the result, so tests can assert on it.
 */
export interface CallOptions {
  params?: Record<string, string>;
  headers?: Record<string, string>;
  ip?: string;
  /** Render as the shared page cache does: for a whole audience (server/page-cache.ts). */
  audience?: PageAudience;
}

function context(ip = "127.0.0.1", audience?: PageAudience) {
  const c = new RouterContextProvider();
  c.set(requestInfoContext, { requestId: "test", nonce: "test", ip, audience });
  return c;
}

export const TEST_ORIGIN = "http://localhost:3000";

async function settle<T>(fn: () => Promise<T> | T): Promise<T | Response> {
  try {
    return await fn();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    // A thrown data(…, { status }) is answered by React Router with that status, like a thrown Response.
    if (thrown && typeof thrown === "object" && (thrown as { type?: unknown }).type === "DataWithResponseInit") return thrown as T;
    throw thrown;
  }
}

export function callLoader<T>(
  loader: (args: any) => Promise<T> | T,
  path: string,
  options: CallOptions = {},
): Promise<T | Response> {
  const request = new Request(new URL(path, TEST_ORIGIN), { headers: options.headers });
  return settle(() => loader({ request, params: options.params ?? {}, context: context(options.ip, options.audience), url: new URL(request.url), pattern: "" }));
}

export function callAction<T>(
  action: (args: any) => Promise<T> | T,
  path: string,
  form: Record<string, string | string[]> | FormData,
  options: CallOptions = {},
): Promise<T | Response> {
  let body: FormData;
  if (form instanceof FormData) body = form;
  else {
    body = new FormData();
    for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  }
  const request = new Request(new URL(path, TEST_ORIGIN), {
    method: "POST",
    body,
    headers: { origin: TEST_ORIGIN, ...options.headers },
  });
  return settle(() => action({ request, params: options.params ?? {}, context: context(options.ip, options.audience), url: new URL(request.url), pattern: "" }));
}

/** Posts a raw body with the given content type (or none): for tests of what isn't a form. */
export function callActionRaw<T>(
  action: (args: any) => Promise<T> | T,
  path: string,
  body: string,
  contentType: string | null,
  options: CallOptions = {},
): Promise<T | Response> {
  const headers: Record<string, string> = { origin: TEST_ORIGIN, ...options.headers };
  if (contentType) headers["content-type"] = contentType;
  const request = new Request(new URL(path, TEST_ORIGIN), { method: "POST", body, headers });
  // A Request made from a string gets text/plain by default: take it away when the test wants no content type.
  if (!contentType) request.headers.delete("content-type");
  return settle(() => action({ request, params: options.params ?? {}, context: context(options.ip, options.audience), url: new URL(request.url), pattern: "" }));
}

/** The data of a loader/action result, whether returned plainly or through data()/Response. */
export async function dataOf<T = any>(result: unknown): Promise<T> {
  if (result instanceof Response) return (await result.json()) as T;
  if (result && typeof result === "object" && (result as any).type === "DataWithResponseInit") return (result as any).data as T;
  return result as T;
}

export function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status;
  if (result && typeof result === "object" && (result as any).type === "DataWithResponseInit") return (result as any).init?.status ?? 200;
  return 200;
}
