import type { Queryable } from "~/db/db.server";

/**
 * The one reader of a return with its order and its customer's account (returns ⋈ orders ⋈ users), for the credit
 * note, the return e-mails and the returns admin, which each select what they show from it. The customer is the
 * return's requester: always the order's owner (returns.server.ts asks it of them), and both links are cleared
 * together when the account is deleted (privacy/erasure.server.ts), so joining on either reads the same person.
 */
export function returnsWithOrder(db: Queryable) {
  return db.selectFrom("returns as r").innerJoin("orders as o", "o.id", "r.order_id").leftJoin("users as u", "u.id", "r.user_id");
}
