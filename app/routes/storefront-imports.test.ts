/**
 * "Admin code is never in a storefront bundle" (DESIGN.md budgets), checked on the source without a build: the static
 * import graph of the storefront's route modules (and the root) never reaches the chart library or the admin
 * components. Server-only modules (*.server.ts) are left out: the build never ships them to the browser. The walk is
 * conservative (an import only a loader uses counts), so a pass here means the browser bundle can't contain them.
 * tests/e2e/admin.spec.ts checks the built pages' script names as well.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const STOREFRONT = ["app/root.tsx", "app/routes/home.tsx", "app/routes/shop.tsx", "app/routes/product.tsx", "app/routes/cart.tsx", "app/routes/checkout.tsx"];
const ADMIN_ONLY_PACKAGES = ["recharts", "victory-vendor", "d3-shape", "d3-scale"];

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function resolveFile(spec: string, from: string): string | null {
  const base = spec.startsWith("~/") ? join(ROOT, "app", spec.slice(2)) : resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate) && /\.(ts|tsx|js|mjs)$/.test(candidate)) return candidate;
  }
  return null;
}

/** Every app file and package these modules reach through value imports. */
function importGraph(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = entries.map((f) => join(ROOT, f)).filter((f) => existsSync(f));
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, "utf8");
    for (const m of source.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith(".") || spec.startsWith("~/")) {
        const target = resolveFile(spec, file);
        if (target && !/\.server\.tsx?$/.test(target) && !target.includes("/.server/")) queue.push(target);
      } else {
        packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
      }
    }
  }
  return { files, packages };
}

describe("the storefront's import graph", () => {
  const { files, packages } = importGraph(STOREFRONT);

  it("is walked (the root and the storefront routes, and what they import); the same walk finds the charts from the dashboard", () => {
    expect(files.size).toBeGreaterThan(STOREFRONT.length);
    expect(packages.has("react-router")).toBe(true);
    expect(importGraph(["app/routes/admin._index.tsx"]).packages.has("recharts")).toBe(true);
  });

  it("never reaches the chart library or an admin component", () => {
    expect(ADMIN_ONLY_PACKAGES.filter((p) => packages.has(p))).toEqual([]);
    const admin = [...files].map((f) => relative(ROOT, f)).filter((f) => f.startsWith("app/components/admin/") || /^app\/routes\/admin[._]/.test(f));
    expect(admin).toEqual([]);
  });
});
