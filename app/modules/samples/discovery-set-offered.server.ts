/**
 * Whether the storefront's header and footer link to /discovery-set (docs/decisions/054 addendum): only while a set
 * can be built — samples on across the catalogue, or at least a set's worth of scents offered one by one.
 *
 * The root loader asks on every page it renders, so the answer is kept in this process until the storefront changes
 * (utils/storefront-changes.server.ts: saving the sample settings or a product's sampling raises it, here or in
 * another process through the change feed). It is the same for every visitor, so the cached pages stay shared
 * copies, and the same change that flushes them makes the next one ask again.
 */
import type { Queryable } from "~/db/db.server";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { logger } from "~/utils/logger.server";
import { loadSampleSettings } from "./samples.server";

let kept: Promise<boolean> | null = null;
onStorefrontChange(() => {
  kept = null;
});

async function read(db: Queryable): Promise<boolean> {
  const settings = await loadSampleSettings(db);
  if (settings.enabled) return true;
  const offered = await db.selectFrom("product_samples").select("product_id").where("offered", "=", 1).limit(settings.setSize).execute();
  return offered.length >= settings.setSize;
}

export function discoverySetOffered(db: Queryable): Promise<boolean> {
  kept ??= read(db).catch((error: unknown) => {
    kept = null; // asked again next time
    logger.error({ err: error }, "samples: could not tell whether the discovery set is offered; the link is left out");
    return false;
  });
  return kept;
}
