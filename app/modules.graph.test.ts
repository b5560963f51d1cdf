/**
 * The areas of app/modules/ stand alone (issue 39; docs/architecture.md): the graph of which area imports which, read
 * from every import of every non-test file under app/modules/ (static `import`, `export … from`, `import()` and
 * `typeof import()` types: a type-only import ties two areas as much as any), has no loop — in particular no pair
 * that imports each other. What crosses areas is a flow in app/modules/flows/, at the top. A failure names each loop
 * with the imports that make it, file by file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, root, sourceFiles, target } from "../tests/setup/source-imports";
const MODULES = "app/modules/";


/** The area (folder of app/modules/) a path is in, or null outside app/modules/ (a package, db, utils…). */
function areaOf(path: string): string | null {
  if (!path.startsWith(MODULES)) return null;
  const area = path.slice(MODULES.length).split("/")[0];
  return area || null;
}


/** area → area it imports → the imports that make the edge ("file → specifier"). */
type Graph = Map<string, Map<string, string[]>>;

function graphOf(files: Array<{ file: string; specifiers: string[] }>): Graph {
  const graph: Graph = new Map();
  for (const { file, specifiers } of files) {
    const from = areaOf(file);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const specifier of specifiers) {
      const to = target(file, specifier);
      const into = to === null ? null : areaOf(to);
      if (!into || into === from) continue;
      const edges = graph.get(from)!;
      edges.set(into, [...(edges.get(into) ?? []), `${file} → ${specifier}`]);
    }
  }
  return graph;
}

/** The loops of the graph: its strongly connected components of two areas or more (Tarjan), each sorted. */
function loopsOf(graph: Graph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((e) => [...e.keys()])]);
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) strong(v);
  return loops;
}

/** Each loop in words: its areas, then every import between two of them, so the one to cut can be chosen. */
function describeLoops(graph: Graph): string[] {
  return loopsOf(graph).map((loop) => {
    const inLoop = new Set(loop);
    const mutual = loop.flatMap((a) => [...(graph.get(a)?.keys() ?? [])].filter((b) => a < b && inLoop.has(b) && graph.get(b)?.has(a)).map((b) => `${a} ↔ ${b}`));
    const edges = loop.flatMap((a) => [...(graph.get(a) ?? [])].filter(([b]) => inLoop.has(b)).map(([b, imports]) => `    ${a} → ${b}: ${imports.join("; ")}`));
    return [`loop: ${loop.join(", ")}${mutual.length ? ` (importing each other: ${mutual.join(", ")})` : ""}`, ...edges].join("\n");
  });
}

function moduleFiles(): Array<{ file: string; specifiers: string[] }> {
  return sourceFiles(MODULES)
    .map((file) => ({ file, specifiers: importsOf(file, readFileSync(join(root, file), "utf8")) }));
}

describe("the areas of app/modules", () => {
  it("import each other without a loop: no pair imports each other, no circle of areas (docs/architecture.md)", () => {
    const files = moduleFiles();
    // the scan reads every area, not a corner of them
    expect(files.length).toBeGreaterThan(250);
    const graph = graphOf(files);
    expect(graph.size).toBeGreaterThan(30);
    const loops = describeLoops(graph);
    if (loops.length) console.error(`Areas in a loop of imports:\n${loops.join("\n")}`);
    expect(loops).toEqual([]);
  }, 60_000);

  it("the flows sit at the top: no area imports app/modules/flows", () => {
    const graph = graphOf(moduleFiles());
    const up = [...graph].flatMap(([from, edges]) => (edges.get("flows") ?? []).map((i) => `${from}: ${i}`));
    expect(up).toEqual([]);
  }, 60_000);

  it("finds a pair, a longer circle and a type-only import, and names the imports that make them", () => {
    const files = [
      { file: "app/modules/a/a.server.ts", specifiers: importsOf("app/modules/a/a.server.ts", 'import type { B } from "~/modules/b/b.logic";') },
      { file: "app/modules/b/b.logic.ts", specifiers: importsOf("app/modules/b/b.logic.ts", 'export { a } from "../a/a.server";') },
      { file: "app/modules/c/c.ts", specifiers: ["~/modules/d/d", "~/db/db.server", "kysely"] },
      { file: "app/modules/d/d.ts", specifiers: importsOf("app/modules/d/d.ts", 'const e = await import("~/modules/e/e");') },
      { file: "app/modules/e/e.ts", specifiers: ["~/modules/c/c", "./own"] },
      { file: "app/modules/f/f.ts", specifiers: ["~/modules/a/a.server"] },
    ];
    const graph = graphOf(files);
    expect(loopsOf(graph)).toEqual([["a", "b"], ["c", "d", "e"]]);
    const words = describeLoops(graph);
    expect(words[0]).toContain("loop: a, b (importing each other: a ↔ b)");
    expect(words[0]).toContain("a → b: app/modules/a/a.server.ts → ~/modules/b/b.logic");
    expect(words[0]).toContain("b → a: app/modules/b/b.logic.ts → ../a/a.server");
    expect(words[1]).toContain("loop: c, d, e\n");
    expect(loopsOf(graphOf(files.filter((f) => !f.file.includes("/e/") && !f.file.includes("/b/"))))).toEqual([]);
  });
});
