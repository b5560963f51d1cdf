import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/auth.reset-password";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { MESSAGES, MIN_PASSWORD_LENGTH, resetPasswordSchema } from "~/modules/accounts/accounts.schema";
import { isResetTokenUsable, resetPasswordWithToken } from "~/modules/accounts/accounts.server";
import { AuthShell, PasswordField } from "~/components/accounts/auth-form";
import { assertSameOrigin } from "~/modules/accounts/session.server";
import { fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { readFields, readQuery } from "~/utils/request.server";

export function meta() {
  return [{ title: "Set a New Password | Scentara" }, { name: "robots", content: "noindex" }];
}

// The token is in the address: keep the page out of caches, and its address out of other sites' Referer. Not
// "no-referrer": a browser then posts the page's own form with "Origin: null", which React Router refuses as
// cross-site, so the form failed without JavaScript (tests/e2e/accounts.spec.ts).
export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = readQuery(request).get("token") ?? "";
  return { token, usable: await isResetTokenUsable(getDb(), token) };
}

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const fields = await readFields(request);
  const parsed = resetPasswordSchema.safeParse(fields);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error.issues);
    return formError(fieldErrors.token ?? MESSAGES.resetFailed, 400, fieldErrors);
  }
  return handleDomainErrors(async () => {
    await resetPasswordWithToken(parsed.data);
    return redirect("/auth/login?reset=1");
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = actionData && !actionData.ok ? actionData.fieldErrors : {};
  if (!loaderData.usable) {
    return (
      <AuthShell eyebrow="Account help" title="Link Expired">
        <div className="space-y-6">
          <Notice tone="error">{MESSAGES.resetLinkInvalid}</Notice>
          <ButtonLink to="/auth/forgot-password" size="lg" className="w-full">
            Request a New Link
          </ButtonLink>
        </div>
      </AuthShell>
    );
  }
  return (
    <AuthShell
      eyebrow="Account help"
      title="Set a New Password"
      intro="Choose a new password for your account. Other devices will be signed out."
      footer={
        <Link to="/auth/login" className="font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
          Back to sign in
        </Link>
      }
    >
      <Form method="post" className="space-y-5" noValidate>
        {actionData && !actionData.ok ? <Notice tone="error">{actionData.error}</Notice> : null}
        <input type="hidden" name="token" value={loaderData.token} />
        <PasswordField
          label="New password"
          name="password"
          autoComplete="new-password"
          minLength={MIN_PASSWORD_LENGTH}
          error={errors.password}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        />
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Saving…" : "Set New Password"}
        </Button>
      </Form>
    </AuthShell>
  );
}
