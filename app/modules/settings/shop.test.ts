import { expect, it } from "vitest";
import { formatPhone, socialLinks, whatsappUrl } from "./shop";
import { isAdminPath, isHeaderSolid } from "~/components/layout/nav";

it("builds wa.me links from the configured number", () => {
  expect(whatsappUrl("27821234567")).toBe("https://wa.me/27821234567");
  expect(whatsappUrl("+27 82 123 4567", "Hi there")).toBe("https://wa.me/27821234567?text=Hi%20there");
});

it("formats South African numbers for people", () => {
  expect(formatPhone("27821234567")).toBe("+27 82 123 4567");
  expect(formatPhone("447700900123")).toBe("+447700900123");
});

it("names social profiles after the shop", () => {
  expect(socialLinks("Scentara").map((s) => s.href)).toEqual([
    "https://www.instagram.com/scentara",
    "https://www.facebook.com/scentara",
    "https://www.tiktok.com/@scentara",
  ]);
  expect(socialLinks("")).toEqual([]);
});

it("the header is solid on /admin, after 10 px of scrolling, or with the menu open", () => {
  expect(isHeaderSolid("/", 0)).toBe(false);
  expect(isHeaderSolid("/", 10)).toBe(false);
  expect(isHeaderSolid("/", 11)).toBe(true);
  expect(isHeaderSolid("/admin", 0)).toBe(true);
  expect(isHeaderSolid("/admin/orders", 0)).toBe(true);
  expect(isHeaderSolid("/administrator", 0)).toBe(false);
  expect(isHeaderSolid("/shop", 0, true)).toBe(true);
  expect(isAdminPath("/admins")).toBe(false);
});
