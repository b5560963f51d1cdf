/**
 * /admin/returns/:id — one return and its next step (issue 21 point 8, docs/decisions/041): approve or decline it with a
 * message to the customer, mark it received (putting bottles back in stock), refund it (through the payment provider
 * where its API allows it, otherwise recorded as paid out by EFT) with its credit note. Every step e-mails the customer.
 */
import { data, Link } from "react-router";
import type { Route } from "./+types/admin.returns.$id";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { NextStep, RefundDone, ReturnedItems, ReturnOrder } from "~/components/admin/return-detail";
import { buttonClass } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { can } from "~/modules/accounts/permissions";
import { INVOICE_PERMISSIONS } from "~/modules/accounts/staff-viewer";
import { adminAction } from "~/modules/admin/admin-action.server";
import { adminReturnPage } from "~/modules/returns/return-page.server";
import { refundReturn } from "~/modules/flows/return-refunded.server";
import { approveReturn, declineReturn, markPaidByEft, receiveReturn } from "~/modules/returns/returns-admin.server";
import { KIND_LABELS, RETURN_MESSAGES, RETURN_STATUS_LABELS } from "~/modules/returns/returns.logic";
import { gather, returnAdminIntent } from "~/modules/returns/returns.schema";

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requirePermission(request, "orders.view");
  // The invoice and the credit note are the bookkeeper's and the refunder's; a packer sees the return without them.
  const invoices = can(admin.permissions, INVOICE_PERMISSIONS);
  const page = await adminReturnPage(getDb(), params.id ?? "", { invoices });
  if (!page) throw data({ message: RETURN_MESSAGES.returnNotFound }, { status: 404 });
  return page;
}

export const action = adminAction(
  returnAdminIntent,
  {
    approve: (db, { id, message }) => approveReturn(db, id, message),
    decline: (db, { id, message }) => declineReturn(db, id, message),
    receive: (db, { id, restock }) => receiveReturn(db, id, restock),
    refund: (db, { id, amount, method, reference }) => refundReturn(db, id, { amountCents: amount, method, reference }),
    eftPaid: (db, { id, reference }) => markPaidByEft(db, id, reference),
  },
  {
    // Receiving the parcel (and putting bottles back) is the packer's; approving and refunding are money.
    permission: { approve: "orders.money", decline: "orders.money", receive: "orders.fulfil", refund: "orders.money", eftPaid: "orders.money" },
    // money leaves the shop: the password or a passkey again when the last proof is over 10 minutes old
    sensitive: ["refund"],
    record: { type: "return", outside: true },
    failure: { approve: RETURN_MESSAGES.failed, decline: RETURN_MESSAGES.failed, receive: RETURN_MESSAGES.failed, refund: RETURN_MESSAGES.failedRefund, eftPaid: RETURN_MESSAGES.failed },
    // Bottles put back on the shelf change what the storefront shows (receiveReturn announces it after its commit).
    prepare: (fields) => gather(fields, "restock", "restock"),
  },
);

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Return for order ${loaderData.order.shortId} | Admin | Scentara` : "Return | Admin | Scentara" }];
}

export default function ReturnDetail({ loaderData: d }: Route.ComponentProps) {
  const { ret, order } = d;
  const open = d.steps.length > 0;
  return (
    <AdminPage
      title={`Return for order #${order.shortId}`}
      description={`${order.address.name}${order.customerEmail ? ` · ${order.customerEmail}` : ""} · ${KIND_LABELS[ret.kind]}`}
      actions={
        <Link to="/admin/returns" className={buttonClass("ghost", "md")}>
          ← All returns
        </Link>
      }
      stats={[
        { label: "Status", value: RETURN_STATUS_LABELS[ret.status] },
        { label: "Requested", value: d.dates.requested, hint: d.dates.delivered ? `delivered ${d.dates.delivered}` : undefined },
        open
          ? { label: "Refund due", value: d.dates.due, hint: d.overdue ? `Overdue by ${-d.days} ${d.days === -1 ? "day" : "days"}` : d.days === 0 ? "due today" : `in ${d.days} ${d.days === 1 ? "day" : "days"}` }
          : { label: ret.status === "refunded" ? "Refunded" : "Decided", value: (ret.status === "refunded" ? d.dates.refunded : d.dates.decided) ?? "–" },
      ]}
      status={<AdminStatus />}
    >
      {d.overdue ? (
        <p role="alert" className="border border-danger/40 bg-danger/5 px-4 py-3 text-sm text-danger">
          The refund was due on {d.dates.due} (30 days after the request, ECTA s44(3)). Refund it now.
        </p>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <ReturnedItems ret={ret} />
        <ReturnOrder d={d} />
      </div>

      <NextStep d={d} />
      {ret.status === "refunded" ? <RefundDone d={d} /> : null}
    </AdminPage>
  );
}
