import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { precompressDirectory } from "./server/precompressed-assets.ts";

const appDir = fileURLToPath(new URL("./app", import.meta.url));

/** Rolldown's view of a module while it chunks the client build (the part we read). */
interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/**
 * Every page loads root.tsx and everything it imports statically (the site frame, cart badge, money, SEO helpers…)
 * plus React, React DOM and React Router. Left to itself the bundler cuts these, and the helpers the storefront
 * pages share, into ~20 small files, because route chunks share some of them; on a phone over HTTP/1.1 each one is
 * another request queued on six connections before the page can hydrate. Here they become three: `framework` (the
 * libraries, which change rarely), `frame` (our code on every page) and `storefront` (what three or more of the home,
 * shop, product and scent finder pages share: product cards, images, stock helpers; without the scent finder in the
 * count, what it shares with the product page became three more files for a product page, 11 → 14), plus one chunk
 * for what exactly two of them share (see own() below). Modules only
 * other pages use (admin, checkout, accounts) are left to the bundler's own splitting, so the storefront never
 * downloads them.
 */
function chunkByPage() {
  let owner: Map<string, string> | undefined;
  const closure = (ctx: ChunkingContext, entry: string) => {
    const seen = new Set<string>();
    const queue = [`${appDir}/${entry}`];
    while (queue.length) {
      const id = queue.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      queue.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
    }
    // The route module itself stays its own chunk (React Router loads each by name); libraries are not ours to group.
    seen.delete(`${appDir}/${entry}`);
    return [...seen].filter((id) => !id.includes("/node_modules/"));
  };
  const own = (ctx: ChunkingContext) => {
    const map = new Map<string, string>();
    for (const id of closure(ctx, "root.tsx")) map.set(id, "frame");
    // Shared by three or more of the storefront pages (and not on every page already): `storefront`. Shared by two
    // only: a chunk of those two (`product-and-scent-finder`: Add to Cart, stock status, tier and sample helpers;
    // `shop-and-scent-finder`: the scent vocabulary), so a page that doesn't use it, home above all, doesn't carry it
    // (the 130 KB budget, docs/decisions/029's addendum of 2026-11-29). A module only one of them uses stays in that
    // page's chunk.
    const uses = new Map<string, Set<string>>();
    for (const page of ["home", "shop", "product", "scent-finder"])
      for (const id of closure(ctx, `routes/${page}.tsx`)) uses.set(id, (uses.get(id) ?? new Set()).add(page));
    for (const [id, pages] of uses) {
      if (pages.size < 2 || map.has(id)) continue;
      map.set(id, pages.size >= 3 ? "storefront" : [...pages].join("-and-"));
    }
    return map;
  };
  // One bundler group per kind of chunk, the wider first: a group also takes in the modules its own import, unless a
  // group of higher priority has them (the frame's money helpers stay the frame's, the cards' stock helpers the
  // storefront's, not the first two-page chunk that imports them).
  const group = (test: (chunk: string) => boolean, priority: number) => ({
    name: (id: string, ctx: ChunkingContext) => {
      const chunk = (owner ??= own(ctx)).get(id);
      return chunk && test(chunk) ? chunk : null;
    },
    priority,
  });
  return [group((c) => c === "frame", 3), group((c) => c === "storefront", 2), group((c) => c.includes("-and-"), 1)];
}

/**
 * Vite wraps each dynamic `import()` of the client build in a helper (~1.4 KB, on every page once the frame has one)
 * that first preloads the imported chunk's own imports. Ours load code only some pages show (a signed-in shopper's
 * cart sync, a verified buyer's review form, Notify me: lazyComponent) and depend on chunks the page already has,
 * or on a small one the browser then fetches with it; the helper is a plain call instead (the 130 KB budget).
 */
function plainDynamicImports(): Plugin {
  const helper = "\0vite/preload-helper.js";
  return {
    name: "scentara:plain-dynamic-imports",
    apply: "build",
    enforce: "pre",
    load(id) {
      if (this.environment.name === "client" && id === helper) return "export const __vitePreload = (load) => load();";
    },
  };
}

/**
 * After the client build is written: brotli (quality 11) and gzip copies beside each script and stylesheet, served by
 * server/precompressed-assets.ts instead of compressing on every request.
 */
function precompressClientAssets(): Plugin {
  return {
    name: "scentara:precompress-client-assets",
    apply: "build",
    async writeBundle(options) {
      if (this.environment.name !== "client" || !options.dir) return;
      const { files, bytes, brotliBytes } = await precompressDirectory(join(options.dir, "assets"));
      const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
      this.environment.logger.info(`precompressed ${files} client assets: ${kb(bytes)} → ${kb(brotliBytes)} with brotli`);
    },
  };
}

/**
 * A big scent catalogue is built in a child process (app/modules/scent-finder/scent-finder.server.ts), which starts from a file of
 * its own: the server build gets it as a second entry, build/server/scent-catalogue.process.js beside index.js (what
 * it shares with the server, the database and the matching, goes into shared chunks).
 */
function scentCatalogueProcess(): Plugin {
  return {
    name: "scentara:scent-catalogue-process",
    apply: "build",
    buildStart() {
      if (this.environment.name !== "ssr") return;
      this.emitFile({ type: "chunk", id: join(appDir, "modules/scent/scent-catalogue.process.ts"), fileName: "scent-catalogue.process.js" });
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), plainDynamicImports(), precompressClientAssets(), scentCatalogueProcess()],
  resolve: { alias: { "~": appDir } },
  build: { target: "es2022" },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 4 },
                ...chunkByPage(),
              ],
            },
          },
        },
      },
    },
    // The server build's entry is our HTTP server (server/app.ts), which imports React Router's build as a
    // virtual module; one bundle then holds the server and the app modules it shares.
    // cssMinify: the stylesheet is inlined from the server build (app/entry.server.tsx), so minify it there too.
    ssr: {
      build: { target: "node24", cssMinify: true, rolldownOptions: { input: "./server/app.ts" } },
      // Recharts goes into the server bundle, cut down to the shapes the dashboard draws (app/components/admin/charts.tsx):
      // left outside, every server process loaded the whole library (Redux, Immer, d3…) at start, ~0.25 s of CPU.
      resolve: { noExternal: ["recharts"] },
    },
  },
});
