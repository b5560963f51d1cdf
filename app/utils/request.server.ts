import { errorResponse } from "./errors";

/**
 * The shop's input boundary: every action reads its body through `readForm`/`readFields` and every loader reads its
 * query through `readQuery`, so hostile input is refused the same way everywhere, with a 4xx and before any
 * database sees it:
 * - a body that is not a form (JSON, text/plain, XML, none) → 415; a form that can't be parsed (broken multipart) → 400;
 * - a NUL byte anywhere in a field, a file name or the query → 400 (PostgreSQL refuses NUL in text: it would be a 500);
 * - a body larger than its limit → 413 (the HTTP server refuses it earlier still, before reading: server/body-limit.ts).
 * The thrown value is a Response, which React Router answers as is (and which route tests receive as the result).
 */
/** Form bodies: 1 MiB is hundreds of times any form of the shop. */
export const MAX_FORM_BYTES = 1024 * 1024;
/** Admin image uploads: 5 MB per image (SPEC §9) plus the multipart envelope and the product's other fields. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024 + 256 * 1024;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

export const INPUT_MESSAGES = {
  notAForm: "Send the form as application/x-www-form-urlencoded or multipart/form-data",
  unreadable: "The form could not be read",
  nul: "The request contains characters that are not allowed",
  tooLarge: "The request is too large",
} as const;

function refuse(status: number, error: string): Response {
  return errorResponse(error, status);
}

/** The media type of the request's body, lower-cased, without parameters ("" when none). */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

export function hasNul(value: string): boolean {
  return value.includes("\u0000");
}

function assertDeclaredSize(request: Request, maxBytes: number) {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw refuse(413, INPUT_MESSAGES.tooLarge);
}

/** The request's form, or a thrown 4xx Response (see above). */
export async function readForm(request: Request, options: { maxBytes?: number } = {}): Promise<FormData> {
  if (!FORM_TYPES.has(mediaTypeOf(request))) throw refuse(415, INPUT_MESSAGES.notAForm);
  assertDeclaredSize(request, options.maxBytes ?? MAX_FORM_BYTES);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw refuse(400, INPUT_MESSAGES.unreadable);
  }
  for (const [key, value] of form) {
    if (hasNul(key) || (typeof value === "string" ? hasNul(value) : hasNul(value.name))) throw refuse(400, INPUT_MESSAGES.nul);
  }
  return form;
}

/** The form's text fields as a plain object for zod (the first value of a repeated field; files left out). */
export function fieldsOf(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && !(key in out)) out[key] = value;
  return out;
}

/** readForm, then fieldsOf: what most actions want. */
export async function readFields(request: Request): Promise<Record<string, string>> {
  return fieldsOf(await readForm(request));
}

/**
 * A JSON body (for the one endpoint scripts may call with JSON: /api/coupons/validate) or else a form, as a plain
 * object; JSON that doesn't parse, isn't an object, or holds a NUL anywhere is refused with 400.
 */
export async function readJsonOrForm(request: Request): Promise<Record<string, unknown>> {
  if (mediaTypeOf(request) !== "application/json") return fieldsOf(await readForm(request));
  assertDeclaredSize(request, MAX_FORM_BYTES);
  const text = await request.text().catch(() => {
    throw refuse(400, INPUT_MESSAGES.unreadable);
  });
  // Both a raw NUL and its JSON escape: after parsing they are the same character.
  if (hasNul(text) || /\\u0000/i.test(text)) throw refuse(400, INPUT_MESSAGES.nul);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse(400, INPUT_MESSAGES.unreadable);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw refuse(400, INPUT_MESSAGES.unreadable);
  return value as Record<string, unknown>;
}

/** The request's query parameters; a NUL byte in any name or value is refused with 400. */
export function readQuery(request: Request): URLSearchParams {
  const params = new URL(request.url).searchParams;
  for (const [key, value] of params) if (hasNul(key) || hasNul(value)) throw refuse(400, INPUT_MESSAGES.nul);
  return params;
}

/**
 * A record id from the URL (/admin/products/edit/:id): at most 100 characters and no NUL, or else 404: no record
 * has such an id, and PostgreSQL would refuse to look (a 500).
 */
export function routeId(value: string | undefined): string {
  if (!value || value.length > 100 || hasNul(value)) throw errorResponse("Not found", 404);
  return value;
}
