import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { RootUser } from "~/modules/settings/root-data";
import { SiteHeader } from "./site-header";

/** The header renders from data alone: one render per state, as the server would send it. */
function render(user: RootUser | null, path = "/", discoverySet = false) {
  const Stub = createRoutesStub([{ path: "*", Component: () => <SiteHeader user={user} shopName="Scentara" discoverySet={discoverySet} /> }]);
  return renderToString(<Stub initialEntries={[path]} />);
}

const links = (html: string) => [...html.matchAll(/<a[^>]*href="([^"]+)"[^>]*>(.*?)<\/a>/g)].map((m) => [m[1], m[2].replace(/<[^>]+>/g, "")]);

describe("SiteHeader", () => {
  it("links the discovery set (bar from 1280 px, and the menu) only while samples are on", () => {
    expect(links(render(null)).map(([href]) => href)).not.toContain("/discovery-set");
    const on = links(render(null, "/", true)).filter(([href]) => href === "/discovery-set");
    expect(on.map(([, text]) => text)).toEqual(["Discovery Set", "Discovery Set"]);
  });

  it("visitor: Home, Our Story, Contact, Shop and Sign In; no cart, admin or account menu", () => {
    const html = render(null);
    const hrefs = links(html).map(([href]) => href);
    for (const href of ["/#home", "/#our-story", "/#contact", "/shop", "/auth/login"]) expect(hrefs).toContain(href);
    expect(hrefs).not.toContain("/cart");
    expect(hrefs).not.toContain("/admin");
    expect(html).not.toContain("Sign Out");
    expect(html).not.toContain("Profile Settings");
  });

  it("customer: cart link, Profile Settings and a Sign Out form posting to /auth/logout; no admin, no sign in", () => {
    const html = render({ isAdmin: false });
    const hrefs = links(html).map(([href]) => href);
    expect(hrefs).toContain("/cart");
    expect(hrefs).toContain("/profile");
    expect(hrefs).not.toContain("/admin");
    expect(hrefs).not.toContain("/auth/login");
    const forms = [...html.matchAll(/<form[^>]*>/g)].map((m) => m[0]);
    expect(forms.length).toBeGreaterThan(0);
    for (const form of forms) {
      expect(form).toContain('action="/auth/logout"');
      expect(form).toContain('method="post"');
    }
    expect(html).toContain("Sign Out");
    // the item count comes from browser storage: never rendered on the server (no hydration mismatch)
    expect(html).not.toContain('data-testid="cart-count"');
  });

  it("admin: also the Admin link", () => {
    const html = render({ isAdmin: true });
    expect(links(html).filter(([href]) => href === "/admin").length).toBeGreaterThanOrEqual(1);
  });

  it("is transparent at the top of a storefront page and solid on the admin area", () => {
    expect(render(null, "/")).toContain('data-solid="false"');
    expect(render({ isAdmin: true }, "/admin/orders")).toContain('data-solid="true"');
  });

  it("the mobile menu is a native disclosure (opens without JavaScript) that starts closed", () => {
    const html = render(null);
    const details = /<details[^>]*>\s*<summary[^>]*aria-controls="([^"]+)"[^>]*>/.exec(html);
    expect(details?.[0]).not.toMatch(/<details[^>]*\bopen\b/);
    expect(details?.[0]).toContain('aria-label="Menu"');
    const id = details![1];
    expect(html).toMatch(new RegExp(`<nav[^>]*id="${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*aria-label="Mobile"`));
  });
});
