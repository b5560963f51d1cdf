/**
 * /whatsapp/stop?token=… — the "stop WhatsApp updates" link in the order e-mails (docs/decisions/055). Works signed
 * out: the signed token names the person. GET shows the question and one button (mail scanners open links by
 * themselves: opening changes nothing); the POST turns the updates off and logs it. A forged, altered or expired link
 * answers 400 with what to do instead, and changes nothing.
 */
import { Form, data, useNavigation } from "react-router";
import type { Route } from "./+types/whatsapp.stop";
import { AuthShell } from "~/components/accounts/auth-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { inspectStopLink, stopWithLink } from "~/modules/whatsapp/stop-link.server";
import { env } from "~/utils/env.server";
import { readFields, readQuery } from "~/utils/request.server";

export function meta() {
  return [{ title: "WhatsApp updates | Scentara" }, { name: "robots", content: "noindex" }];
}

// the token is in the address: no caches, and not in other sites' Referer (same-origin keeps the form's own Origin)
export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = readQuery(request).get("token") ?? "";
  const state = await inspectStopLink(getDb(), token);
  const answer = { token, shopName: env().SHOP_NAME, state };
  return state.kind === "refused" ? data(answer, { status: 400 }) : answer;
}

export async function action({ request }: Route.ActionArgs) {
  const fields = await readFields(request);
  const token = fields.token ?? readQuery(request).get("token") ?? "";
  const outcome = await stopWithLink(getDb(), token);
  return outcome.kind === "refused" ? data({ outcome }, { status: 400 }) : { outcome };
}

export default function WhatsappStop({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const state = actionData?.outcome ?? loaderData.state;
  if (state.kind !== "ready") {
    const title = state.kind === "refused" ? (state.reason === "expired" ? "Link Expired" : "Link Not Valid") : state.kind === "done" && state.changed ? "WhatsApp Updates Off" : "Nothing to Stop";
    return (
      <AuthShell eyebrow="WhatsApp updates" title={title}>
        <div className="space-y-6">
          <Notice tone={state.kind === "refused" ? "error" : "success"}>{state.message}</Notice>
          <ButtonLink to="/profile/preferences" variant="secondary" size="lg" className="w-full">
            Your Preferences
          </ButtonLink>
        </div>
      </AuthShell>
    );
  }
  return (
    <AuthShell
      eyebrow="WhatsApp updates"
      title="Stop WhatsApp Updates"
      intro={
        <>
          {/* the words the consent log records for this button (templates.ts WHATSAPP_OPT_OUT_WORDING.link) */}
          <p>
            Stop order updates on WhatsApp{state.phone ? ` to ${state.phone}` : ""} from {loaderData.shopName}?
          </p>
        </>
      }
    >
      <Form method="post" className="space-y-5">
        <input type="hidden" name="token" value={loaderData.token} />
        {!state.active ? <Notice tone="info">WhatsApp updates are off at the moment: we send you no WhatsApp messages.</Notice> : null}
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Stopping…" : "Stop WhatsApp updates"}
        </Button>
        <p className="text-center text-xs leading-relaxed text-muted">Your order e-mails still reach you.</p>
      </Form>
    </AuthShell>
  );
}
