import { describe, expect, it } from "vitest";
import { showsFloatingChat } from "./site-frame";

describe("showsFloatingChat", () => {
  it.each([
    ["/", true],
    ["/shop", true],
    ["/terms", true],
    ["/productsx", true],
    ["/products/amber-lantern", false],
    ["/cart", false],
    ["/checkout", false],
    ["/admin", false],
    ["/admin/orders", false],
  ])("%s → %s", (path, expected) => {
    expect(showsFloatingChat(path)).toBe(expected);
  });
});
