import { describe, expect, it } from "vitest";
import { hasActiveFilters, listHref, parseListQuery } from "./list-query";

const specs = { q: { kind: "text", max: 5 }, role: { kind: "choice", values: ["admin", "regular"] } } as const;

describe("admin list queries", () => {
  it("parses declared filters, bounds text, ignores unknown choices, and reads page, confirm and edit", () => {
    const q = parseListQuery(new URLSearchParams("q=%20amber%20oud&role=owner&page=3&confirm=a1&edit=b2&other=x"), specs);
    expect(q).toEqual({ filters: { q: "amber", role: "" }, page: 3, confirm: "a1", edit: "b2" });
    expect(parseListQuery(new URLSearchParams("page=-2"), specs).page).toBe(1);
    expect(parseListQuery(new URLSearchParams("page=abc"), specs).page).toBe(1);
    expect(hasActiveFilters(q)).toBe(true);
    expect(hasActiveFilters(parseListQuery(new URLSearchParams(""), specs))).toBe(false);
  });

  it("builds links that keep the filters, go back to page 1 when a filter changes, and drop confirm/edit unless asked", () => {
    const q = parseListQuery(new URLSearchParams("q=rose&role=admin&page=4&confirm=x"), specs);
    expect(listHref("/admin/users", q)).toBe("/admin/users?q=rose&role=admin&page=4");
    expect(listHref("/admin/users", q, { page: 5 })).toBe("/admin/users?q=rose&role=admin&page=5");
    expect(listHref("/admin/users", q, { role: "regular" })).toBe("/admin/users?q=rose&role=regular");
    expect(listHref("/admin/users", q, { role: "" })).toBe("/admin/users?q=rose");
    expect(listHref("/admin/users", q, { confirm: "u1" })).toBe("/admin/users?q=rose&role=admin&page=4&confirm=u1");
    expect(listHref("/admin/users", q, { edit: "u2" })).toBe("/admin/users?q=rose&role=admin&page=4&edit=u2");
  });
});
