/**
 * How the structure tests read the code (app/layers.test.ts: the layers; app/modules.graph.test.ts: the areas): the
 * non-test source files under a folder, the module names each file imports, and the repository path each reaches.
 */
import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync, Visitor } from "vite";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const TEST = /\.(test|spec)\.[cm]?[jt]sx?$/;

/** Every non-test source file under `dir` (relative to the repository), as repository paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !TEST.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/**
 * Every module specifier a file names: static imports and re-exports, import() calls (a template's literal head: what
 * it can reach), import("…") types, require() and `import x = require()`. Read with the parser Vite builds with (oxc),
 * so a type-only import counts as much as any: it ties the files the same way.
 */
export function importsOf(fileName: string, text: string): string[] {
  const { program, errors } = parseSync(fileName, text);
  if (errors.length) throw new Error(`${fileName}: ${errors[0]!.message}`);
  const found: string[] = [];
  // the parser's nodes, as far as a module name needs them
  type Named = { type: string; value?: unknown; quasis?: Array<{ value: { raw: string } }> } | null | undefined;
  const literal = (node: Named) => {
    if (node?.type === "Literal" && typeof node.value === "string") found.push(node.value);
    else if (node?.type === "TemplateLiteral" && node.quasis?.[0]) found.push(node.quasis[0].value.raw);
  };
  new Visitor({
    ImportDeclaration: (node) => literal(node.source),
    ExportNamedDeclaration: (node) => literal(node.source),
    ExportAllDeclaration: (node) => literal(node.source),
    ImportExpression: (node) => literal(node.source),
    TSImportType: (node) => literal(node.source),
    TSExternalModuleReference: (node) => literal(node.expression),
    CallExpression: (node) => {
      if (node.callee.type === "Identifier" && node.callee.name === "require") literal(node.arguments[0]);
    },
  }).visit(program);
  return found;
}

/** The repository path an import reaches ("~/x" is app/x), or null for a package or a Node built-in. */
export function target(fromFile: string, specifier: string): string | null {
  const bare = specifier.split("?")[0]!;
  if (bare.startsWith("~/")) return join("app", bare.slice(2));
  if (bare.startsWith("./") || bare.startsWith("../") || bare === "." || bare === "..") return relative(root, resolve(root, dirname(fromFile), bare));
  return null;
}
