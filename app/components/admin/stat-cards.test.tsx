import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StatCards } from "./stat-cards";

describe("StatCards", () => {
  it("writes a large count with its thousands grouped (no-break spaces), and text as it is", () => {
    const html = renderToStaticMarkup(<StatCards cards={[{ label: "Orders", value: 866271 }, { label: "Conversion", value: "12%" }, { label: "Admins", value: 3 }]} />);
    expect(html).toContain(">866\u00a0271<");
    expect(html).toContain(">12%<");
    expect(html).toContain(">3<");
  });
});
