import { expect, it } from "vitest";
import { serializeJsonLd } from "./json-ld";

it("escapes characters that could end the script block, and stays valid JSON", () => {
  const data = { name: "</script><script>alert(1)</script> & <!-- x -->" };
  const out = serializeJsonLd(data);
  expect(out).not.toContain("<");
  expect(out).not.toContain(">");
  expect(out).toContain("\\u003c/script\\u003e");
  expect(JSON.parse(out)).toEqual(data);
});
