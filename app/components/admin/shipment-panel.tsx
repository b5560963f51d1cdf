/**
 * An order's delivery in the admin list: what the shopper chose, and the courier booking — "Book courier" on a paid
 * order, then the waybill, "Print label" and "Cancel booking" until the courier collects, then where it is.
 */
import type { OrderDelivery } from "~/modules/couriers/shipments.server";
import { courierWaitingLabel } from "~/modules/couriers/delivery.logic";
import { useAdminFetcher } from "~/components/admin/admin-status";
import { useCan } from "~/components/admin/use-admin-permissions";

const KIND_WORDS = { door: "Door delivery", locker: "PUDO locker", point: "Pargo pick-up point" } as const;

export function ShipmentPanel({ orderId, shortId, paid, status, delivery, action }: { orderId: string; shortId: string; paid: boolean; status: string; delivery: OrderDelivery | undefined; action: string }) {
  const fetcher = useAdminFetcher();
  // booking, labels and cancelling are the packer's (orders.fulfil); anyone else sees the delivery only
  const fulfil = useCan("orders.fulfil");
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("id") === orderId;
  const s = delivery?.shipment ?? null;
  const choice = delivery?.kind
    ? `${KIND_WORDS[delivery.kind]}${delivery.serviceName ? ` · ${delivery.serviceName}` : ""}${delivery.point ? ` · ${delivery.point}` : ""}${delivery.priceSource === "table" ? " · charged the table rate (courier did not answer)" : delivery.priceSource === "zone" ? " · charged the zone's rate" : ""}`
    : "Zone delivery (chosen before couriers)";
  const canBook = fulfil && paid && !s && (status === "processing" || status === "shipped");
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-line/60 pt-3 text-xs text-ink-soft" data-testid="shipment-panel">
      <span className="font-medium uppercase tracking-[0.14em] text-ink">Delivery</span>
      <span className="min-w-0 break-words">{choice}</span>
      {s ? (
        <>
          <span className="text-ink">
            {s.courier} · <span className="font-mono">{s.trackingReference ?? "…"}</span> · {s.label}
            {s.test ? <span className="ml-2 bg-amber-50 px-1.5 py-0.5 text-amber-900 ring-1 ring-amber-200">Test delivery</span> : null}
          </span>
          {fulfil && s.trackingReference && s.status !== "booking" ? (
            <a href={`/admin/orders/${orderId}/label.pdf`} target="_blank" rel="noreferrer" className="font-medium uppercase tracking-[0.14em] text-ink underline-offset-4 hover:underline">
              Print label<span className="sr-only"> of order {shortId}</span>
            </a>
          ) : null}
          {fulfil && s.status === "booked" ? (
            <fetcher.Form method="post" action={action}>
              <input type="hidden" name="intent" value="cancelBooking" />
              <input type="hidden" name="id" value={orderId} />
              <button type="submit" disabled={busy} className="font-medium uppercase tracking-[0.14em] text-danger underline-offset-4 hover:underline disabled:opacity-60">
                {busy ? "Cancelling…" : "Cancel booking"}
                <span className="sr-only"> of order {shortId}</span>
              </button>
            </fetcher.Form>
          ) : null}
        </>
      ) : canBook ? (
        <fetcher.Form method="post" action={action} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="intent" value="book" />
          <input type="hidden" name="id" value={orderId} />
          {/* The shopper's choice is booked as it is; a locker or point order may go to the door instead (a full
              locker, a shopper who asks). Orders from before couriers go to the door. */}
          {delivery?.kind && delivery.kind !== "door" ? (
            <select name="kind" aria-label={`How to send order ${shortId}`} defaultValue="" className="border border-line bg-white px-2 py-1.5 text-xs text-ink">
              <option value="">As chosen: {KIND_WORDS[delivery.kind]}</option>
              <option value="door">Door delivery instead</option>
            </select>
          ) : delivery?.kind ? null : (
            <input type="hidden" name="kind" value="door" />
          )}
          <button type="submit" disabled={busy} className="bg-ink px-3 py-1.5 font-medium uppercase tracking-[0.14em] text-white hover:bg-ink/90 disabled:opacity-60">
            {busy ? "Booking…" : "Book courier"}
            <span className="sr-only"> for order {shortId}</span>
          </button>
        </fetcher.Form>
      ) : fulfil && !paid ? (
        <span className="text-muted">Book a courier once it is paid.</span>
      ) : null}
    </div>
  );
}

/** "Book all paid orders": one collection for every paid order still waiting for a courier. */
export function BookAllPaid({ action, waiting }: { action: string; waiting: number }) {
  const fetcher = useAdminFetcher();
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "bookAll";
  const fulfil = useCan("orders.fulfil");
  if (waiting === 0 || !fulfil) return null;
  return (
    <fetcher.Form method="post" action={action} className="flex flex-wrap items-center gap-3 border border-line bg-sand/50 px-4 py-3 text-sm">
      <input type="hidden" name="intent" value="bookAll" />
      <span className="text-ink-soft">{courierWaitingLabel(waiting)}</span>
      <button type="submit" disabled={busy} className="bg-ink px-4 py-2 text-xs font-medium uppercase tracking-[0.14em] text-white hover:bg-ink/90 disabled:opacity-60">
        {busy ? "Booking…" : "Book all for the next collection"}
      </button>
    </fetcher.Form>
  );
}
