import { describe, expect, it } from "vitest";
import { TEST_ADDRESS } from "../../../tests/factories/orders";
import { addressLine, localSaPhone, offerableAddress } from "./last-address.logic";

const stored = { ...TEST_ADDRESS };

describe("the last address offered at checkout", () => {
  it("writes the stored number the way South Africans do", () => {
    expect(localSaPhone("+27821234567")).toBe("082 123 4567");
    expect(localSaPhone("+27115551234")).toBe("011 555 1234");
    expect(localSaPhone("not a number")).toBe("not a number");
  });

  it("offers a stored address as the form would take it again", () => {
    expect(offerableAddress(stored)).toEqual({ ...stored, telephone: "082 123 4567" });
  });

  it("offers nothing the checkout would refuse (a gap, an unknown province, not an address at all)", () => {
    expect(offerableAddress({ ...stored, street: "" })).toBeNull();
    expect(offerableAddress({ ...stored, province: "Transvaal" })).toBeNull();
    expect(offerableAddress({ ...stored, postalCode: "81" })).toBeNull();
    expect(offerableAddress(null)).toBeNull();
    expect(offerableAddress("12 Jacaranda Street")).toBeNull();
  });

  it("sums the address up on one line", () => {
    expect(addressLine(stored)).toBe("12 Jacaranda Street, Menlo Park, Pretoria 0081, Gauteng");
  });
});
