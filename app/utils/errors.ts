import { data } from "react-router";

/**
 * One error scheme: a domain error carries the spec's user-facing message and its HTTP status. Modules throw it;
 * routes turn it into `{ error }` data with that status (formError) so the form shows the message and nothing changed.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    /** the form field the message belongs to */
    readonly field?: string,
    /** what fieldErrors[field] carries when it isn't the message (the ids of products that vanished) */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }

  /** The refusal as a form answers it. */
  toFormError() {
    return formError(this.message, this.status, this.field ? { [this.field]: this.detail ?? this.message } : undefined);
  }
}

export const ADMIN_ACCESS_REQUIRED = "Admin access required";

export function forbidden(message = ADMIN_ACCESS_REQUIRED) {
  return new DomainError(message, 403);
}

export function notFound(message = "Not found") {
  return new DomainError(message, 404);
}

/** The one shape of every refusal the shop answers: the user's message, and per-field messages for forms. */
export interface ErrorBody {
  ok: false;
  error: string;
  fieldErrors: Record<string, string>;
}

export function errorBody(message: string, fieldErrors: Record<string, string> = {}): ErrorBody {
  return { ok: false, error: message, fieldErrors };
}

/** Action result for a failed submission: the message for the user, the status for the client and the tests. */
export function formError(message: string, status = 400, fieldErrors?: Record<string, string>) {
  return data(errorBody(message, fieldErrors), { status });
}

/** The same refusal as a Response, for code that throws it (guards, the input boundary) rather than returning it. */
export function errorResponse(message: string, status: number, init: { statusText?: string } = {}): Response {
  return Response.json(errorBody(message), { status, statusText: init.statusText, headers: { "Cache-Control": "no-store" } });
}

/**
 * Runs an action body; a DomainError becomes formError with its status, anything else is re-thrown (500, logged).
 * Responses (redirects) pass through.
 */
export async function handleDomainErrors<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof DomainError) return error.toFormError();
    throw error;
  }
}

/** zod issues → { field: first message } for forms. */
export function fieldErrorsOf(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}
