import { expect, it } from "vitest";
import { privacyFooterText, withPrivacyFooter } from "./mail-footer";

it("adds the privacy notice link under a signature separator to the text", () => {
  const out = withPrivacyFooter({ to: "a@example.co.za", subject: "Hi", text: "Thank you\n\n" }, "https://shop.example.co.za/");
  expect(out.text).toBe("Thank you\n\n-- \nHow we handle your personal information: https://shop.example.co.za/privacy");
  expect(out).toMatchObject({ to: "a@example.co.za", subject: "Hi" });
  expect("html" in out).toBe(false);
  expect(privacyFooterText("http://localhost:3000")).toContain("http://localhost:3000/privacy");
});

it("adds it to the HTML too: before </body> when there is one, at the end otherwise", () => {
  const plain = withPrivacyFooter({ text: "x", html: "<p>x</p>" }, "http://localhost:3000");
  expect(plain.html).toMatch(/^<p>x<\/p>\n<p [^>]+>How we handle your personal information: <a href="http:\/\/localhost:3000\/privacy">our privacy notice<\/a><\/p>$/);
  const doc = withPrivacyFooter({ text: "x", html: "<html><body><p>x</p></body></html>" }, "http://localhost:3000");
  expect(doc.html).toMatch(/<a href="http:\/\/localhost:3000\/privacy">our privacy notice<\/a><\/p>\n<\/body><\/html>$/);
});
