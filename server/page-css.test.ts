import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "@tailwindcss/node";
import { transform } from "lightningcss";
import { describe, expect, it } from "vitest";
import { classCandidates, classesIn, cssUsedBy, pageScriptClasses, requiredClasses, withPageStylesheet } from "./page-css";

describe("the classes a selector needs", () => {
  it.each([
    [".flex", ["flex"]],
    [".md\\:grid-cols-3", ["md:grid-cols-3"]],
    [".\\[\\&\\>\\*\\]\\:whitespace-nowrap>*", ["[&>*]:whitespace-nowrap"]],
    [".\\32 xl\\:p-4", ["2xl:p-4"]],
    [".group:hover .group-hover\\:underline", ["group", "group-hover:underline"]],
    [":where(.space-y-2>:not(:last-child))", ["space-y-2"]],
    // absent, a class inside :not() makes the selector match
    [".btn:not(.is-active)", ["btn"]],
    ['[href$=".pdf"]', []],
    ["h1", []],
    [".w-1\\/2", ["w-1/2"]],
    [".mt-0\\.5", ["mt-0.5"]],
  ])("%s → %j", (selector, classes) => {
    expect(requiredClasses(selector)).toEqual(classes);
  });

  it("reads class attributes as the browser does (entities decoded)", () => {
    expect([...classesIn(`<p class="a  [&amp;_b]:c after:content-[&#x27;&#x27;]"></p><i class="">`)]).toEqual(["a", "[&_b]:c", "after:content-['']"]);
  });
});

describe("the stylesheet a page is sent", () => {
  const css =
    "@layer theme,base,utilities;" +
    "@layer base{h1{font-weight:500}.prose p{margin:0}}" +
    "@layer utilities{.flex{display:flex}.hidden{display:none}@media (min-width:48rem){.md\\:grid{display:grid}.md\\:block{display:block}}.btn:not(.off){color:red}}" +
    "@property --tw-x{syntax:\"*\";inherits:false}@keyframes spin{to{transform:rotate(1turn)}}";

  it("keeps the rules the markup can use, inside their layers and media queries, and every at-rule", () => {
    expect(cssUsedBy(css, `<h1 class="flex md:grid btn">x</h1>`)).toBe(
      "@layer theme,base,utilities;" +
        "@layer base{h1{font-weight:500}}" +
        "@layer utilities{.flex{display:flex}@media (min-width:48rem){.md\\:grid{display:grid}}.btn:not(.off){color:red}}" +
        "@property --tw-x{syntax:\"*\";inherits:false}@keyframes spin{to{transform:rotate(1turn)}}",
    );
  });

  it("marks the inlined stylesheet as a subset and leaves a page without one alone", () => {
    const page = `<html><head><style data-precedence="default" data-href="app-css" nonce="n1">${css}</style></head><body class="hidden"></body></html>`;
    const sent = withPageStylesheet(page);
    expect(sent).toContain(`<style data-precedence="default" data-href="app-css" nonce="n1" data-subset="">`);
    expect(sent).toContain(".hidden{display:none}");
    expect(sent).not.toContain(".flex{");
    expect(withPageStylesheet("<p>no stylesheet</p>")).toBe("<p>no stylesheet</p>");
  });

  it("keeps the rules of classes the page's scripts may set later", () => {
    const script = `const t=e?"hidden":"md:block";n.className=\`flex \${t}\`;c("after:content-['']")`;
    expect([...classCandidates(script)]).toEqual(expect.arrayContaining(["hidden", "md:block", "after:content-['']"]));
    const page = `<style data-href="app-css">${css}</style><p class="btn"></p>`;
    const sent = withPageStylesheet(page, classCandidates(script));
    expect(sent).toContain(".hidden{display:none}");
    expect(sent).toContain(".md\\:block{display:block}");
    expect(sent).not.toContain(".md\\:grid{");
  });

  // The real thing: Tailwind builds the shop's stylesheet for a few class strings. The page's subset of it has the
  // same utilities as a stylesheet built for the page's classes alone: every rule the page needs, none of the others.
  it("keeps every utility Tailwind makes for a page's classes, from the shop's real stylesheet", async () => {
    // a compiler per stylesheet: one compiler keeps the candidates of every earlier build
    const build = async (candidates: string[]) => {
      const compiler = await compile(readFileSync("app/app.css", "utf8"), { base: `${process.cwd()}/app`, onDependency: () => {} });
      return transform({ code: Buffer.from(compiler.build(candidates)), minify: true, filename: "app.css" }).code.toString();
    };
    const pageClasses = ["container-page", "flex", "md:grid-cols-3", "hover:text-gold", "group", "group-hover:underline", "space-y-2", "[&>*]:whitespace-nowrap", "2xl:p-4", "w-1/2", "hero-rise", "sm:text-lg"];
    const otherClasses = ["lg:grid-cols-4", "grid-cols-[5.5rem_1fr]", "bg-amber-50", "data-[state=open]:bg-sand", "peer-checked:block"];
    const html = `<div class="${pageClasses.join(" ").replaceAll("&", "&amp;").replaceAll(">", "&gt;")}"></div>`;
    const subset = cssUsedBy(await build([...pageClasses, ...otherClasses]), html);
    const layer = (css: string, name: string) => {
      const start = css.indexOf(`@layer ${name}{`);
      let depth = 0;
      for (let i = css.indexOf("{", start); i < css.length; i++) {
        if (css[i] === "{") depth++;
        else if (css[i] === "}" && --depth === 0) return css.slice(start, i + 1);
      }
      return "";
    };
    const onlyPage = await build(pageClasses);
    expect(layer(onlyPage, "utilities")).toContain(".w-1\\/2");
    // minified again: lightningcss merges the media queries that end up side by side, as it did in onlyPage
    const merged = transform({ code: Buffer.from(subset), minify: true, filename: "subset.css" }).code.toString();
    expect(layer(merged, "utilities")).toBe(layer(onlyPage, "utilities"));
    // Tailwind writes every component class of app.css whatever the page uses; the subset keeps the page's own
    expect(layer(subset, "components")).toContain(".container-page{");
    expect(layer(subset, "components")).toContain(".hero-rise{");
    expect(layer(onlyPage, "components")).toContain(".eyebrow{");
    expect(layer(subset, "components")).not.toContain(".eyebrow{");
  });
});

describe("the classes a page's scripts can use", () => {
  it("include those of the code a script loads later (a form only some states show), once even when chunks load each other", () => {
    const clientDir = mkdtempSync(join(tmpdir(), "page-css-"));
    mkdirSync(join(clientDir, "assets"));
    writeFileSync(join(clientDir, "assets", "product-1.js"), 'var a=`flex`;const F=lazy(()=>import(`./review-form-body-2.js`));');
    writeFileSync(join(clientDir, "assets", "review-form-body-2.js"), 'var b="sr-only h-7 w-7";import("./product-1.js");');
    writeFileSync(join(clientDir, "assets", "unrelated-3.js"), 'var c="text-danger";');
    const classes = pageScriptClasses('<link rel="modulepreload" href="/assets/product-1.js"/>', clientDir);
    expect(classes).toContain("flex");
    expect(classes).toContain("sr-only");
    expect(classes).toContain("w-7");
    expect(classes).not.toContain("text-danger");
  });
});
