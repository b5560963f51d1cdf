/**
 * /admin/orders (SPEC §2 Orders, §4, §8): the owner follows orders from payment to delivery. Route glue only: the
 * rules are in modules/orders/order-admin.{logic,schema,server}.ts, the page's pieces in components/admin/.
 */
import type { Route } from "./+types/admin.orders";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { DataTable } from "~/components/admin/data-table";
import { FilterBar } from "~/components/admin/filter-bar";
import { OrderDetail } from "~/components/admin/order-detail";
import { OrderEditor } from "~/components/admin/order-editor";
import { orderColumns, StatusTabs } from "~/components/admin/order-list";
import { OrdersExportForm } from "~/components/admin/orders-export-form";
import { BookAllPaid, ShipmentPanel } from "~/components/admin/shipment-panel";
import { useAdminPermissions } from "~/components/admin/use-admin-permissions";
import { WhatsappPanel } from "~/components/admin/whatsapp-panel";
import { messagesForOrders } from "~/modules/whatsapp/outbox.server";
import { bookAllPaid, bookShipment, cancelShipment, deliveryForOrders, paidAwaitingCourier } from "~/modules/couriers/shipments.server";
import { useRowEditor } from "~/components/admin/row-editor";
import { getDb } from "~/db/db.server";
import type { OrderStatus } from "~/db/schema";
import { requirePermission } from "~/modules/accounts/session.server";
import { can } from "~/modules/accounts/permissions";
import { INVOICE_PERMISSIONS } from "~/modules/accounts/staff-viewer";
import { adminAction } from "~/modules/admin/admin-action.server";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { formatInvoiceNumber, invoicePath } from "~/modules/invoices/invoice.logic";
import { ORDER_ADMIN_MESSAGES, ORDER_STATUS_LABELS, ORDER_STATUSES, SEARCH_COUNT_BOUND, tabCountLabel } from "~/modules/orders/order-admin.logic";
import { gatherLines, orderAdminIntent } from "~/modules/orders/order-admin.schema";
import { monthToDate } from "~/modules/reports/reports.logic";
import { adminOrdersView } from "~/modules/orders/order-admin.server";
import { deleteOrder, sendStatusEmailNow, setOrderStatus, setPaymentStatus, updateOrder } from "~/modules/flows/order-changed-by-owner.server";
import { formatDateTimeZA } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { shortOrderId } from "~/utils/ids";
import { readQuery } from "~/utils/request.server";
import { RecordHistory } from "~/components/admin/activity-log";
import { recordHistories } from "~/modules/activity/activity-admin.server";

const PATH = "/admin/orders";
const filters = { status: { kind: "choice", values: ORDER_STATUSES }, q: { kind: "text" } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "orders.view");
  // A paid order's invoice is the bookkeeper's and the refunder's (the packer's orders page shows no link to it).
  const invoices = can(admin.permissions, INVOICE_PERMISSIONS);
  const query = parseListQuery(readQuery(request), filters);
  const tab = (query.filters.status || "pending") as OrderStatus;
  const db = getDb();
  const [{ list, counts, over, metrics }, waiting] = await Promise.all([adminOrdersView(db, { status: tab, q: query.filters.q, page: query.page }), paidAwaitingCourier(db)]);
  const [deliveries, whatsapp] = await Promise.all([deliveryForOrders(db, list.rows.map((o) => o.id)), messagesForOrders(db, list.rows.map((o) => o.id))]);
  // each order's own history from the activity log (docs/decisions/060)
  const history = await recordHistories(db, "order", list.rows.map((o) => o.id));
  return {
    waiting,
    // the accountant's export form starts on this month so far
    exportRange: monthToDate(),
    query,
    tab,
    counts,
    over,
    metrics,
    list: {
      ...list,
      rows: list.rows.map((o) => ({
        ...o,
        delivery: deliveries.get(o.id),
        whatsapp: whatsapp.get(o.id),
        history: history.get(o.id) ?? [],
        shortId: shortOrderId(o.id),
        created: formatDateTimeZA(o.createdAt),
        // A paid order's invoice (its number stays with the order if the payment is later set back; the PDF doesn't).
        invoice: invoices && o.paymentStatus === "completed" && o.invoiceNumber !== null ? { number: formatInvoiceNumber(o.invoiceNumber, env().INVOICE_PREFIX), href: invoicePath(o.id) } : undefined,
        stamps: [
          { label: "Placed", at: formatDateTimeZA(o.createdAt) },
          { label: "Processing since", at: o.processingStartedAt ? formatDateTimeZA(o.processingStartedAt) : null },
          { label: "Shipped", at: o.shippedAt ? formatDateTimeZA(o.shippedAt) : null },
          { label: "Delivered", at: o.deliveredAt ? formatDateTimeZA(o.deliveredAt) : null },
          { label: "Last change", at: formatDateTimeZA(o.updatedAt) },
        ],
      })),
    },
  };
}

