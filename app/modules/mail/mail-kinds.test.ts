import { describe, expect, it } from "vitest";
import { preferencesUrl, privacyFooterText, senderIdentity, withMailFooter, withPrivacyFooter } from "./mail-footer";

/** The footer by kind of e-mail (docs/decisions/039): account, transactional, marketing. */
const ctx = { baseUrl: "https://shop.example.co.za/", shopName: "Scentara", legalName: "Scentara (Pty) Ltd", address: ["12 Main Road", "Cape Town"], contactEmail: "hello@scentara.co.za" };
const unsubscribe = "https://shop.example.co.za/unsubscribe?token=abc.def";

describe("the footer of each kind of e-mail", () => {
  it("an account e-mail (no kind) keeps the privacy notice's footer only", () => {
    const message = { to: "a@example.co.za", subject: "Reset", text: "Hi", html: "<p>Hi</p>" };
    expect(withMailFooter(message, ctx)).toEqual(withPrivacyFooter(message, ctx.baseUrl));
  });

  it("a transactional e-mail links the e-mail preferences before the privacy notice", () => {
    const out = withMailFooter({ text: "Your order is on its way.\n" }, ctx, "transactional");
    expect(out.text).toBe(`Your order is on its way.\n\n-- \nYour e-mail preferences: https://shop.example.co.za/profile/preferences\n${privacyFooterText(ctx.baseUrl).slice(4)}`);
    expect(out.text).not.toContain("nsubscribe");
    expect(preferencesUrl("http://localhost:3000")).toBe("http://localhost:3000/profile/preferences");
  });

  it("a marketing e-mail names its sender and how to stop it, with the one-click link, in the text and the HTML", () => {
    const out = withMailFooter({ text: "New scents.", html: "<html><body><p>New scents.</p></body></html>" }, ctx, "marketing", unsubscribe);
    expect(out.text.split("\n-- \n")[1]!.split("\n")).toEqual([
      "Sent by Scentara (Pty) Ltd, trading as Scentara, 12 Main Road, Cape Town (https://shop.example.co.za).",
      "You receive this because you asked for news and offers from Scentara.",
      `Unsubscribe (one click, no sign-in): ${unsubscribe}`,
      "Or write to hello@scentara.co.za to stop these e-mails.",
      "Your e-mail preferences: https://shop.example.co.za/profile/preferences",
      "How we handle your personal information: https://shop.example.co.za/privacy",
    ]);
    expect(out.html).toContain(`<a href="${unsubscribe}" style="color:#1c1714;text-decoration:underline">unsubscribe</a>`);
    expect(out.html).toContain('<a href="https://shop.example.co.za/privacy" style="color:#1c1714;text-decoration:underline">our privacy notice</a>');
    expect(out.html).toMatch(/<\/div>\n<\/body><\/html>$/);
    expect(() => withMailFooter({ text: "x" }, ctx, "marketing")).toThrow(/unsubscribe link/);
  });

  it("the sender is the trading name alone when no other registered name is set", () => {
    expect(senderIdentity({ ...ctx, legalName: undefined, address: [] })).toBe("Scentara");
    expect(senderIdentity({ ...ctx, legalName: "Scentara", address: ["1 Long St"] })).toBe("Scentara, 1 Long St");
  });
});
