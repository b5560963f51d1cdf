import { describe, expect, it } from "vitest";
import { announcementMail } from "./announcement-mail";
import { announcementsPerRun } from "./announcement-sender.server";

describe("an announcement as an e-mail", () => {
  const product = { name: "Amber <Lantern>", priceCents: 129900, url: "https://shop.example.co.za/products/amber-lantern", imageUrl: "https://shop.example.co.za/media/a-400.webp", inspiredBy: "Inspired by Tom Ford Tobacco Vanille" };

  it("keeps the owner's text as written in the text version, with each product's price and link", () => {
    const mail = announcementMail({ shopName: "Scentara", subject: "New in: Amber", body: "Dear customer,\n\nThree new scents.\nJust in time.", products: [product] });
    expect(mail.subject).toBe("New in: Amber");
    expect(mail.text).toBe(
      ["Dear customer,\n\nThree new scents.\nJust in time.", "", "Amber <Lantern> (Inspired by Tom Ford Tobacco Vanille): R1 299.00", "https://shop.example.co.za/products/amber-lantern", "", "Scentara"].join("\n"),
    );
  });

  it("escapes everything the owner wrote in the HTML; blank lines make paragraphs, single breaks stay", () => {
    const mail = announcementMail({ shopName: "Scentara & Co", subject: "<script>alert(1)</script>", body: "<b>Hi</b>\n\nline one\nline two", products: [product] });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<b>Hi</b>");
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.html).toMatch(/>&lt;b&gt;Hi&lt;\/b&gt;<\/p>/);
    expect(mail.html).toMatch(/>line one<br>line two<\/p>/);
    expect(mail.html).toContain("Amber &lt;Lantern&gt;");
    expect(mail.html).toContain('href="https://shop.example.co.za/products/amber-lantern"');
    expect(mail.html).toContain("R1 299.00");
    expect(mail.html).toContain("Scentara &amp; Co");
    expect(mail.html).toMatch(/<\/body><\/html>$/);
  });

  it("without products it is the text and the shop's name", () => {
    const mail = announcementMail({ shopName: "Scentara", subject: "Closed on Friday", body: "We rest on Friday.", products: [] });
    expect(mail.text).toBe("We rest on Friday.\n\nScentara");
    expect(mail.html).not.toContain("Discover");
  });
});

describe("the sender's throttle", () => {
  it("sends the minute's rate scaled to its run interval, at least one a run", () => {
    expect(announcementsPerRun(60, 10_000)).toBe(10);
    expect(announcementsPerRun(600, 1_000)).toBe(10);
    expect(announcementsPerRun(1, 10_000)).toBe(1);
    expect(announcementsPerRun(6000, 10_000)).toBe(1000);
  });
});
