#!/usr/bin/env node
// A first visit on a slow phone, measured for real rather than simulated: Chromium with Lighthouse's mobile profile
// applied by Chrome itself (150 ms round trips, 1.6 Mbps down, 750 kbps up, CPU 4× slower, 412 px screen), a cold
// cache each run. Prints the median first paint, largest paint, when React Router started (from then on the page
// answers taps: Add to Cart, the menus), the load event, and the main thread's busy time. See decision 030.
//
// With the shop running (e.g. `BUILD_DIR=build PORT=3000 node server.js`):
//
//   node scripts/phone-load.mjs [--url http://localhost:3000] [--paths /,/shop,/products/x] [--runs 5]
//
// CHROME_PATH (default /usr/bin/chromium) is the browser.
import { parseArgs } from "node:util";
import { chromium } from "playwright";

const { values: args } = parseArgs({
  options: {
    url: { type: "string", default: process.env.SHOP_URL ?? "http://localhost:3000" },
    paths: { type: "string", default: "/,/shop" },
    runs: { type: "string", default: "5" },
  },
});
const base = args.url.replace(/\/+$/, "");
const runs = Math.max(1, Number.parseInt(args.runs, 10) || 5);
const paths = args.paths.split(",").map((p) => p.trim()).filter(Boolean);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

async function visit(url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.addInitScript(() => {
    // React Router's client sets this global when it starts; note the moment.
    let router;
    Object.defineProperty(window, "__reactRouterDataRouter", {
      configurable: true,
      get: () => router,
      set: (value) => {
        router = value;
        window.__routerStartedAt = performance.now();
      },
    });
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__lcp = entry.startTime;
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Performance.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const response = await page.goto(url, { waitUntil: "load" });
  if (!response?.ok()) throw new Error(`${url} answered ${response?.status()}`);
  await page.waitForFunction(() => window.__routerStartedAt, null, { timeout: 60_000 });
  await page.waitForTimeout(1000); // let LCP settle and the hydration tasks finish
  const timings = await page.evaluate(() => ({
    firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
    lcp: window.__lcp,
    router: window.__routerStartedAt,
    load: performance.getEntriesByType("navigation")[0].loadEventStart,
  }));
  const metrics = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  await context.close();
  return { ...timings, busy: metrics.TaskDuration * 1000 };
}

const pad = (s, n) => String(s).padEnd(n);
console.log(`A first visit on a throttled phone (150 ms RTT, 1.6 Mbps, CPU 4x), median of ${runs}, ${base}`);
console.log(pad("page", 30) + ["first paint", "LCP", "router started", "load", "main thread busy"].map((h) => pad(h, 18)).join(""));
for (const path of paths) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await visit(`${base}${path}`));
  const ms = (key) => pad(`${Math.round(median(results.map((r) => r[key])))} ms`, 18);
  console.log(pad(path, 30) + ms("firstPaint") + ms("lcp") + ms("router") + ms("load") + ms("busy"));
}
await browser.close();
