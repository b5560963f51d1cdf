/**
 * Meta's WhatsApp Cloud API, the part the shop uses (docs/decisions/055):
 *
 *   POST {base}/{version}/{phone-number-id}/messages
 *   Authorization: Bearer {access token}
 *   { messaging_product: "whatsapp", recipient_type: "individual", to, type: "template",
 *     template: { name, language: { code }, components: [{ type: "body", parameters: [{ type: "text", text }] }] },
 *     biz_opaque_callback_data }
 *   → 200 { messaging_product: "whatsapp", contacts: [{ input, wa_id }], messages: [{ id: "wamid.…" }] }
 *   → 4xx/5xx { error: { message, type, code, error_data: { messaging_product, details }, fbtrace_id } }
 *
 * `biz_opaque_callback_data` comes back on every status webhook of the message: it names the outbox row, so a status
 * finds its message even when the answer with the wamid was lost. The same client talks to the shop's local fake
 * (fake-cloud-api.server.ts) in the demo and tests, through an injected `fetch`.
 */
import { logger } from "~/utils/logger.server";
import { WhatsappSendError, type TemplateMessage, type WhatsappClient } from "./whatsapp";

export interface CloudApiOptions {
  baseUrl: string;
  version: string;
  phoneNumberId: string;
  accessToken: string;
  /** the demo's in-process fake, or tests; defaults to the global fetch */
  fetch?: typeof fetch;
  timeoutMs?: number;
  test?: boolean;
}

/**
 * Graph error codes that mean "not now" (nothing was sent; the same request may work later): API unknown/service
 * (1, 2), application request limit (4), Cloud API throughput (80007, 130429), spam rate limit (131048), pair rate
 * limit (131056), Something went wrong (131000). Anything else from Graph is an answer about this message: final.
 */
const TRANSIENT_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131048, 131056]);

/** Failures to connect, where the request never left: safe to try again. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"]);

interface GraphError {
  error?: { message?: string; code?: number; error_data?: { details?: string } };
}

export function createCloudApiClient(options: CloudApiOptions): WhatsappClient {
  const doFetch = options.fetch ?? globalThis.fetch;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/${options.version}/${encodeURIComponent(options.phoneNumberId)}/messages`;
  return {
    test: options.test ?? false,
    async sendTemplate(message: TemplateMessage, signal?: AbortSignal) {
      const body = {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: message.to,
        type: "template",
        template: {
          name: message.template,
          language: { code: message.language },
          components: [{ type: "body", parameters: message.params.map((text) => ({ type: "text", text })) }],
        },
        biz_opaque_callback_data: message.reference,
      };
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
      let response: Response;
      try {
        response = await doFetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${options.accessToken}`, "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code && NOT_SENT.has(code)) throw new WhatsappSendError(`WhatsApp could not be reached (${code})`, "retry");
        // A timeout or a dropped connection after the request went out: it may have been sent.
        logger.warn({ err: error, reference: message.reference }, "whatsapp: no answer to a send; not sent again");
        throw new WhatsappSendError(`no answer from WhatsApp (${code ?? (error as Error).name}): it may have been sent`, "uncertain");
      }
      const text = await response.text().catch(() => "");
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (response.ok) {
        const wamid = (json as { messages?: Array<{ id?: unknown }> } | undefined)?.messages?.[0]?.id;
        if (typeof wamid === "string" && wamid) return { wamid };
        throw new WhatsappSendError("WhatsApp accepted the message but named no message id", "uncertain");
      }
      const error = (json as GraphError | undefined)?.error;
      const said = [error?.message, error?.error_data?.details].filter(Boolean).join(": ") || `HTTP ${response.status}`;
      const transient = response.status === 429 || response.status >= 500 || (error?.code !== undefined && TRANSIENT_CODES.has(error.code));
      throw new WhatsappSendError(`WhatsApp refused it${error?.code ? ` (${error.code})` : ""}: ${said}`.slice(0, 500), transient ? "retry" : "permanent", error?.code);
    },
  };
}
