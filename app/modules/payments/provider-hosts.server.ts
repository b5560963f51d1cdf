import { env } from "~/utils/env.server";

/** Where each provider lives (configurable, so tests run the real adapters against local fakes). */
export function payfastBaseUrl(): string {
  const config = env();
  return (config.PAYFAST_BASE_URL ?? (config.PAYFAST_SANDBOX ? "https://sandbox.payfast.co.za" : "https://www.payfast.co.za")).replace(/\/+$/, "");
}

export function ozowPayUrl(): string {
  return env().OZOW_PAY_URL.replace(/\/+$/, "");
}

export function ozowApiBase(): string {
  return env().OZOW_API_BASE.replace(/\/+$/, "");
}

/** PayFast's API for refunds, or null on PayFast's sandbox (it has no refunds: docs/decisions/041). */
export function payfastApiBase(): string | null {
  const config = env();
  const sandbox = config.PAYFAST_BASE_URL ? new URL(config.PAYFAST_BASE_URL).hostname === "sandbox.payfast.co.za" : config.PAYFAST_SANDBOX;
  return sandbox ? null : config.PAYFAST_API_BASE.replace(/\/+$/, "");
}
