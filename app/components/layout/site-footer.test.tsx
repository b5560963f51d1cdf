import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { EMPTY_ROOT_DATA, type RootData } from "~/modules/settings/root-data";
import { SiteFooter } from "./site-footer";

const shop = { name: "Scentara", whatsappNumber: "27821234567", contactEmail: "hello@scentara.co.za", freeDeliveryThresholdCents: 0 };

/** The footer as the server sends it, under a root route whose loader data is `root` (the flags come from there). */
function render(root: RootData, props: { rewards?: boolean } = {}) {
  const Stub = createRoutesStub([{ id: "root", path: "/", Component: () => <SiteFooter shop={shop} year={2026} {...props} /> }]);
  return renderToString(<Stub initialEntries={["/"]} hydrationData={{ loaderData: { root } }} />);
}

const hrefs = (html: string) => [...html.matchAll(/<a[^>]*href="([^"]+)"[^>]*>(.*?)<\/a>/g)].map((m) => [m[1], m[2]]);

describe("SiteFooter's Rewards link (issue 40)", () => {
  const on: RootData = { ...EMPTY_ROOT_DATA, shop, rewards: true };

  it("is there while the programme is on (the root loader's flag)", () => {
    expect(hrefs(render(on)).filter(([href]) => href === "/rewards")).toEqual([["/rewards", "Rewards"]]);
  });

  it("is not there while it is off, or before the root loader has said", () => {
    expect(hrefs(render({ ...on, rewards: false })).map(([href]) => href)).not.toContain("/rewards");
    const { rewards: _, ...unsaid } = on;
    const html = render(unsaid);
    expect(hrefs(html).map(([href]) => href)).not.toContain("/rewards");
    expect(hrefs(html).map(([href]) => href)).toContain("/gift-cards");
  });

  it("follows the prop when one is given", () => {
    expect(hrefs(render({ ...on, rewards: false }, { rewards: true })).map(([href]) => href)).toContain("/rewards");
    expect(hrefs(render(on, { rewards: false })).map(([href]) => href)).not.toContain("/rewards");
  });
});
