// Starts the shop. Production (npm start): the Vite build in build/ (or $BUILD_DIR), one worker process per core
// (WEB_CONCURRENCY; node:cluster runs this same file in each worker, see server/cluster.ts). Development (npm run dev):
// one process, Vite in middleware mode with hot reload. Everything else lives in server/app.ts.
import module from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

// A .env file beside package.json is read when present (see .env.example); real environment variables win.
try {
  process.loadEnvFile();
} catch {
  // no .env: defaults and the process environment apply
}

const production = process.env.NODE_ENV !== "development";
// React and React Router pick their (much faster) production builds from NODE_ENV: set it before loading them.
if (production) process.env.NODE_ENV = "production";

if (production) {
  // V8's compiled code for the build and its packages is kept on disk (Node's compile cache, in the system's temporary
  // folder; each file's entry is checked against its contents), so the next start and every cluster worker skip most
  // of the compiling: measured ~0.3 s of CPU less per process start.
  module.enableCompileCache?.();
  const buildDir = resolve(process.env.BUILD_DIR ?? "build");
  const { start, build } = await import(pathToFileURL(`${buildDir}/server/index.js`).href);
  await start({ build, clientDir: `${buildDir}/client` });
  // written now rather than at exit, which a killed process never reaches
  module.flushCompileCache?.();
} else {
  const vite = await import("vite");
  const viteServer = await vite.createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { start } = await viteServer.ssrLoadModule("./server/app.ts");
  await start({
    build: () => viteServer.ssrLoadModule("virtual:react-router/server-build"),
    viteMiddleware: viteServer.middlewares,
  });
}
