/**
 * The part of the shop's stylesheet one page's HTML can use: every rule whose selector names only classes the page
 * has (or no class at all), inside the same @layer / @media / @supports blocks, and every other at-rule as it is
 * (@property, @keyframes, @font-face). The page cache sends a sealed page with this subset (for its markup and its own
 * scripts' classes) inlined instead of the whole stylesheet (87 KB, most of it utilities of other pages); the browser
 * adds the whole stylesheet before a client-side navigation shows another page (docs/decisions/048).
 *
 * Reads Tailwind's minified output: flat rules (no CSS nesting), classes escaped with backslashes. Anything it does
 * not understand is kept, so a page can only get more CSS than it needs, never less.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { INLINE_STYLESHEET_HREF } from "~/inline-stylesheet";

type Node = { kind: "rule"; selectors: string[][]; text: string } | { kind: "block"; head: string; children: Node[] } | { kind: "other"; text: string };

/** At-rules whose contents are rules for the page (kept when any of their rules is). */
const GROUPING = /^@(?:layer|media|supports|container|scope|starting-style)\b/;

const parsed = new Map<string, Node[]>();

/** The CSS cut into rules once per stylesheet (the build has one; tests may pass others). */
function parse(css: string): Node[] {
  let nodes = parsed.get(css);
  if (!nodes) {
    nodes = parseBlock(css, { at: 0 }, false);
    if (parsed.size > 4) parsed.clear();
    parsed.set(css, nodes);
  }
  return nodes;
}

function parseBlock(css: string, pos: { at: number }, nested: boolean): Node[] {
  const nodes: Node[] = [];
  while (pos.at < css.length) {
    const start = skipSpaceAndComments(css, pos.at);
    if (start >= css.length) break;
    if (css[start] === "}") {
      pos.at = start + 1;
      if (nested) return nodes;
      continue;
    }
    const open = findOutside(css, start, "{;");
    if (open < 0) {
      nodes.push({ kind: "other", text: css.slice(start) });
      pos.at = css.length;
      break;
    }
    const head = css.slice(start, open).trim();
    if (css[open] === ";") {
      nodes.push({ kind: "other", text: css.slice(start, open + 1) }); // @layer a, b; @import; @charset
      pos.at = open + 1;
      continue;
    }
    if (GROUPING.test(head)) {
      pos.at = open + 1;
      nodes.push({ kind: "block", head, children: parseBlock(css, pos, true) });
      continue;
    }
    const close = closing(css, open, "{}");
    const text = css.slice(start, close + 1);
    nodes.push(head.startsWith("@") ? { kind: "other", text } : { kind: "rule", selectors: splitOutside(head, ",").map(requiredClasses), text });
    pos.at = close + 1;
  }
  return nodes;
}

function skipSpaceAndComments(css: string, at: number): number {
  for (;;) {
    while (at < css.length && /\s/.test(css[at]!)) at++;
    if (css.startsWith("/*", at)) {
      const end = css.indexOf("*/", at + 2);
      at = end < 0 ? css.length : end + 2;
      continue;
    }
    return at;
  }
}

/** The index of the first of `chars` outside strings, brackets, parentheses and escapes; -1 if none. */
function findOutside(text: string, from: number, chars: string): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") i++;
    else if (c === '"' || c === "'") i = closingQuote(text, i);
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth === 0 && chars.includes(c)) return i;
  }
  return -1;
}

function closingQuote(text: string, at: number): number {
  const quote = text[at];
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

/** The index of the bracket that closes the one at `open` ("{}" or "()"), outside strings and escapes. */
function closing(text: string, open: number, [opening, closer]: "{}" | "()"): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") i++;
    else if (c === '"' || c === "'") i = closingQuote(text, i);
    else if (c === opening) depth++;
    else if (c === closer && --depth === 0) return i;
  }
  return text.length - 1;
}

function splitOutside(text: string, separator: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let at = findOutside(text, 0, separator); at >= 0; at = findOutside(text, from, separator)) {
    parts.push(text.slice(from, at));
    from = at + 1;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * The classes an element (or its ancestors and siblings) must have for one selector to match. Classes inside
 * :not(…) are not required (absent, they make it match), nor are those in quoted strings.
 */
export function requiredClasses(selector: string): string[] {
  const classes: string[] = [];
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === "\\") i++;
    else if (c === '"' || c === "'") i = closingQuote(selector, i);
    else if (c === ":" && selector.startsWith(":not(", i)) i = closing(selector, i + 4, "()");
    else if (c === "." && i + 1 < selector.length && !/[\d\s]/.test(selector[i + 1]!)) {
      let name = "";
      let j = i + 1;
      while (j < selector.length) {
        const d = selector[j]!;
        if (d === "\\") {
          const hex = /^[0-9a-fA-F]{1,6} ?/.exec(selector.slice(j + 1, j + 8));
          if (hex) {
            name += String.fromCodePoint(Number.parseInt(hex[0].trim(), 16));
            j += 1 + hex[0].length;
          } else {
            name += selector[j + 1] ?? "";
            j += 2;
          }
        } else if (/[\w-]/.test(d) || d.charCodeAt(0) > 0x7f) {
          name += d;
          j++;
        } else break;
      }
      if (name) classes.push(name);
      i = j - 1;
    }
  }
  return classes;
}

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" };

