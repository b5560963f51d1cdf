/**
 * /auth/confirm: "confirm it's you" before a sensitive action (step-up, docs/decisions/059): the password (a form,
 * works without JavaScript) or a passkey. Stamps the session (sessions.confirmed_at) and returns to the page.
 */
import { Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/auth.confirm";
import { AuthShell, PasswordField } from "~/components/accounts/auth-form";
import { PasskeyButton } from "~/components/accounts/passkey-button";
import { Divider } from "~/components/accounts/two-step-forms";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { listPasskeys } from "~/modules/accounts/passkeys.server";
import { safeRedirect } from "~/modules/accounts/redirect";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { requireUser, requireUserAction } from "~/modules/accounts/session.server";
import { confirmWithPassword } from "~/modules/accounts/step-up.server";
import { TWO_STEP_MESSAGES } from "~/modules/accounts/two-step.schema";
import { formError, handleDomainErrors } from "~/utils/errors";
import { readFields, readQuery } from "~/utils/request.server";

export function meta() {
  return [{ title: "Confirm It's You | Scentara" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const redirectTo = safeRedirect(readQuery(request).get("redirect"), "/profile");
  return { redirectTo, email: user.email, hasPasskey: (await listPasskeys(getDb(), user.id)).length > 0 };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const fields = await readFields(request);
  const password = fields.password ?? "";
  if (!password || password.length > 128) return formError(TWO_STEP_MESSAGES.confirmFailed, 400, { password: "Enter your password" });
  return handleDomainErrors(async () => {
    await confirmWithPassword(getDb(), user, password, requestMeta(request, context));
    return redirect(safeRedirect(fields.redirect, "/profile"), { headers: { "Cache-Control": "no-store" } });
  });
}

export default function Confirm({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const error = actionData && !actionData.ok ? (actionData.fieldErrors?.password ?? actionData.error) : undefined;
  return (
    <AuthShell
      eyebrow="Security check"
      title="Confirm It's You"
      intro={
        <>
          This is a sensitive change. Enter the password of <span className="font-medium text-ink">{loaderData.email}</span>
          {loaderData.hasPasskey ? " or use your passkey" : ""} to continue. We won&rsquo;t ask again for 10 minutes.
        </>
      }
    >
      <div className="space-y-6">
        {loaderData.hasPasskey ? (
          <>
            <PasskeyButton purpose="confirm" redirectTo={loaderData.redirectTo} label="Confirm with passkey" variant="primary" />
            <Divider />
          </>
        ) : null}
        <Form method="post" replace noValidate className="space-y-5">
          {actionData && !actionData.ok && !actionData.fieldErrors?.password ? <Notice tone="error">{actionData.error}</Notice> : null}
          <input type="hidden" name="redirect" value={loaderData.redirectTo} />
          <PasswordField label="Password" name="password" autoComplete="current-password" error={error} autoFocus={!loaderData.hasPasskey} />
          <Button type="submit" size="lg" variant={loaderData.hasPasskey ? "secondary" : "primary"} className="w-full" disabled={busy}>
            {busy ? "Checking…" : "Confirm"}
          </Button>
        </Form>
      </div>
    </AuthShell>
  );
}
