/**
 * /wishlist/alerts-off?token=… — the "turn off" link of every wishlist e-mail (POPIA s69(4)(b), RFC 8058;
 * docs/decisions/057). Works signed out: the signed token names the shopper. GET shows one button (mail scanners open
 * links by themselves); its POST, or a mail program's one-click POST to the same address, turns the e-mails off and
 * records it once. A forged or expired link answers 400 and changes nothing.
 */
import { Form, data } from "react-router";
import type { Route } from "./+types/wishlist.alerts-off";
import { AuthShell } from "~/components/accounts/auth-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { WISHLIST_MESSAGES } from "~/modules/wishlist/wishlist.logic";
import { alertsOffLinkUser, setWishlistAlerts } from "~/modules/wishlist/wishlist.server";
import { readFields, readQuery } from "~/utils/request.server";

const INVALID = "This link is not valid or has expired. Nothing was changed. Sign in and turn wishlist e-mails off on your wishlist.";

export function meta() {
  return [{ title: "Wishlist E-mails | Scentara" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = readQuery(request).get("token") ?? "";
  const user = await alertsOffLinkUser(getDb(), token);
  return user ? { token, valid: true } : data({ token, valid: false }, { status: 400 });
}

export async function action({ request }: Route.ActionArgs) {
  const fields = await readFields(request);
  const token = fields.token ?? readQuery(request).get("token") ?? "";
  const db = getDb();
  const user = await alertsOffLinkUser(db, token);
  if (!user) return data({ done: false }, { status: 400 });
  await setWishlistAlerts(db, user, false, { source: "unsubscribe" });
  return { done: true };
}

export default function WishlistAlertsOff({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.valid || actionData?.done === false) {
    return (
      <AuthShell eyebrow="Wishlist e-mails" title="Link Not Valid">
        <Notice tone="error">{INVALID}</Notice>
      </AuthShell>
    );
  }
  if (actionData?.done) {
    return (
      <AuthShell eyebrow="Wishlist e-mails" title="Turned Off">
        <div className="space-y-6">
          <Notice tone="success">{WISHLIST_MESSAGES.alertsOff}</Notice>
          <ButtonLink to="/wishlist" variant="secondary" size="lg" className="w-full">
            Your Wishlist
          </ButtonLink>
        </div>
      </AuthShell>
    );
  }
  return (
    <AuthShell eyebrow="Wishlist e-mails" title="Turn Off" intro={<p>Stop the e-mails about price drops and restocks on your wishlist?</p>}>
      <Form method="post">
        <input type="hidden" name="token" value={loaderData.token} />
        <Button type="submit" size="lg" className="w-full">
          Turn Off
        </Button>
      </Form>
    </AuthShell>
  );
}
