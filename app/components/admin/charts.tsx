/**
 * The dashboard's charts, drawn on the server as SVG with Recharts' shape primitives (Surface, Rectangle, Curve,
 * Sector) and its nice-tick arithmetic. Recharts' chart containers (BarChart, LineChart, PieChart) render an empty
 * <div> on the server since 3.0 (they lay out through effects and portals: recharts/recharts#5997), so the charts
 * here place the shapes themselves; what the page sends is the finished picture, before any script loads.
 *
 * Responsive without measuring: a cartesian chart's SVG stretches to its box (viewBox + preserveAspectRatio="none",
 * strokes that don't scale), and its labels are HTML placed by percentage, so text keeps its size at 360 px and at
 * 1280 px. Admin only: imported by admin routes alone, so Recharts never reaches a storefront bundle.
 */
import { Curve, getNiceTickValues, Rectangle, Sector, Surface } from "recharts";
import { tickStep } from "~/modules/reports/sales.logic";

/** The shop's palette (app/app.css), for SVG fills. */
export const CHART_COLORS = {
  ink: "#1c1714",
  inkSoft: "#4a413a",
  gold: "#7d5c2c",
  goldLight: "#c9a86a",
  muted: "#6e645b",
  line: "#e4dccf",
  sand: "#f1ebe1",
  blush: "#efe1d8",
} as const;

/** Slices of a donut, in order. */
const SLICE_COLORS = [CHART_COLORS.ink, CHART_COLORS.gold, CHART_COLORS.goldLight, CHART_COLORS.muted, CHART_COLORS.blush];

const W = 1000;
const H = 320;

export interface TrendPoint {
  /** the full label (a day, a week, a month) */
  label: string;
  /** the axis's short label */
  tick: string;
  /** null: nothing to show here (an average of no orders); a line passes over it, a column is empty */
  value: number | null;
  /** the previous period's figure at the same position */
  previous: number | null;
}

/**
 * Whether an axis value (cents) reads exactly in the short form ("R750", "R2.4k", "R1.2m"): a whole rand below R1 000,
 * a multiple of R100 below R1m, of R100 000 above. "R2.3k" for R2 250 would misread the gridline.
 */
const readableTick = (cents: number) => (cents < 100_000 ? cents % 100 === 0 : cents < 100_000_000 ? cents % 10_000 === 0 : cents % 10_000_000 === 0);

/**
 * Recharts' nice ticks from 0 to the top, with 5, 6 or 4 of them: the first count whose every tick reads exactly.
 * Remembered by top (its decimal arithmetic cost ~1.5 ms a chart on the server; the same tops come back every view).
 */
const ticksByTop = new Map<number, number[]>();
function axisTicks(top: number): number[] {
  const known = ticksByTop.get(top);
  if (known) return known;
  const tries = [5, 6, 4].map((count) => getNiceTickValues([0, top], count, true) as number[]);
  const ticks = tries.find((t) => t.every(readableTick)) ?? tries[0]!;
  if (ticksByTop.size >= 1_000) ticksByTop.clear();
  ticksByTop.set(top, ticks);
  return ticks;
}

/**
 * A series over time against the previous period: columns (or a line) for the range, a dashed line for the previous
 * period. `format` writes an axis value (R12k, 40).
 */
