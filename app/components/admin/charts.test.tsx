import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BarList, Donut, TrendChart, type TrendPoint } from "./charts";

/** The charts as the server sends them: finished SVG, before any script. */
const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;
/** The d of every <path> with this class. */
const paths = (html: string, cls: string) => (html.match(/<path[^>]*>/g) ?? []).filter((p) => p.includes(cls)).map((p) => / d="([^"]+)"/.exec(p)?.[1] ?? "");
const points = (n: number): TrendPoint[] => Array.from({ length: n }, (_, i) => ({ label: `Day ${i + 1}`, tick: `${i + 1}`, value: (i + 1) * 1000, previous: 500 }));

describe("TrendChart", () => {
  it("draws one column per bucket and the previous period as a path, in an <svg> with a text alternative", () => {
    const html = renderToString(<TrendChart label="Revenue per day" points={points(12)} format={(v) => `R${v / 100}`} />);
    expect(count(html, /<svg/g)).toBe(1);
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-label="Revenue per day"');
    expect(count(html, /class="recharts-rectangle chart-bar"/g)).toBe(12);
    expect(count(html, /class="recharts-curve chart-previous"/g)).toBe(1);
    // the column of the largest value reaches the top of the scale's top tick or below it, never above the box
    const tops = paths(html, "chart-bar").map((d) => Number(/^M ?[\d.]+,([\d.]+)/.exec(d)?.[1]));
    expect(tops).toHaveLength(12);
    expect(Math.min(...tops)).toBeGreaterThanOrEqual(0);
    expect(tops[0]).toBeGreaterThan(tops[11]!); // the first (smallest) column is the shortest
  });

  it("a line chart draws the range as a line through every point; one bucket still draws a line", () => {
    const html = renderToString(<TrendChart kind="line" label="Average order" points={points(7)} format={String} />);
    expect(count(html, /chart-bar/g)).toBe(0);
    const [current = ""] = paths(html, "chart-current");
    expect(current.startsWith("M")).toBe(true);
    expect(count(current, /C/g)).toBe(6); // a monotone curve: one segment between each pair of 7 points
    // a point with nothing to show (an average of no orders): the line passes over it
    const gap = renderToString(<TrendChart kind="line" label="Average order" points={points(7).map((p, i) => (i === 3 ? { ...p, value: null } : p))} format={String} />);
    expect(count(paths(gap, "chart-current")[0]!, /C/g)).toBe(5);
    const one = renderToString(<TrendChart kind="line" label="One day" points={points(1)} format={String} />);
    expect(paths(one, "chart-current")[0]).toMatch(/^M0,[\d.]+L1000,/);
  });

  it("nothing sold: a flat baseline and no columns, not an error", () => {
    const html = renderToString(<TrendChart label="Revenue" points={points(3).map((p) => ({ ...p, value: 0, previous: 0 }))} format={String} />);
    expect(count(html, /chart-bar/g)).toBe(0);
    expect(html).toContain("<svg");
  });
});

describe("BarList and Donut", () => {
  it("a bar per row, scaled to the largest; the names as text", () => {
    const html = renderToString(
      <BarList
        label="Best sellers"
        empty="Nothing sold"
        rows={[
          { key: "a", label: "Oud Royale", value: 10, display: "10" },
          { key: "b", label: "Rose & Amber", value: 5, display: "5" },
        ]}
      />,
    );
    expect(count(html, /<svg/g)).toBe(2);
    const widths = paths(html, "chart-bar").map((d) => Number(/^M 0,0 h ([\d.]+)/.exec(d)?.[1]));
    expect(widths).toEqual([100, 50]);
    expect(html).toContain("Rose &amp; Amber");
    expect(renderToString(<BarList label="x" empty="Nothing sold" rows={[]} />)).toContain("Nothing sold");
  });

  it("a slice per share above zero, the total in the middle", () => {
    const html = renderToString(
      <Donut
        label="Payment methods"
        centre="12"
        centreNote="paid orders"
        empty="None"
        slices={[
          { key: "card", label: "Card", value: 8, display: "8" },
          { key: "eft", label: "Bank transfer (EFT)", value: 4, display: "4" },
          { key: "instant_eft", label: "Instant EFT", value: 0, display: "0" },
        ]}
      />,
    );
    expect(count(html, /<svg/g)).toBe(1);
    expect(count(html, /recharts-sector chart-slice/g)).toBe(2);
    expect(html).toContain(">12</text>");
    expect(html).toContain("67%");
  });
});
