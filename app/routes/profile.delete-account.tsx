/**
 * /profile/delete-account — "Delete my account" (POPIA s24; docs/decisions/040). The page says what will be erased
 * and what is kept and why (the paid orders the tax law keeps, listed), and asks for the password. The action checks
 * the password again on the server, deletes through the one path an admin's deletion takes too (deleteAccount), ends
 * the browser's cookie with every session, and lands on this page's "deleted" state (?done=1, which names nobody).
 */
import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/profile.delete-account";
import { Deleted, DeletionSummary } from "~/components/accounts/account-deletion";
import { PasswordField } from "~/components/accounts/auth-form";
import { Button } from "~/components/ui/button";
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

        <DeletionSummary d={d} />

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