/** Every class named in a class attribute of the HTML (entities decoded, as the browser reads them). */
export function classesIn(html: string): Set<string> {
  const classes = new Set<string>();
  for (const [, value] of html.matchAll(/\sclass="([^"]*)"/g)) {
    const decoded = value!.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) =>
      name[0] === "#" ? String.fromCodePoint(Number.parseInt(name.slice(name[1] === "x" || name[1] === "X" ? 2 : 1), name[1] === "x" || name[1] === "X" ? 16 : 10)) : (ENTITIES[name.toLowerCase()] ?? entity),
    );
    for (const name of decoded.split(/\s+/)) if (name) classes.add(name);
  }
  return classes;
}

/** The rules of `css` that the page `html` can use (see the module's comment). */
export function cssUsedBy(css: string, html: string): string {
  return print(parse(css), classesIn(html));
}

function print(nodes: Node[], classes: Set<string>): string {
  let out = "";
  for (const node of nodes) {
    if (node.kind === "other") out += node.text;
    else if (node.kind === "rule") {
      if (node.selectors.some((required) => required.every((name) => classes.has(name)))) out += node.text;
    } else {
      const inner = print(node.children, classes);
      if (inner) out += `${node.head}{${inner}}`;
    }
  }
  return out;
}

/** The inlined stylesheet's element (app/inline-stylesheet.tsx): React writes `data-href` for its `href`. */
const INLINE_STYLESHEET = new RegExp(`<style\\b([^>]*\\sdata-href="${INLINE_STYLESHEET_HREF}"[^>]*)>([\\s\\S]*?)</style>`);

/**
 * The page with only the rules its markup and its own scripts can use in the inlined stylesheet, marked
 * `data-subset` so the browser adds the whole stylesheet before it shows another page (app/inline-stylesheet.tsx).
 * `scriptClasses`: every string in the page's scripts that could be a class (what a script may show later: a toast,
 * the cart badge, an open menu). A page without the inlined stylesheet is returned as it is.
 */
export function withPageStylesheet(html: string, scriptClasses: Iterable<string> = []): string {
  const match = INLINE_STYLESHEET.exec(html);
  if (!match) return html;
  const [element, attributes, css] = match;
  const classes = classesIn(html);
  for (const name of scriptClasses) classes.add(name);
  const subset = print(parse(css!), classes);
  return html.slice(0, match.index) + `<style${attributes} data-subset="">${subset}</style>` + html.slice(match.index + element.length);
}

/**
 * Every token of a script that could be a class name: its text split at white space and quotes (once at each kind of
 * quote, so `after:content-['']` inside double quotes is whole in one of the two). Tailwind itself only sees classes
 * written out whole in the source, and a minifier keeps string literals, so a class a script can set is among them.
 */
export function classCandidates(script: string): Set<string> {
  const tokens = new Set<string>();
  for (const split of [/[\s"`]+/, /[\s'`]+/]) for (const token of script.split(split)) if (token) tokens.add(token);
  return tokens;
}

const scriptCandidates = new Map<string, Set<string>>();

/**
 * A chunk's class candidates, with those of the chunks it loads later (`import("./….js")`: the code of a component
 * that only some states of a page show, app/components/ui/lazy-component.ts, such as the review form a signed-in
 * buyer's browser draws after asking /api/reviews). Read once per file: built assets never change under their hashed
 * names.
 */
function chunkClasses(name: string, clientDir: string, reading: Set<string>): Set<string> {
  const known = scriptCandidates.get(name);
  if (known) return known;
  reading.add(name);
  let candidates: Set<string>;
  try {
    const script = readFileSync(join(clientDir, "assets", name), "utf8");
    candidates = classCandidates(script);
    for (const [, later] of script.matchAll(/\bimport\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g))
      if (!reading.has(later!)) for (const candidate of chunkClasses(later!, clientDir, reading)) candidates.add(candidate);
  } catch {
    candidates = new Set(); // not a file of this build: nothing to add
  }
  scriptCandidates.set(name, candidates);
  return candidates;
}

/** The class candidates of the page's own scripts in the client build (`clientDir`), and of those they load later. */
export function pageScriptClasses(html: string, clientDir: string): Set<string> {
  const all = new Set<string>();
  // The chunks it preloads (React Router preloads every module a page imports); not those the route manifest names.
  for (const [, name] of html.matchAll(/<link rel="modulepreload" href="\/assets\/([\w.-]+\.js)"/g))
    for (const candidate of chunkClasses(name!, clientDir, new Set())) all.add(candidate);
  return all;
}
