import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/auth.forgot-password";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { forgotPasswordSchema, MESSAGES } from "~/modules/accounts/accounts.schema";
import { requestPasswordReset } from "~/modules/accounts/accounts.server";
import { AuthShell, EmailField } from "~/components/accounts/auth-form";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { assertSameOrigin } from "~/modules/accounts/session.server";
import { fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { readFields } from "~/utils/request.server";

export function meta() {
  return [{ title: "Forgot Password | Scentara" }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const parsed = forgotPasswordSchema.safeParse(await readFields(request));
  if (!parsed.success) return formError(MESSAGES.resetFailed, 400, fieldErrorsOf(parsed.error.issues));
  return handleDomainErrors(async () => {
    await requestPasswordReset(getDb(), parsed.data, requestMeta(request, context));
    return { ok: true as const, message: MESSAGES.resetSent };
  });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = actionData && !actionData.ok ? actionData.fieldErrors : {};
  return (
    <AuthShell
      eyebrow="Account help"
      title="Forgot Password"
      intro="Enter the e-mail address of your account and we'll send you a link to set a new password."
      footer={
        <Link to="/auth/login" className="font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
          Back to sign in
        </Link>
      }
    >
      <Form method="post" className="space-y-5" noValidate>
        {actionData?.ok ? <Notice tone="success">{actionData.message}</Notice> : null}
        {actionData && !actionData.ok ? <Notice tone="error">{actionData.error}</Notice> : null}
        <EmailField error={errors.email} autoFocus />
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Sending…" : "Send Reset Link"}
        </Button>
      </Form>
    </AuthShell>
  );
}
