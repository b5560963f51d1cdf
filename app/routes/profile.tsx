import { useEffect, useRef, useState } from "react";
import { Form, Link, redirect, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/profile";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { useTransient } from "~/components/ui/use-transient";
import { getDb } from "~/db/db.server";
import { changePasswordSchema, MESSAGES, MIN_PASSWORD_LENGTH, preferencesSchema } from "~/modules/accounts/accounts.schema";
import { changePassword, getEmailPreferences, updateEmailPreferences } from "~/modules/accounts/accounts.server";
import { countOwnClosedAttempts, listOwnOrders, type OwnOrder } from "~/modules/orders/order-read.server";
import { formatInvoiceNumber, invoicePath } from "~/modules/invoices/invoice.logic";
import { returnPath } from "~/modules/returns/returns.logic";
import { env } from "~/utils/env.server";
import { PasswordField } from "~/components/accounts/auth-form";
import { cookieHeaders, requestMeta } from "~/modules/accounts/route-helpers.server";
import { requireUser, requireUserAction } from "~/modules/accounts/session.server";
import { fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { formatDateZA } from "~/utils/dates";
import { shortOrderId } from "~/utils/ids";
import { formatRand } from "~/utils/money";
import { readFields, readQuery } from "~/utils/request.server";
import { PRIVACY_MESSAGES } from "~/modules/privacy/privacy.schema";
import { MARKETING_CONSENT } from "~/modules/consent/consent.logic";
import { useRootData } from "~/modules/settings/root-data";

const TABS = [
  { id: "account", label: "Account" },
  { id: "orders", label: "Orders" },
  { id: "preferences", label: "Email Preferences" },
] as const;
type Tab = (typeof TABS)[number]["id"];

export function meta() {
  return [{ title: "Profile | Scentara" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

/** Where a successful password change lands (the page then says so). */
export const PASSWORD_UPDATED_PATH = "/profile?updated=password";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const query = readQuery(request);
  const requested = query.get("tab");
  const tab: Tab = TABS.some((t) => t.id === requested) ? (requested as Tab) : "account";
  const db = getDb();
  const onOrders = tab === "orders";
  const [preferences, orders, attempts, attemptCount] = await Promise.all([
    getEmailPreferences(db, user.id),
    onOrders ? listOwnOrders(db, user.id) : [],
    // Payment attempts that didn't go through are listed apart, folded, newest few (docs/decisions/015).
    onOrders ? listOwnOrders(db, user.id, ATTEMPTS_SHOWN, "attempts") : [],
    onOrders ? countOwnClosedAttempts(db, user.id) : 0,
  ]);
  return {
    tab,
    email: user.email,
    notice: query.get("updated") === "password" ? MESSAGES.passwordUpdated : null,
    // "Download my data" refused for the hour (app/routes/profile.my-data.ts sends the browser back here).
    dataNotice: query.get("data") === "busy" ? PRIVACY_MESSAGES.tooManyDownloads : null,
    preferences,
    orders: orders.map(orderRow),
    attempts: { rows: attempts.map(orderRow), count: attemptCount },
  };
}

const ATTEMPTS_SHOWN = 20;

function orderRow(o: OwnOrder) {
  return {
    id: o.id,
    shortId: shortOrderId(o.id),
    date: formatDateZA(o.createdAt),
    status: o.status,
    paymentStatus: o.paymentStatus,
    total: formatRand(o.totalCents),
    // A paid order's invoice, downloadable from its row (docs/decisions/019).
    invoice: o.paymentStatus === "completed" && o.invoiceNumber !== null ? { number: formatInvoiceNumber(o.invoiceNumber, env().INVOICE_PREFIX), href: invoicePath(o.id) } : null,
    // A delivered, paid order's items can be sent back from here (docs/decisions/041); the page says until when.
    returnHref: o.paymentStatus === "completed" && o.status === "delivered" ? returnPath(o.id) : null,
  };
}
type OrderRow = ReturnType<typeof orderRow>;

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const fields = await readFields(request);
  const db = getDb();
  if (fields.intent === "password") {
    const parsed = changePasswordSchema.safeParse(fields);
    if (!parsed.success) return formError(MESSAGES.passwordUpdateFailed, 400, fieldErrorsOf(parsed.error.issues));
    return handleDomainErrors(async () => {
      const { setCookies } = await changePassword(db, user.id, parsed.data, requestMeta(request, context));
      // Post/Redirect/Get: the old session ended with the change, so the page must be loaded again with the new
      // cookie (without JavaScript the same request would otherwise render with the revoked one: signed out).
      return redirect(PASSWORD_UPDATED_PATH, { status: 303, headers: cookieHeaders(setCookies) });
    });
  }
  if (fields.intent === "preferences") {
    const parsed = preferencesSchema.safeParse(fields);
    if (!parsed.success) return formError(MESSAGES.preferencesFailed, 400);
    try {
      await updateEmailPreferences(db, user.id, parsed.data);
    } catch {
      return formError(MESSAGES.preferencesFailed, 500);
    }
    return { ok: true as const, intent: "preferences" as const, message: MESSAGES.preferencesUpdated };
  }
  return formError("Unknown action", 400);
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { tab } = loaderData;
  return (
    <main id="main" className="container-page pt-28 pb-20 sm:pt-36">
      <div className="mx-auto max-w-3xl">
        <p className="eyebrow">Your account</p>
        <h1 className="mt-2 text-4xl text-ink sm:text-5xl">Profile Settings</h1>
        <p className="mt-3 text-sm text-ink-soft">
          Signed in as <span className="font-medium text-ink">{loaderData.email}</span>
        </p>

        <nav aria-label="Profile sections" className="mt-10 border-b border-line">
          <ul className="-mb-px flex gap-6 overflow-x-auto sm:gap-10">
            {TABS.map((t) => {
              const current = t.id === tab;
              return (
                <li key={t.id} className="shrink-0">
                  <Link
                    to={t.id === "account" ? "/profile" : `/profile?tab=${t.id}`}
                    preventScrollReset
                    aria-current={current ? "page" : undefined}
                    className={`inline-block border-b-2 pb-3 text-xs font-medium uppercase tracking-[0.16em] transition-colors ${
                      current ? "border-gold text-ink" : "border-transparent text-muted hover:text-ink"
                    }`}
                  >
                    {t.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <section className="pt-10" aria-labelledby="profile-section-title">
          {tab === "account" ? (
            <>
              <AccountTab email={loaderData.email} notice={loaderData.notice} actionData={actionData} />
              <YourData notice={loaderData.dataNotice} />
            </>
          ) : null}
          {tab === "orders" ? <OrdersTab orders={loaderData.orders} attempts={loaderData.attempts} /> : null}
          {tab === "preferences" ? <PreferencesTab preferences={loaderData.preferences} actionData={actionData} /> : null}
        </section>
      </div>
    </main>
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

function OrdersTab({ orders, attempts }: { orders: OrderRow[]; attempts: { rows: OrderRow[]; count: number } }) {
  return (
    <div>
      <h2 id="profile-section-title" className="text-2xl text-ink">Order History</h2>
      {orders.length === 0 ? (
        <div className="mt-8 border border-line bg-white/60 px-6 py-12 text-center">
          <p className="font-display text-2xl text-ink">No orders found</p>
          <p className="mt-2 text-sm text-ink-soft">When you place an order it will appear here.</p>
          <ButtonLink to="/shop" className="mt-6">
            Start Shopping
          </ButtonLink>
        </div>
      ) : (
        <ul className="mt-6 divide-y divide-line border-y border-line">
          {orders.map((o) => (
            <OrderItem key={o.id} order={o} label={statusLabel(o.status)} />
          ))}
        </ul>
      )}
      {attempts.count > 0 ? (
        <details className="group mt-8">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 text-sm text-ink-soft hover:text-ink [&::-webkit-details-marker]:hidden">
            <span>Payment attempts that didn't go through ({attempts.count})</span>
            <span aria-hidden="true" className="text-gold transition-transform group-open:rotate-45">
              +
            </span>
          </summary>
          <p className="mt-4 max-w-xl text-sm leading-relaxed text-ink-soft">
            These checkouts were closed before a payment was completed: cancelled on the payment page, declined, left
            unpaid for too long, or replaced by a later attempt. Any coupon they held has been released.
          </p>
          <ul className="mt-4 divide-y divide-line border-y border-line text-ink-soft">
            {attempts.rows.map((o) => (
              <OrderItem key={o.id} order={o} label={o.paymentStatus === "failed" ? "Payment failed" : "Not paid"} muted />
            ))}
          </ul>
          {attempts.count > attempts.rows.length ? (
            <p className="mt-3 text-xs text-muted">The {attempts.rows.length} most recent are shown.</p>
          ) : null}
        </details>
      ) : null}
    </div>
  );
}

function OrderItem({ order: o, label, muted = false }: { order: OrderRow; label: string; muted?: boolean }) {
  return (
    <li>
      <Link
        to={`/order-confirmation?id=${encodeURIComponent(o.id)}`}
        className="grid grid-cols-2 gap-x-4 gap-y-1 py-4 hover:bg-sand/60 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-center sm:px-2"
        aria-label={`${muted ? "Payment attempt" : "Order"} ${o.shortId}, ${o.date}, ${label}, ${o.total}`}
      >
        <span className={`font-mono text-sm ${muted ? "text-ink-soft" : "text-ink"}`}>#{o.shortId}</span>
        <span className={`text-right text-sm sm:order-4 ${muted ? "text-ink-soft" : "font-medium text-ink"}`}>{o.total}</span>
        <span className="text-sm text-ink-soft">{o.date}</span>
        <span className="text-right sm:text-left">
          <span
            className={`inline-block border px-2 py-0.5 text-[0.7rem] uppercase tracking-[0.14em] ${
              muted ? "border-line text-muted" : "border-gold/40 text-gold"
            }`}
          >
            {label}
          </span>
        </span>
      </Link>
      {o.invoice || o.returnHref ? (
        <p className="-mt-2 flex flex-wrap gap-x-5 gap-y-1 pb-4 text-xs sm:px-2">
          {o.invoice ? (
            // A file, not a page (and not inside the row's link): the browser downloads it.
            <a href={o.invoice.href} download className="text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink hover:decoration-ink">
              Invoice {o.invoice.number}
              <span className="sr-only"> for order {o.shortId}, as a PDF</span>
              <span aria-hidden="true" className="text-ink-soft"> (PDF)</span>
            </a>
          ) : null}
          {o.returnHref ? (
            <Link to={o.returnHref} className="text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink hover:decoration-ink">
              Return items<span className="sr-only"> from order {o.shortId}</span>
            </Link>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}

function statusLabel(status: string) {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

function PreferencesTab({
  preferences,
  actionData,
}: {
  preferences: { emailNotifications: boolean; emailMarketing: boolean; marketingConsentAt: string | null };
  actionData: ActionData;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "preferences";
  const success = actionData?.ok && "intent" in actionData && actionData.intent === "preferences" ? actionData.message : null;
  const shown = useTransient(success ? actionData : null) ? success : null;
  const { shop } = useRootData();
  return (
    <div>
      <h2 id="profile-section-title" className="text-2xl text-ink">Email Preferences</h2>
      <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">
        Order confirmations and important account e-mails are always sent, whatever you choose here.
      </p>
      <Form method="post" className="mt-8 max-w-xl space-y-6" key={preferences.marketingConsentAt ?? "none"}>
        {shown ? <Notice tone="success">{shown}</Notice> : null}
        {actionData && !actionData.ok ? <Notice tone="error">{actionData.error}</Notice> : null}
        <input type="hidden" name="intent" value="preferences" />
        <Toggle
          name="emailNotifications"
          label="Order and account notifications"
          description="Updates about your orders, deliveries and your account."
          defaultChecked={preferences.emailNotifications}
        />
        {/* The words the consent log records when this switch changes (consent.logic MARKETING_CONSENT). */}
        <Toggle name="emailMarketing" label={MARKETING_CONSENT.label} description={MARKETING_CONSENT.description(shop.name)} defaultChecked={preferences.emailMarketing} />
        {preferences.emailMarketing && preferences.marketingConsentAt ? (
          <p className="text-xs text-muted">You opted in on {formatDateZA(preferences.marketingConsentAt)}.</p>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save Preferences"}
        </Button>
      </Form>
    </div>
  );
}

function Toggle({ name, label, description, defaultChecked }: { name: string; label: string; description: string; defaultChecked: boolean }) {
  const id = `pref-${name}`;
  return (
    <div className="flex items-start justify-between gap-6 border-b border-line pb-6">
      <div>
        <label htmlFor={id} className="text-sm font-medium text-ink">
          {label}
        </label>
        <p id={`${id}-desc`} className="mt-1 text-sm text-ink-soft">
          {description}
        </p>
      </div>
      <span className="relative inline-flex shrink-0 items-center">
        <input
          id={id}
          type="checkbox"
          role="switch"
          name={name}
          defaultChecked={defaultChecked}
          aria-describedby={`${id}-desc`}
          className="peer h-7 w-12 cursor-pointer appearance-none rounded-full border border-line bg-sand transition-colors checked:border-ink checked:bg-ink focus-visible:outline-2 focus-visible:outline-gold"
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute left-1 h-5 w-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5"
        />
      </span>
    </div>
  );
}

/**
 * "Your data" (POPIA s23, s24; docs/decisions/040): download everything the shop holds about you, or delete the
 * account. The download is a plain form (no JavaScript needed): the browser saves the file and stays here.
 */
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
