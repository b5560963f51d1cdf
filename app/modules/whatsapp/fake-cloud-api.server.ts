/**
 * A local fake of Meta's WhatsApp Cloud API (docs/decisions/055): the shop's test sender, used by the demo when no
 * credentials are set (in-process, through the client's `fetch`) and by the tests (in-process, or on a loopback port
 * with startFakeCloudApi). It answers in the Cloud API's shapes:
 *
 * - POST /{version}/{phone-number-id}/messages with `Authorization: Bearer <accessToken>` and a template message →
 *   200 { messaging_product: "whatsapp", contacts: [{ input, wa_id }], messages: [{ id: "wamid.…" }] };
 * - refusals in Graph's error shape { error: { message, type, code, error_data: { messaging_product, details },
 *   fbtrace_id } }: a wrong token (401, code 190), a malformed request (400, code 100), a template it does not know or
 *   with the wrong number of parameters (404 code 132001 / 400 code 132000).
 *
 * Then it tells the shop what became of the message, as Meta does: webhooks signed with the app secret
 * (X-Hub-Signature-256), { object: "whatsapp_business_account", entry: [{ id, changes: [{ field: "messages", value:
 * { messaging_product, metadata, statuses: [{ id, status, timestamp, recipient_id, biz_opaque_callback_data,
 * errors? }] } }] }] } — "sent" then "delivered" on their own (autoStatuses), or when a test says (emitStatus); an
 * inbound text (a "STOP" reply) the same way (inboundText).
 *
 * Failures on request, so the retries and the e-mail fallback can be seen:
 * - a number ending in 0000 is accepted, then reported "failed" (131026, undeliverable);
 * - a number ending in 9999 is refused with a 500 (131000, "Something went wrong"): the shop tries again later;
 * - failNext(count, how) (or POST /_fake/fail-next { count, how }) makes the next sends fail: "retry" (500, 131000)
 *   or "permanent" (400, 131026 at the API).
 */
import { randomBytes } from "node:crypto";
import { serveOnLoopback } from "~/utils/fake-http-server.server";
import { renderTemplate } from "./templates";
import { signatureFor, SIGNATURE_HEADER } from "./webhook-signature.server";

export interface FakeSent {
  wamid: string;
  to: string;
  template: string;
  language: string;
  params: string[];
  reference: string | null;
  /** the body as the shopper would read it (when the template is known) */
  text: string | null;
}

type Deliver = (body: string, headers: Record<string, string>) => Promise<void>;

export interface FakeCloudApiOptions {
  accessToken?: string;
  phoneNumberId?: string;
  appSecret: string;
  /** where the webhooks go: the shop's /webhooks/whatsapp (fetch) or, in tests, its route called directly */
  deliver: Deliver;
  /** the templates it knows (name → body), as if registered at Meta */
  templates: Record<string, string>;
  /** send "sent" and "delivered" by themselves after these delays (the demo); unset: only when emitStatus is called */
  autoStatuses?: { sentAfterMs: number; deliveredAfterMs: number };
  now?: () => number;
}

const graphError = (status: number, code: number, message: string, details = message) =>
  Response.json(
    { error: { message, type: code === 190 ? "OAuthException" : "OAuthException", code, error_data: { messaging_product: "whatsapp", details }, fbtrace_id: `Fake${randomBytes(8).toString("hex")}` } },
    { status },
  );

