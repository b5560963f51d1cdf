/**
 * /admin/gift-cards/:id — one gift card: its balance and its ledger (every change with who and when), and cancelling
 * it (the remaining balance void, a ledger entry). The role is checked by the loader and the action.
 */
import { data, Link } from "react-router";
import type { Route } from "./+types/admin.gift-cards.$id";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher } from "~/components/admin/admin-status";
import { DataTable, type Column } from "~/components/admin/data-table";
import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { GIFT_CARD_ADMIN_TEXT, giftCardCancelIntent } from "~/modules/gift-cards/gift-cards-admin.schema";
import { cancelGiftCard, findGiftCard, GIFT_CARD_ADMIN_MESSAGES, giftCardLedger } from "~/modules/gift-cards/gift-cards.server";
import { giftCardState, GIFT_CARD_STATE_STYLE, LEDGER_KIND_LABELS } from "~/modules/gift-cards/gift-card-state.logic";
import { formatDateTimeZA, formatDateZA } from "~/utils/dates";
import { shortOrderId } from "~/utils/ids";
import { formatRand } from "~/utils/money";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const card = await findGiftCard(getDb(), params.id ?? "");
  if (!card) throw data({ message: GIFT_CARD_ADMIN_MESSAGES.notFound }, { status: 404 });
  const ledger = await giftCardLedger(getDb(), card.id);
  const state = giftCardState(card, new Date());
  return {
    card: { id: card.id, last4: card.last4, recipientEmail: card.recipientEmail, note: card.note, balance: formatRand(card.balanceCents), initial: formatRand(card.initialCents), issued: formatDateZA(card.createdAt), expires: formatDateZA(card.expiresAt), state, cancellable: card.status === "active" },
    ledger: ledger.map((e) => ({
      id: e.id,
      what: LEDGER_KIND_LABELS[e.kind],
      amount: e.amountCents > 0 ? `+${formatRand(e.amountCents)}` : formatRand(e.amountCents),
      after: formatRand(e.balanceAfterCents),
      order: e.orderId ? { id: e.orderId, shortId: shortOrderId(e.orderId) } : null,
      who: e.actorKind === "system" ? "System" : `${e.actorKind === "admin" ? "Admin" : "Shopper"}${e.actorEmail ? ` ${e.actorEmail}` : ""}`,
      when: formatDateTimeZA(e.createdAt),
      note: e.note,
    })),
  };
}

export const action = adminAction(
  giftCardCancelIntent,
  {
    cancel: async (db, { id, note }, { admin }) => (await cancelGiftCard(db, id, { actor: { kind: "admin", id: admin.id }, note }), GIFT_CARD_ADMIN_TEXT.cancelled),
  },
  { failure: { cancel: GIFT_CARD_ADMIN_TEXT.failedCancel } },
);

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Gift card ···· ${loaderData.card.last4} | Admin | Scentara` : "Gift card | Admin | Scentara" }];
}

type Entry = Route.ComponentProps["loaderData"]["ledger"][number];

export default function GiftCard({ loaderData: { card, ledger } }: Route.ComponentProps) {
  const columns: Column<Entry>[] = [
    { header: "When", cell: (e) => e.when, className: "whitespace-nowrap" },
    {
      header: "What",
      cell: (e) => (
        <span className="block">
          {e.what}
          {e.order ? (
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
      {card.cancellable ? <CancelCard id={card.id} last4={card.last4} /> : null}
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
