import { describe, expect, it } from "vitest";
import { cartLinesJsonSchema, checkoutSchema, normalizeSaPhone, SA_PROVINCES } from "./orders.schema";
import { quantityChoices } from "~/components/cart-line-item";
import { parseAppliedCoupon } from "~/modules/cart/applied-coupon.browser";

describe("normalizeSaPhone", () => {
  it.each([
    ["082 123 4567", "+27821234567"],
    ["0821234567", "+27821234567"],
    ["(082) 123-4567", "+27821234567"],
    ["+27 82 123 4567", "+27821234567"],
    ["27821234567", "+27821234567"],
    ["+27 (0)82 123 4567", "+27821234567"],
    ["011 555 1234", "+27115551234"],
    ["082 123 456", null],
    ["082 123 45678", null],
    ["+44 20 7946 0958", null],
    ["0021234567", null],
    ["phone", null],
    ["", null],
  ])("%j → %j", (input, out) => expect(normalizeSaPhone(input)).toBe(out));
});

describe("checkoutSchema", () => {
  const valid = {
    name: " Thandi Nkosi ",
    telephone: "082 123 4567",
    street: "12 Jacaranda St",
    suburb: "Menlo Park",
    city: "Pretoria",
    postalCode: "0081",
    province: "Gauteng",
    lines: JSON.stringify([{ productId: "p1", quantity: 2, price: 1 }]),
    couponCode: " welcome10 ",
  };
  it("accepts a South African address, normalises phone and coupon, and drops any posted price", () => {
    const r = checkoutSchema.parse(valid);
    expect(r).toMatchObject({ name: "Thandi Nkosi", telephone: "+27821234567", couponCode: "WELCOME10", lines: [{ productId: "p1", quantity: 2 }] });
    expect(r.lines[0]).not.toHaveProperty("price");
  });
  it("knows the nine provinces", () => {
    expect(SA_PROVINCES).toHaveLength(9);
    for (const province of SA_PROVINCES) expect(checkoutSchema.safeParse({ ...valid, province }).success).toBe(true);
  });
  it.each([
    ["postalCode", "123"],
    ["postalCode", "12345"],
    ["postalCode", "abcd"],
    ["province", "Atlantis"],
    ["telephone", "12345"],
    ["name", "   "],
    ["street", ""],
    ["lines", "not json"],
    ["lines", JSON.stringify([{ productId: "p1", quantity: 0 }])],
    ["lines", JSON.stringify([{ productId: "p1", quantity: 101 }])],
    ["lines", JSON.stringify([{ productId: "p1", quantity: 1.5 }])],
  ])("refuses %s = %j", (field, value) => {
    const r = checkoutSchema.safeParse({ ...valid, [field]: value });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path[0]).toBe(field);
  });
  it("an empty cart parses (placeOrder refuses it with 'Your cart is empty')", () => {
    expect(cartLinesJsonSchema.parse("[]")).toEqual([]);
  });
});

describe("cart helpers", () => {
  it("quantity choices are 1–6 plus a larger quantity from the product page", () => {
    expect(quantityChoices(2)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(quantityChoices(20)).toEqual([1, 2, 3, 4, 5, 6, 20]);
  });
  it("parseAppliedCoupon keeps a well-formed coupon and drops anything else", () => {
    const ok = { code: "WELCOME10", discountType: "percentage", discountAmount: 3500, description: "10% off" };
    expect(parseAppliedCoupon(JSON.stringify(ok))).toEqual(ok);
    expect(parseAppliedCoupon(JSON.stringify({ ...ok, discountType: "bogus" }))).toBeNull();
    expect(parseAppliedCoupon(JSON.stringify({ ...ok, discountAmount: 1.5 }))).toBeNull();
    expect(parseAppliedCoupon("{oops")).toBeNull();
    expect(parseAppliedCoupon(null)).toBeNull();
  });
});
