import type { Queryable } from "~/db/db.server";
import { formatDateTimeZA } from "~/utils/dates";
import { announcementProgress, getAnnouncement, previewAnnouncement } from "./announcements.server";

/**
 * What Admin → Marketing → one announcement shows (app/routes/admin.marketing.$id.tsx): the draft as written (its
 * products by slug and name, in its order; deleted ones left out), the e-mail as the viewer would get it, and once
 * sent the sending's progress. Null when there is no such announcement.
 */
export async function announcementPage(db: Queryable, id: string, viewer: { id: string }) {
  const a = await getAnnouncement(db, id);
  if (!a) return null;
  const products = a.productIds.length ? await db.selectFrom("products").select(["id", "slug", "name"]).where("id", "in", a.productIds).execute() : [];
  const refs = a.productIds.map((pid) => products.find((p) => p.id === pid)).filter((p) => p !== undefined);
  const [preview, progress] = await Promise.all([previewAnnouncement(db, a, viewer), a.status === "draft" ? null : announcementProgress(db, a.id)]);
  return {
    announcement: {
      id: a.id,
      subject: a.subject,
      body: a.body,
      status: a.status,
      products: refs.map((p) => ({ slug: p.slug, name: p.name })),
      queued: a.queuedAt ? formatDateTimeZA(a.queuedAt) : null,
      finished: a.finishedAt ? formatDateTimeZA(a.finishedAt) : null,
    },
    preview,
    progress,
  };
}

export type AnnouncementPage = NonNullable<Awaited<ReturnType<typeof announcementPage>>>;
