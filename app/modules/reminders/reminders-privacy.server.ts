/**
 * A person's cart kept on the server and the reminders sent to them, for "Download my data", "Delete my account" and
 * the retention job (POPIA s23, s24, s14; docs/decisions/040 and 056).
 *
 * A reminder is an e-mail, so it follows the e-mail periods: its items (what the e-mail named, what its restore link
 * puts back) and error go after RETENTION_MAIL_BODY_DAYS, its link to the account after RETENTION_CONTACT_MONTHS; the
 * row itself stays, naming nobody, because Admin → Marketing → Reminders counts it. A cart kept on the server goes
 * after RETENTION_SAVED_CART_DAYS without a change: the browser that made it still holds its own copy and sends it
 * again at its next change (syncSavedCart makes a new row).
 */
import { sql } from "kysely";
import type { Queryable } from "~/db/db.server";
import type { ReminderKind, ReminderStatus, SavedCartLine } from "~/db/schema";
import { cartLinesForBrowser } from "~/modules/cart/saved-cart.server";

export interface PersonCartItem {
  name: string;
  size: string | null;
  quantity: number;
}

export interface PersonCartAndReminders {
  savedCart: { items: PersonCartItem[]; changedAt: string | null; updatedAt: string } | null;
  reminders: Array<{ kind: ReminderKind; status: ReminderStatus; orderId: string | null; items: PersonCartItem[]; claimedAt: string; sentAt: string | null; restoredAt: string | null }>;
}

/** Stored lines named from the catalogue (a product since deleted is left out, as the cart leaves it out; a product's one unstated size has no label). */
async function namedItems(db: Queryable, lines: readonly SavedCartLine[]): Promise<PersonCartItem[]> {
  return (await cartLinesForBrowser(db, lines)).map((l) => ({ name: l.name, size: l.sizeLabel || null, quantity: l.quantity }));
}

export async function cartAndRemindersOfPerson(db: Queryable, userId: string): Promise<PersonCartAndReminders> {
  const [cart, reminders] = await Promise.all([
    db.selectFrom("saved_carts").select(["lines", "changed_at", "updated_at"]).where("user_id", "=", userId).executeTakeFirst(),
    db
      .selectFrom("reminders")
      .select(["kind", "status", "order_id", "lines", "claimed_at", "sent_at", "restored_at"])
      .where("user_id", "=", userId)
      .orderBy("claimed_at", "desc")
      .orderBy("id", "desc")
      .execute(),
  ]);
  return {
    savedCart: cart ? { items: await namedItems(db, cart.lines), changedAt: cart.changed_at, updatedAt: cart.updated_at } : null,
    reminders: await Promise.all(
      reminders.map(async (r) => ({
        kind: r.kind,
        status: r.status,
        orderId: r.order_id,
        items: await namedItems(db, r.lines),
        claimedAt: r.claimed_at,
        sentAt: r.sent_at,
        restoredAt: r.restored_at,
      })),
    ),
  };
}

/** Reminder rows whose items or error are not yet erased (lines is JSON: text on SQLite, jsonb on PostgreSQL). */
const hasContents = sql<boolean>`(lines <> ${"[]"} or error is not null)`;

/**
 * The account is being deleted (in the caller's transaction): its cart goes, and its reminders keep only what the
 * figures count (kind, status, dates, the order), without the items or the account. Answers what it did.
 */
export async function eraseCartAndRemindersOfPerson(trx: Queryable, userId: string): Promise<{ savedCarts: number; reminders: number }> {
  const carts = await trx.deleteFrom("saved_carts").where("user_id", "=", userId).executeTakeFirstOrThrow();
  const reminders = await trx.updateTable("reminders").set({ lines: JSON.stringify([]), error: null, user_id: null }).where("user_id", "=", userId).executeTakeFirstOrThrow();
  return { savedCarts: Number(carts.numDeletedRows), reminders: Number(reminders.numUpdatedRows) };
}

/**
 * The retention job's rules (each conditional, so two runs count each row once): reminders claimed before
 * `contentsBefore` lose their items and error, before `linkBefore` their account; carts unchanged since before
 * `cartBefore` are deleted. A reminder still being sent is left alone.
 */
export async function eraseOldCartsAndReminders(db: Queryable, cut: { contentsBefore: string; linkBefore: string; cartBefore: string }) {
  const contents = await db
    .updateTable("reminders")
    .set({ lines: JSON.stringify([]), error: null })
    .where("claimed_at", "<", cut.contentsBefore)
    .where("status", "<>", "sending")
    .where(hasContents)
    .executeTakeFirstOrThrow();
  const links = await db.updateTable("reminders").set({ user_id: null }).where("claimed_at", "<", cut.linkBefore).where("user_id", "is not", null).executeTakeFirstOrThrow();
  const carts = await db.deleteFrom("saved_carts").where("updated_at", "<", cut.cartBefore).executeTakeFirstOrThrow();
  return { reminderContents: Number(contents.numUpdatedRows), reminderLinks: Number(links.numUpdatedRows), savedCarts: Number(carts.numDeletedRows) };
}
