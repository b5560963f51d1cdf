import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import { createRequestHandler as createReactRouterHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { type PageAudience, requestInfoContext } from "~/context";
import { getSessionUser } from "~/modules/accounts/session.server";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { closeDatabase, getDb, pingDatabase } from "~/db/db.server";
import { connectionBudget, maxConnections } from "~/db/connection-budget.server";
import { searchIndexMissing } from "~/modules/catalog/catalog.server";
import { migrateToLatest } from "~/db/migrate.server";
import { env } from "~/utils/env.server";
import { logger, requestScope } from "~/utils/logger.server";
import { paymentFormActionOrigins } from "~/modules/payments/form-action.server";
import { ensureDemoCatalogue } from "~/modules/demo/seed.server";
import { mediaImageOrigins, readStoredImage } from "~/modules/media/media-store.server";
import { mediaRoute } from "~/modules/media/media-route.server";
import { warnMissingLegalSettings } from "~/modules/legal/legal.server";
import { invalidatePageCache, pageCache } from "./page-cache";
import { keptImageReader } from "./page-lcp-image";
import { precompressedAssets } from "./precompressed-assets";
import { bodyLimit, refuseNulInUrl } from "./input-guards";
import { oneDrainListener } from "./drain-listeners";
import { securityHeaders } from "./security-headers";
import { startJobs } from "./jobs";
import { startChangeFeed } from "./change-feed";
import { EXIT_CANNOT_LISTEN, runPrimary, webConcurrency } from "./cluster";

/**
 * The HTTP server: request ids and JSON logs, security headers, compression, static files with the right cache
 * lifetimes, /healthz, then React Router. Built by Vite as the SSR entry so it shares the app's modules.
 */
export function createApp(options: { build: ServerBuild | (() => Promise<ServerBuild>); clientDir?: string; viteMiddleware?: express.RequestHandler }) {
  const config = env();
  const app = express();
  app.disable("x-powered-by");
  // X-Forwarded-For and X-Forwarded-Proto are written by whoever sends the request: they are believed only for the
  // number of proxies the owner says are in front (TRUST_PROXY, default 0: the client IP is the socket's address).
  app.set("trust proxy", config.TRUST_PROXY);

  app.use((req, res, next) => {
    const requestId = (req.get("x-request-id") || randomUUID()).slice(0, 64);
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10, ip: req.ip };
      // 'finish' fires outside the request's async scope, so enter it again for this line.
      requestScope.run({ requestId }, () => {
        if (res.statusCode >= 500) logger.error(line, "request");
        else logger.info(line, "request");
      });
    });
    // Everything logged while serving this request (loaders, actions, mail, payments) carries its id.
    requestScope.run({ requestId }, next);
  });

  // Storefront pages come from a few-seconds cache, one copy per audience (see server/page-cache.ts).
  const renderPage = createReactRouterHandler(options.build, options.viteMiddleware ? "development" : "production");
  const cachedPages = pageCache({
    ttlMs: options.viteMiddleware ? 0 : config.PAGE_CACHE_TTL_SECONDS * 1000,
    audienceOf: pageAudienceOf,
    render: (request, nonce, audience, req, res) => renderPage(request, loadContext(req, res, nonce, audience)),
    clientDir: options.clientDir,
    readImage: keptImageReader(readStoredImage),
  });
  // A fresh cached copy is sent from here, with the headers of its first serving (security headers included): the
  // rest of the chain would only make them again (page-cache.ts, `hits`). Misses and everything else go on below.
  app.use(cachedPages.hits);

  app.use(
    securityHeaders({
      https: config.PUBLIC_BASE_URL.startsWith("https://"),
      formActionOrigins: paymentFormActionOrigins(),
      imageOrigins: mediaImageOrigins(config),
    }),
  );
  app.use(compression());
  // compression leaves a listener behind for every wait for a drain (a large streamed export): see drain-listeners.ts
  app.use(oneDrainListener());
  app.use(bodyLimit());
  app.use(refuseNulInUrl());

  app.get("/healthz", async (_req, res) => {
    try {
      await pingDatabase(getDb());
      res.json({ status: "ok" });
    } catch (error) {
      logger.error({ err: error }, "health check failed");
      res.status(503).json({ status: "unavailable" });
    }
  });

  // Uploaded and generated images, from local disk or the S3 bucket: content-addressed names, cached for a year.
  app.use("/media", mediaRoute(config));

  if (options.viteMiddleware) {
    app.use(options.viteMiddleware);
  } else if (options.clientDir) {
    // Vite's hashed assets never change under the same name; scripts and styles go out precompressed (brotli 11).
    const assets = { immutable: true, maxAge: "1y" };
    app.use("/assets", precompressedAssets(`${options.clientDir}/assets`, assets));
    app.use("/assets", express.static(`${options.clientDir}/assets`, { ...assets, index: false }));
    // The other public files (favicon, og-image, images/) are served under their own names only: a catch-all static
    // handler would stat the disk for every page request (~3 % of a signed-in page's CPU) before giving up.
    const publicFiles = express.static(options.clientDir, { maxAge: "1h", index: false });
    const entries = readdirSync(options.clientDir, { withFileTypes: true }).filter((e) => e.name !== "assets");
    const paths = entries.map((e) => (e.isDirectory() ? `/${e.name}/` : `/${e.name}`));
    app.use((req, res, next) => (paths.some((p) => (p.endsWith("/") ? req.path.startsWith(p) : req.path === p)) ? publicFiles(req, res, next) : next()));
  }

  const loadContext = (req: express.Request, res: express.Response, nonce: string, audience?: PageAudience) => {
    const context = new RouterContextProvider();
    context.set(requestInfoContext, { requestId: res.locals.requestId, nonce, ip: req.ip ?? "unknown", audience });
    return context;
  };

  app.use(cachedPages);

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: options.build,
      getLoadContext: (req, res) => loadContext(req, res, res.locals.nonce),
    }),
  );
  return app;
}

