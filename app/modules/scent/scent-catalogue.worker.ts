/**
 * A worker thread that builds the scent catalogue (scent.server.ts starts one per build): it opens its own connection
 * to the database at workerData.url, reads every product, builds the ranking's typed arrays, hands them to the
 * server's thread (moved, not copied) and ends. The build's ~1 s of CPU at 100 000 products runs beside the server's
 * requests instead of between them, and its garbage (every row read, the builder's lists) goes with the worker's
 * heap when it ends instead of staying in the server's until V8 next collects it (issue 20: the server's memory).
 *
 * Built as an entry of its own (vite.config.ts: build/server/scent-catalogue.worker.js); run from source under tsx.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "~/db/db.server";
import { buildCatalogueData, transferables } from "./scent-catalogue-build.server";

const { url } = workerData as { url: string };
// One connection is all the build uses (a second, sign-in's pool, is never opened).
const handle = openDatabase(url, 2);
try {
  const data = await buildCatalogueData(handle.db);
  parentPort!.postMessage(data, transferables(data.index));
} finally {
  await handle.close();
}
