/**
 * /admin/gift-cards/:id — one gift card: its balance and its ledger (every change with who and when), and cancelling
 * it (the remaining balance void, a ledger entry). A sold card's e-mail too (docs/decisions/053 addendum): its
 * recipient and day corrected or sent now while it has not gone, sent again once it has, each change with who and when.
 * The role is checked by the loader and the action.
 */
import { useCan } from "~/components/admin/use-admin-permissions";
import { data, Link } from "react-router";
import type { Route } from "./+types/admin.gift-cards.$id";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher } from "~/components/admin/admin-status";
import { DataTable, type Column } from "~/components/admin/data-table";
import { buttonClass } from "~/components/ui/button";
import { controlClass, Field } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { GIFT_CARD_ADMIN_TEXT, giftCardPageIntent } from "~/modules/gift-cards/gift-cards-admin.schema";
import { cancelGiftCard, findGiftCard, GIFT_CARD_ADMIN_MESSAGES, giftCardLedger, type Actor } from "~/modules/gift-cards/gift-cards.server";
import { changeGiftCardRecipient, giftCardChanges, giftCardEmailView, resendGiftCardEmail } from "~/modules/gift-cards/gift-card-email-changes.server";
import { describeGiftCardChange, giftCardState, GIFT_CARD_STATE_STYLE, LEDGER_KIND_LABELS } from "~/modules/gift-cards/gift-card-state.logic";
import { addDays, saDay } from "~/utils/sa-days";
import { GIFT_NAME_MAX, GIFT_SEND_DAYS_AHEAD_MAX } from "~/modules/gift-cards/gift-card-sales.logic";
import { useAdminResult } from "~/components/admin/admin-status";
import { formatDateTimeZA, formatDateZA } from "~/utils/dates";
import { shortOrderId } from "~/utils/ids";
import { formatRand } from "~/utils/money";
import { RecordHistory } from "~/components/admin/activity-log";
import { activityItems, recordHistory } from "~/modules/activity/activity-admin.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePermission(request, "gift-cards");
  const card = await findGiftCard(getDb(), params.id ?? "");
  if (!card) throw data({ message: GIFT_CARD_ADMIN_MESSAGES.notFound }, { status: 404 });
  const now = new Date();
  const [ledger, email, changes] = await Promise.all([giftCardLedger(getDb(), card.id), giftCardEmailView(getDb(), card.id, now), giftCardChanges(getDb(), card.id)]);
  const history = activityItems(await recordHistory(getDb(), "gift-card", card.id));
  const state = giftCardState(card, now);
  const today = saDay(now);
  return {
    card: { id: card.id, last4: card.last4, recipientEmail: card.recipientEmail, note: card.note, balance: formatRand(card.balanceCents), initial: formatRand(card.initialCents), issued: formatDateZA(card.createdAt), expires: formatDateZA(card.expiresAt), state, cancellable: card.status === "active" },
    email: email && {
      ...email,
      sendOnText: email.sendOn ? formatDateZA(`${email.sendOn}T10:00:00.000Z`) : null,
      emailedText: email.emailedAt ? formatDateTimeZA(email.emailedAt) : null,
      firstDay: today,
      lastDay: addDays(today, GIFT_SEND_DAYS_AHEAD_MAX),
    },
    changes: changes.map((c) => ({ id: c.id, ...describeGiftCardChange(c), who: actorLabel(c.actorKind, c.actorEmail), when: formatDateTimeZA(c.createdAt) })),
    history,
    ledger: ledger.map((e) => ({
      id: e.id,
      what: LEDGER_KIND_LABELS[e.kind],
      amount: e.amountCents > 0 ? `+${formatRand(e.amountCents)}` : formatRand(e.amountCents),
      after: formatRand(e.balanceAfterCents),
      order: e.orderId ? { id: e.orderId, shortId: shortOrderId(e.orderId) } : null,
      who: actorLabel(e.actorKind, e.actorEmail),
      when: formatDateTimeZA(e.createdAt),
      note: e.note,
    })),
  };
}

function actorLabel(kind: Actor["kind"], email: string | null): string {
  return kind === "system" ? "System" : `${kind === "admin" ? "Admin" : "Shopper"}${email ? ` ${email}` : ""}`;
}

