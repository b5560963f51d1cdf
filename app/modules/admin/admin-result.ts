import type { ErrorBody } from "~/utils/errors";

/** What every admin action answers (browser-safe): a success with its message, or the shop's one error body. */
export type AdminSuccess = { ok: true; intent: string; message: string; id?: string };
export type AdminResult = AdminSuccess | ErrorBody;

export function isAdminResult(value: unknown): value is AdminResult {
  return !!value && typeof value === "object" && "ok" in value && ("message" in value || "error" in value);
}
