/**
 * The owner's settings saved as JSON under a key of the `settings` table (delivery, samples, gift card sales, …). Each
 * module keeps its own defaults and checks; this is the one way they are read and written.
 */
import type { Queryable } from "~/db/db.server";
import { logger } from "~/utils/logger.server";

/**
 * What was saved under `key` over `defaults` (a shallow merge: a setting added later takes its default), the defaults
 * when nothing was saved, and the defaults with an error logged when the saved text doesn't read (`what` names it).
 */
export async function loadSavedSettings<T extends object>(db: Queryable, key: string, defaults: T, what: string): Promise<T> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  if (!row) return defaults;
  try {
    return { ...defaults, ...(JSON.parse(row.value) as Partial<T>) };
  } catch {
    logger.error(`${what}: the saved settings are not readable; the defaults apply`);
    return defaults;
  }
}

/** Has the owner ever saved these settings (the demo turns a feature on only for a shop that never chose)? */
export async function hasSavedSettings(db: Queryable, key: string): Promise<boolean> {
  return !!(await db.selectFrom("settings").select("key").where("key", "=", key).executeTakeFirst());
}

/** Saves checked settings under `key`, replacing what was there. */
export async function saveSettings(db: Queryable, key: string, settings: object, now: Date = new Date()): Promise<void> {
  const value = JSON.stringify(settings);
  const stamp = now.toISOString();
  await db
    .insertInto("settings")
    .values({ key, value, updated_at: stamp })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: stamp }))
    .execute();
}
