import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/auth.register";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { MESSAGES, MIN_PASSWORD_LENGTH, registerSchema } from "~/modules/accounts/accounts.schema";
import { registerAccount } from "~/modules/accounts/accounts.server";
import { AuthShell, EmailField, PasswordField, useAuthForm } from "~/components/accounts/auth-form";
import { safeRedirect } from "~/modules/accounts/redirect";
import { rememberRegisteredEmail } from "~/modules/accounts/registered-email.server";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { assertSameOrigin } from "~/modules/accounts/session.server";
import { fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { readFields, readQuery } from "~/utils/request.server";
import { MARKETING_CONSENT, REGISTRATION_NOTICE } from "~/modules/consent/consent.logic";
import { useRootData } from "~/modules/settings/root-data";

export function meta() {
  return [{ title: "Create an Account | Scentara" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  return { redirectTo: safeRedirect(readQuery(request).get("redirect"), "") };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const fields = await readFields(request);
  const parsed = registerSchema.safeParse(fields);
  if (!parsed.success) return formError(MESSAGES.registerFailed, 400, fieldErrorsOf(parsed.error.issues));
  return handleDomainErrors(async () => {
    await registerAccount(getDb(), parsed.data, requestMeta(request, context));
    // Same answer whether the e-mail was new or not: on to sign in, with the e-mail filled in for this browser only
    // (a short-lived cookie, not the URL: docs/decisions/025) and the way back to where the shopper was going.
    const back = safeRedirect(fields.redirect, "");
    const headers = new Headers({ "Cache-Control": "no-store" });
    const remembered = rememberRegisteredEmail(parsed.data.email);
    if (remembered) headers.append("Set-Cookie", remembered);
    return redirect(`/auth/login?registered=1${back ? `&redirect=${encodeURIComponent(back)}` : ""}`, { headers });
  });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { busy, errors, query } = useAuthForm(loaderData.redirectTo, actionData);
  const { shop } = useRootData();
  return (
    <AuthShell
      eyebrow="Join Scentara"
      title="Create an Account"
      intro="An account lets you check out, follow your orders and review the scents you bought."
      footer={
        <>
          Already have an account?{" "}
          <Link to={`/auth/login${query}`} className="font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            Sign in
          </Link>
        </>
      }
    >
      <Form method="post" replace className="space-y-5" noValidate>
        {actionData && !actionData.ok ? <Notice tone="error">{actionData.error}</Notice> : null}
        <input type="hidden" name="redirect" value={loaderData.redirectTo} />
        <EmailField error={errors.email} autoFocus />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          minLength={MIN_PASSWORD_LENGTH}
          error={errors.password}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters. A phrase of a few words is easy to remember and hard to guess.`}
        />
        {/* Marketing is a choice of its own, never ticked in advance and apart from the terms (POPIA s69; decision 039). */}
        <div className="flex items-start gap-3">
          <input id="register-marketing" type="checkbox" name="marketing" defaultChecked={false} aria-describedby="register-marketing-desc" className="mt-0.5 h-4 w-4 shrink-0 accent-ink" />
          <div>
            <label htmlFor="register-marketing" className="text-sm font-medium text-ink">
              {MARKETING_CONSENT.label}
            </label>
            <p id="register-marketing-desc" className="mt-0.5 text-xs leading-relaxed text-ink-soft">
              {MARKETING_CONSENT.description(shop.name)}
            </p>
          </div>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Creating account…" : "Create Account"}
        </Button>
        {/* The words the consent log records for the terms and the privacy notice (consent.logic REGISTRATION_NOTICE). */}
        <p className="text-xs leading-relaxed text-muted">
          {REGISTRATION_NOTICE.map((part) =>
            typeof part === "string" ? (
              part
            ) : (
              <Link key={part.to} to={part.to} className="text-ink underline decoration-gold underline-offset-4 hover:text-gold">
                {part.text}
              </Link>
            ),
          )}
        </p>
      </Form>
    </AuthShell>
  );
}
