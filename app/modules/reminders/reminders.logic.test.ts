import { describe, expect, it } from "vitest";
import { mergeCartLines } from "~/modules/cart/saved-cart.logic";
import { cartReminderWindow, inWindow, orderReminderWindow } from "./reminders.logic";

const settings = { cartAfterMinutes: 1440, orderAfterMinutes: 30 };

describe("when a reminder is due", () => {
  it("an unpaid order: after its delay, never later than its hold allows to pay", () => {
    expect(orderReminderWindow(settings, 60)).toEqual({ fromMinutes: 30, untilMinutes: 50 });
    // a delay longer than half the hold is brought inside it; a short hold keeps a quarter to pay
    expect(orderReminderWindow({ ...settings, orderAfterMinutes: 90 }, 60)).toEqual({ fromMinutes: 30, untilMinutes: 50 });
    expect(orderReminderWindow(settings, 20)).toEqual({ fromMinutes: 10, untilMinutes: 15 });
    for (const hold of [5, 20, 60, 600, 43_200]) {
      const w = orderReminderWindow(settings, hold)!;
      expect(w.fromMinutes).toBeLessThan(w.untilMinutes);
      expect(w.untilMinutes).toBeLessThan(hold);
    }
    expect(orderReminderWindow({ ...settings, orderAfterMinutes: 0 }, 60)).toBeNull();
  });

  it("a cart: a day after its last change, for a week", () => {
    const w = cartReminderWindow(settings)!;
    const changed = new Date("2031-01-01T10:00:00Z");
    expect(inWindow(w, changed, new Date("2031-01-02T09:59:00Z"))).toBe(false);
    expect(inWindow(w, changed, new Date("2031-01-02T10:00:00Z"))).toBe(true);
    expect(inWindow(w, changed, new Date("2031-01-09T10:00:00Z"))).toBe(false);
    expect(cartReminderWindow({ ...settings, cartAfterMinutes: 0 })).toBeNull();
  });
});

describe("merging two carts", () => {
  it("keeps every item; the same product in the same size at the larger quantity; sizes apart", () => {
    const merged = mergeCartLines(
      [
        { productId: "rose", sizeId: "rose-50", quantity: 1 },
        { productId: "amber", quantity: 2 },
      ],
      [
        { productId: "rose", sizeId: "rose-50", quantity: 3 },
        { productId: "rose", sizeId: "rose-100", quantity: 1 },
        { productId: "amber", quantity: 1 },
      ],
    );
    expect(merged).toEqual([
      { productId: "rose", sizeId: "rose-50", quantity: 3 },
      { productId: "amber", quantity: 2 },
      { productId: "rose", sizeId: "rose-100", quantity: 1 },
    ]);
  });
});
