import { describe, expect, it } from "vitest";
import { chooseSize, namedSize, pathWithSize, sizeCode } from "./sizes.logic";

const sizes = [
  { id: "a", code: "50mledp" },
  { id: "b", code: "100ml" },
];

describe("a size named in the URL", () => {
  it("is found by its current code however the link types it", () => {
    expect(namedSize(sizes, "100ml")?.id).toBe("b");
    expect(namedSize(sizes, "100 ML")?.id).toBe("b");
    expect(namedSize(sizes, "50 ml EDP")?.id).toBe("a");
  });

  it("is nothing for a code no current size has (a former one is looked up on the server), or no code", () => {
    expect(namedSize(sizes, "50ml")).toBeNull();
    expect(namedSize(sizes, "")).toBeNull();
    expect(namedSize(sizes, null)).toBeNull();
  });

  it("opens the first size when the URL names none of them, as before", () => {
    expect(chooseSize(sizes, "50ml")?.id).toBe("a");
    expect(chooseSize(sizes, "100ml")?.id).toBe("b");
    expect(chooseSize([], "100ml")).toBeNull();
  });

  it("gets a renamed label's new code, which is why a shared link needs the former code kept", () => {
    expect(sizeCode("50 ml")).toBe("50ml");
    expect(sizeCode("50 ml EDP")).toBe("50mledp");
  });
});

describe("the redirect to a size's current code", () => {
  it("changes only the size, keeping the path and every other parameter in its order", () => {
    expect(pathWithSize("http://shop.test/products/velvet-rose?utm_source=whatsapp&size=50ml&ref=x", "50mledp")).toBe(
      "/products/velvet-rose?utm_source=whatsapp&size=50mledp&ref=x",
    );
  });

  it("adds the size to a link that had none", () => {
    expect(pathWithSize("http://shop.test/products/velvet-rose", "100ml")).toBe("/products/velvet-rose?size=100ml");
  });
});
