/**
 * A short-lived process that builds the scent catalogue (scent-finder/scent-finder.server.ts starts one per build of a big catalogue): it
 * opens its own connection to the database at SCENT_CATALOGUE_DATABASE_URL, reads every product, builds the ranking's
 * typed arrays, sends them to the server over IPC and exits. The build's ~1 s of CPU at 100 000 products runs beside
 * the server's requests instead of between them (node:sqlite answers synchronously: in the server it would stall
 * every request), and all the memory it used goes back to the operating system when it exits (issue 20).
 *
 * Built as an entry of its own (vite.config.ts: build/server/scent-catalogue.process.js); run from source under tsx.
 */
import { openDatabase } from "~/db/db.server";
import { buildCatalogueData } from "./scent-catalogue-build.server";

const url = process.env.SCENT_CATALOGUE_DATABASE_URL;
if (!url || !process.send) {
  console.error("scent-catalogue.process: started without a database URL or an IPC channel (scent-finder/scent-finder.server.ts starts it)");
  process.exit(2);
}
// One connection is all the build uses (a second, sign-in's pool, is never opened).
const handle = openDatabase(url, 2);
try {
  const data = await buildCatalogueData(handle.db);
  await new Promise<void>((resolve, reject) => process.send!(data, (error: Error | null) => (error ? reject(error) : resolve())));
} finally {
  await handle.close();
}
process.disconnect();
