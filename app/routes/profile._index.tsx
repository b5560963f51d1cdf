/** /profile: the account tab (e-mail, password change) and "Your data" (download, delete). */
import { useEffect, useRef } from "react";
import { Form, Link, redirect, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/profile._index";
import type { loader as profileLoader } from "./profile";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { useTransient } from "~/components/ui/use-transient";
import { PasswordField } from "~/components/accounts/auth-form";
import { getDb } from "~/db/db.server";
import { changePasswordSchema, MESSAGES, MIN_PASSWORD_LENGTH } from "~/modules/accounts/accounts.schema";
import { changePassword } from "~/modules/accounts/accounts.server";
import { cookieHeaders, requestMeta } from "~/modules/accounts/route-helpers.server";
import { requireUser, requireUserAction } from "~/modules/accounts/session.server";
import { PRIVACY_MESSAGES } from "~/modules/privacy/privacy.schema";
import { fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { readFields, readQuery } from "~/utils/request.server";
import { giftCardsForEmail } from "~/modules/gift-cards/gift-cards.server";
import { giftCardState } from "~/modules/gift-cards/gift-card-state.logic";
import { giftCardLabel } from "~/modules/gift-cards/gift-card-code.logic";
import { formatDateZA } from "~/utils/dates";
import { formatRand } from "~/utils/money";

/** Where a successful password change lands (the page then says so). */
export const PASSWORD_UPDATED_PATH = "/profile?updated=password";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const query = readQuery(request);
  const now = new Date();
  return {
    // Gift cards issued to this e-mail address (docs/decisions/053): what each holds, while usable or recently spent.
    giftCards: (await giftCardsForEmail(getDb(), user.email)).map((c) => ({
      id: c.id,
      last4: c.last4,
      balance: formatRand(c.balanceCents),
      expires: formatDateZA(c.expiresAt),
      state: giftCardState(c, now),
    })),
    notice: query.get("updated") === "password" ? MESSAGES.passwordUpdated : null,
    // "Download my data" refused for the hour (app/routes/profile.my-data.ts sends the browser back here).
    dataNotice: query.get("data") === "busy" ? PRIVACY_MESSAGES.tooManyDownloads : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const fields = await readFields(request);
  if (fields.intent !== "password") return formError("Unknown action", 400);
  const parsed = changePasswordSchema.safeParse(fields);
  if (!parsed.success) return formError(MESSAGES.passwordUpdateFailed, 400, fieldErrorsOf(parsed.error.issues));
  return handleDomainErrors(async () => {
    const { setCookies } = await changePassword(getDb(), user.id, parsed.data, requestMeta(request, context));
    // Post/Redirect/Get: the old session ended with the change, so the page must be loaded again with the new
    // cookie (without JavaScript the same request would otherwise render with the revoked one: signed out).
    return redirect(PASSWORD_UPDATED_PATH, { status: 303, headers: cookieHeaders(setCookies) });
  });
}

export default function ProfileAccount({ loaderData, actionData }: Route.ComponentProps) {
  const email = useRouteLoaderData<typeof profileLoader>("routes/profile")?.email ?? "";
  return (
    <>
      <AccountTab email={email} notice={loaderData.notice} actionData={actionData} />
      {loaderData.giftCards.length > 0 ? <GiftCards cards={loaderData.giftCards} /> : null}
      <YourData notice={loaderData.dataNotice} />
    </>
  );
}

type ActionData = Route.ComponentProps["actionData"];

function AccountTab({ email, notice, actionData }: { email: string; notice: string | null; actionData: ActionData }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "password";
  const failed = actionData && !actionData.ok ? actionData : null;
  const errors = failed ? failed.fieldErrors : {};
  const formRef = useRef<HTMLFormElement>(null);
  // A changed password doesn't stay in the fields: a second change lands on the same URL (same notice), so the
  // navigation's key, not the notice, says a change just happened.
  const { key } = useLocation();
  useEffect(() => {
    if (notice) formRef.current?.reset();
  }, [notice, key]);
  const noticeShown = useTransient(notice ? key : null);
  return (
    <div className="space-y-12">
      <div>
        <h2 id="profile-section-title" className="text-2xl text-ink">Account</h2>
        <div className="mt-5 max-w-md space-y-1.5">
          <label htmlFor="profile-email" className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
            Email
          </label>
          <input
            id="profile-email"
            type="email"
            value={email}
            readOnly
            className="block w-full rounded-none border border-line bg-sand px-3 py-2.5 text-base text-ink-soft"
          />
        </div>
      </div>

      <div className="border-t border-line pt-10">
        <h3 className="text-xl text-ink">Change Password</h3>
        <Form method="post" ref={formRef} className="mt-5 max-w-md space-y-5" noValidate>
          {notice && noticeShown && !failed ? <Notice tone="success">{notice}</Notice> : null}
          {failed ? <Notice tone="error">{failed.error}</Notice> : null}
          <input type="hidden" name="intent" value="password" />
          <PasswordField label="Current password" name="currentPassword" autoComplete="current-password" error={errors.currentPassword} />
          <PasswordField
            label="New password"
            name="newPassword"
            autoComplete="new-password"
            minLength={MIN_PASSWORD_LENGTH}
            error={errors.newPassword}
            hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          />
          <Button type="submit" disabled={busy}>
            {busy ? "Updating…" : "Update Password"}
          </Button>
        </Form>
      </div>
    </div>
  );
}

/**
 * "Your data" (POPIA s23, s24; docs/decisions/040): download everything the shop holds about you, or delete the
 * account. The download is a plain form (no JavaScript needed): the browser saves the file and stays here.
 */
function GiftCards({ cards }: { cards: Route.ComponentProps["loaderData"]["giftCards"] }) {
  return (
    <section aria-labelledby="gift-cards-heading" className="mt-12 border-t border-line pt-10">
      <h3 id="gift-cards-heading" className="text-xl text-ink">
        Your gift cards
      </h3>
      <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">Gift cards issued to your e-mail address. Enter the code at checkout to pay with one.</p>
      <ul className="mt-5 max-w-xl divide-y divide-line border-y border-line text-sm" data-testid="profile-gift-cards">
        {cards.map((c) => (
          <li key={c.id} className="flex items-baseline justify-between gap-4 py-3">
            <span className="min-w-0">
              <span className="text-ink">{giftCardLabel(c.last4)}</span>
              <span className="block text-xs text-muted">
                {c.state === "Active" ? `Valid until ${c.expires}` : c.state}
              </span>
            </span>
            <span className="shrink-0 font-display text-xl tabular-nums text-ink">{c.balance}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function YourData({ notice }: { notice: string | null }) {
  return (
    <div id="your-data" className="mt-12 scroll-mt-28 space-y-12 border-t border-line pt-10">
      <div>
        <h3 className="text-xl text-ink">Download my data</h3>
        <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">
          One file (ZIP) with everything we hold about you: your account and preferences, your consent history, your addresses, your orders with their
          invoices, your reviews, the messages you sent us and the e-mails we sent you. Inside is a page you can read and the same data as JSON.
        </p>
        {notice ? (
          <div className="mt-4 max-w-xl">
            <Notice tone="error">{notice}</Notice>
          </div>
        ) : null}
        <form method="post" action="/profile/my-data" className="mt-5">
          <Button type="submit" variant="secondary">
            Download my data
          </Button>
        </form>
      </div>
      <div>
        <h3 className="text-xl text-ink">Delete my account</h3>
        <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">
          Erase your account and the personal information we hold about you. Paid orders and their invoices stay on record for the tax law, no longer
          linked to you. You confirm with your password on the next page.
        </p>
        <Link
          to="/profile/delete-account"
          className="mt-5 inline-flex h-11 items-center justify-center border border-danger/60 px-5 text-sm font-medium uppercase tracking-[0.14em] text-danger transition-colors hover:bg-danger hover:text-white"
        >
          Delete my account
        </Link>
      </div>
    </div>
  );
}