/**
 * The audience whose shared copy of a storefront page this request may have: the role of its session, decided here
 * on the server (the session look-up is remembered for a few seconds, session-cache.server.ts). A cookie that is no
 * longer a session is a visitor, as React Router's own render would treat it. A failing look-up: no shared copy.
 */
async function pageAudienceOf(req: express.Request): Promise<PageAudience | null> {
  const cookie = req.get("cookie");
  if (!cookie) return "visitor";
  try {
    const user = await getSessionUser(new Request("http://localhost/", { headers: { cookie } }));
    return user ? (user.isAdmin ? "admin" : "customer") : "visitor";
  } catch (error) {
    logger.warn({ err: error }, "page cache: reading the session failed; rendering the page for this request");
    return null;
  }
}

/**
 * Starts the shop. The first process checks the configuration, makes or reads the session secret, migrates and loads
 * the demo catalogue on first start, once. Then, in production with WEB_CONCURRENCY above 1 (default: one per core),
 * it becomes the cluster's primary and forks the workers (server/cluster.ts); otherwise (development, or
 * WEB_CONCURRENCY=1) it serves itself. A worker only serves.
 */
export async function start(options: Parameters<typeof createApp>[0]) {
  if (cluster.isWorker) return serve(options); // the primary prepared everything
  const config = env();
  const workers = options.viteMiddleware ? 1 : webConcurrency();
  const secret = authSecret(); // made or read now (and said so in the log), not on the first visitor's request
  warnMissingLegalSettings(logger, config); // the legal notices' unset facts (docs/decisions/037)
  const db = getDb();
  await migrateToLatest(db);
  if (config.SEED_DEMO) await ensureDemoCatalogue(db);
  const max = await maxConnections(db);
  if (max !== null) {
    const budget = connectionBudget(workers, config.DATABASE_POOL_SIZE, max);
    logger[budget.level]({ workers, poolSize: config.DATABASE_POOL_SIZE, maxConnections: max }, budget.message);
  }
  if (await searchIndexMissing(db)) {
    logger.warn("PostgreSQL: the shop's search index is missing (the pg_trgm extension could not be created): search works but reads every product. As the database owner run `create extension pg_trgm` and the index statement in app/db/migrations/0018_products_search_trigram_index.ts");
  }
  if (workers === 1) return serve(options);
  await closeDatabase(); // the primary serves nothing: the workers open their own
  runPrimary({
    workers,
    logger,
    // A secret the primary made (or read) locally is handed on, so the workers don't each read and announce it.
    workerEnv: config.AUTH_SECRET ? {} : { AUTH_SECRET: secret },
    listening: listeningLine,
  });
}

