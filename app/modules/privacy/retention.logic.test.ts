import { describe, expect, it } from "vitest";
import { DEFAULT_RETENTION, isRetentionDue, monthsBefore, noticeRetention, retentionCutoffs, retentionRules } from "./retention.logic";

describe("retention periods (POPIA s14)", () => {
  it("counts calendar months back, clamped to the shorter month", () => {
    expect(monthsBefore(new Date("2026-11-26T10:00:00Z"), 12).toISOString()).toBe("2025-11-26T10:00:00.000Z");
    expect(monthsBefore(new Date("2026-03-31T08:00:00Z"), 1).toISOString()).toBe("2026-02-28T08:00:00.000Z");
    expect(monthsBefore(new Date("2028-03-31T08:00:00Z"), 1).toISOString()).toBe("2028-02-29T08:00:00.000Z");
    expect(monthsBefore(new Date("2026-01-15T00:00:00Z"), 60).toISOString()).toBe("2021-01-15T00:00:00.000Z");
  });

  it("the issue's defaults: messages 12 months, e-mail text 90 days, unpaid orders 12 months, invoices 5 years", () => {
    const cut = retentionCutoffs(DEFAULT_RETENTION, new Date("2026-11-26T12:00:00Z"));
    expect(cut.contactBefore).toBe("2025-11-26T12:00:00.000Z");
    expect(cut.mailRecordBefore).toBe(cut.contactBefore);
    expect(cut.mailBodyBefore).toBe("2026-08-28T12:00:00.000Z");
    expect(cut.unpaidOrderBefore).toBe("2025-11-26T12:00:00.000Z");
    expect(cut.invoiceBefore).toBe("2021-11-26T12:00:00.000Z");
    expect(cut.rateLimitBefore).toBe(Date.parse("2026-11-25T12:00:00Z"));
  });

  it("a run is due a day after the last one started, and at once when there was none", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    expect(isRetentionDue(now, null)).toBe(true);
    expect(isRetentionDue(now, "2026-11-26T01:00:00Z")).toBe(false);
    expect(isRetentionDue(now, "2026-11-25T13:00:00Z")).toBe(true);
  });

  it("says the same periods to the admin and in the privacy notice", () => {
    const policy = { contactMonths: 6, mailBodyDays: 1, unpaidOrderMonths: 18, invoiceYears: 7, savedCartDays: 30 };
    const rules = Object.fromEntries(retentionRules(policy).map((r) => [r.id, r]));
    expect(rules.contactMessages!.kept).toBe("6 months");
    expect(rules.mailBodies!.kept).toBe("1 day");
    expect(rules.unpaidOrders!.kept).toBe("18 months");
    expect(rules.invoicedOrders!.kept).toBe("7 years from the invoice");
    expect(rules.invoicedOrders!.law).toContain("Tax Administration Act s29");
    const notice = noticeRetention(policy);
    expect(notice.messages).toContain("Contact messages: 6 months. The text of each e-mail we send you: 1 day");
    expect(notice.orders).toContain("7 years from the invoice");
    expect(notice.orders).toContain("erased after 18 months");
    // the features of docs/decisions/055–057 follow the same settings
    expect(rules.whatsappTexts!).toMatchObject({ kept: "1 day", setting: "RETENTION_MAIL_BODY_DAYS" });
    expect(rules.whatsappRecords!).toMatchObject({ kept: "6 months", setting: "RETENTION_CONTACT_MONTHS" });
    expect(rules.reminderContents!).toMatchObject({ kept: "1 day", setting: "RETENTION_MAIL_BODY_DAYS" });
    expect(rules.reminderLinks!).toMatchObject({ kept: "6 months", setting: "RETENTION_CONTACT_MONTHS" });
    expect(rules.savedCarts!).toMatchObject({ kept: "30 days unchanged", setting: "RETENTION_SAVED_CART_DAYS" });
    expect(rules.stockAlerts!).toMatchObject({ kept: "6 months at most", then: "Deleted once its e-mail is sent; one never confirmed after 7 days; any after 6 months." });
    expect(notice.whatsapp).toContain("Each message's number and words: 1 day, then erased; the record that it was sent (order, update, status, dates): 6 months");
    expect(notice.cart).toContain("deleted once it has not changed for 30 days");
    expect(notice.cart).toContain("A reminder's items: 1 day; which account it went to: 6 months");
  });

  it("the saved cart's cut-off is its setting in days", () => {
    const cut = retentionCutoffs({ ...DEFAULT_RETENTION }, new Date("2026-11-26T12:00:00Z"));
    expect(DEFAULT_RETENTION.savedCartDays).toBe(90);
    expect(cut.savedCartBefore).toBe("2026-08-28T12:00:00.000Z");
  });
});
