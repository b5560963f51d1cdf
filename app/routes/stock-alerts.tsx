/**
 * /stock-alerts — the notify-me form's post without JavaScript (docs/decisions/057): the same request as
 * /api/stock-alerts, answered with a page. Nothing to show for a GET: back to the shop.
 */
import { Link, redirect } from "react-router";
import type { Route } from "./+types/stock-alerts";
import { AuthShell } from "~/components/accounts/auth-form";
import { ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { assertSameOrigin, getSessionUser } from "~/modules/accounts/session.server";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { requestStockAlertFromForm } from "~/modules/stock-alerts/stock-alerts.server";
import { handleDomainErrors } from "~/utils/errors";
import { readFields } from "~/utils/request.server";

export function meta() {
  return [{ title: "Notify Me | Scentara" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export function loader() {
  return redirect("/shop");
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const fields = await readFields(request);
  const user = await getSessionUser(request);
  return handleDomainErrors(async () => ({ ok: true as const, ...(await requestStockAlertFromForm(getDb(), fields, user, requestMeta(request, context).ip)) }));
}

export default function StockAlertRequested({ actionData }: Route.ComponentProps) {
  const ok = actionData?.ok === true;
  return (
    <AuthShell eyebrow="Back in stock" title={ok ? "Notify Me" : "Not Saved"}>
      <div className="space-y-6">
        <Notice tone={ok ? "success" : "error"}>{actionData ? ("message" in actionData ? actionData.message : actionData.error) : ""}</Notice>
        <ButtonLink to="/shop" variant="secondary" size="lg" className="w-full">
          Continue Shopping
        </ButtonLink>
        <p className="text-center text-sm text-ink-soft">
          How we keep your address: <Link to="/privacy#what-and-why" className="text-ink underline decoration-gold underline-offset-4 hover:text-gold">privacy notice</Link>.
        </p>
      </div>
    </AuthShell>
  );
}
