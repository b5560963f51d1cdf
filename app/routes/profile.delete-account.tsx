/**
 * /profile/delete-account — "Delete my account" (POPIA s24; docs/decisions/040). The page says what will be erased
 * and what is kept and why (the paid orders the tax law keeps, listed), and asks for the password. The action checks
 * the password again on the server, deletes through the one path an admin's deletion takes too (deleteAccount), ends
 * the browser's cookie with every session, and lands on this page's "deleted" state (?done=1, which names nobody).
 */
import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/profile.delete-account";
import { PasswordField } from "~/components/accounts/auth-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { signOut } from "~/modules/accounts/accounts.server";
import { cookieHeaders, requestMeta } from "~/modules/accounts/route-helpers.server";
import { getSessionUser, requireUser, requireUserAction } from "~/modules/accounts/session.server";
import { confirmPassword, deleteAccount, erasurePreview } from "~/modules/flows/account-deleted.server";
import { deleteAccountSchema, PRIVACY_MESSAGES } from "~/modules/privacy/privacy.schema";
import { formatDateZA } from "~/utils/dates";
import { formatRand } from "~/utils/money";
import { DomainError, fieldErrorsOf, formError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { readFields, readQuery } from "~/utils/request.server";

export const DELETED_PATH = "/profile/delete-account?done=1";

export function meta() {
  return [{ title: "Delete my account | Scentara" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  // After the deletion the browser is signed out: the confirmation is for whoever arrives, and says nothing personal.
  if (readQuery(request).get("done") === "1" && !(await getSessionUser(request))) return { state: "done" as const };
  const user = await requireUser(request);
  const preview = await erasurePreview(getDb(), user);
  return {
    state: "confirm" as const,
    email: user.email,
    keptOrders: preview.keptOrders.map((o) => ({ shortId: o.shortId, invoiceNumber: o.invoiceNumber, date: formatDateZA(o.placedAt) })),
    openOrders: preview.openOrders,
    onTheirWay: preview.onTheirWay,
    reviews: preview.reviews,
    invoiceYears: preview.invoiceYears,
    giftCards: preview.giftCards.map((c) => ({ last4: c.last4, balance: formatRand(c.balanceCents), until: formatDateZA(c.expiresAt) })),
    openSampleCredits: preview.openSampleCredits,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const parsed = deleteAccountSchema.safeParse(await readFields(request));
  if (!parsed.success) return formError(parsed.error.issues[0]?.message ?? PRIVACY_MESSAGES.passwordRequired, 400, fieldErrorsOf(parsed.error.issues));
  const db = getDb();
  try {
    await confirmPassword(db, user.id, parsed.data.password);
    await deleteAccount(db, user.id, { kind: "self" });
  } catch (error) {
    if (error instanceof DomainError) return error.toFormError();
    logger.error({ err: error }, "account deletion failed");
    return formError(PRIVACY_MESSAGES.deleteFailed, 500);
  }
  // The sessions went with the account; this clears the browser's cookie (better-auth's own sign-out answer).
  const { setCookies } = await signOut(requestMeta(request, context)).catch(() => ({ setCookies: [] as string[] }));
  return redirect(DELETED_PATH, { status: 303, headers: cookieHeaders(setCookies) });
}

export default function DeleteAccount({ loaderData: d, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (d.state === "done") return <Deleted />;
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const failed = actionData && !actionData.ok ? actionData : null;
  return (
    <main id="main" className="container-page pt-28 pb-20 sm:pt-36">
      <div className="mx-auto max-w-3xl">
        <p className="eyebrow">Your account</p>
        <h1 className="mt-2 text-4xl text-ink sm:text-5xl">Delete my account</h1>
        <p className="mt-4 max-w-2xl text-sm leading-relaxed text-ink-soft">
          Deleting <span className="break-all font-medium text-ink">{d.email}</span> can't be undone. Before you go you may want to{" "}
          <Link to="/profile#your-data" className="text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink">
            download your data
          </Link>
          .
        </p>

        <div className="mt-10 grid gap-6 md:grid-cols-2">
          <section aria-labelledby="erased-title" className="border border-line bg-white/60 px-6 py-6">
            <h2 id="erased-title" className="text-2xl text-ink">
              What we erase
            </h2>
            <ul className="mt-4 list-disc space-y-2 pl-5 text-sm leading-relaxed text-ink-soft">
              <li>Your sign-in and password: you are signed out on every device at once.</li>
              <li>Your e-mail preferences.</li>
              <li>{d.reviews > 0 ? `Your ${d.reviews === 1 ? "review" : `${d.reviews} reviews`}: removed from the shop.` : "Any reviews you wrote: removed from the shop."}</li>
              <li>The messages you sent us and the e-mails we sent you.</li>
              <li>The name, telephone and address on orders that were never paid.</li>
              <li>Your wishlist, your cart, your back-in-stock requests, and your WhatsApp number and messages.</li>
              <li>
                {d.openSampleCredits > 0
                  ? `Your ${d.openSampleCredits === 1 ? "unused sample credit: it ends" : `${d.openSampleCredits} unused sample credits: they end`} with your account.`
                  : "Your sample credits."}
              </li>
              {d.openOrders > 0 ? <li>Your unpaid {d.openOrders === 1 ? "order is" : "orders are"} cancelled.</li> : null}
            </ul>
          </section>
          <section aria-labelledby="kept-title" className="border border-line bg-white/60 px-6 py-6">
            <h2 id="kept-title" className="text-2xl text-ink">
              What we keep
            </h2>
            {d.keptOrders.length ? (
              <>
                <p className="mt-4 text-sm leading-relaxed text-ink-soft">
                  The tax law (Tax Administration Act, section 29) makes us keep the record of what we sold for {d.invoiceYears} years. These orders and their
                  invoices stay, with only what the invoice shows (name, delivery address, telephone, what was bought and the amounts), no longer linked to
                  you:
                </p>
                <ul className="mt-3 divide-y divide-line border-y border-line text-sm">
                  {d.keptOrders.map((o) => (
                    <li key={o.shortId} className="flex flex-wrap justify-between gap-x-4 py-2">
                      <span className="font-mono text-ink">#{o.shortId}</span>
                      <span className="text-ink-soft">{o.invoiceNumber ? `${o.invoiceNumber}, ${o.date}` : o.date}</span>
                    </li>
                  ))}
                </ul>
                {d.onTheirWay > 0 ? (
                  <p className="mt-3 text-sm leading-relaxed text-ink-soft">
                    {d.onTheirWay === 1 ? "An order on its way is" : `${d.onTheirWay} orders on their way are`} still delivered, but we can no longer e-mail you
                    about {d.onTheirWay === 1 ? "it" : "them"}.
                  </p>
                ) : null}
              </>
            ) : (
              <p className="mt-4 text-sm leading-relaxed text-ink-soft">Nothing that names you: you have no paid orders.</p>
            )}
            {d.giftCards.length ? (
              <>
                <p className="mt-3 text-sm leading-relaxed text-ink-soft">
                  Your gift cards keep their money: they are no longer linked to you, and still pay with their code at checkout until they expire. Keep the
                  codes:
                </p>
                <ul className="mt-3 divide-y divide-line border-y border-line text-sm">
                  {d.giftCards.map((c) => (
                    <li key={c.last4 + c.until} className="flex flex-wrap justify-between gap-x-4 py-2">
                      <span className="text-ink">Ending {c.last4}</span>
                      <span className="text-ink-soft">
                        {c.balance}, until {c.until}
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            <p className="mt-3 text-sm leading-relaxed text-ink-soft">
              The record of the consents you gave stays, without your e-mail address. We e-mail you once to confirm the deletion.
            </p>
          </section>
        </div>

        <section aria-labelledby="confirm-title" className="mt-10 border-t border-line pt-10">
          <h2 id="confirm-title" className="text-2xl text-ink">
            Confirm with your password
          </h2>
          <Form method="post" className="mt-5 max-w-md space-y-5" noValidate>
            {failed ? <Notice tone="error">{failed.error}</Notice> : null}
            <PasswordField label="Password" name="password" autoComplete="current-password" error={failed?.fieldErrors?.password} />
            <div className="flex flex-wrap items-center gap-x-6 gap-y-4">
              <Button type="submit" variant="danger" disabled={busy}>
                {busy ? "Deleting…" : "Delete my account"}
              </Button>
              <Link to="/profile" className="text-sm text-ink-soft underline decoration-line underline-offset-4 hover:text-ink">
                Keep my account
              </Link>
            </div>
          </Form>
        </section>
      </div>
    </main>
  );
}

function Deleted() {
  return (
    <main id="main" className="container-page flex min-h-[70vh] items-center justify-center pt-28 pb-20">
      <div className="w-full max-w-lg border border-line bg-white/70 px-6 py-12 text-center sm:px-10">
        <p className="eyebrow">Your account</p>
        <h1 className="mt-3 text-4xl text-ink">Your account has been deleted</h1>
        <div className="mx-auto mt-5 h-px w-12 bg-gold/60" aria-hidden="true" />
        <p className="mt-5 text-sm leading-relaxed text-ink-soft">
          You are signed out everywhere, and we have erased your personal information. Paid orders and their invoices stay on record for the tax law,
          no longer linked to an account; gift cards keep their money and still pay with their code. We have sent you an e-mail that says what was
          erased and what is kept.
        </p>
        <ButtonLink to="/" variant="secondary" className="mt-8">
          Return Home
        </ButtonLink>
      </div>
    </main>
  );
}
