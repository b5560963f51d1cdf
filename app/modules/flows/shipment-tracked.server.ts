/**
 * Flow: a courier's tracking moves the order (issue 31's couriers). The courier's events — polled by the job or pushed
 * by its webhook and confirmed with the courier — are recorded on the shipment once each (couriers), then:
 *   1. dispatched while processing → the order is Shipped, at the event's time (flows/order-changed-by-owner: the
 *      shipped e-mail with the tracking link goes out after its commit);
 *   2. delivered → the order is Delivered (its WhatsApp update queued);
 *   3. out for delivery / waiting at the locker, once and only while not delivered → the shopper's e-mail (couriers).
 * Each order change is its own transaction, as when the owner makes it; the events stay recorded if one fails, and a
 * later poll does not apply them twice.
 */
import type { DB } from "~/db/db.server";
import * as shipments from "~/modules/couriers/shipments.server";
import type { TrackingEvent } from "~/modules/couriers/courier";
import { setOrderStatus } from "./order-changed-by-owner.server";

const moveOrder: shipments.MoveOrder = (db, orderId, status, at) => setOrderStatus(db, orderId, status, at);

/** Applies the courier's events to a shipment and moves its order along; how many events were new. */
export function applyTracking(db: DB, shipmentId: string, events: TrackingEvent[], source: "webhook" | "poll", now = new Date()): Promise<number> {
  return shipments.applyTracking(db, shipmentId, events, source, now, moveOrder);
}

/** The job: asks the couriers about shipments on their way that were not heard of for a while. */
export function pollTracking(db: DB, options: { now?: Date; staleMs?: number; limit?: number } = {}) {
  return shipments.pollTracking(db, moveOrder, options);
}

/** A courier's tracking webhook: verified, confirmed with the courier, then applied as above. */
export function receiveTrackingWebhook(db: DB, courier: string, rawBody: string, headers: Headers, now = new Date(), urlToken?: string | null) {
  return shipments.receiveTrackingWebhook(db, moveOrder, courier, rawBody, headers, now, urlToken);
}
