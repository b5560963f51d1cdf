import { describe, expect, it } from "vitest";
import { INPUT_MESSAGES, readFields, readForm, readJsonOrForm, readQuery } from "./request.server";

const URL_ = "http://shop.test/x";

function post(body: BodyInit | null, contentType: string | null, extra: Record<string, string> = {}) {
  const request = new Request(URL_, { method: "POST", body, headers: { ...(contentType ? { "content-type": contentType } : {}), ...extra } });
  if (!contentType) request.headers.delete("content-type");
  return request;
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; error: string }> {
  const thrown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(thrown).toBeInstanceOf(Response);
  const response = thrown as Response;
  return { status: response.status, error: ((await response.json()) as { error: string }).error };
}

describe("readForm", () => {
  it("reads url-encoded and multipart forms", async () => {
    expect(await readFields(post("email=a%40b.co&email=second&x=1", "application/x-www-form-urlencoded"))).toEqual({ email: "a@b.co", x: "1" });
    const form = new FormData();
    form.set("name", "Zoë");
    expect(await readFields(new Request(URL_, { method: "POST", body: form }))).toEqual({ name: "Zoë" });
  });

  it.each([
    ["application/json", '{"a":1}'],
    ["text/plain", "a=1"],
    ["application/xml", "<a/>"],
    [null, "a=1"],
  ])("refuses a %s body with 415", async (type, body) => {
    expect(await refusal(readForm(post(body, type)))).toEqual({ status: 415, error: INPUT_MESSAGES.notAForm });
  });

  it("refuses broken multipart with 400", async () => {
    const broken = post('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end', "multipart/form-data; boundary=xyz");
    expect(await refusal(readForm(broken))).toEqual({ status: 400, error: INPUT_MESSAGES.unreadable });
    expect((await refusal(readForm(post("a=1", "multipart/form-data")))).status).toBe(400);
  });

  it("refuses a NUL byte in a value, a name or a file name with 400", async () => {
    expect((await refusal(readForm(post("q=a%00b", "application/x-www-form-urlencoded")))).status).toBe(400);
    expect((await refusal(readForm(post("a%00=1", "application/x-www-form-urlencoded")))).status).toBe(400);
    const form = new FormData();
    form.set("image", new File(["x"], "a\u0000.png", { type: "image/png" }));
    expect((await refusal(readForm(new Request(URL_, { method: "POST", body: form })))).status).toBe(400);
  });

  it("refuses a declared size over the limit with 413 without reading it", async () => {
    const request = post("a=1", "application/x-www-form-urlencoded", { "content-length": String(2 * 1024 * 1024) });
    expect((await refusal(readForm(request))).status).toBe(413);
    expect(request.bodyUsed).toBe(false);
  });
});

describe("readJsonOrForm", () => {
  it("reads a JSON object or a form", async () => {
    expect(await readJsonOrForm(post('{"code":"SAVE10","lines":[]}', "application/json"))).toEqual({ code: "SAVE10", lines: [] });
    expect(await readJsonOrForm(post("code=SAVE10", "application/x-www-form-urlencoded"))).toEqual({ code: "SAVE10" });
  });

  it.each(['{"code":"a\\u0000"}', "[1,2]", "null", "{not json", '"text"'])("refuses %j with 400", async (body) => {
    expect((await refusal(readJsonOrForm(post(body, "application/json")))).status).toBe(400);
  });
});

describe("readQuery", () => {
  it("returns the query, and refuses a NUL in a name or value with a 400 Response", () => {
    expect(readQuery(new Request("http://shop.test/shop?q=amber&page=2")).get("q")).toBe("amber");
    for (const url of ["http://shop.test/shop?q=%00", "http://shop.test/shop?q=a%00b", "http://shop.test/shop?%00=1"]) {
      let thrown: unknown;
      try {
        readQuery(new Request(url));
      } catch (e) {
        thrown = e;
      }
      expect(thrown, url).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(400);
    }
  });
});
