import type { ErrorBody } from "~/utils/errors";

/** What every admin action answers (browser-safe): a success with its message, or the shop's one error body. */
export type AdminSuccess = { ok: true; intent: string; message: string; id?: string };
/** A sensitive action refused because the last proof is over 10 minutes old: `confirm` is where to prove it again. */
export type AdminRefusal = ErrorBody & { confirm?: string };
export type AdminResult = AdminSuccess | AdminRefusal;

export function isAdminResult(value: unknown): value is AdminResult {
  return !!value && typeof value === "object" && "ok" in value && ("message" in value || "error" in value);
}
