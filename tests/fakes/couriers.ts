/**
 * The three fake couriers on loopback ports, and the shop's real clients pointed at them: what integration tests
 * install with setCourierClientsForTests, and what the couriers end-to-end spec serves to its shop. The fakes themselves
 * live in app/modules/couriers/ (the demo runs them in-process); this loopback setup is for tests only.
 */
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
