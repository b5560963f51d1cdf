import { describe, expect, it } from "vitest";
import {
  WebhookVerificationError,
  generateWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  webhookHeaders,
  webhookKey,
} from "./standard-webhooks.server";

// The published Standard Webhooks test vector: a receiver library must accept what we produce and vice versa.
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const AT_VECTOR = new Date(VECTOR.timestamp * 1000);

function vectorHeaders(overrides: Record<string, string> = {}) {
  return {
    "webhook-id": VECTOR.id,
    "webhook-timestamp": String(VECTOR.timestamp),
    "webhook-signature": VECTOR.signature,
    ...overrides,
  };
}

function failure(fn: () => unknown): WebhookVerificationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error("expected the webhook to be refused");
}

describe("signWebhook", () => {
  it("reproduces the Standard Webhooks test vector", () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it("uses the base64-decoded secret after whsec_, so the prefix is optional", () => {
    expect(signWebhook(VECTOR.secret.slice(6), VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
    expect(webhookKey(VECTOR.secret)).toEqual(Buffer.from(VECTOR.secret.slice(6), "base64"));
  });

  it("refuses an empty secret", () => {
    expect(() => webhookKey("whsec_")).toThrow(/empty/);
  });

  it("generates secrets in the provider's format that sign and verify", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = webhookHeaders(secret, "evt_1", "{}");
    expect(verifyWebhookSignature(secret, "{}", headers).id).toBe("evt_1");
  });
});

describe("verifyWebhookSignature", () => {
  it("accepts the test vector at its timestamp", () => {
    expect(verifyWebhookSignature(VECTOR.secret, VECTOR.body, vectorHeaders(), { now: AT_VECTOR })).toEqual({
      id: VECTOR.id,
      timestamp: VECTOR.timestamp,
    });
  });

  it("reads a Fetch Headers object (header names are case-insensitive)", () => {
    const headers = new Headers({ "Webhook-Id": VECTOR.id, "Webhook-Timestamp": String(VECTOR.timestamp), "Webhook-Signature": VECTOR.signature });
    expect(verifyWebhookSignature(VECTOR.secret, VECTOR.body, headers, { now: AT_VECTOR }).id).toBe(VECTOR.id);
  });

  it("accepts when any one of several space-separated signatures matches (secret rotation)", () => {
    const headers = vectorHeaders({ "webhook-signature": `v1,bm9wZQ== v2,abc ${VECTOR.signature}` });
    expect(verifyWebhookSignature(VECTOR.secret, VECTOR.body, headers, { now: AT_VECTOR }).id).toBe(VECTOR.id);
  });

  it.each([
    ["a changed body", { body: '{"test": 2432232315}' }],
    ["a different secret", { secret: "whsec_" + Buffer.from("another secret entirely!").toString("base64") }],
    ["a changed id", { headers: { "webhook-id": "msg_other" } }],
    ["a changed timestamp", { headers: { "webhook-timestamp": String(VECTOR.timestamp + 1) }, now: new Date((VECTOR.timestamp + 1) * 1000) }],
    ["a non-v1 scheme carrying the right mac", { headers: { "webhook-signature": VECTOR.signature.replace("v1,", "v2,") } }],
    ["an entry without a version", { headers: { "webhook-signature": VECTOR.signature.slice(3) } }],
    ["a truncated signature", { headers: { "webhook-signature": VECTOR.signature.slice(0, -4) } }],
    ["garbage", { headers: { "webhook-signature": "v1,!!!! v1," } }],
  ] as const)("refuses %s (401)", (_name, change: { body?: string; secret?: string; headers?: Record<string, string>; now?: Date }) => {
    const error = failure(() =>
      verifyWebhookSignature(change.secret ?? VECTOR.secret, change.body ?? VECTOR.body, vectorHeaders(change.headers), {
        now: change.now ?? AT_VECTOR,
      }),
    );
    expect(error.reason).toBe("bad_signature");
    expect(error.status).toBe(401);
  });

  it.each(["webhook-id", "webhook-timestamp", "webhook-signature"])("refuses a request without %s (400)", (name) => {
    const headers: Record<string, string> = vectorHeaders();
    delete headers[name];
    const error = failure(() => verifyWebhookSignature(VECTOR.secret, VECTOR.body, headers, { now: AT_VECTOR }));
    expect(error.reason).toBe("missing_headers");
    expect(error.status).toBe(400);
  });

  it.each(["abc", "-5", "1.5", "1e9", ""])("refuses the timestamp %j", (timestamp) => {
    const error = failure(() =>
      verifyWebhookSignature(VECTOR.secret, VECTOR.body, vectorHeaders({ "webhook-timestamp": timestamp }), { now: AT_VECTOR }),
    );
    expect(["bad_timestamp", "missing_headers"]).toContain(error.reason);
  });

  it.each([
    [-181, false],
    [-180, true],
    [0, true],
    [180, true],
    [181, false],
  ])("with the clock %i s away from the timestamp, accepts: %s", (offset, accepted) => {
    const now = new Date((VECTOR.timestamp + offset) * 1000);
    const verify = () => verifyWebhookSignature(VECTOR.secret, VECTOR.body, vectorHeaders(), { now });
    if (accepted) expect(verify().id).toBe(VECTOR.id);
    else expect(failure(verify).reason).toBe("stale_timestamp");
  });

  it("checks the timestamp even when the signature is right (replay of an old, genuine message)", () => {
    const error = failure(() => verifyWebhookSignature(VECTOR.secret, VECTOR.body, vectorHeaders()));
    expect(error.reason).toBe("stale_timestamp");
    expect(error.status).toBe(401);
  });

  it("round-trips webhookHeaders for the current time", () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: "payment.succeeded", payload: { amount: 100 } });
    const headers = webhookHeaders(secret, "evt_42", body);
    expect(Number(headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
    expect(verifyWebhookSignature(secret, body, headers).id).toBe("evt_42");
    expect(() => verifyWebhookSignature(secret, body + " ", headers)).toThrow(WebhookVerificationError);
  });
});

// The reference implementation (the `standardwebhooks` package) as an oracle: what one signs the other accepts.
// It isn't used at run time: see docs/decisions/006-standard-webhooks-verification.md.
describe("interoperability with the reference Standard Webhooks library", () => {
  it("accepts what the reference library signs, and the reference library accepts what we sign", async () => {
    const { Webhook } = await import("standardwebhooks");
    const secret = generateWebhookSecret();
    const reference = new Webhook(secret);
    const now = new Date();
    for (const body of ['{"type":"payment.succeeded","payload":{"amount":34999}}', "", "ünïcödé ✓ {}"]) {
      const id = `msg_${Math.random().toString(36).slice(2)}`;
      const theirs = reference.sign(id, now, body);
      const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": theirs };
      expect(verifyWebhookSignature(secret, body, headers, { now }).id).toBe(id);

      const ours = webhookHeaders(secret, id, body, now);
      expect(ours["webhook-signature"]).toBe(theirs);
      expect(() => reference.verify(body, ours, { jsonParse: false })).not.toThrow();
    }
  });

  it("both refuse a signature made with another secret", async () => {
    const { Webhook } = await import("standardwebhooks");
    const body = '{"a":1}';
    const forged = webhookHeaders(generateWebhookSecret(), "msg_1", body);
    const secret = generateWebhookSecret();
    expect(() => new Webhook(secret).verify(body, forged)).toThrow();
    expect(failure(() => verifyWebhookSignature(secret, body, forged)).reason).toBe("bad_signature");
  });
});