/** "Scentara is listening on …": the address it really listens on; the public one only when it differs. */
function listeningLine(port: number) {
  const local = `http://localhost:${port}`;
  const publicUrl = env().PUBLIC_BASE_URL.replace(/\/+$/, "");
  return { message: `Scentara is listening on ${local}`, fields: { port, url: local, ...(publicUrl !== local ? { publicUrl } : {}) } };
}

/** One serving process (the only one, or a worker): listens, runs the jobs and the change feed, stops gracefully. */
async function serve(options: Parameters<typeof createApp>[0]) {
  const config = env();
  authSecret();
  // Production: load the build once. Handed a function, React Router calls it and rebuilds its route tables on every
  // request (a dynamic import, route flattening and path compiling: ~8 % of a signed-in page's CPU); development keeps
  // the function so edits are picked up.
  const build = options.viteMiddleware || typeof options.build !== "function" ? options.build : await options.build();
  const app = createApp({ ...options, build });
  if (!options.viteMiddleware) await warmUp(app);
  // What other app processes change (storefront, revoked sessions) reaches this one's caches, and the reverse.
  const feed = await startChangeFeed(getDb, { logger });
  const onListening = (error?: Error) => {
    // Express calls back with the error when listening fails (the port is taken): say so plainly and stop.
    if (error) {
      logger.fatal({ err: error, port: config.PORT }, `cannot listen on port ${config.PORT}: ${error.message}`);
      // A worker tells the primary this is not a crash to retry (server/cluster.ts).
      process.exit(cluster.isWorker ? EXIT_CANNOT_LISTEN : 1);
    }
    const { port } = server.address() as AddressInfo;
    const line = listeningLine(port);
    if (cluster.isWorker) logger.debug({ ...line.fields, pid: process.pid }, "worker listening");
    else logger.info(line.fields, line.message);
  };
  // HOST: one address (127.0.0.1 behind a proxy on this machine, docs/deploy.md); unset, every interface.
  const server = config.HOST ? app.listen(config.PORT, config.HOST, onListening) : app.listen(config.PORT, onListening);
  server.keepAliveTimeout = 65_000;
  // Scheduled work (unpaid orders expire, review requests go out): timers unref'd, one runner across processes (a
  // lease), stopped before the database closes.
  const jobs = startJobs(config, getDb);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing open requests");
    const jobsStopped = jobs.stopAll();
    server.close(async () => {
      await jobsStopped;
      await feed.stop();
      await closeDatabase();
      logger.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
    // Don't hang forever on a stuck connection.
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return server;
}

/**
 * Serves the busiest pages once, through the whole server, before the first shopper arrives: the route modules load,
 * the JIT warms every step (security headers, session and audience, render, sealing, compression) and the database's
 * pages are read, so the first real request is as quick as the rest (it took 150–170 ms cold). It listens on a
 * private port of its own (exclusive: not shared with the cluster's other workers), then forgets what it cached.
 * A failure here is only logged: the shop starts anyway.
 */
async function warmUp(app: express.Express) {
  const started = Date.now();
  const server = app.listen({ port: 0, host: "127.0.0.1", exclusive: true });
  try {
    await once(server, "listening");
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (path: string) => {
      const response = await fetch(`${base}${path}`, { headers: { "accept-encoding": "br, gzip", "x-request-id": "warm-up" } });
      return response.text();
    };
    const shop = await get("/shop");
    const product = /href="(\/products\/[a-z0-9-]+)"/.exec(shop)?.[1];
    for (const path of ["/", "/terms", "/shop?sort=price-asc", ...(product ? [product] : [])]) await get(path);
  } catch (error) {
    logger.warn({ err: error }, "warm-up failed");
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    invalidatePageCache();
  }
  logger.debug({ ms: Date.now() - started }, "warmed up");
}

export const build = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
