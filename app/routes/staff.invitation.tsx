import { Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/staff.invitation";
import { AuthShell, PasswordField } from "~/components/accounts/auth-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { MIN_PASSWORD_LENGTH } from "~/modules/accounts/accounts.schema";
import { signOut } from "~/modules/accounts/accounts.server";
import { PERMISSIONS } from "~/modules/accounts/permissions";
import { loginPath } from "~/modules/accounts/redirect";
import { cookieHeaders, requestMeta } from "~/modules/accounts/route-helpers.server";
import { forgetUserSessions } from "~/modules/accounts/session-cache.server";
import { assertSameOrigin, getSessionUser } from "~/modules/accounts/session.server";
import { acceptAsSignedIn, acceptWithNewAccount, readInvitation } from "~/modules/staff/invitations.server";
import { INVITATION_PATH } from "~/modules/staff/staff.logic";
import { acceptInvitationIntent, INVITATION_MESSAGES } from "~/modules/staff/staff.schema";
import { DomainError, fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { readFields, readQuery } from "~/utils/request.server";
import { formatDateTimeZA } from "~/utils/dates";

export function meta() {
  return [{ title: "Join the Team | Scentara" }, { name: "robots", content: "noindex" }];
}

// The token is in the address: keep the page out of caches, and its address out of other sites' Referer (as the
// password reset page does; "same-origin" keeps the page's own form posting with its Origin).
export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = readQuery(request).get("token") ?? "";
  const [view, user] = await Promise.all([readInvitation(getDb(), token), getSessionUser(request)]);
  const signedIn = user ? { email: user.email, isStaff: user.isAdmin } : null;
  if (view.state !== "pending") return { token, state: view.state, signedIn, invitation: null };
  const { email, role, expiresAt, accountExists } = view;
  return { token, state: view.state, signedIn, invitation: { email, role: { name: role.name, allows: role.permissions.map((p) => PERMISSIONS[p]) }, expires: formatDateTimeZA(expiresAt), accountExists } };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const parsed = acceptInvitationIntent.safeParse(await readFields(request));
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error.issues);
    return formError(parsed.error.issues[0]?.message ?? INVITATION_MESSAGES.invalid, 400, fieldErrors);
  }
  const input = parsed.data;
  const back = `${INVITATION_PATH}?token=${encodeURIComponent(input.token)}`;
  const user = await getSessionUser(request);
  return handleDomainErrors(async () => {
    if (input.intent === "switch") {
      const { setCookies } = await signOut(requestMeta(request, context));
      if (user) forgetUserSessions(user.id);
      return redirect(back, { headers: cookieHeaders(setCookies) });
    }
    if (input.intent === "join") {
      if (!user) return redirect(loginPath(back));
      await acceptAsSignedIn(getDb(), input.token, user);
      return redirect("/admin");
    }
    // a new account: never while signed in as somebody (their session would silently change hands)
    const view = await readInvitation(getDb(), input.token);
    if (user && view.state === "pending") throw new DomainError(INVITATION_MESSAGES.otherAccount(view.email, user.email), 403);
    const joined = await acceptWithNewAccount(getDb(), input, requestMeta(request, context));
    return redirect("/admin", { headers: cookieHeaders(joined.setCookies) });
  });
}

const REFUSALS = { invalid: INVITATION_MESSAGES.invalid, accepted: INVITATION_MESSAGES.used, revoked: INVITATION_MESSAGES.revoked, expired: INVITATION_MESSAGES.expired } as const;

export default function StaffInvitation({ loaderData: d, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const error = actionData && !actionData.ok ? actionData : null;
  const here = `${INVITATION_PATH}?token=${encodeURIComponent(d.token)}`;
  const inv = d.invitation;
  if (!inv) {
    return (
      <AuthShell eyebrow="Join the team" title="Invitation Unavailable">
        <div className="space-y-6">
          <Notice tone="error">{REFUSALS[d.state as keyof typeof REFUSALS] ?? INVITATION_MESSAGES.invalid}</Notice>
          <ButtonLink to={d.signedIn ? "/" : "/auth/login"} size="lg" className="w-full">
            {d.signedIn ? "Back to the Shop" : "Sign In"}
          </ButtonLink>
        </div>
      </AuthShell>
    );
  }
  const mine = d.signedIn?.email === inv.email;
  return (
    <AuthShell
      eyebrow="Join the team"
      title={`Join as ${inv.role.name}`}
      intro={
        <>
          You're invited to help run Scentara with <span className="break-all font-medium text-ink">{inv.email}</span>. The link works once, until {inv.expires}.
        </>
      }
    >
      <div className="space-y-6">
        {error ? <Notice tone="error">{error.error}</Notice> : null}
        <div className="border-y border-line py-4">
          <p className="text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">As {inv.role.name} you may</p>
          <ul className="mt-3 space-y-1.5 text-sm text-ink-soft">
            {inv.role.allows.map((a) => (
              <li key={a} className="flex gap-2">
                <span aria-hidden="true" className="text-gold">
                  ✓
                </span>
                <span className="min-w-0">{a}</span>
              </li>
            ))}
          </ul>
        </div>
        {d.signedIn && !mine ? (
          <Form method="post" className="space-y-4">
            <Notice tone="info">{INVITATION_MESSAGES.otherAccount(inv.email, d.signedIn.email)}</Notice>
            <input type="hidden" name="token" value={d.token} />
            <Button type="submit" name="intent" value="switch" size="lg" variant="secondary" className="w-full" disabled={busy}>
              Sign Out
            </Button>
          </Form>
        ) : d.signedIn && mine ? (
          d.signedIn.isStaff ? (
            <>
              <Notice tone="info">{INVITATION_MESSAGES.alreadyStaff}</Notice>
              <ButtonLink to="/admin" size="lg" className="w-full">
                Open the Admin
              </ButtonLink>
            </>
          ) : (
            <Form method="post">
              <input type="hidden" name="token" value={d.token} />
              <Button type="submit" name="intent" value="join" size="lg" className="w-full" disabled={busy}>
                {busy ? "Joining…" : "Accept and Join"}
              </Button>
            </Form>
          )
        ) : inv.accountExists ? (
          <>
            <p className="text-sm text-ink-soft">{INVITATION_MESSAGES.accountExists}</p>
            <ButtonLink to={loginPath(here)} size="lg" className="w-full">
              Sign In to Accept
            </ButtonLink>
          </>
        ) : (
          <Form method="post" className="space-y-5" noValidate>
            <input type="hidden" name="token" value={d.token} />
            <input type="hidden" name="intent" value="create" />
            {/* the address is the invitation's; a password manager saves it with the new password */}
            <input type="email" name="username" value={inv.email} readOnly autoComplete="username" hidden />
            <PasswordField
              label="Choose a password"
              name="password"
              autoComplete="new-password"
              minLength={MIN_PASSWORD_LENGTH}
              error={error?.fieldErrors?.password}
              hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
            />
            <Button type="submit" size="lg" className="w-full" disabled={busy}>
              {busy ? "Joining…" : "Set Password and Join"}
            </Button>
          </Form>
        )}
      </div>
    </AuthShell>
  );
}