export function createFakeCloudApi(options: FakeCloudApiOptions) {
  const accessToken = options.accessToken ?? "fake-whatsapp-token";
  const phoneNumberId = options.phoneNumberId ?? "100000000000001";
  const now = options.now ?? Date.now;
  const sent: FakeSent[] = [];
  const failing: Array<"retry" | "permanent"> = [];

  function webhook(value: Record<string, unknown>) {
    return JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "200000000000002", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: "27110000000", phone_number_id: phoneNumberId }, ...value } }] }],
    });
  }

  /** A signed webhook body and headers for one status of a message (tests replay or tamper with it). */
  function statusWebhook(wamid: string, status: "sent" | "delivered" | "read" | "failed") {
    const message = sent.find((m) => m.wamid === wamid);
    const body = webhook({
      statuses: [
        {
          id: wamid,
          status,
          timestamp: String(Math.floor(now() / 1000)),
          recipient_id: message?.to ?? "",
          ...(message?.reference ? { biz_opaque_callback_data: message.reference } : {}),
          ...(status === "failed"
            ? { errors: [{ code: 131026, title: "Message undeliverable", message: "Message undeliverable", error_data: { details: "The number is not on WhatsApp (test number ending in 0000)." } }] }
            : {}),
        },
      ],
    });
    return { body, headers: signedHeaders(body) };
  }

  function inboundWebhook(from: string, text: string) {
    const body = webhook({
      contacts: [{ profile: { name: "Test shopper" }, wa_id: from }],
      messages: [{ from, id: `wamid.${randomBytes(12).toString("hex")}`, timestamp: String(Math.floor(now() / 1000)), type: "text", text: { body: text } }],
    });
    return { body, headers: signedHeaders(body) };
  }

  function signedHeaders(body: string): Record<string, string> {
    return { "content-type": "application/json", [SIGNATURE_HEADER]: signatureFor(options.appSecret, body) };
  }

  async function emitStatus(wamid: string, status: "sent" | "delivered" | "read" | "failed") {
    const { body, headers } = statusWebhook(wamid, status);
    await options.deliver(body, headers);
  }

  function later(ms: number, fn: () => Promise<void>) {
    // the demo's own timers: a process that exits does not wait for a test message's status
    setTimeout(() => void fn().catch(() => {}), ms).unref?.();
  }

  async function handler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/_fake/fail-next") {
      const { count, how } = (await request.json().catch(() => ({}))) as { count?: number; how?: "retry" | "permanent" };
      failNext(count ?? 1, how ?? "retry");
      return Response.json({ ok: true });
    }
    const match = /^\/v\d+\.\d+\/([^/]+)\/messages$/.exec(url.pathname);
    if (request.method !== "POST" || !match) return graphError(400, 100, "Unsupported request - method type: " + request.method.toLowerCase());
    if (request.headers.get("authorization") !== `Bearer ${accessToken}`) return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
    if (decodeURIComponent(match[1]!) !== phoneNumberId) return graphError(400, 100, `Unsupported post request. Object with ID '${match[1]}' does not exist`);
    const body = (await request.json().catch(() => null)) as {
      messaging_product?: string;
      to?: string;
      type?: string;
      template?: { name?: string; language?: { code?: string }; components?: Array<{ type?: string; parameters?: Array<{ type?: string; text?: string }> }> };
      biz_opaque_callback_data?: string;
    } | null;
    if (!body || body.messaging_product !== "whatsapp") return graphError(400, 100, "(#100) The parameter messaging_product is required.");
    if (typeof body.to !== "string" || !/^\+?\d{8,15}$/.test(body.to)) return graphError(400, 100, "(#100) Invalid parameter", "to: a phone number in international format");
    if (body.type !== "template" || !body.template?.name || !body.template.language?.code) return graphError(400, 100, "(#100) Invalid parameter", "template: name and language.code are required");
    const to = body.to.replace(/\D/g, "");
    const forced = failing.shift();
    if (forced === "retry" || to.endsWith("9999")) return graphError(500, 131000, "Something went wrong", "Test failure: try again later.");
    if (forced === "permanent") return graphError(400, 131026, "Message undeliverable", "Test failure: refused for good.");
    const known = options.templates[body.template.name];
    if (known === undefined) return graphError(404, 132001, "(#132001) Template name does not exist in the translation", `template name (${body.template.name}) does not exist in ${body.template.language.code}`);
    const params = (body.template.components ?? []).filter((c) => c.type === "body").flatMap((c) => (c.parameters ?? []).map((p) => String(p.text ?? "")));
    const expected = new Set(known.match(/\{\{\d+\}\}/g) ?? []).size;
    if (params.length !== expected) return graphError(400, 132000, "(#132000) Number of parameters does not match the expected number of params", `body: number of localizable_params (${params.length}) does not match the expected number of params (${expected})`);

    const wamid = `wamid.${Buffer.from(`${to}:${randomBytes(12).toString("hex")}`).toString("base64url")}`;
    sent.push({ wamid, to, template: body.template.name, language: body.template.language.code, params, reference: body.biz_opaque_callback_data ?? null, text: renderTemplate(known, params) });
    if (options.autoStatuses) {
      const { sentAfterMs, deliveredAfterMs } = options.autoStatuses;
      later(sentAfterMs, () => emitStatus(wamid, "sent"));
      later(deliveredAfterMs, () => emitStatus(wamid, to.endsWith("0000") ? "failed" : "delivered"));
    }
    return Response.json({ messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: to }], messages: [{ id: wamid }] });
  }

  function failNext(count: number, how: "retry" | "permanent") {
    for (let i = 0; i < count; i++) failing.push(how);
  }

  return {
    accessToken,
    phoneNumberId,
    handler,
    /** every message it accepted, oldest first */
    sent,
    failNext,
    statusWebhook,
    inboundWebhook,
    emitStatus,
    /** a text sent to the shop's number, e.g. "STOP" */
    async inboundText(from: string, text: string) {
      const { body, headers } = inboundWebhook(from, text);
      await options.deliver(body, headers);
    },
  };
}

export type FakeCloudApi = ReturnType<typeof createFakeCloudApi>;

/** The fake on a loopback port, for tests that speak to it over real HTTP as the shop speaks to Meta. */
export async function startFakeCloudApi(options: FakeCloudApiOptions) {
  const fake = createFakeCloudApi(options);
  const server = await serveOnLoopback(fake.handler, (error) => ({ error: { message: String((error as Error)?.message ?? error), type: "OAuthException", code: 1 } }));
  return { ...fake, baseUrl: server.baseUrl, close: server.close };
}
