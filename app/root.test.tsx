import { renderToString } from "react-dom/server";
import { Outlet, createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "./root";
import type { RootData } from "~/modules/settings/root-data";

/** The root error page is drawn in the shop's frame, from the root loader's data. */
const rootData: RootData = {
  user: null,
  shop: { name: "Scentara", whatsappNumber: "27821234567", contactEmail: "hello@scentara.co.za", freeDeliveryThresholdCents: 59900 },
  baseUrl: "http://localhost:3000",
  discoverySet: false,
};

function render(error: unknown) {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => rootData,
      Component: () => <Outlet />,
      ErrorBoundary: ErrorBoundary as any,
      children: [{ id: "child", path: "boom", Component: () => null }],
    },
  ]);
  return renderToString(<Stub initialEntries={["/boom"]} hydrationData={{ loaderData: { root: rootData }, errors: { root: error } }} />);
}

describe("root ErrorBoundary", () => {
  it("shows a styled error page with the header, footer, a way home and no stack trace", () => {
    const html = render(new Error("database exploded: secret detail"));
    expect(html).toContain("Something went wrong");
    expect(html).toContain("Return Home");
    expect(html).toContain("Skip to content");
    expect(html).toContain("Terms &amp; Conditions");
    expect(html).toContain("https://wa.me/27821234567");
    expect(html).not.toContain("secret detail");
    expect(html.match(/<h1/g)).toHaveLength(1);
  });
});
