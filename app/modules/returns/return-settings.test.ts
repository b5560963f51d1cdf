import { describe, expect, it } from "vitest";
import { parseEnv } from "~/utils/env.server";
import { returnPolicy } from "./returns.server";

/** The owner's return settings (docs/decisions/041), as the shop reads them at start. */
describe("return settings", () => {
  it("default: the Act's 7 days, nothing excluded, credit notes CN-", () => {
    const env = parseEnv({});
    expect(returnPolicy(env)).toEqual({ windowDays: 7, excludeOpened: false, excludedCategories: [], exclusionReason: null });
    expect(env.CREDIT_NOTE_PREFIX).toBe("CN-");
  });

  it("a longer window and exclusions with their reasoning are taken", () => {
    const env = parseEnv({ RETURN_WINDOW_DAYS: "14", RETURN_EXCLUDE_OPENED: "true", RETURN_EXCLUDED_CATEGORIES: " Testers, gift-sets ,testers", RETURN_EXCLUSION_REASON: "Opened scents can't be resold." });
    expect(returnPolicy(env)).toEqual({ windowDays: 14, excludeOpened: true, excludedCategories: ["testers", "gift-sets"], exclusionReason: "Opened scents can't be resold." });
  });

  it("refuses to start with a window shorter than ECTA s44's 7 days, an exclusion without its reasoning, or the invoices' prefix", () => {
    expect(() => parseEnv({ RETURN_WINDOW_DAYS: "5" })).toThrow(/RETURN_WINDOW_DAYS: at least 7: ECTA s44\(1\)\(a\) gives 7 days after delivery/);
    expect(() => parseEnv({ RETURN_EXCLUDE_OPENED: "true" })).toThrow(/set RETURN_EXCLUSION_REASON/);
    expect(() => parseEnv({ RETURN_EXCLUDED_CATEGORIES: "testers" })).toThrow(/set RETURN_EXCLUSION_REASON/);
    expect(() => parseEnv({ RETURN_EXCLUDED_CATEGORIES: "Gift Sets!" })).toThrow(/RETURN_EXCLUDED_CATEGORIES/);
    expect(() => parseEnv({ CREDIT_NOTE_PREFIX: "INV-" })).toThrow(/CREDIT_NOTE_PREFIX must differ from INVOICE_PREFIX/);
  });
});
