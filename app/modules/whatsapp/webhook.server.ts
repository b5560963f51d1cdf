/**
 * /webhooks/whatsapp (docs/decisions/055), as Meta's webhooks work:
 * - GET: the subscription check — `hub.mode=subscribe` and `hub.verify_token` equal to WHATSAPP_VERIFY_TOKEN answer
 *   `hub.challenge` as text/plain; anything else 403.
 * - POST: only with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>` (compared in
 *   constant time): unsigned → 401, a wrong signature → 403, and nothing changes. Then:
 *   - each status (sent, delivered, read, failed) stamps its own time once, and moves the message's status only
 *     forward (a "read" that arrives before "delivered" is not undone by it); a failed one is covered by e-mail;
 *   - an inbound text "STOP" (any case, trimmed) opts its number out, in the consent log.
 * Meta's signature carries no timestamp, so a replayed delivery is told apart by what it would change: nothing, since
 * every status applies once and an opt-out only once.
 */
import type { Queryable } from "~/db/db.server";
import type { WhatsappMessageStatus } from "~/db/schema";
import { timingSafeEqual } from "node:crypto";
import { logger } from "~/utils/logger.server";
import { markFailed } from "./outbox.server";
import { optOutNumber } from "./subscriptions.server";
import { isSignedBy, SIGNATURE_HEADER } from "./webhook-signature.server";
import type { DeliveryStatus, InboundText, StatusUpdate } from "./whatsapp";
import { whatsappAppSecret, whatsappMode, whatsappVerifyToken } from "./whatsapp.server";

/** The GET check. Answers the challenge, or null (403). */
export function verifySubscription(url: URL): string | null {
  if (whatsappMode() === "off") return null;
  const mode = url.searchParams.get("hub.mode");
  const token = url.searchParams.get("hub.verify_token") ?? "";
  const challenge = url.searchParams.get("hub.challenge");
  if (mode !== "subscribe" || challenge === null) return null;
  const given = Buffer.from(token);
  const wanted = Buffer.from(whatsappVerifyToken());
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? challenge : null;
}

/** The statuses a status may move a message on from. */
const MOVES_FROM: Record<DeliveryStatus, WhatsappMessageStatus[]> = {
  sent: ["queued", "sending"],
  // a message the shop had to give up on (its answer was lost) may turn out to have arrived after all
  delivered: ["queued", "sending", "sent", "failed"],
  read: ["queued", "sending", "sent", "delivered", "failed"],
  failed: ["queued", "sending", "sent"],
};

const STAMP = { sent: "sent_at", delivered: "delivered_at", read: "read_at", failed: "failed_at" } as const;

export interface WebhookOutcome {
  status: 200 | 400 | 401 | 403 | 404;
  applied: number;
  optedOut: number;
}

export async function handleWhatsappWebhook(db: Queryable, request: Request, now = new Date()): Promise<WebhookOutcome> {
  const none = { applied: 0, optedOut: 0 };
  if (whatsappMode() === "off") return { status: 404, ...none };
  const raw = new Uint8Array(await request.arrayBuffer());
  const header = request.headers.get(SIGNATURE_HEADER);
  if (!header) return { status: 401, ...none };
  if (!isSignedBy(whatsappAppSecret(), raw, header)) {
    logger.warn("whatsapp: a webhook with a wrong signature was refused");
    return { status: 403, ...none };
  }
  const parsed = parsePayload(raw);
  if (!parsed) return { status: 400, ...none };
  let applied = 0;
  for (const s of parsed.statuses) if (await applyStatus(db, s, now)) applied++;
  let optedOut = 0;
  for (const m of parsed.texts) {
    if (m.text.trim().toUpperCase() !== "STOP") continue;
    optedOut += await optOutNumber(db, m.from, now);
  }
  return { status: 200, applied, optedOut };
}

/** The statuses and texts of a webhook body, or null when it is not one. */
export function parsePayload(raw: Uint8Array): { statuses: StatusUpdate[]; texts: InboundText[] } | null {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return null;
  }
  if (!body || typeof body !== "object" || !Array.isArray((body as { entry?: unknown }).entry)) return null;
  const statuses: StatusUpdate[] = [];
  const texts: InboundText[] = [];
  for (const entry of (body as { entry: Array<{ changes?: Array<{ field?: string; value?: Record<string, unknown> }> }> }).entry) {
    for (const change of entry?.changes ?? []) {
      if (change?.field !== "messages" || !change.value) continue;
      for (const s of (change.value.statuses as Array<Record<string, unknown>> | undefined) ?? []) {
        const status = s.status;
        if (typeof s.id !== "string" || (status !== "sent" && status !== "delivered" && status !== "read" && status !== "failed")) continue;
        const errors = s.errors as Array<{ code?: number; title?: string; message?: string; error_data?: { details?: string } }> | undefined;
        const e = errors?.[0];
        statuses.push({
          wamid: s.id,
          status,
          timestamp: Number(s.timestamp) || 0,
          recipient: String(s.recipient_id ?? ""),
          reference: typeof s.biz_opaque_callback_data === "string" ? s.biz_opaque_callback_data : null,
          error: e ? [e.code, e.title ?? e.message, e.error_data?.details].filter(Boolean).join(": ") : null,
        });
      }
      for (const m of (change.value.messages as Array<Record<string, unknown>> | undefined) ?? []) {
        const text = (m.text as { body?: unknown } | undefined)?.body;
        if (m.type === "text" && typeof m.from === "string" && typeof text === "string") texts.push({ from: m.from, wamid: String(m.id ?? ""), text });
      }
    }
  }
  return { statuses, texts };
}

/** Applies one status to its message (found by wamid, or by the reference it was sent with). Answers whether anything changed. */
async function applyStatus(db: Queryable, s: StatusUpdate, now: Date): Promise<boolean> {
  let row = await db.selectFrom("whatsapp_messages").select(["id"]).where("wamid", "=", s.wamid).executeTakeFirst();
  if (!row && s.reference) {
    // The status arrived before the send's answer was recorded (or the answer was lost): the reference names the row.
    row = await db.selectFrom("whatsapp_messages").select(["id"]).where("id", "=", s.reference).executeTakeFirst();
    if (row) await db.updateTable("whatsapp_messages").set({ wamid: s.wamid }).where("id", "=", row.id).where("wamid", "is", null).execute();
  }
  if (!row) return false;
  const at = s.timestamp > 0 ? new Date(s.timestamp * 1000).toISOString() : now.toISOString();
  if (s.status === "failed") return markFailed(db, row.id, s.error ?? "WhatsApp could not deliver it", now, { at });
  const column = STAMP[s.status];
  const stamped = await db
    .updateTable("whatsapp_messages")
    .set({ [column]: at, updated_at: now.toISOString() })
    .where("id", "=", row.id)
    .where(column, "is", null)
    .executeTakeFirst();
  const moved = await db
    .updateTable("whatsapp_messages")
    .set({ status: s.status, claim_token: null, lease_until: null })
    .where("id", "=", row.id)
    .where("status", "in", MOVES_FROM[s.status])
    .executeTakeFirst();
  return Number(stamped.numUpdatedRows) + Number(moved.numUpdatedRows) > 0;
}
