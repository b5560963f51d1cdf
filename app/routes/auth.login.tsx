import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/auth.login";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { loginSchema, MESSAGES } from "~/modules/accounts/accounts.schema";
import { signInWithPassword } from "~/modules/accounts/accounts.server";
import { AuthShell, EmailField, PasswordField, useAuthForm } from "~/components/accounts/auth-form";
import { PasskeyButton } from "~/components/accounts/passkey-button";
import { Divider } from "~/components/accounts/two-step-forms";
import { TWO_STEP_MESSAGES } from "~/modules/accounts/two-step.schema";
import { safeRedirect } from "~/modules/accounts/redirect";
import { forgetRegisteredEmail, readRegisteredEmail } from "~/modules/accounts/registered-email.server";
import { cookieHeaders, requestMeta } from "~/modules/accounts/route-helpers.server";
import { assertSameOrigin } from "~/modules/accounts/session.server";
import { fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { readFields, readQuery } from "~/utils/request.server";
import { WishlistSignInField } from "~/components/wishlist-sign-in-field";
import { mergeWishlistAtSignIn } from "~/modules/wishlist/wishlist.server";

export function meta() {
  return [{ title: "Sign In | Scentara" }, { name: "robots", content: "noindex" }];
}

/** The page may carry the e-mail just registered in this browser: never kept by a shared cache. */
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const query = readQuery(request);
  const redirectTo = safeRedirect(query.get("redirect"), "");
  const notice = query.has("registered") ? MESSAGES.registered : query.has("reset") ? MESSAGES.passwordReset : null;
  const warning = query.has("expired") ? TWO_STEP_MESSAGES.challengeExpired : null;
  // The e-mail this browser just registered with (a short-lived cookie of its own: docs/decisions/025).
  const email = readRegisteredEmail(request) ?? "";
  return { redirectTo, notice, warning, email };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const fields = await readFields(request);
  const parsed = loginSchema.safeParse(fields);
  if (!parsed.success) return formError(MESSAGES.loginFailed, 400, fieldErrorsOf(parsed.error.issues));
  const { email, password } = parsed.data;
  return handleDomainErrors(async () => {
    const result = await signInWithPassword(getDb(), { email, password }, requestMeta(request, context));
    // An authenticator app or a passkey protects the account: its second step (docs/decisions/059).
    if (result.step !== "done") {
      const query = new URLSearchParams(result.step === "passkey" ? { with: "passkey" } : {});
      const target = safeRedirect(parsed.data.redirect, "");
      if (target) query.set("redirect", target);
      const search = query.toString();
      return redirect(`/auth/two-step${search ? `?${search}` : ""}`, { headers: cookieHeaders(result.setCookies) });
    }
    const { userId, setCookies } = result;
    // what this browser kept while signed out joins the account (issue 34)
    await mergeWishlistAtSignIn(getDb(), userId, fields.wishlist ?? "");
    const headers = cookieHeaders(setCookies);
    if (readRegisteredEmail(request)) headers.append("Set-Cookie", forgetRegisteredEmail());
    return redirect(safeRedirect(parsed.data.redirect), { headers });
  });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { busy, errors, query } = useAuthForm(loaderData.redirectTo, actionData);
  return (
    <AuthShell
      eyebrow="Welcome back"
      title="Sign In"
      intro="Sign in to check out, follow your orders and manage your profile."
      footer={
        <>
          Don&rsquo;t have an account?{" "}
          <Link to={`/auth/register${query}`} className="font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            Sign up
          </Link>
        </>
      }
    >
      <Form method="post" replace className="space-y-5" noValidate>
        {loaderData.notice && !actionData ? <Notice tone="success">{loaderData.notice}</Notice> : null}
        {actionData && !actionData.ok ? <Notice tone="error">{actionData.error}</Notice> : null}
        {loaderData.warning && !actionData ? <Notice tone="error">{loaderData.warning}</Notice> : null}
        <input type="hidden" name="redirect" value={loaderData.redirectTo} />
        <WishlistSignInField />
        {/* With the e-mail filled in, the password is what's left to type. */}
        <EmailField error={errors.email} defaultValue={loaderData.email} autoFocus={!loaderData.email} />
        <PasswordField label="Password" name="password" autoComplete="current-password" error={errors.password} autoFocus={!!loaderData.email} />
        <div className="flex justify-end">
          <Link to="/auth/forgot-password" className="text-sm text-ink-soft underline decoration-line underline-offset-4 hover:text-gold">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Signing in…" : "Sign In"}
        </Button>
      </Form>
      {/* A passkey signs in alone (needs JavaScript: hidden without it). */}
      <PasskeySignIn redirectTo={loaderData.redirectTo} />
    </AuthShell>
  );
}

function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  return (
    <div className="mt-6 space-y-6 empty:hidden [&:not(:has(button))]:hidden">
      <Divider />
      <PasskeyButton purpose="sign-in" redirectTo={redirectTo || "/"} label="Sign in with a passkey" />
    </div>
  );
}
