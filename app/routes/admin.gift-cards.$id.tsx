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
import { AdminStatus } from "~/components/admin/admin-status";
import { DataTable, type Column } from "~/components/admin/data-table";
import { buttonClass } from "~/components/ui/button";
import { CancelCard, CardEmail } from "~/components/admin/gift-card-panels";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { GIFT_CARD_ADMIN_TEXT, giftCardPageIntent } from "~/modules/gift-cards/gift-cards-admin.schema";
import { cancelGiftCard, findGiftCard, GIFT_CARD_ADMIN_MESSAGES } from "~/modules/gift-cards/gift-cards.server";
import { changeGiftCardRecipient, resendGiftCardEmail } from "~/modules/gift-cards/gift-card-email-changes.server";
import { giftCardPage } from "~/modules/gift-cards/gift-card-page.server";
import { GIFT_CARD_STATE_STYLE } from "~/modules/gift-cards/gift-card-state.logic";
import { RecordHistory } from "~/components/admin/activity-log";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePermission(request, "gift-cards");
  const card = await findGiftCard(getDb(), params.id ?? "");
  if (!card) throw data({ message: GIFT_CARD_ADMIN_MESSAGES.notFound }, { status: 404 });
  return giftCardPage(getDb(), card);
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