/** The change's message, and what it found out of stock (docs/decisions/020). */
function withStockNote(message: string, result: { short: Array<{ name: string; quantity: number }> }): string {
  return result.short.length ? `${message}. ${ORDER_ADMIN_MESSAGES.stockShort(result.short)}` : message;
}

export const action = adminAction(
  orderAdminIntent,
  {
    status: async (db, { id, status }) => withStockNote(ORDER_ADMIN_MESSAGES.statusUpdated(status), await setOrderStatus(db, id, status)),
    payment: async (db, { id, paymentStatus }) => withStockNote(ORDER_ADMIN_MESSAGES.paymentUpdated(paymentStatus), await setPaymentStatus(db, id, paymentStatus)),
    update: async (db, input) => (await updateOrder(db, input), ORDER_ADMIN_MESSAGES.updated),
    email: async (db, { id }) => (await sendStatusEmailNow(db, id), ORDER_ADMIN_MESSAGES.emailSent),
    delete: async (db, { id }) => (await deleteOrder(db, id), ORDER_ADMIN_MESSAGES.deleted),
    book: async (db, { id, kind }) => {
      const { shipment, created } = await bookShipment(db, id, { kind });
      return `${created ? "Courier booked" : "Already booked"}: waybill ${shipment.trackingReference}${shipment.test ? " (test delivery)" : ""}`;
    },
    cancelBooking: async (db, { id }) => (await cancelShipment(db, id), "Courier booking cancelled"),
    bookAll: async (db) => {
      const r = await bookAllPaid(db);
      const failed = r.failed.map((f) => `#${shortOrderId(f.orderId)}: ${f.reason}`).join(" ");
      return `${r.booked.length} ${r.booked.length === 1 ? "order" : "orders"} booked for collection on ${r.collectionDate}.${failed ? ` Not booked — ${failed}` : ""}`;
    },
  },
  {
    // A packer changes the status, books the courier and e-mails the customer; payments, totals and deleting are money.
    permission: {
      status: "orders.fulfil",
      email: "orders.fulfil",
      book: "orders.fulfil",
      cancelBooking: "orders.fulfil",
      bookAll: "orders.fulfil",
      payment: "orders.money",
      update: "orders.money",
      delete: "orders.money",
    },
    record: { status: { type: "order", outside: true }, payment: { type: "order", outside: true }, update: { type: "order", outside: true }, email: { type: "order", outside: true }, delete: "order", book: { type: "order", outside: true }, cancelBooking: { type: "order", outside: true }, bookAll: { type: "order", id: () => null, outside: true } },
    failure: {
      status: ORDER_ADMIN_MESSAGES.failedStatus,
      payment: ORDER_ADMIN_MESSAGES.failedPayment,
      update: ORDER_ADMIN_MESSAGES.failedUpdate,
      email: ORDER_ADMIN_MESSAGES.emailFailed("the mail could not be prepared"),
      delete: ORDER_ADMIN_MESSAGES.failedDelete,
      book: "Failed to book the courier",
      cancelBooking: "Failed to cancel the booking",
      bookAll: "Failed to book the couriers",
    },
    prepare: gatherLines,
  },
);

