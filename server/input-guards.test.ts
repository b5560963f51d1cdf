import { describe, expect, it } from "vitest";
import type { NextFunction, Request, Response } from "express";
import { MAX_IMPORT_UPLOAD_BYTES } from "~/modules/catalog-csv/csv-limits";
import { bodyLimit, bodyLimitFor, refuseNulInUrl } from "./input-guards";
import { MAX_FORM_BYTES, MAX_UPLOAD_BYTES } from "~/utils/request.server";

/** Runs a guard over a fake request; returns the status it answered, or "next" when it let the request through. */
function run(guard: (req: Request, res: Response, next: NextFunction) => void, req: Partial<Request>): number | "next" {
  let answered: number | "next" = "next";
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (k: string, v: string) => (headers[k.toLowerCase()] = v),
    status(code: number) {
      answered = code;
      return this;
    },
    json: () => undefined,
  } as unknown as Response;
  guard({ headers: {}, path: "/", originalUrl: "/", ...req } as Request, res, () => undefined);
  if (answered !== "next") expect(headers.connection).toBe("close");
  return answered;
}

describe("bodyLimit", () => {
  it("lets declared bodies within the route's limit through", () => {
    expect(run(bodyLimit(), { path: "/auth/login", headers: { "content-length": String(MAX_FORM_BYTES) } })).toBe("next");
    expect(run(bodyLimit(), { path: "/admin/products/add", headers: { "content-length": String(5 * 1024 * 1024 + 1000) } })).toBe("next");
    expect(run(bodyLimit(), { path: "/shop", headers: {} })).toBe("next");
  });

  it("refuses a body over the limit with 413 and one without a length with 411", () => {
    expect(run(bodyLimit(), { path: "/auth/login", headers: { "content-length": String(MAX_FORM_BYTES + 1) } })).toBe(413);
    expect(run(bodyLimit(), { path: "/admin/products/edit/p1", headers: { "content-length": String(MAX_UPLOAD_BYTES + 1) } })).toBe(413);
    expect(run(bodyLimit(), { path: "/auth/login", headers: { "transfer-encoding": "chunked" } })).toBe(411);
  });

  it("gives only the product forms the upload limit", () => {
    expect(bodyLimitFor("/admin/products/add")).toBe(MAX_UPLOAD_BYTES);
    expect(bodyLimitFor("/admin/products/edit/abc.data")).toBe(MAX_UPLOAD_BYTES);
    expect(bodyLimitFor("/admin/products/images")).toBe(MAX_UPLOAD_BYTES);
    expect(bodyLimitFor("/admin/products")).toBe(MAX_FORM_BYTES);
    expect(bodyLimitFor("/admin/products/import.data")).toBe(MAX_IMPORT_UPLOAD_BYTES);
    expect(bodyLimitFor("/checkout")).toBe(MAX_FORM_BYTES);
  });
});

describe("refuseNulInUrl", () => {
  it.each(["/shop?q=%00", "/shop?q=a%00b", "/shop?%00=1", "/products/%00", "/products/a%00b?x=1"])("refuses %s with 400", (url) => {
    expect(run(refuseNulInUrl(), { originalUrl: url })).toBe(400);
  });

  it.each(["/shop?q=amber", "/shop?q=%2500", "/products/amber-lantern", "/"])("lets %s through", (url) => {
    expect(run(refuseNulInUrl(), { originalUrl: url })).toBe("next");
  });
});
