import type { Queryable } from "~/db/db.server";
import type { ShippingAddress } from "~/db/schema";
import { offerableAddress } from "./last-address.logic";

/**
 * Where this customer's most recent order was shipped to, offered at their next checkout (issue 13): their own
 * orders only, newest first (the orders_user_created_idx index); null for a first order or an unusable address.
 */
export async function lastShippingAddress(db: Queryable, userId: string): Promise<ShippingAddress | null> {
  const row = await db
    .selectFrom("orders")
    .select("shipping_address")
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? offerableAddress(row.shipping_address) : null;
}
