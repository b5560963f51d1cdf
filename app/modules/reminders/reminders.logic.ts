/**
 * When a reminder is due (issue 34 point 2; docs/decisions/056): pure rules, no I/O.
 *
 * - A cart with items, left unchanged for CART_REMINDER_AFTER_MINUTES (default a day), gets one reminder; a cart left
 *   longer than that plus CART_REMINDER_GRACE_DAYS gets none (switching reminders on, or a job stopped for a while,
 *   must not mail everybody about carts they have long forgotten).
 * - A placed, unpaid card or instant-EFT order gets one reminder ORDER_REMINDER_AFTER_MINUTES after it was placed
 *   (default 30), and always while its hold still has time to run (order-expiry.logic.ts), so the link can still pay:
 *   the delay is at most half the hold, and none goes once less than a quarter of the hold (10 minutes at most) is left.
 *   A manual bank transfer is not reminded: its own e-mail already carries the bank details and its days to pay.
 */
export const CART_REMINDER_GRACE_DAYS = 7;
/** An order that never expires (UNPAID_ORDER_TTL_MINUTES=0) is reminded within a day of being due, or not at all. */
export const ORDER_REMINDER_GRACE_MINUTES = 24 * 60;
/** An order placed within this many days after its cart was restored from a reminder counts as recovered. */
export const RESTORED_CART_ORDER_DAYS = 7;

export interface ReminderSettings {
  /** minutes a cart is left before its reminder (0: no cart reminders) */
  cartAfterMinutes: number;
  /** minutes after an unpaid order was placed (0: no order reminders) */
  orderAfterMinutes: number;
}

export interface Window {
  /** due once this many minutes have passed … */
  fromMinutes: number;
  /** … and no longer once this many have */
  untilMinutes: number;
}

/** How long after its last change a cart is reminded about. */
export function cartReminderWindow(settings: ReminderSettings): Window | null {
  if (settings.cartAfterMinutes <= 0) return null;
  return { fromMinutes: settings.cartAfterMinutes, untilMinutes: settings.cartAfterMinutes + CART_REMINDER_GRACE_DAYS * 24 * 60 };
}

/**
 * How long after it was placed an unpaid order is reminded about, given its hold (null: it never expires). Always
 * inside the hold with time left to pay (see the file's comment).
 */
export function orderReminderWindow(settings: ReminderSettings, holdMinutes: number | null): Window | null {
  if (settings.orderAfterMinutes <= 0) return null;
  if (holdMinutes === null) return { fromMinutes: settings.orderAfterMinutes, untilMinutes: settings.orderAfterMinutes + ORDER_REMINDER_GRACE_MINUTES };
  const fromMinutes = Math.min(settings.orderAfterMinutes, holdMinutes / 2);
  return { fromMinutes, untilMinutes: holdMinutes - Math.min(10, holdMinutes / 4) };
}

/** Is an event at `at` inside the window at `now`? */
export function inWindow(window: Window, at: Date | string, now: Date): boolean {
  const minutes = (now.getTime() - new Date(at).getTime()) / 60_000;
  return minutes >= window.fromMinutes && minutes < window.untilMinutes;
}

/** The instants bounding what is due at `now`: placed/changed at or before `dueBy`, and after `notBefore`. */
export function windowBounds(window: Window, now: Date): { dueBy: string; notBefore: string } {
  return {
    dueBy: new Date(now.getTime() - window.fromMinutes * 60_000).toISOString(),
    notBefore: new Date(now.getTime() - window.untilMinutes * 60_000).toISOString(),
  };
}
