/**
 * The three fake couriers on loopback ports, and the shop's real clients pointed at them: what integration tests
 * install with setCourierClientsForTests, and what the couriers end-to-end spec serves to its shop. The fakes themselves
 * live in app/modules/couriers/ (the demo runs them in-process); this loopback setup is for tests only.
 */
import { setCourierClientsForTests } from "~/modules/couriers/couriers.server";
import { resetEnvForTests } from "~/utils/env.server";
import { createPargoClient } from "~/modules/couriers/pargo.server";
import { createPudoClient } from "~/modules/couriers/pudo.server";
import { createShiplogicClient } from "~/modules/couriers/shiplogic.server";
import { startFakePargo } from "~/modules/couriers/fake-pargo.server";
import { startFakePudo } from "~/modules/couriers/fake-pudo.server";
import { startFakeShiplogic } from "~/modules/couriers/fake-shiplogic.server";

export async function startFakeCouriers(options: { now?: () => number; timeoutMs?: number } = {}) {
  const [shiplogic, pudo, pargo] = await Promise.all([startFakeShiplogic({ now: options.now }), startFakePudo({ now: options.now }), startFakePargo({ now: options.now })]);
  const timeoutMs = options.timeoutMs ?? 5_000;
  const clients = {
    shiplogic: createShiplogicClient({ baseUrl: shiplogic.baseUrl, apiKey: shiplogic.apiKey, webhookSecret: shiplogic.webhookSecret, timeoutMs, test: true }),
    pudo: createPudoClient({ baseUrl: pudo.baseUrl, apiKey: pudo.apiKey, timeoutMs, test: true }),
    pargo: createPargoClient({ baseUrl: pargo.baseUrl, username: pargo.username, password: pargo.password, timeoutMs, test: true }),
  };
  return {
    shiplogic,
    pudo,
    pargo,
    clients,
    async close() {
      await Promise.all([shiplogic.close(), pudo.close(), pargo.close()]);
    },
  };
}

/**
 * The fake couriers installed for an integration test file: every delivery kind offered, a quote timeout generous
 * enough for a loaded CI machine (the live prices must not be replaced by the table rate; a timeout's own test sets
 * its own), and the shop's clients pointed at the fakes. `uninstall` puts all of it back.
 */
export async function installFakeCouriers(options: { now?: () => number } = {}) {
  process.env.DELIVERY_KINDS = "door,locker,point";
  process.env.COURIER_QUOTE_TIMEOUT_MS = "5000";
  resetEnvForTests();
  const couriers = await startFakeCouriers(options);
  setCourierClientsForTests(couriers.clients);
  return {
    ...couriers,
    async uninstall() {
      setCourierClientsForTests(null);
      process.env.DELIVERY_KINDS = "";
      delete process.env.COURIER_QUOTE_TIMEOUT_MS;
      resetEnvForTests();
      await couriers.close();
    },
  };
}
