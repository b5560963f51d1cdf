import type { Queryable } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";

/** Every e-mail the shop has sent or queued, newest first: the owner sees what customers were told, and what is stuck. */
export const OUTBOX_PAGE_SIZE = 20;

/** queued: no mail server set; retrying: refused for now, tried again at retryAt (mail-retries.server.ts) */
export type OutboxState = "sent" | "queued" | "retrying" | "failed";

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
  sentAt: string | null;
  state: OutboxState;
  error: string | null;
  /** when a refused message is tried again */
  retryAt: string | null;
}

export async function listOutbox(db: Queryable, input: { page: number }): Promise<Page<OutboxMail>> {
  const query = db
    .selectFrom("mail_outbox")
    .select(["id", "to_address", "subject", "text_body", "created_at", "sent_at", "error", "retry_at"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc");
  const page = await paginate(query, { page: input.page, pageSize: OUTBOX_PAGE_SIZE });
  return {
    ...page,
    rows: page.rows.map((r) => ({
      id: r.id,
      to: r.to_address,
      subject: r.subject,
      text: r.text_body,
      createdAt: r.created_at,
      sentAt: r.sent_at,
      state: r.sent_at ? "sent" : r.retry_at ? "retrying" : r.error ? "failed" : "queued",
      error: r.error,
      retryAt: r.retry_at,
    })),
  };
}