export function TrendChart({
  points,
  kind = "columns",
  label,
  format,
  previousLabel = "Previous period",
  currentLabel = "This period",
}: {
  points: TrendPoint[];
  kind?: "columns" | "line";
  /** what the picture shows, for a screen reader (the table under it has the numbers) */
  label: string;
  format: (value: number) => string;
  currentLabel?: string;
  previousLabel?: string;
}) {
  const n = points.length;
  const top = Math.max(0, ...points.map((p) => Math.max(p.value ?? 0, p.previous ?? 0)));
  const ticks = top > 0 ? axisTicks(top) : [0];
  const max = Math.max(ticks[ticks.length - 1] ?? 0, top, 1);
  const y = (v: number) => H - (v / max) * H;
  const slot = W / Math.max(n, 1);
  const centre = (i: number) => slot * i + slot / 2;
  const at = (v: number | null) => (v === null ? null : y(v));
  const line = (pick: (p: TrendPoint) => number | null) =>
    n === 1 ? [{ x: 0, y: at(pick(points[0]!)) }, { x: W, y: at(pick(points[0]!)) }] : points.map((p, i) => ({ x: centre(i), y: at(pick(p)) }));
  const wide = tickStep(n, 10);
  const narrow = wide * 2;
  return (
    <figure className="m-0">
      <div className="@container">
        <div className="relative h-52 pl-12 pr-3 pb-7 @xl:h-60">
          <div className="absolute top-0 bottom-7 left-0 w-10" aria-hidden="true">
            {ticks.map((t) => (
              <span key={t} className="absolute right-0 -translate-y-1/2 text-[0.7rem] leading-none text-muted tabular-nums" style={{ top: `${(1 - t / max) * 100}%` }}>
                {format(t)}
              </span>
            ))}
          </div>
          <div className="relative h-full w-full">
            <Surface
              width="100%"
              height="100%"
              viewBox={{ x: 0, y: 0, width: W, height: H }}
              preserveAspectRatio="none"
              role="img"
              aria-label={label}
              title={label}
              className="block overflow-visible"
              style={{ overflow: "visible" }}
            >
              {ticks.map((t) => (
                <line key={t} x1={0} x2={W} y1={y(t)} y2={y(t)} stroke={t === 0 ? CHART_COLORS.muted : CHART_COLORS.line} strokeWidth={1} vectorEffect="non-scaling-stroke" />
              ))}
              {kind === "columns" ? (
                <g className="chart-columns">
                  {points.map((p, i) => (
                    <Rectangle key={p.label} className="chart-bar" x={centre(i) - slot * 0.32} y={y(p.value ?? 0)} width={slot * 0.64} height={H - y(p.value ?? 0)} fill={CHART_COLORS.gold} />
                  ))}
                </g>
              ) : (
                <Curve className="chart-current" type="monotoneX" connectNulls points={line((p) => p.value)} stroke={CHART_COLORS.gold} strokeWidth={2.5} fill="none" vectorEffect="non-scaling-stroke" />
              )}
              <Curve
                className="chart-previous"
                type="monotoneX"
                connectNulls
                points={line((p) => p.previous)}
                stroke={CHART_COLORS.inkSoft}
                strokeWidth={1.5}
                strokeDasharray="5 4"
                fill="none"
                vectorEffect="non-scaling-stroke"
              />
            </Surface>
            <div className="absolute inset-x-0 -bottom-6 h-5" aria-hidden="true">
              {points.map((p, i) =>
                i % wide === 0 ? (
                  <span
                    key={p.label}
                    className={`${i % narrow === 0 ? "" : "hidden @xl:block "}absolute top-0 -translate-x-1/2 whitespace-nowrap text-[0.7rem] leading-5 text-muted`}
                    style={{ left: `${((i + 0.5) / n) * 100}%` }}
                  >
                    {p.tick}
                  </span>
                ) : null,
              )}
            </div>
          </div>
        </div>
      </div>
      <figcaption className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-xs text-ink-soft">
        <span className="inline-flex items-center gap-2">
          {kind === "columns" ? <span className="inline-block size-2.5 bg-gold" aria-hidden="true" /> : <span className="inline-block h-0.5 w-4 bg-gold" aria-hidden="true" />}
          {currentLabel}
        </span>
        <span className="inline-flex items-center gap-2">
          <span className="inline-block w-4 border-t border-dashed border-ink-soft" aria-hidden="true" />
          {previousLabel}
        </span>
      </figcaption>
    </figure>
  );
}

export interface BarRow {
  key: string;
  label: string;
  value: number;
  /** what the row says on the right ("42", "R12 345.00") */
  display: string;
  /** a second, quieter figure ("R1 200.00 off") */
  note?: string;
}

/**
 * A ranked list with a bar under each name: names wrap as text does, bars stretch to the row, so it reads the same
 * on a phone and a desktop.
 */
