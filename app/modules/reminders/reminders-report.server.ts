/**
 * Admin → Marketing → Reminders (issue 34 point 2; docs/decisions/056): for a range of days (South African), the
 * reminders sent, and the orders they recovered with their revenue:
 * - an unpaid-order reminder recovered its order when that order was paid (it was unpaid when reminded, and a paid or
 *   closed order is never reminded, so its payment came after);
 * - a cart reminder recovered the paid orders its shopper placed within RESTORED_CART_ORDER_DAYS after first using its
 *   restore link.
 * An order counts once, with its total as paid. Reminders are counted by the day they were sent.
 */
import type { Queryable } from "~/db/db.server";
import type { ReminderKind } from "~/db/schema";
import { RESTORED_CART_ORDER_DAYS } from "./reminders.logic";

export interface ReminderKindFigures {
  sent: number;
  /** the mail server refused them */
  failed: number;
  /** cart reminders whose link was used */
  restored: number;
  ordersRecovered: number;
  revenueCents: number;
}

export interface ReminderFigures {
  cart: ReminderKindFigures;
  order: ReminderKindFigures;
  total: ReminderKindFigures;
}

const empty = (): ReminderKindFigures => ({ sent: 0, failed: 0, restored: 0, ordersRecovered: 0, revenueCents: 0 });

export async function reminderFigures(db: Queryable, range: { start: string; end: string }): Promise<ReminderFigures> {
  const figures: Record<ReminderKind, ReminderKindFigures> = { cart: empty(), order: empty() };
  const counts = await db
    .selectFrom("reminders")
    .select(["kind", "status", (eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.count<number>("restored_at").as("restored")])
    .where("sent_at", ">=", range.start)
    .where("sent_at", "<", range.end)
    .where("status", "in", ["sent", "failed"])
    .groupBy(["kind", "status"])
    .execute();
  for (const c of counts) {
    const f = figures[c.kind];
    if (c.status === "sent") f.sent += Number(c.n);
    else f.failed += Number(c.n);
    f.restored += Number(c.restored);
  }

  const recovered = new Map<string, { kind: ReminderKind; totalCents: number }>();
  const paidReminded = await db
    .selectFrom("reminders as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .select(["o.id", "o.total_amount_cents"])
    .where("r.kind", "=", "order")
    .where("r.status", "=", "sent")
    .where("r.sent_at", ">=", range.start)
    .where("r.sent_at", "<", range.end)
    .where("o.payment_status", "=", "completed")
    .execute();
  for (const o of paidReminded) recovered.set(o.id, { kind: "order", totalCents: Number(o.total_amount_cents) });

  const restored = await db
    .selectFrom("reminders")
    .select(["user_id", "restored_at"])
    .where("kind", "=", "cart")
    .where("status", "=", "sent")
    .where("sent_at", ">=", range.start)
    .where("sent_at", "<", range.end)
    .where("restored_at", "is not", null)
    .where("user_id", "is not", null)
    .execute();
  if (restored.length) {
    const first = restored.reduce((min, r) => (r.restored_at! < min ? r.restored_at! : min), restored[0]!.restored_at!);
    const orders = await db
      .selectFrom("orders")
      .select(["id", "user_id", "created_at", "total_amount_cents"])
      .where("user_id", "in", [...new Set(restored.map((r) => r.user_id!))])
      .where("payment_status", "=", "completed")
      .where("created_at", ">=", first)
      .execute();
    const daysMs = RESTORED_CART_ORDER_DAYS * 24 * 60 * 60_000;
    for (const o of orders) {
      const at = new Date(o.created_at).getTime();
      const fromRestore = restored.some((r) => r.user_id === o.user_id && at >= new Date(r.restored_at!).getTime() && at < new Date(r.restored_at!).getTime() + daysMs);
      if (fromRestore && !recovered.has(o.id)) recovered.set(o.id, { kind: "cart", totalCents: Number(o.total_amount_cents) });
    }
  }
  for (const { kind, totalCents } of recovered.values()) {
    figures[kind].ordersRecovered++;
    figures[kind].revenueCents += totalCents;
  }
  const total = empty();
  for (const f of [figures.cart, figures.order]) for (const key of Object.keys(total) as (keyof ReminderKindFigures)[]) total[key] += f[key];
  return { ...figures, total };
}
