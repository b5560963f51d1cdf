/**
 * Which courier serves each delivery kind, from configuration: the real service when its credentials are set, else
 * the shop's local fake of it (the demo's and a fresh install's test courier: nothing is collected, and every booking
 * says so). The fakes (fake-*.server.ts here) answer in the real APIs' shapes; here they run in-process, reached
 * through the client's `fetch`, so the demo needs no ports and no network. docs/decisions/031.
 */
import type { Env } from "~/utils/env.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import type { CourierClient, CourierName, DeliveryKind } from "./courier";
import { createShiplogicClient } from "./shiplogic.server";
import { createPudoClient } from "./pudo.server";
import { createPargoClient } from "./pargo.server";
import { createFakeShiplogic } from "./fake-shiplogic.server";
import { createFakePudo } from "./fake-pudo.server";
import { createFakePargo } from "./fake-pargo.server";

export const COURIER_OF_KIND: Record<DeliveryKind, CourierName> = { door: "shiplogic", locker: "pudo", point: "pargo" };
export const KIND_OF_COURIER: Record<CourierName, DeliveryKind> = { shiplogic: "door", pudo: "locker", pargo: "point" };

type CourierConfig = Pick<
  Env,
  "SHIPLOGIC_API_KEY" | "SHIPLOGIC_API_BASE" | "SHIPLOGIC_WEBHOOK_SECRET" | "PUDO_API_KEY" | "PUDO_API_BASE" | "PARGO_USERNAME" | "PARGO_PASSWORD" | "PARGO_API_BASE"
>;

/** In-process fakes, one of each per process, made on first use (their state is per process: see the fakes). */
let fakes: { shiplogic?: ReturnType<typeof createFakeShiplogic>; pudo?: ReturnType<typeof createFakePudo>; pargo?: ReturnType<typeof createFakePargo> } = {};
/** Never resolved (.invalid): the in-process fetch answers, so a fake can't reach a real host by mistake. */
const fakeBase = (name: CourierName) => `http://${name}.test-courier.invalid`;
const inProcess = (handler: (request: Request) => Promise<Response>): typeof fetch => (input, init) => handler(new Request(input, init));

let overrides: Partial<Record<CourierName, CourierClient>> = {};
const made = new Map<CourierName, CourierClient>();

/** The client for a courier (made once per process and configuration). */
export function courierClient(name: CourierName, config: CourierConfig = env()): CourierClient {
  const override = overrides[name];
  if (override) return override;
  const cached = made.get(name);
  if (cached) return cached;
  const client = makeClient(name, config);
  made.set(name, client);
  return client;
}

export function courierForKind(kind: DeliveryKind): CourierClient {
  return courierClient(COURIER_OF_KIND[kind]);
}

function makeClient(name: CourierName, config: CourierConfig): CourierClient {
  if (name === "shiplogic") {
    if (config.SHIPLOGIC_API_KEY) return createShiplogicClient({ baseUrl: config.SHIPLOGIC_API_BASE, apiKey: config.SHIPLOGIC_API_KEY, webhookSecret: config.SHIPLOGIC_WEBHOOK_SECRET });
    fakes.shiplogic ??= createFakeShiplogic();
    announceFake("door (The Courier Guy)");
    return createShiplogicClient({ baseUrl: fakeBase("shiplogic"), apiKey: fakes.shiplogic.apiKey, fetch: inProcess(fakes.shiplogic.handler), test: true, webhookSecret: config.SHIPLOGIC_WEBHOOK_SECRET });
  }
  if (name === "pudo") {
    if (config.PUDO_API_KEY) return createPudoClient({ baseUrl: config.PUDO_API_BASE, apiKey: config.PUDO_API_KEY });
    fakes.pudo ??= createFakePudo();
    announceFake("locker (PUDO)");
    return createPudoClient({ baseUrl: fakeBase("pudo"), apiKey: fakes.pudo.apiKey, fetch: inProcess(fakes.pudo.handler), test: true });
  }
  if (config.PARGO_USERNAME && config.PARGO_PASSWORD) return createPargoClient({ baseUrl: config.PARGO_API_BASE, username: config.PARGO_USERNAME, password: config.PARGO_PASSWORD });
  fakes.pargo ??= createFakePargo();
  announceFake("pick-up point (Pargo)");
  return createPargoClient({ baseUrl: fakeBase("pargo"), username: fakes.pargo.username, password: fakes.pargo.password, fetch: inProcess(fakes.pargo.handler), test: true });
}

function announceFake(what: string) {
  logger.info(`couriers: ${what} deliveries use the shop's test courier (no credentials set): bookings are test deliveries and nothing is collected`);
}

/** Tests: use these clients (e.g. against a fake started on a port), or none to go back to the configured ones. */
export function setCourierClientsForTests(clients: Partial<Record<CourierName, CourierClient>> | null) {
  overrides = clients ?? {};
  made.clear();
  fakes = {};
}
