/**
 * An order's WhatsApp updates in the admin list (docs/decisions/055): each message, its status (queued, sent,
 * delivered, read, failed), when, and the text the shopper got; test messages (the shop's test sender: nothing reached
 * a phone) are marked so, as test deliveries are; a failed one says the e-mail covered it. Once the retention job has
 * erased a message's number and words, it says so instead of showing the bare template.
 */
import type { OrderMessage } from "~/modules/whatsapp/outbox.server";
import { MESSAGE_STATUS_LABELS, displayPhone } from "~/modules/whatsapp/templates";
import { formatDateTimeZA } from "~/utils/dates";

const TONE: Record<OrderMessage["status"], string> = {
  queued: "text-ink-soft",
  sending: "text-ink-soft",
  sent: "text-ink",
  delivered: "text-ink",
  read: "text-ink",
  failed: "text-danger",
  skipped: "text-muted",
};

export function WhatsappPanel({ messages }: { messages: OrderMessage[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <div className="mt-3 border-t border-line/60 pt-3 text-xs text-ink-soft" data-testid="whatsapp-panel">
      <p className="font-medium uppercase tracking-[0.14em] text-ink">WhatsApp</p>
      <ul className="mt-2 space-y-2">
        {messages.map((m) => {
          const at = m.readAt ?? m.deliveredAt ?? m.sentAt ?? m.failedAt ?? m.createdAt;
          return (
            <li key={m.id} className="min-w-0">
              <details>
                <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-2 gap-y-1 marker:hidden">
                  <span className="text-ink">{m.label}</span>
                  <span aria-hidden="true">·</span>
                  <span className={`font-medium ${TONE[m.status]}`}>{MESSAGE_STATUS_LABELS[m.status]}</span>
                  <span className="text-muted">{formatDateTimeZA(at)}</span>
                  {m.test ? <span className="bg-amber-50 px-1.5 py-0.5 text-amber-900 ring-1 ring-amber-200">Test message</span> : null}
                  {m.status === "failed" && m.emailCovered ? <span className="text-muted">· covered by e-mail</span> : null}
                </summary>
                <div className="mt-2 space-y-1 border-l-2 border-line pl-3">
                  {m.erased ? (
                    <p className="text-muted">Its number and words were erased at the end of their retention period; its status and times are kept.</p>
                  ) : (
                    <>
                      <p>
                        To {displayPhone(m.to)}
                        {m.attempts > 1 ? ` · ${m.attempts} tries` : ""}
                      </p>
                      <p className="whitespace-pre-line break-words text-ink-soft">{m.text}</p>
                    </>
                  )}
                  {m.error ? <p className="break-words text-danger">{m.error}</p> : null}
                </div>
              </details>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
