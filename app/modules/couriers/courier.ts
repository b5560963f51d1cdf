/**
 * The courier interface (browser-safe types only; clients live in *.server.ts), the same shape as payments/provider.ts:
 * one contract, one file per service (shiplogic.server.ts, pudo.server.ts, pargo.server.ts), one local fake each beside
 * them (fake-*.server.ts: the demo's test courier, and the tests'). The shop speaks only this contract; a service's own field names stay inside its client.
 *
 * - Shiplogic (The Courier Guy): door-to-door; rates by service level, shipments, labels, tracking (+ webhooks).
 * - PUDO (The Courier Guy's lockers): door-to-locker; the lockers list, locker rates, shipments with terminal_id.
 * - Pargo: pick-up points (shops); the points list, shipments to a point.
 *
 * Money is integer cents, VAT included (what the courier charges the shop). Times are ISO 8601 strings.
 */
export type CourierName = "shiplogic" | "pudo" | "pargo";
export const COURIER_NAMES: readonly CourierName[] = ["shiplogic", "pudo", "pargo"];

/** How the parcel reaches the shopper: to their door, to a locker (PUDO), or to a pick-up point (Pargo). */
export type DeliveryKind = "door" | "locker" | "point";

export interface CourierAddress {
  type: "residential" | "business";
  company?: string;
  /** street number and name (Shiplogic street_address) */
  streetAddress: string;
  /** suburb (Shiplogic local_area) */
  localArea: string;
  city: string;
  /** the province (Shiplogic zone) */
  zone: string;
  /** the postal code (Shiplogic code) */
  code: string;
  country: "ZA";
  lat?: number;
  lng?: number;
}

export interface CourierContact {
  name: string;
  /** +27… or 0…, as the shopper gave it */
  mobileNumber: string;
  email: string;
}

/** One parcel. Door services take free dimensions; lockers take the smallest box the parcel fits (the client maps it). */
export interface Parcel {
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  weightKg: number;
}

/** The delivery end of a quote or shipment: an address (door) or a locker / pick-up point by its code. */
export type DeliveryEnd = { address: CourierAddress } | { pointCode: string };

export interface QuoteRequest {
  collection: CourierAddress;
  delivery: DeliveryEnd;
  parcels: Parcel[];
  declaredValueCents: number;
  /** YYYY-MM-DD: the day the shop hands it over (default: the next working day) */
  collectionDate?: string;
}

/** One service level the courier offers for a quote: economy, overnight, locker… */
export interface ServiceRate {
  courier: CourierName;
  /** the courier's own code (ECO, ONX, L2L…): stored on the order and sent back when booking */
  serviceCode: string;
  /** what the shopper reads: "Economy", "Overnight", "Door to locker" */
  serviceName: string;
  priceCents: number;
  /** the delivery window the courier promises (ISO dates or date-times); null when it gives none */
  deliveryFrom: string | null;
  deliveryTo: string | null;
}

/** A locker (PUDO) or pick-up point (Pargo) a shopper can collect from. */
export interface PickupPoint {
  courier: CourierName;
  kind: "locker" | "point";
  /** the service's code for it (PUDO terminal_id, Pargo pickupPointCode) */
  code: string;
  name: string;
  streetAddress: string;
  suburb: string;
  city: string;
  province: string;
  postalCode: string;
  lat: number;
  lng: number;
  /** opening hours, one line each: "Mon–Fri 08:00–18:00" */
  hours: string[];
}

export interface BookingRequest {
  /** our order id: the shipment's customer_reference, and the key that keeps a retry from booking twice */
  reference: string;
  collection: CourierAddress;
  collectionContact: CourierContact;
  delivery: DeliveryEnd;
  deliveryContact: CourierContact;
  parcels: Parcel[];
  declaredValueCents: number;
  serviceCode: string;
  /** YYYY-MM-DD: the collection day (a batch books the day's parcels for one collection) */
  collectionDate?: string;
  /** special instructions for the driver */
  instructions?: string;
}

