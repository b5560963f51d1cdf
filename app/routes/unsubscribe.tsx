/**
 * /unsubscribe?token=… — the link in every marketing e-mail's footer (POPIA s69(4)(b); docs/decisions/039). Works
 * signed out: the signed token names the person, whoever (if anyone) is signed in.
 *
 * GET shows what the link would do and one button (mail scanners open links by themselves: opening changes nothing);
 * the button's POST unsubscribes. A mail program's own one-click button posts to the header's address instead
 * (unsubscribe.one-click.ts). A forged, altered or expired link answers 400 with what to do instead, and changes
 * nothing.
 */
import { Form, Link, data, useNavigation } from "react-router";
import type { Route } from "./+types/unsubscribe";
import { AuthShell } from "~/components/accounts/auth-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { inspectUnsubscribeLink, unsubscribeWithLink } from "~/modules/marketing/unsubscribe.server";
import { env } from "~/utils/env.server";
import { readFields, readQuery } from "~/utils/request.server";

export function meta() {
  return [{ title: "Unsubscribe | Scentara" }, { name: "robots", content: "noindex" }];
}

// The token is in the address: keep the page out of caches, and its address out of other sites' Referer. Not
// "no-referrer": a browser then posts the page's own form with "Origin: null", which React Router refuses as cross-site.
export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = readQuery(request).get("token") ?? "";
  const state = await inspectUnsubscribeLink(getDb(), token);
  const answer = { token, shopName: env().SHOP_NAME, state };
  return state.kind === "refused" ? data(answer, { status: 400 }) : answer;
}

export async function action({ request }: Route.ActionArgs) {
  const fields = await readFields(request);
  // the page's form sends the token as a field; the address it was opened with carries it too
  const token = fields.token ?? readQuery(request).get("token") ?? "";
  const outcome = await unsubscribeWithLink(getDb(), token, { oneClick: false });
  return outcome.kind === "refused" ? data({ outcome }, { status: 400 }) : { outcome };
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const outcome = actionData?.outcome;
  const state = loaderData.state;
  const refusal = outcome?.kind === "refused" ? outcome : state.kind === "refused" ? state : null;

  if (refusal) {
    return (
      <AuthShell eyebrow="E-mail preferences" title={refusal.reason === "expired" ? "Link Expired" : "Link Not Valid"}>
        <div className="space-y-6">
          <Notice tone="error">{refusal.message}</Notice>
          <ButtonLink to="/profile/preferences" size="lg" className="w-full">
            Email Preferences
          </ButtonLink>
        </div>
      </AuthShell>
    );
  }
  if (outcome?.kind === "done" || outcome?.kind === "gone" || state.kind === "gone") {
    const message = outcome ? outcome.message : state.kind === "gone" ? state.message : "";
    return (
      <AuthShell eyebrow="E-mail preferences" title={outcome?.kind === "done" ? "Unsubscribed" : "Nothing to Unsubscribe"}>
        <div className="space-y-6">
          <Notice tone="success">{message}</Notice>
          {outcome?.kind === "done" ? <p className="text-center text-sm text-ink-soft">{outcome.email}</p> : null}
          <p className="text-center text-sm leading-relaxed text-ink-soft">
            Changed your mind? Sign in and turn news and offers back on under{" "}
            <Link to="/profile/preferences" className="text-ink underline decoration-gold underline-offset-4 hover:text-gold">
              Email Preferences
            </Link>
            .
          </p>
          <ButtonLink to="/shop" variant="secondary" size="lg" className="w-full">
            Continue Shopping
          </ButtonLink>
        </div>
      </AuthShell>
    );
  }
  // state.kind === "ready": the question and its one button.
  const ready = state.kind === "ready" ? state : null;
  return (
    <AuthShell
      eyebrow="E-mail preferences"
      title="Unsubscribe"
      intro={
        <>
          {/* the same words the consent log records for this button (consent.logic unsubscribePageWording) */}
          <p>Stop news and offers e-mails from {loaderData.shopName}?</p>
          {ready ? <p className="mt-2 font-medium text-ink">{ready.email}</p> : null}
        </>
      }
    >
      <Form method="post" className="space-y-5">
        <input type="hidden" name="token" value={loaderData.token} />
        {ready && !ready.subscribed ? <Notice tone="info">You're not subscribed at the moment: we send you no news and offers e-mails.</Notice> : null}
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Unsubscribing…" : "Unsubscribe"}
        </Button>
        <p className="text-center text-xs leading-relaxed text-muted">Order and account e-mails still reach you: they are not marketing.</p>
      </Form>
    </AuthShell>
  );
}
