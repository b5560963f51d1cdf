/**
 * Which WhatsApp sender the shop uses, from configuration (docs/decisions/055), as couriers.server.ts does for the
 * couriers:
 * - "live": WHATSAPP_ACCESS_TOKEN (and the phone number id, app secret and verify token parseEnv insists on) — Meta's
 *   Cloud API at WHATSAPP_API_BASE;
 * - "test": no credentials — the shop's local fake (fake-cloud-api.server.ts), in-process, whose statuses come back
 *   to this shop's /webhooks/whatsapp signed like Meta's; every message is marked a test message in the admin. An
 *   https:// shop (a real one) uses it only with ALLOW_TEST_WHATSAPP=true, as test payments need ALLOW_TEST_PAYMENTS;
 * - "off": WHATSAPP_UPDATES=false, or an https:// shop with neither credentials nor that opt-in. No opt-in is offered
 *   and nothing is queued.
 */
import { createHmac } from "node:crypto";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { env, isRealDeployment, type Env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { createCloudApiClient } from "./cloud-api.server";
import { createFakeCloudApi, type FakeCloudApi } from "./fake-cloud-api.server";
import { allTemplates } from "./templates";
import type { WhatsappClient } from "./whatsapp";

export type WhatsappMode = "live" | "test" | "off";

type WhatsappConfig = Pick<Env, "WHATSAPP_UPDATES" | "WHATSAPP_ACCESS_TOKEN" | "ALLOW_TEST_WHATSAPP" | "PUBLIC_BASE_URL">;

export function whatsappMode(config: WhatsappConfig = env()): WhatsappMode {
  if (!config.WHATSAPP_UPDATES) return "off";
  if (config.WHATSAPP_ACCESS_TOKEN) return "live";
  return !isRealDeployment(config) || config.ALLOW_TEST_WHATSAPP ? "test" : "off";
}

/** The app secret the webhooks are signed with: Meta's, or (test mode) one derived from the shop's own secret. */
export function whatsappAppSecret(): string {
  const config = env();
  return config.WHATSAPP_APP_SECRET ?? createHmac("sha256", authSecret()).update("scentara:whatsapp-test-app-secret").digest("hex");
}

/** The token Meta's webhook set-up must send (test mode without one: derived, so nobody can guess it). */
export function whatsappVerifyToken(): string {
  const config = env();
  return config.WHATSAPP_VERIFY_TOKEN ?? createHmac("sha256", authSecret()).update("scentara:whatsapp-test-verify-token").digest("hex");
}

/** The registered templates as the fake knows them (name → body). */
export function templateBodies(): Record<string, string> {
  return Object.fromEntries(allTemplates().map((t) => [t.name, t.body]));
}

let override: WhatsappClient | null = null;
let made: { key: string; client: WhatsappClient; fake?: FakeCloudApi } | null = null;
/** Never resolved (.invalid): the in-process fetch answers, so the fake can't reach a real host by mistake. */
const FAKE_BASE = "http://whatsapp.test-cloud-api.invalid";

/** The sender for this process's configuration, or null when WhatsApp updates are off. */
export function whatsappClient(): WhatsappClient | null {
  if (override) return override;
  const config = env();
  const mode = whatsappMode(config);
  if (mode === "off") return null;
  const key = `${mode}:${config.WHATSAPP_API_BASE}:${config.WHATSAPP_PHONE_NUMBER_ID}:${config.PUBLIC_BASE_URL}`;
  if (made?.key === key) return made.client;
  if (mode === "live") {
    const client = createCloudApiClient({ baseUrl: config.WHATSAPP_API_BASE, version: config.WHATSAPP_API_VERSION, phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID!, accessToken: config.WHATSAPP_ACCESS_TOKEN! });
    made = { key, client };
    return client;
  }
  const webhookUrl = `${config.PUBLIC_BASE_URL.replace(/\/+$/, "")}/webhooks/whatsapp`;
  const fake = createFakeCloudApi({
    appSecret: whatsappAppSecret(),
    templates: templateBodies(),
    // as Meta does: the statuses come back to the shop's webhook over HTTP, signed with the app secret
    deliver: async (body, headers) => {
      const response = await fetch(webhookUrl, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
      if (!response.ok) logger.warn({ status: response.status }, "whatsapp: the test sender's webhook was refused");
    },
    autoStatuses: { sentAfterMs: 300, deliveredAfterMs: 1200 },
  });
  logger.info("whatsapp: no WhatsApp credentials set: order updates go to the shop's test sender (test messages: nothing reaches a phone)");
  const inProcess: typeof fetch = (input, init) => fake.handler(new Request(input, init));
  const client = createCloudApiClient({ baseUrl: FAKE_BASE, version: config.WHATSAPP_API_VERSION, phoneNumberId: fake.phoneNumberId, accessToken: fake.accessToken, fetch: inProcess, test: true });
  made = { key, client, fake };
  return client;
}

/** Tests: use this client (e.g. against a fake of their own), or null to go back to the configured one. */
export function setWhatsappClientForTests(client: WhatsappClient | null) {
  override = client;
  made = null;
}
