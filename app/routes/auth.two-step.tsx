/**
 * /auth/two-step: the second step of a password sign-in (docs/decisions/059). An account with an authenticator app
 * enters its 6-digit code or a backup code (a form: works without JavaScript); an account whose second factor is a
 * passkey uses it here (the passkey signs in by itself).
 */
import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/auth.two-step";
import { AuthShell } from "~/components/accounts/auth-form";
import { PasskeyButton } from "~/components/accounts/passkey-button";
import { SecondStepForm } from "~/components/accounts/two-step-forms";
import { getDb } from "~/db/db.server";
import { safeRedirect } from "~/modules/accounts/redirect";
import { cookieHeaders, requestMeta } from "~/modules/accounts/route-helpers.server";
import { assertSameOrigin } from "~/modules/accounts/session.server";
import { pendingSignInUser, verifySecondStep } from "~/modules/accounts/two-factor.server";
import { secondStepSchema, TWO_STEP_MESSAGES } from "~/modules/accounts/two-step.schema";
import { mergeWishlistAtSignIn } from "~/modules/wishlist/wishlist.server";
import { fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { readFields, readQuery } from "~/utils/request.server";

export function meta() {
  return [{ title: "Two-Step Sign-In | Scentara" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const query = readQuery(request);
  const redirectTo = safeRedirect(query.get("redirect"), "");
  if (query.get("with") === "passkey") return { mode: "passkey" as const, redirectTo };
  if (!(await pendingSignInUser(request.headers.get("cookie")))) {
    throw redirect(`/auth/login?expired=1${redirectTo ? `&redirect=${encodeURIComponent(redirectTo)}` : ""}`);
  }
  return { mode: "code" as const, redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const fields = await readFields(request);
  const parsed = secondStepSchema.safeParse(fields);
  if (!parsed.success) return formError(TWO_STEP_MESSAGES.codeRequired, 400, fieldErrorsOf(parsed.error.issues));
  return handleDomainErrors(async () => {
    const { userId, setCookies } = await verifySecondStep(getDb(), parsed.data.code, requestMeta(request, context));
    await mergeWishlistAtSignIn(getDb(), userId, fields.wishlist ?? "");
    return redirect(safeRedirect(parsed.data.redirect), { headers: cookieHeaders(setCookies) });
  });
}

export default function TwoStep({ loaderData, actionData }: Route.ComponentProps) {
  const restart = `/auth/login${loaderData.redirectTo ? `?redirect=${encodeURIComponent(loaderData.redirectTo)}` : ""}`;
  const footer = (
    <Link to={restart} className="font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
      Start again
    </Link>
  );
  if (loaderData.mode === "passkey") {
    return (
      <AuthShell eyebrow="Two-step sign-in" title="Use Your Passkey" intro="Your account is protected with a passkey. Use it to finish signing in." footer={footer}>
        <div className="space-y-5">
          <PasskeyButton purpose="sign-in" redirectTo={loaderData.redirectTo || "/"} label="Continue with passkey" variant="primary" />
          <noscript>
            <p className="text-sm text-ink-soft">Passkeys need JavaScript. Turn it on in your browser, then try again.</p>
          </noscript>
        </div>
      </AuthShell>
    );
  }
  return (
    <AuthShell
      eyebrow="Two-step sign-in"
      title="Enter Your Code"
      intro="Open your authenticator app and enter the 6-digit code it shows for Scentara."
      footer={footer}
    >
      <Form method="post" replace noValidate>
        <SecondStepForm redirectTo={loaderData.redirectTo} actionData={actionData} />
      </Form>
    </AuthShell>
  );
}
