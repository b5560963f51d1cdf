/**
 * The contract between the shop and a WhatsApp sender (docs/decisions/055): the real Cloud API client
 * (cloud-api.server.ts) and the same client pointed at the shop's local fake (fake-cloud-api.server.ts) both are one.
 * The outbox (outbox.server.ts) and the webhook (webhook.server.ts) speak only to this.
 */

/** One template message, as the outbox hands it over. */
export interface TemplateMessage {
  /** international digits, e.g. 27821234567 */
  to: string;
  template: string;
  language: string;
  params: string[];
  /** the outbox row's id: sent as biz_opaque_callback_data, so every status webhook names the row it is about */
  reference: string;
}

export interface WhatsappClient {
  /** true: the shop's local fake (test messages, marked so in the admin; nothing reaches a phone) */
  readonly test: boolean;
  /** Answers the message's id (wamid); throws WhatsappSendError when the API refused or could not be reached. */
  sendTemplate(message: TemplateMessage, signal?: AbortSignal): Promise<{ wamid: string }>;
}

/**
 * Why a message did not go. `retry`: nothing was sent and trying again later may work (the API was unreachable, rate
 * limited, or answered 5xx); `uncertain`: the request may have reached Meta (the answer was lost), so it is never
 * sent again (never twice beats once more); neither: refused for good (a bad number, an unregistered template).
 */
export class WhatsappSendError extends Error {
  constructor(
    message: string,
    readonly kind: "retry" | "uncertain" | "permanent",
    readonly code?: number,
  ) {
    super(message);
    this.name = "WhatsappSendError";
  }
}

/** A status as the webhooks report it (Graph's `value.statuses[]`). */
export type DeliveryStatus = "sent" | "delivered" | "read" | "failed";

export interface StatusUpdate {
  wamid: string;
  status: DeliveryStatus;
  /** epoch seconds, as Meta sends it */
  timestamp: number;
  recipient: string;
  reference: string | null;
  error: string | null;
}

export interface InboundText {
  from: string;
  wamid: string;
  text: string;
}