export function meta() {
  return [{ title: "Orders | Admin | Scentara" }];
}

export type AdminOrderRow = Route.ComponentProps["loaderData"]["list"]["rows"][number];

const figure = (value: number | null, unit: string) => (value === null ? "–" : `${value}${unit}`);

export default function Orders({ loaderData: d }: Route.ComponentProps) {
  const { query, list, tab, counts, over, metrics, waiting, exportRange } = d;
  const here = listHref(PATH, query);
  // Only what the person's role allows is offered (the action checks again): a packer changes the status, e-mails it
  // and books couriers; payments, edits, deleting and the exports are someone else's.
  const staff = useAdminPermissions();
  const fulfil = staff.can("orders.fulfil");
  const money = staff.can("orders.money");
  const editor = useRowEditor(money ? query.edit : "");
  const columns = orderColumns<AdminOrderRow>({ path: PATH, query, here, fulfil, money, onEdit: editor.start });
  return (
    <AdminPage
      title="Orders"
      description="Confirm payments, pack, ship and track. Changes reach the customer's order page at once."
      actions={staff.can("reports") ? <OrdersExportForm range={exportRange} /> : undefined}
      stats={[
        { label: "Avg. processing", value: figure(metrics.avgProcessingHours, " h"), hint: "payment to dispatch" },
        { label: "Avg. delivery", value: figure(metrics.avgDeliveryDays, metrics.avgDeliveryDays === 1 ? " day" : " days"), hint: "dispatch to door" },
        { label: "Completion rate", value: figure(metrics.completionRate, "%"), hint: "shipped orders delivered" },
      ]}
      status={<AdminStatus />}
    >
      <StatusTabs path={PATH} query={query} tab={tab} counts={counts} over={over} />
      {tab === "processing" ? <BookAllPaid action={here} waiting={waiting} /> : null}
      <FilterBar path={PATH} query={query} keep={["status"]} fields={[{ name: "q", label: "Search", kind: "search", placeholder: "Order number (first characters) or customer e-mail" }]} />
      {over.includes(tab) ? (
        <p role="status" className="mb-4 border-l-2 border-gold bg-sand/60 px-4 py-3 text-sm text-ink-soft">
          {ORDER_ADMIN_MESSAGES.manyMatches(tabCountLabel(SEARCH_COUNT_BOUND, false))}
        </p>
      ) : null}
      <DataTable<AdminOrderRow>
        rows={list.rows}
        columns={fulfil || money ? columns : columns.filter((c) => c.header !== "Actions")}
        rowKey={(o) => o.id}
        caption={`${ORDER_STATUS_LABELS[tab]} orders`}
        empty={<p className="font-display text-2xl text-ink">{ORDER_ADMIN_MESSAGES.none(tab)}</p>}
        page={{ page: list.page, pageCount: list.pageCount, hrefFor: (page) => listHref(PATH, query, { page }) }}
        renderAfterRow={(o) =>
          editor.editing === o.id ? (
            <OrderEditor order={o} action={here} cancelHref={here} onCancel={editor.stop} />
          ) : (
            <>
              <OrderDetail order={o} hint={o.lines.some((l) => l.stockShort > 0) ? ORDER_ADMIN_MESSAGES.shortHint : o.paymentStatus === "pending" ? ORDER_ADMIN_MESSAGES.eftHint : undefined} invoice={o.invoice} />
              <ShipmentPanel orderId={o.id} shortId={o.shortId} paid={o.paymentStatus === "completed"} status={o.status} delivery={o.delivery} action={here} />
              <WhatsappPanel messages={o.whatsapp} />
              <RecordHistory compact items={o.history} allHref={`/admin/activity?type=order&record=${o.id}`} />
            </>
          )
        }
      />
    </AdminPage>
  );
}
