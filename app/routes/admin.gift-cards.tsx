/**
 * /admin/gift-cards — the owner's gift cards (docs/decisions/053): issue one by hand (a goodwill gesture: amount,
 * optional recipient and note; the code is shown once, here), the list with balances (paged, searched by a card's last
 * four or its recipient's e-mail), and each card's ledger on its own page. Every loader and action checks the role.
 */
import { Link } from "react-router";
import type { Route } from "./+types/admin.gift-cards";
import { AdminPage } from "~/components/admin/admin-page";
import { DataTable, type Column } from "~/components/admin/data-table";
import { FilterBar } from "~/components/admin/filter-bar";
import { IssueDialog, IssuedOrStatus, SalesDialog } from "~/components/admin/gift-card-panels";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { hasActiveFilters, listHref, parseListQuery } from "~/modules/admin/list-query";
import { GIFT_CARD_ADMIN_TEXT, giftCardAdminIntent } from "~/modules/gift-cards/gift-cards-admin.schema";
import { cancelGiftCard, issueGiftCard, listGiftCards } from "~/modules/gift-cards/gift-cards.server";
import { giftCardState, GIFT_CARD_STATE_STYLE } from "~/modules/gift-cards/gift-card-state.logic";
import { formatDateZA } from "~/utils/dates";
import { formatRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";
import { env } from "~/utils/env.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { loadGiftCardSaleSettings, saveGiftCardSaleSettings } from "~/modules/gift-cards/gift-card-sales.server";

const PATH = "/admin/gift-cards";
const filters = { q: { kind: "text" } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "gift-cards");
  const query = parseListQuery(readQuery(request), filters);
  const list = await listGiftCards(getDb(), { q: query.filters.q, page: query.page });
  const now = new Date();
  return {
    query,
    expiryMonths: env().GIFT_CARD_EXPIRY_MONTHS,
    sales: await loadGiftCardSaleSettings(getDb()),
    totals: { cards: list.totals.cards, outstanding: formatRand(list.totals.outstandingCents) },
    list: {
      ...list,
      rows: list.rows.map((c) => ({
        id: c.id,
        last4: c.last4,
        recipientEmail: c.recipientEmail,
        note: c.note,
        balance: formatRand(c.balanceCents),
        initial: formatRand(c.initialCents),
        state: giftCardState(c, now),
        issued: formatDateZA(c.createdAt),
        expires: formatDateZA(c.expiresAt),
      })),
    },
  };
}

export const action = adminAction(
  giftCardAdminIntent,
  {
    issue: async (db, input, { admin }) => {
      const card = await issueGiftCard(db, { amountCents: input.amount, recipientEmail: input.recipientEmail, note: input.note, actor: { kind: "admin", id: admin.id } });
      return { message: GIFT_CARD_ADMIN_TEXT.issued(card.code, formatRand(input.amount)), id: card.id };
    },
    cancel: async (db, { id, note }, { admin }) => (await cancelGiftCard(db, id, { actor: { kind: "admin", id: admin.id }, note }), GIFT_CARD_ADMIN_TEXT.cancelled),
    sales: async (db, { intent: _intent, ...settings }) => {
      await saveGiftCardSaleSettings(db, settings);
      // the header's page and the cart's gift card lines follow the settings
      storefrontChanged("gift card sales settings");
      return GIFT_CARD_ADMIN_TEXT.salesSaved;
    },
  },
  { permission: "gift-cards", sensitive: ["issue", "cancel"], record: { issue: { type: "gift-card", outside: true }, cancel: "gift-card", sales: { type: "settings", id: () => "gift_card_sales" } }, failure: { issue: GIFT_CARD_ADMIN_TEXT.failedIssue, cancel: GIFT_CARD_ADMIN_TEXT.failedCancel, sales: GIFT_CARD_ADMIN_TEXT.failedSales } },
);

export function meta() {
  return [{ title: "Gift cards | Admin | Scentara" }];
}

type Row = Route.ComponentProps["loaderData"]["list"]["rows"][number];

export default function GiftCards({ loaderData: d }: Route.ComponentProps) {
  const { query, list, totals } = d;
  const columns: Column<Row>[] = [
    {
      header: "Card",
      cell: (c) => (
        <span className="block">
          <Link to={`${PATH}/${c.id}`} className="font-mono font-semibold tracking-wide text-ink underline decoration-gold underline-offset-4 hover:text-gold">
            ···· {c.last4}
          </Link>
          {c.recipientEmail ? <span className="block break-all text-xs text-muted">{c.recipientEmail}</span> : null}
          {c.note ? <span className="block text-xs text-muted">{c.note}</span> : null}
        </span>
      ),
    },
    { header: "Balance", cell: (c) => c.balance, className: "whitespace-nowrap tabular-nums" },
    { header: "Issued for", cell: (c) => c.initial, className: "whitespace-nowrap tabular-nums", phone: "hide" },
    { header: "Issued", cell: (c) => c.issued, className: "whitespace-nowrap", phone: "hide" },
    { header: "Expires", cell: (c) => c.expires, className: "whitespace-nowrap" },
    { header: "Status", cell: (c) => <span className={`inline-block px-2 py-0.5 text-[0.68rem] font-semibold uppercase tracking-[0.14em] ${GIFT_CARD_STATE_STYLE[c.state]}`}>{c.state}</span> },
  ];
  return (
    <AdminPage
      title="Gift cards"
      description={`Cards paid at checkout like money. Valid ${d.expiryMonths / 12} years from issue; a cancelled card's balance is void.`}
      actions={
        <div className="flex flex-wrap gap-3">
          <SalesDialog path={PATH} query={query} sales={d.sales} />
          <IssueDialog path={PATH} query={query} />
        </div>
      }
      stats={[
        { label: "Active cards", value: totals.cards },
        { label: "Outstanding balance", value: totals.outstanding },
      ]}
      status={<IssuedOrStatus />}
    >
      <FilterBar path={PATH} query={query} fields={[{ name: "q", label: "Search", kind: "search", placeholder: "Last 4, e-mail or note" }]} />
      <DataTable<Row>
        rows={list.rows}
        columns={columns}
        rowKey={(c) => c.id}
        caption="Gift cards"
        empty={<p className="font-display text-2xl text-ink">{hasActiveFilters(query) ? GIFT_CARD_ADMIN_TEXT.noMatches : GIFT_CARD_ADMIN_TEXT.none}</p>}
        page={{ page: list.page, pageCount: list.pageCount, hrefFor: (page) => listHref(PATH, query, { page }) }}
      />
    </AdminPage>
  );
}