export function BarList({ rows, label, empty, color = CHART_COLORS.gold }: { rows: BarRow[]; label: string; empty: string; color?: string }) {
  if (rows.length === 0) return <p className="py-8 text-center text-sm text-muted">{empty}</p>;
  const max = Math.max(1, ...rows.map((r) => r.value));
  return (
    <ol className="space-y-3" aria-label={label}>
      {rows.map((r) => (
        <li key={r.key}>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="min-w-0 break-words text-ink">{r.label}</span>
            <span className="shrink-0 text-right tabular-nums text-ink">
              {r.display}
              {r.note ? <span className="block text-xs text-muted">{r.note}</span> : null}
            </span>
          </div>
          <Surface width="100%" height={6} viewBox={{ x: 0, y: 0, width: 100, height: 6 }} preserveAspectRatio="none" aria-hidden="true" className="mt-1.5 block">
            <Rectangle x={0} y={0} width={100} height={6} fill={CHART_COLORS.sand} />
            <Rectangle className="chart-bar" x={0} y={0} width={r.value > 0 ? Math.max(0.5, (r.value / max) * 100) : 0} height={6} fill={color} />
          </Surface>
        </li>
      ))}
    </ol>
  );
}

export interface Slice {
  key: string;
  label: string;
  value: number;
  /** the legend's figure ("42 orders") */
  display: string;
}

/** Shares of a whole as a ring, its total in the middle and a legend beside (under it on a phone). */
export function Donut({ slices, label, centre, centreNote, empty }: { slices: Slice[]; label: string; centre: string; centreNote: string; empty: string }) {
  const total = slices.reduce((s, x) => s + x.value, 0);
  let angle = 90;
  const arcs = slices
    .map((s, i) => {
      const sweep = total > 0 ? (s.value / total) * 360 : 0;
      const arc = { ...s, color: SLICE_COLORS[i % SLICE_COLORS.length]!, start: angle, end: angle - sweep };
      angle -= sweep;
      return arc;
    })
    .filter((a) => a.value > 0);
  return (
    <div className="@container">
      <figure className="m-0 flex flex-col items-center gap-5 @lg:flex-row">
        <Surface width="100%" height="100%" viewBox={{ x: 0, y: 0, width: 200, height: 200 }} role="img" aria-label={label} title={label} className="block aspect-square w-full max-w-40 shrink-0">
          {total > 0 ? (
            arcs.map((a) => (
              <Sector key={a.key} className="chart-slice" cx={100} cy={100} innerRadius={64} outerRadius={96} startAngle={a.start} endAngle={a.end} fill={a.color} stroke="#fff" strokeWidth={arcs.length > 1 ? 2 : 0} />
            ))
          ) : (
            <circle cx={100} cy={100} r={80} fill="none" stroke={CHART_COLORS.line} strokeWidth={32} />
          )}
          <text x={100} y={100} textAnchor="middle" fontSize={30} fill={CHART_COLORS.ink} style={{ fontFamily: "var(--font-display)" }}>
            {centre}
          </text>
          <text x={100} y={124} textAnchor="middle" fontSize={13} fill={CHART_COLORS.muted} letterSpacing="0.12em">
            {centreNote.toUpperCase()}
          </text>
        </Surface>
        {total > 0 ? (
          <ul className="w-full min-w-0 space-y-2 text-sm">
            {slices.map((s, i) => (
              <li key={s.key} className="flex items-baseline justify-between gap-3 border-b border-line/70 pb-2 last:border-b-0">
                <span className="inline-flex min-w-0 items-center gap-2 text-ink">
                  <span className="inline-block size-2.5 shrink-0" style={{ background: SLICE_COLORS[i % SLICE_COLORS.length] }} aria-hidden="true" />
                  <span className="min-w-0">{s.label}</span>
                </span>
                <span className="shrink-0 text-right tabular-nums text-ink">
                  {s.display}
                  <span className="ml-2 text-xs text-muted">{`${Math.round((s.value / total) * 100)}%`}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">{empty}</p>
        )}
      </figure>
    </div>
  );
}
