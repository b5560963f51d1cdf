#!/usr/bin/env node
// Lighthouse (mobile, the default form factor) against a running shop: home, shop and a product page, several runs
// each, the median printed. Lighthouse is not a project dependency; install it once outside the project:
//
//   mkdir -p /tmp/lh && cd /tmp/lh && npm init -y && npm i lighthouse
//
// then, with the shop running (e.g. `BUILD_DIR=build PORT=3000 node server.js`):
//
//   node scripts/lighthouse.mjs [--url http://localhost:3000] [--runs 3] [--paths /,/shop,/products/x] [--out dir]
//                               [--throttling simulate|devtools]
//
// --throttling: `simulate` (Lighthouse's default, what PageSpeed Insights shows) loads the page unthrottled and
// models a slow phone from the trace; `devtools` really throttles Chrome (same profile: 150 ms RTT, 1.6 Mbps,
// CPU 4x) and measures. They disagree on this shop: see docs/decisions/030-*.md.
//
// LIGHTHOUSE_DIR (default /tmp/lh) is where lighthouse is installed; CHROME_PATH (default /usr/bin/chromium) the
// browser. Without --paths the product page is the first product linked from /shop.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    url: { type: "string", default: process.env.SHOP_URL ?? "http://localhost:3000" },
    runs: { type: "string", default: "3" },
    paths: { type: "string" },
    out: { type: "string" },
    throttling: { type: "string", default: "simulate" },
    verbose: { type: "boolean", default: false },
  },
});

const lighthouseDir = resolve(process.env.LIGHTHOUSE_DIR ?? "/tmp/lh");
const cli = join(lighthouseDir, "node_modules", "lighthouse", "cli", "index.js");
if (!existsSync(cli)) {
  console.error(
    `Lighthouse is not installed in ${lighthouseDir} (looked for ${cli}).\n` +
      `Install it outside the project, then run this again:\n` +
      `  mkdir -p ${lighthouseDir} && cd ${lighthouseDir} && npm init -y && npm i lighthouse\n` +
      `(or point LIGHTHOUSE_DIR at an existing install).`,
  );
  process.exit(2);
}
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromePath)) {
  console.error(`No Chrome/Chromium at ${chromePath}: set CHROME_PATH.`);
  process.exit(2);
}

const base = args.url.replace(/\/+$/, "");
if (!["simulate", "devtools"].includes(args.throttling)) {
  console.error(`--throttling is simulate or devtools, not ${args.throttling}.`);
  process.exit(2);
}
const runs = Math.max(1, Number.parseInt(args.runs, 10) || 3);

async function defaultPaths() {
  let html;
  try {
    html = await (await fetch(`${base}/shop`)).text();
  } catch (error) {
    console.error(`The shop does not answer at ${base} (${error.cause?.code ?? error.message}): start it first, or pass --url.`);
    process.exit(2);
  }
  const product = html.match(/href="(\/products\/[^"?#]+)"/)?.[1];
  if (!product) throw new Error(`No product link on ${base}/shop: pass --paths.`);
  return ["/", "/shop", product];
}

function runLighthouse(url) {
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [
        cli,
        url,
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        `--throttling-method=${args.throttling}`,
        "--only-categories=performance,accessibility,best-practices,seo",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
      ],
      { env: { ...process.env, CHROME_PATH: chromePath }, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`lighthouse failed for ${url}: ${stderr || error.message}`));
        else resolvePromise(JSON.parse(stdout));
      },
    );
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const categories = ["performance", "accessibility", "best-practices", "seo"];
const metrics = {
  FCP: ["first-contentful-paint", (v) => `${(v / 1000).toFixed(2)} s`],
  LCP: ["largest-contentful-paint", (v) => `${(v / 1000).toFixed(2)} s`],
  TBT: ["total-blocking-time", (v) => `${Math.round(v)} ms`],
  CLS: ["cumulative-layout-shift", (v) => v.toFixed(3)],
  SI: ["speed-index", (v) => `${(v / 1000).toFixed(2)} s`],
  KB: ["total-byte-weight", (v) => `${(v / 1024).toFixed(1)} KB`],
};

