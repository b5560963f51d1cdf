import { describe, expect, it } from "vitest";
import { DEFAULT_DELIVERY_SETTINGS } from "./delivery.logic";
import { deliverySettingsFormValues, deliverySettingsOf, deliverySettingsSchema, formatGrams, parseSignedRandToCents } from "./delivery-settings.schema";

describe("parseSignedRandToCents", () => {
  it.each([
    ["20", 2000],
    ["-20", -2000],
    ["−20.5", -2050],
    ["R -12,30", -1230],
    ["-R5", -500],
    ["+7.25", 725],
    ["-0", 0],
    ["R 1 000", 100_000],
    ["--5", null],
    ["12.345", null],
    ["", null],
    ["five", null],
  ])("%j → %j", (input, cents) => expect(parseSignedRandToCents(input)).toBe(cents));
});

describe("the delivery settings form", () => {
  it("the form's values of any settings parse back to the same settings (the defaults too)", () => {
    const values = deliverySettingsFormValues(DEFAULT_DELIVERY_SETTINGS);
    const parsed = deliverySettingsSchema.parse({ intent: "saveDelivery", ...values });
    // the default mobile is stored as typed (082…); saved through the form it becomes +27…
    expect(deliverySettingsOf(parsed, DEFAULT_DELIVERY_SETTINGS)).toEqual({
      ...DEFAULT_DELIVERY_SETTINGS,
      collectionContact: { ...DEFAULT_DELIVERY_SETTINGS.collectionContact, mobileNumber: "+27821234567" },
    });
  });

  it("groups grams as the shop groups numbers", () => {
    expect(formatGrams(25_000)).toBe("25 000");
    expect(formatGrams(350)).toBe("350");
  });
});
