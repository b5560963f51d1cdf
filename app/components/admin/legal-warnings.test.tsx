import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { expect, it } from "vitest";
import { LegalWarnings } from "./legal-warnings";

const text = (html: string) => html.replace(/<!-- -->/g, "");
const render = (missing: string[]) => {
  const Stub = createRoutesStub([{ path: "/admin", Component: () => <LegalWarnings missing={missing} /> }]);
  return renderToString(<Stub initialEntries={["/admin"]} />);
};

it("names each missing legal setting with what it is and the section, and links both pages", () => {
  const html = text(render(["SHOP_TELEPHONE (telephone number, ECTA s43(1)(b))", "SHOP_INFORMATION_OFFICER (Information Officer's name, POPIA s18(1)(b), s55)"]));
  expect(html).toContain("Legal notices incomplete: 2 settings not set");
  expect(html).toContain("<code class=\"text-ink\">SHOP_TELEPHONE</code> (telephone number, ECTA s43(1)(b))");
  expect(html).toContain('href="/seller"');
  expect(html).toContain('href="/privacy"');
});

it("shows nothing when every setting is given (and on a local shop, whose list is empty)", () => {
  expect(render([])).toBe("");
});