const paths = args.paths ? args.paths.split(",").map((p) => p.trim()).filter(Boolean) : await defaultPaths();
if (args.out) mkdirSync(args.out, { recursive: true });

const rows = [];
for (const path of paths) {
  const url = `${base}${path}`;
  const reports = [];
  for (let i = 0; i < runs; i++) {
    if (process.stderr.isTTY) process.stderr.write(`${url}: run ${i + 1}/${runs}\r`);
    // Lighthouse now and then loses a trace on a busy machine (NO_NAVSTART, NO_FCP): such a run is tried once more.
    let lhr = await runLighthouse(url).catch(() => runLighthouse(url));
    if (lhr.runtimeError) lhr = await runLighthouse(url);
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    reports.push(lhr);
    if (args.out) writeFileSync(join(args.out, `${path.replace(/[^a-z0-9]+/gi, "_") || "home"}-${i + 1}.json`), JSON.stringify(lhr));
  }
  if (process.stderr.isTTY) process.stderr.write(" ".repeat(80) + "\r");
  const row = { path };
  for (const c of categories) row[c] = Math.round(median(reports.map((r) => r.categories[c].score ?? 0)) * 100);
  for (const [name, [id]] of Object.entries(metrics)) row[name] = median(reports.map((r) => r.audits[id].numericValue ?? 0));
  row.perfRuns = reports.map((r) => Math.round((r.categories.performance.score ?? 0) * 100));
  // Lighthouse's own CPU benchmark of this machine during the run: CPU-bound metrics (TBT) swing with it.
  row.bench = Math.round(median(reports.map((r) => r.environment.benchmarkIndex)));
  // What Lighthouse still suggests (from the median-performance run), and any failing non-performance audit.
  const mid = reports.toSorted((a, b) => a.categories.performance.score - b.categories.performance.score)[Math.floor(runs / 2)];
  row.advice = mid.categories.performance.auditRefs
    .filter((ref) => ref.group !== "metrics")
    .map((ref) => mid.audits[ref.id])
    .filter((a) => a.score !== null && a.score < 0.9 && !["informative", "notApplicable", "manual"].includes(a.scoreDisplayMode))
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ""}`);
  const failing = categories.slice(1).flatMap((c) =>
    mid.categories[c].auditRefs.filter((ref) => mid.audits[ref.id].score === 0 && ref.weight > 0).map((ref) => `${c}: ${ref.id}`),
  );
  row.advice.push(...failing);
  rows.push(row);
}

const pad = (s, n) => String(s).padEnd(n);
console.log(`Lighthouse mobile (${args.throttling} throttling), median of ${runs} run${runs > 1 ? "s" : ""}, ${base}`);
console.log(pad("page", 34) + pad("perf", 6) + pad("a11y", 6) + pad("bp", 6) + pad("seo", 6) + Object.keys(metrics).map((m) => pad(m, 10)).join("") + pad("cpu", 6) + "perf runs");
for (const r of rows) {
  console.log(
    pad(r.path, 34) +
      pad(r.performance, 6) +
      pad(r.accessibility, 6) +
      pad(r["best-practices"], 6) +
      pad(r.seo, 6) +
      Object.entries(metrics)
        .map(([name, [, fmt]]) => pad(fmt(r[name]), 10))
        .join("") +
      pad(r.bench, 6) +
      r.perfRuns.join(" "),
  );
}
console.log("(cpu: Lighthouse's benchmarkIndex of this machine, median; below ~1000 the machine is busy and TBT is inflated)");
for (const r of rows) if (r.advice.length) console.log(`\n${r.path}: ${r.advice.join("; ")}`);
if (args.verbose) console.log(JSON.stringify(rows, null, 2));
