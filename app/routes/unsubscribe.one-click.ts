/**
 * /unsubscribe/one-click?token=… — the address in a marketing e-mail's List-Unsubscribe header (RFC 8058;
 * docs/decisions/039). A mail program's own "Unsubscribe" button POSTs "List-Unsubscribe=One-Click" here, from its
 * servers or app: no cookie, and an Origin (if any) that is not the shop's. So this is a resource route (no page):
 * React Router's cross-origin check guards page actions only, and the signed token is the authority here — all it can
 * do is turn its own person's marketing e-mails off. A program that only opens the address (RFC 2369) is sent to the
 * page, which asks before it changes anything. A forged or expired link answers 400 and changes nothing.
 */
import type { Route } from "./+types/unsubscribe.one-click";
import { getDb } from "~/db/db.server";
import { unsubscribeWithLink, UNSUBSCRIBE_PATH } from "~/modules/marketing/unsubscribe.server";
import { readFields, readQuery } from "~/utils/request.server";

const HEADERS = { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" };

export async function loader({ request }: Route.LoaderArgs) {
  const token = readQuery(request).get("token") ?? "";
  return new Response(null, { status: 303, headers: { Location: `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`, "Cache-Control": "no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  const fields = await readFields(request);
  const token = readQuery(request).get("token") ?? fields.token ?? "";
  const outcome = await unsubscribeWithLink(getDb(), token, { oneClick: true });
  if (outcome.kind === "refused") return new Response(outcome.message, { status: 400, headers: HEADERS });
  return new Response(outcome.message, { status: 200, headers: HEADERS });
}
