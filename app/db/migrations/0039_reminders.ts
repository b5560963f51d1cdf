import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Reminders (issue 34 point 2, docs/decisions/056).
 *
 * - `saved_carts`: a signed-in shopper's cart, kept on the server too so it follows them to another device (visitors'
 *   carts stay in the browser only). `lines` holds product, size and quantity (never a price: prices come from the
 *   database whenever the cart is shown); `version` counts its changes (a device whose copy is older merges instead of
 *   overwriting); `cart_id` names the cart from the moment it gets its first item until it is emptied (one reminder per
 *   cart); `changed_at` is the last change of its contents (a reminder is due that long after).
 * - `reminders`: one row per reminder, claimed before its e-mail is written. The unique (kind, subject_id) is what makes
 *   "never more than one per cart or order" hold, whatever the number of app servers: of two inserts, one wins.
 *   `lines` is the cart as reminded (what its restore link puts back); `status` moves sending → sent | failed | skipped (consent withdrawn or order paid meanwhile);
 *   `restored_at` is when its restore link was first used (an order placed after it counts as recovered).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("saved_carts")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("lines", t.json, (c) => c.notNull().defaultTo(t.emptyJsonArray))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cart_id", "text")
    .addColumn("changed_at", t.timestamp)
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  // The reminder job's question: carts with items left since before a moment.
  await db.schema.createIndex("saved_carts_changed_idx").on("saved_carts").column("changed_at").execute();

  await db.schema
    .createTable("reminders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    // an erased account's reminders stay as counts, naming nobody
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("order_id", "text", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("lines", t.json, (c) => c.notNull().defaultTo(t.emptyJsonArray))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("outbox_id", "text")
    .addColumn("error", "text")
    .addColumn("claimed_at", t.timestamp, (c) => c.notNull())
    .addColumn("sent_at", t.timestamp)
    .addColumn("restored_at", t.timestamp)
    .addUniqueConstraint("reminders_subject_key", ["kind", "subject_id"])
    .execute();
  await db.schema.createIndex("reminders_claimed_idx").on("reminders").columns(["claimed_at", "id"]).execute();
  await db.schema.createIndex("reminders_user_idx").on("reminders").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("reminders").execute();
  await db.schema.dropTable("saved_carts").execute();
}