export interface Booking {
  courier: CourierName;
  /** the service's id of the shipment (used for label, cancel) */
  shipmentId: string;
  /** the waybill / tracking reference the shopper and the courier use */
  trackingReference: string;
  /** what the courier charged for it, when it says */
  priceCents: number | null;
  /** a public page where the shopper can follow it, when the service has one */
  trackingUrl: string | null;
}

/**
 * Where a parcel is, in the shop's words. The order follows it: `collected` (or later) → Shipped,
 * `delivered` → Delivered. `ready_for_collection`: waiting in the locker / at the point (with a PIN where given).
 */
export type TrackingStatus =
  | "booked"
  | "collected"
  | "in_transit"
  | "out_for_delivery"
  | "ready_for_collection"
  | "delivered"
  | "cancelled"
  | "failed";
export const TRACKING_STATUSES: readonly TrackingStatus[] = [
  "booked",
  "collected",
  "in_transit",
  "out_for_delivery",
  "ready_for_collection",
  "delivered",
  "cancelled",
  "failed",
];

export interface TrackingEvent {
  /** stable per event at the service (its event id, or a hash of status + time): applying one twice changes nothing */
  id: string;
  status: TrackingStatus;
  /** when it happened (ISO) */
  at: string;
  /** the service's own words: "Collected from sender", "Ready for collection at Rondebosch Checkers locker" */
  message: string;
  location: string | null;
  /** the locker / counter collection PIN, where the service gives one */
  collectionPin?: string | null;
}

/** A verified tracking push from a service's webhook: which shipment and what happened. */
export interface TrackingPush {
  courier: CourierName;
  trackingReference: string;
  events: TrackingEvent[];
}

export interface CourierClient {
  readonly name: CourierName;
  readonly kind: DeliveryKind;
  /** true for the local fake (demo, tests): bookings are test deliveries and nothing is collected */
  readonly test: boolean;
  /** Service levels and prices for this parcel to this end. */
  rates(request: QuoteRequest, signal?: AbortSignal): Promise<ServiceRate[]>;
  /** Every locker / pick-up point (lockers and points only; door couriers have none). */
  points?(signal?: AbortSignal): Promise<PickupPoint[]>;
  /** Creates the shipment (the courier collects it). */
  book(request: BookingRequest, signal?: AbortSignal): Promise<Booking>;
  /** The waybill label as a PDF. */
  label(booking: Pick<Booking, "shipmentId" | "trackingReference">, signal?: AbortSignal): Promise<Uint8Array>;
  /** Every tracking event so far, oldest first. */
  track(booking: Pick<Booking, "shipmentId" | "trackingReference">, signal?: AbortSignal): Promise<TrackingEvent[]>;
  /** Cancels a shipment that has not been collected yet. */
  cancel(booking: Pick<Booking, "shipmentId" | "trackingReference">, signal?: AbortSignal): Promise<void>;
  /**
   * Verifies a tracking webhook (signature; and its age where the service signs a time) and returns what it says;
   * throws CourierWebhookError when it can't be trusted. Only services that push tracking have it.
   */
  verifyWebhook?(rawBody: string, headers: Headers, now?: Date): TrackingPush;
}

/**
 * What went wrong talking to a courier, in plain words the owner can act on (shown in the admin).
 * - `unavailable`: the service did not answer in time, or answered 5xx / not-JSON (try again later; checkout falls back)
 * - `refused`: the service said no (4xx): the message says what it refused and what to change
 * - `misconfigured`: credentials refused (401/403): check the API key in settings
 */
export class CourierError extends Error {
  constructor(
    message: string,
    readonly reason: "unavailable" | "refused" | "misconfigured",
    readonly status?: number,
  ) {
    super(message);
    this.name = "CourierError";
  }
}

export class CourierWebhookError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CourierWebhookError";
  }
}

/** The most a parcel may weigh (25 kg): catalog/sizes.logic.ts, where a size's weight is bounded by it. */
export { MAX_PARCEL_WEIGHT_KG } from "~/modules/catalog/sizes.logic";
