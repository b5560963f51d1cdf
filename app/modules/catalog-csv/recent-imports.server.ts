import type { Queryable } from "~/db/db.server";
import { formatDateZA } from "~/utils/dates";

/** The latest imports, newest first, for the import page's start (app/routes/admin.products.import.tsx). */
export async function recentImports(db: Queryable, limit = 5) {
  const rows = await db.selectFrom("product_imports").select(["id", "file_name", "status", "created_at", "message"]).orderBy("created_at", "desc").limit(limit).execute();
  return rows.map((r) => ({ id: r.id, fileName: r.file_name, status: r.status, message: r.message, created: formatDateZA(r.created_at) }));
}

export type RecentImport = Awaited<ReturnType<typeof recentImports>>[number];
