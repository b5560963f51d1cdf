/**
 * /stock-alerts/confirm?token=… — the confirmation link of a visitor's notify-me request (double opt-in,
 * docs/decisions/057). Works signed out: the signed token names the request. GET shows what it would confirm and one
 * button (mail scanners open links by themselves: opening changes nothing); the button's POST confirms, records the
 * consent, and only then may the back-in-stock e-mail go. A forged or expired link answers 400 and changes nothing.
 */
import { Form, Link, data, useNavigation } from "react-router";
import type { Route } from "./+types/stock-alerts.confirm";
import { AuthShell } from "~/components/accounts/auth-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { confirmStockAlert } from "~/modules/stock-alerts/stock-alerts.server";
import { readFields, readQuery } from "~/utils/request.server";

export function meta() {
  return [{ title: "Confirm | Scentara" }, { name: "robots", content: "noindex" }];
}

// The token is in the address: out of caches and out of other sites' Referer (see unsubscribe.tsx).
export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = readQuery(request).get("token") ?? "";
  const state = await confirmStockAlert(getDb(), token, { confirm: false });
  return state.kind === "refused" ? data({ token, state }, { status: 400 }) : { token, state };
}

export async function action({ request }: Route.ActionArgs) {
  const fields = await readFields(request);
  const token = fields.token ?? readQuery(request).get("token") ?? "";
  const state = await confirmStockAlert(getDb(), token, { confirm: true });
  return state.kind === "refused" ? data({ state }, { status: 400 }) : { state };
}

export default function ConfirmStockAlert({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const state = actionData?.state ?? loaderData.state;
  if (state.kind === "ready") {
    return (
      <AuthShell eyebrow="Back in stock" title="Confirm" intro={<p>{state.message}</p>}>
        <Form method="post" className="space-y-5">
          <input type="hidden" name="token" value={loaderData.token} />
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            {busy ? "Confirming…" : "Confirm"}
          </Button>
          <p className="text-center text-xs leading-relaxed text-muted">
            One e-mail, then we delete your address (<Link to="/privacy#what-and-why" className="underline">privacy notice</Link>).
          </p>
        </Form>
      </AuthShell>
    );
  }
  const refused = state.kind === "refused";
  return (
    <AuthShell eyebrow="Back in stock" title={refused ? "Link Not Valid" : state.kind === "gone" ? "Nothing Waiting" : "Confirmed"}>
      <div className="space-y-6">
        <Notice tone={refused ? "error" : "success"}>{state.message}</Notice>
        {"productUrl" in state ? (
          <ButtonLink to={state.productUrl} variant="secondary" size="lg" className="w-full">
            Back to {state.what}
          </ButtonLink>
        ) : (
          <ButtonLink to="/shop" variant="secondary" size="lg" className="w-full">
            Continue Shopping
          </ButtonLink>
        )}
      </div>
    </AuthShell>
  );
}
