import { describe, expect, it } from "vitest";
import { contactMail, escapeHtml, formatSubmissionDate, oneLine } from "./contact.logic";
import { contactSchema } from "./contact.schema";

describe("formatSubmissionDate (en-ZA long date with time, SAST)", () => {
  it.each([
    ["2025-05-15T12:05:00.000Z", "15 May 2025 at 14:05 SAST"],
    ["2025-12-31T22:30:00.000Z", "1 January 2026 at 00:30 SAST"],
    ["2024-02-28T23:59:59.000Z", "29 February 2024 at 01:59 SAST"],
    ["2026-11-22T00:00:00.000Z", "22 November 2026 at 02:00 SAST"],
  ])("%s → %s", (iso, expected) => {
    expect(formatSubmissionDate(new Date(iso))).toBe(expected);
  });
});

describe("contact mail", () => {
  it("carries name, e-mail, message and date; subject on one line", () => {
    const mail = contactMail({ name: "Sipho\r\nBcc: x@evil", email: "s@example.co.za", message: "Hi <b>" }, new Date("2025-05-15T12:05:00Z"), "Scentara");
    expect(mail.subject).toBe("New contact message from Sipho Bcc: x@evil");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).toContain("E-mail: s@example.co.za");
    expect(mail.text).toContain("Submitted: 15 May 2025 at 14:05 SAST");
    expect(mail.html).toContain("Hi &lt;b&gt;");
  });

  it("helpers", () => {
    expect(oneLine("a\n\tb", 80)).toBe("a b");
    expect(oneLine("x".repeat(100), 10)).toHaveLength(10);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("contactSchema", () => {
  it("trims and accepts a valid message", () => {
    expect(contactSchema.parse({ name: " Lerato ", email: " lerato@example.co.za ", message: " Hello " })).toEqual({
      name: "Lerato",
      email: "lerato@example.co.za",
      message: "Hello",
    });
  });
  it("rejects missing fields and bad e-mail addresses", () => {
    for (const bad of [{}, { name: "a", email: "b", message: "c" }, { name: "a", email: "a@b.co", message: "" }, { name: "", email: "a@b.co", message: "x" }]) {
      expect(contactSchema.safeParse(bad).success).toBe(false);
    }
  });
});
