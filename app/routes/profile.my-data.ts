/**
 * POST /profile/my-data — "Download my data" (POPIA s23; docs/decisions/040): one ZIP with everything the shop holds
 * about the signed-in person (my-data.json, my-data.html, their invoices). A resource route: the profile's plain form
 * posts here and the browser saves the file, staying on the profile (it works without JavaScript).
 *
 * Whose data is decided by the session alone: nothing in the request names an account. A form that names another
 * one (an id or e-mail that is not the session's) is refused with 403 and a clear message, and nothing is counted
 * or recorded. Over the hourly allowance the browser goes back to the profile, which says so.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/profile.my-data";
import { getDb } from "~/db/db.server";
import { requireUserAction } from "~/modules/accounts/session.server";
import { downloadPersonalData } from "~/modules/privacy/export.server";
import { PRIVACY_MESSAGES } from "~/modules/privacy/privacy.schema";
import { DomainError, errorResponse } from "~/utils/errors";
import { readFields } from "~/utils/request.server";

/** Where the profile shows the download's refusals (the section's anchor and the reason). */
export const DOWNLOAD_REFUSED_PATH = "/profile?data=busy#your-data";

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const fields = await readFields(request);
  for (const key of ["userId", "user", "id", "email"]) {
    const named = fields[key]?.trim().toLowerCase();
    if (named && named !== user.id.toLowerCase() && named !== user.email.toLowerCase()) return errorResponse(PRIVACY_MESSAGES.onlyYourOwn, 403);
  }
  try {
    const archive = await downloadPersonalData(getDb(), user.id, { kind: "self" });
    return new Response(archive.bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Length": String(archive.bytes.byteLength),
        "Content-Disposition": `attachment; filename="${archive.filename}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (error instanceof DomainError) return error.status === 429 ? redirect(DOWNLOAD_REFUSED_PATH, 303) : errorResponse(error.message, error.status);
    throw error;
  }
}

/** A GET (a bookmarked or reloaded address) downloads nothing: back to the profile's section. */
export function loader() {
  return redirect("/profile#your-data");
}
