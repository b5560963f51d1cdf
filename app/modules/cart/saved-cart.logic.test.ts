import { describe, expect, it } from "vitest";
import { rebaseCartLines } from "./saved-cart.logic";

const l = (productId: string, quantity = 1, sizeId?: string) => (sizeId ? { productId, sizeId, quantity } : { productId, quantity });

describe("rebaseCartLines: this device's changes since the version it saw, over another device's", () => {
  it("a line removed on the other device stays removed when this device did not touch it", () => {
    expect(rebaseCartLines([l("a"), l("b")], [l("a"), l("b")], [l("a")])).toEqual([l("a")]);
  });
  it("a line removed here stays removed when the other device did not touch it", () => {
    expect(rebaseCartLines([l("a"), l("b")], [l("a")], [l("a"), l("b"), l("c")])).toEqual([l("a"), l("c")]);
  });
  it("each side's quantity change and addition is kept; both changed: the larger; a size is its own line", () => {
    expect(rebaseCartLines([l("a", 1), l("b", 1)], [l("a", 3), l("b", 2), l("a", 1, "s100")], [l("a", 1), l("b", 4), l("c")])).toEqual([
      l("a", 3),
      l("b", 4),
      l("a", 1, "s100"),
      l("c"),
    ]);
  });
  it("removed on one side and changed on the other: kept (a conflict keeps the item); removed here, untouched there: gone", () => {
    expect(rebaseCartLines([l("a"), l("b")], [l("a", 2)], [l("b")])).toEqual([l("a", 2)]);
  });
});
