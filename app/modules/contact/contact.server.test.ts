import { expect, it } from "vitest";
import { ContactRateLimiter } from "./contact.server";

it("allows 5 messages per address per 10 minutes, then again once the window has passed", () => {
  let now = 0;
  const limiter = new ContactRateLimiter(5, 600_000, () => now);
  for (let i = 0; i < 5; i++) expect(limiter.allow("a")).toBe(true);
  expect(limiter.allow("a")).toBe(false);
  expect(limiter.allow("b")).toBe(true);
  now = 599_999;
  expect(limiter.allow("a")).toBe(false);
  now = 600_000;
  expect(limiter.allow("a")).toBe(true);
});