export const action = adminAction(
  giftCardPageIntent,
  {
    cancel: async (db, { id, note }, { admin }) => (await cancelGiftCard(db, id, { actor: { kind: "admin", id: admin.id }, note }), GIFT_CARD_ADMIN_TEXT.cancelled),
    recipient: (db, { id, ...input }, { admin }) => changeGiftCardRecipient(db, id, input, { actor: { kind: "admin", id: admin.id } }),
    "send-now": (db, { id, ...input }, { admin }) => changeGiftCardRecipient(db, id, input, { actor: { kind: "admin", id: admin.id }, sendNow: true }),
    resend: (db, { id, recipientEmail, sent }, { admin }) => resendGiftCardEmail(db, id, { recipientEmail, seenCount: sent }, { actor: { kind: "admin", id: admin.id } }),
  },
  { permission: "gift-cards", sensitive: ["cancel"], record: { cancel: "gift-card", recipient: "gift-card", "send-now": { type: "gift-card", outside: true }, resend: { type: "gift-card", outside: true } }, failure: { cancel: GIFT_CARD_ADMIN_TEXT.failedCancel, recipient: GIFT_CARD_ADMIN_TEXT.failedRecipient, "send-now": GIFT_CARD_ADMIN_TEXT.failedSend, resend: GIFT_CARD_ADMIN_TEXT.failedSend } },
);

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Gift card ···· ${loaderData.card.last4} | Admin | Scentara` : "Gift card | Admin | Scentara" }];
}

type Entry = Route.ComponentProps["loaderData"]["ledger"][number];

export default function GiftCard({ loaderData: { card, ledger, email, changes, history } }: Route.ComponentProps) {
  // the order a card was bought or spent on opens for those who may see orders
  const ordersAccess = useCan("orders.view");
  const columns: Column<Entry>[] = [
    { header: "When", cell: (e) => e.when, className: "whitespace-nowrap" },
    {
      header: "What",
      cell: (e) => (
        <span className="block">
          {e.what}
          {e.order && ordersAccess ? (
            <Link to={`/admin/orders?q=${encodeURIComponent(e.order.shortId)}`} className="ml-1 text-gold underline-offset-4 hover:underline">
              #{e.order.shortId}
            </Link>
          ) : null}
          {e.note ? <span className="block text-xs text-muted">{e.note}</span> : null}
        </span>
      ),
    },
    { header: "Amount", cell: (e) => e.amount, className: "whitespace-nowrap tabular-nums" },
    { header: "Balance", cell: (e) => e.after, className: "whitespace-nowrap tabular-nums" },
    { header: "Who", cell: (e) => <span className="break-all">{e.who}</span>, phone: "hide" },
  ];
  return (
    <AdminPage
      title={`Gift card ···· ${card.last4}`}
      description={[card.recipientEmail, card.note].filter(Boolean).join(" · ") || "Issued by hand"}
      actions={
        <Link to="/admin/gift-cards" className={buttonClass("secondary", "md")}>
          All gift cards
        </Link>
      }
      stats={[
        { label: "Balance", value: card.balance },
        { label: "Issued for", value: card.initial },
        { label: "Issued", value: card.issued },
        { label: "Expires", value: card.expires },
      ]}
      status={<AdminStatus />}
    >
      <p className="mb-4">
        <span className={`inline-block px-2 py-0.5 text-[0.68rem] font-semibold uppercase tracking-[0.14em] ${GIFT_CARD_STATE_STYLE[card.state]}`}>{card.state}</span>
      </p>
      <DataTable<Entry> rows={ledger} columns={columns} rowKey={(e) => e.id} caption="Ledger" empty={<p>No entries</p>} />
      {email ? <CardEmail id={card.id} state={card.state} email={email} changes={changes} /> : null}
      {card.cancellable ? <CancelCard id={card.id} last4={card.last4} /> : null}
      <RecordHistory items={history} allHref={`/admin/activity?type=gift-card&record=${card.id}`} />
    </AdminPage>
  );
}

function CancelCard({ id, last4 }: { id: string; last4: string }) {
  const fetcher = useAdminFetcher();
  return (
    <fetcher.Form method="post" className="mt-10 max-w-xl border border-line bg-white p-5">
      <h2 className="font-display text-xl text-ink">Cancel this card</h2>
      <p className="mt-1 text-sm text-ink-soft">It can't be used again and its remaining balance is void. Orders it already paid keep their payment.</p>
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="id" value={id} />
      <label className="mt-4 block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft">
        Reason (optional)
        <input name="note" maxLength={300} className={`${controlClass} mt-1 normal-case tracking-normal`} />
      </label>
      <button type="submit" className={`${buttonClass("secondary", "md")} mt-4`}>
        Cancel card ···· {last4}
      </button>
    </fetcher.Form>
  );
}

type EmailView = NonNullable<Route.ComponentProps["loaderData"]["email"]>;
type Change = Route.ComponentProps["loaderData"]["changes"][number];

/** The card's e-mail: where and when it goes (or went), what the owner may do about it, and the changes made so far. */
function CardEmail({ id, state, email, changes }: { id: string; state: string; email: EmailView; changes: Change[] }) {
  const columns: Column<Change>[] = [
    { header: "When", cell: (c) => c.when, className: "whitespace-nowrap" },
    {
      header: "What",
      cell: (c) => (
        <span className="block">
          {c.what}
          {c.detail ? <span className="block break-all text-xs text-muted">{c.detail}</span> : null}
        </span>
      ),
    },
    { header: "Who", cell: (c) => <span className="break-all">{c.who}</span>, phone: "hide" },
  ];
  return (
    <section aria-labelledby="card-email-heading" className="mt-10 max-w-3xl border border-line bg-white p-5" data-testid="gift-card-email">
      <h2 id="card-email-heading" className="font-display text-xl text-ink">
        E-mail to the recipient
      </h2>
      {email.kind === "hand" ? (
        <p className="mt-1 text-sm text-ink-soft">Issued by hand: the shop keeps no copy of its code, so it can't be e-mailed or resent. Cancel it and issue a new one if the code is lost.</p>
      ) : (
        <>
          <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            <dt className="text-ink-soft">To</dt>
            <dd className="break-all text-ink" data-testid="gift-card-recipient">
              {email.recipientName ? `${email.recipientName} · ` : ""}
              {email.recipientEmail ?? "no address"}
            </dd>
            <dt className="text-ink-soft">{email.emailedText ? "E-mailed" : "Goes on"}</dt>
            <dd className="text-ink">{email.emailedText ? `${email.emailedText}${email.emailCount > 1 ? ` (${email.emailCount} times)` : ""}` : (email.sendOnText ?? "not dated")}</dd>
          </dl>
          {email.offer === "change" ? <ChangeRecipient id={id} email={email} /> : null}
          {email.offer === "resend" ? <Resend id={id} email={email} /> : null}
          {email.offer === "none" ? (
            <p className="mt-3 text-sm text-ink-soft">{state === "Active" ? "Its e-mail is being sent right now." : `This card is ${state.toLowerCase()}: its e-mail is not sent again.`}</p>
          ) : null}
        </>
      )}
      {changes.length ? (
        <div className="mt-5">
          <DataTable<Change> rows={changes} columns={columns} rowKey={(c) => c.id} caption="E-mail changes" empty={null} />
        </div>
      ) : null}
    </section>
  );
}

/** Field errors of this page's last answer (the shared admin fetcher's). */
function useFieldErrors(): Record<string, string> {
  const result = useAdminResult();
  return result && !result.ok ? result.fieldErrors : {};
}

function ChangeRecipient({ id, email }: { id: string; email: EmailView }) {
  const fetcher = useAdminFetcher();
  const errors = useFieldErrors();
  return (
    <fetcher.Form method="post" className="mt-5 space-y-4 border-t border-line pt-5">
      <h3 className="font-sans text-[0.68rem] font-semibold uppercase tracking-[0.16em] text-ink">Change the recipient or the day</h3>
      <input type="hidden" name="id" value={id} />
      {email.recipientName !== null ? (
        <Field label="Their name" error={errors.recipientName}>
          {(p) => <input {...p} name="recipientName" defaultValue={email.recipientName ?? ""} maxLength={GIFT_NAME_MAX} required autoComplete="off" />}
        </Field>
      ) : null}
      <Field label="Their e-mail" error={errors.recipientEmail}>
        {(p) => <input {...p} name="recipientEmail" type="email" defaultValue={email.recipientEmail ?? ""} maxLength={254} required autoComplete="off" />}
      </Field>
      <Field label="Send it on" error={errors.sendOn} hint="Today up to a year ahead (South African time).">
        {(p) => <input {...p} name="sendOn" type="date" defaultValue={email.sendOn ?? email.firstDay} min={email.firstDay} max={email.lastDay} />}
      </Field>
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value="recipient" className={buttonClass("primary", "md")}>
          Save changes
        </button>
        <button type="submit" name="intent" value="send-now" className={buttonClass("secondary", "md")}>
          Save and send now
        </button>
      </div>
    </fetcher.Form>
  );
}

function Resend({ id, email }: { id: string; email: EmailView }) {
  const fetcher = useAdminFetcher();
  const errors = useFieldErrors();
  return (
    <fetcher.Form method="post" className="mt-5 space-y-4 border-t border-line pt-5">
      <h3 className="font-sans text-[0.68rem] font-semibold uppercase tracking-[0.16em] text-ink">Resend the e-mail</h3>
      <p className="text-sm text-ink-soft">The same code and printable card. A corrected address becomes the one on record.</p>
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="sent" value={email.emailCount} />
      <Field label="To" error={errors.recipientEmail}>
        {(p) => <input {...p} name="recipientEmail" type="email" defaultValue={email.recipientEmail ?? ""} maxLength={254} required autoComplete="off" />}
      </Field>
      <button type="submit" className={buttonClass("primary", "md")}>
        Resend the e-mail
      </button>
    </fetcher.Form>
  );
}
