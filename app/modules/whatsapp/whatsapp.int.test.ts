/**
 * WhatsApp order updates (issue 34 points 1 and 5; docs/decisions/055), on SQLite and PostgreSQL, through the real
 * payment webhook, the real WhatsApp webhook route, the profile and stop-link pages, and the shop's Cloud API client
 * speaking over HTTP to the local fake: nobody without consent gets a message; opting in logs the words shown; STOP,
 * the profile and the e-mail's link opt out; forged, unsigned and replayed webhooks change nothing; statuses apply
 * once in any order; retries never send twice, also with two senders claiming at once; a failed message is covered
 * by e-mail.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { listConsents } from "~/modules/consent/consent.server";
import { setOrderStatus } from "~/modules/flows/order-changed-by-owner.server";
import * as preferences from "~/routes/profile.preferences";
import * as stopPage from "~/routes/whatsapp.stop";
import * as webhook from "~/routes/webhooks.whatsapp";
import { resetEnvForTests } from "~/utils/env.server";
import { installFakeWhatsapp, postWhatsappWebhook } from "../../../tests/fakes/whatsapp";
import { TEST_ADDRESS } from "../../../tests/factories/orders";
import { insertAwaitingOrder, postWebhook, simulatedWebhook } from "../../../tests/factories/payments";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { optInFromCheckout } from "./checkout-opt-in.server";
import { backoffMs, markFailed, messagesForOrders, queueOrderUpdate, sendDueWhatsappMessages, WHATSAPP_LEASE_MS, WHATSAPP_MAX_ATTEMPTS } from "./outbox.server";
import { whatsappEmailLines } from "./stop-link.server";
import { eraseOldWhatsappMessages } from "./whatsapp-privacy.server";
import { optInToWhatsapp, whatsappSubscription } from "./subscriptions.server";
import { TEMPLATES, whatsappConsentWording, WHATSAPP_OPT_OUT_WORDING } from "./templates";

const db = () => getDb();
let wa: Awaited<ReturnType<typeof installFakeWhatsapp>>;
let phoneSeq = 1000;
/** a fresh South African mobile number for each shopper (the fake fails those ending in 0000 and 9999) */
const nextPhone = () => `+2782555${String(++phoneSeq).padStart(4, "0")}`;

beforeAll(async () => {
  wa = await installFakeWhatsapp();
});
afterAll(async () => {
  await wa.uninstall();
});
beforeEach(async () => {
  wa.fake.sent.length = 0;
  // each test counts its own messages: what an earlier one left queued is set aside
  await db().updateTable("whatsapp_messages").set({ status: "skipped" }).where("status", "in", ["queued", "sending"]).execute();
});

async function shopper(options: { optIn?: boolean; phone?: string } = {}) {
  const user = await createUser(db());
  const phone = options.phone ?? nextPhone();
  if (options.optIn) await optInToWhatsapp(db(), { userId: user.id, phone, source: "checkout", shopName: "Scentara" });
  return { ...user, phone, digits: phone.slice(1) };
}

/** An order of this shopper awaiting its card payment, paid through the real (simulated) payment webhook. */
async function paidOrder(userId: string, phone: string) {
  const order = await insertAwaitingOrder(db(), { userId, shippingAddress: { ...TEST_ADDRESS, telephone: phone } });
  const res = await postWebhook("simulated", simulatedWebhook(order.checkoutId, order.totalAmountCents));
  expect(res.status).toBe(200);
  return order;
}

const messagesOf = async (orderId: string) => (await messagesForOrders(db(), [orderId])).get(orderId) ?? [];
const row = (orderId: string) => db().selectFrom("whatsapp_messages").selectAll().where("order_id", "=", orderId).executeTakeFirstOrThrow();
const whatsappConsents = async (userId: string) => (await listConsents(db(), userId)).filter((c) => c.purpose === "whatsapp_updates");

describe("consent", () => {
  it("nobody without consent gets a message: a paid order of a shopper who never opted in queues and sends nothing", async () => {
    const s = await shopper();
    const order = await paidOrder(s.id, s.phone);
    await sendDueWhatsappMessages(db());
    expect(await messagesOf(order.id)).toEqual([]);
    expect(wa.fake.sent.filter((m) => m.to === s.digits)).toEqual([]);
  });

  it("the checkout's box, ticked, logs the exact words shown with the checkout's number; unticked, nothing", async () => {
    const s = await shopper();
    await optInFromCheckout(db(), s.id, undefined, s.phone);
    expect(await whatsappSubscription(db(), s.id)).toBeNull();
    await optInFromCheckout(db(), s.id, "on", s.phone);
    await optInFromCheckout(db(), s.id, "on", s.phone); // a second order with the box ticked again: no second row
    const rows = await whatsappConsents(s.id);
    expect(rows.map((r) => [r.granted, r.source, r.email, r.wording])).toEqual([[true, "checkout", s.email, whatsappConsentWording(s.phone, "Scentara")]]);
    expect(rows[0]!.wording).toMatch(/^Order updates on WhatsApp to 082 555 \d{4}\. Scentara sends you a WhatsApp message/);
    expect((await whatsappSubscription(db(), s.id))?.active).toBe(true);
  });

  it("opting in in the profile logs its words; the profile's Stop logs the opt-out; the next paid order sends nothing", async () => {
    const s = await shopper();
    const cookie = await sessionCookieFor(db(), s.id);
    const bad = await callAction(preferences.action, "/profile/preferences", { intent: "whatsapp-on", telephone: "12345" }, { headers: { cookie } });
    expect(statusOf(bad)).toBe(400);
    expect(await whatsappSubscription(db(), s.id)).toBeNull();
    const on = await callAction(preferences.action, "/profile/preferences", { intent: "whatsapp-on", telephone: s.phone.replace("+27", "0") }, { headers: { cookie } });
    expect((await dataOf(on)).message).toMatch(/WhatsApp updates are on/);
    const given = [true, "profile", whatsappConsentWording(s.phone, "Scentara")];
    expect((await whatsappConsents(s.id)).map((r) => [r.granted, r.source, r.wording])).toEqual([given]);
    const off = await callAction(preferences.action, "/profile/preferences", { intent: "whatsapp-off" }, { headers: { cookie } });
    expect((await dataOf(off)).message).toMatch(/off/);
    // the two rows may share a millisecond, so the log's order between them isn't theirs: the opt-out is the row added
    const rows = (await whatsappConsents(s.id)).map((r) => [r.granted, r.source, r.wording]);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(expect.arrayContaining([given, [false, "profile", WHATSAPP_OPT_OUT_WORDING.profile(s.phone)]]));
    const order = await paidOrder(s.id, s.phone);
    await sendDueWhatsappMessages(db());
    expect(await messagesOf(order.id)).toEqual([]);
  });

  it("opted out between queuing and sending: not sent (consent asked again right before)", async () => {
    const s = await shopper({ optIn: true });
    const order = await paidOrder(s.id, s.phone);
    await callAction(preferences.action, "/profile/preferences", { intent: "whatsapp-off" }, { headers: { cookie: await sessionCookieFor(db(), s.id) } });
    await sendDueWhatsappMessages(db());
    expect((await messagesOf(order.id)).map((m) => m.status)).toEqual(["skipped"]);
    expect(wa.fake.sent).toEqual([]);
  });
});

describe("a paid order of a shopper who opted in", () => {
  it("sends the payment-received template with its parameters; the fake's signed statuses mark it delivered, then read", async () => {
    const s = await shopper({ optIn: true });
    const order = await paidOrder(s.id, s.phone);
    expect((await messagesOf(order.id)).map((m) => m.status)).toEqual(["queued"]);
    expect(await sendDueWhatsappMessages(db())).toMatchObject({ sent: 1 });
    const [sent] = wa.fake.sent;
    expect(sent).toMatchObject({ to: s.digits, template: TEMPLATES.payment_received.name, language: "en" });
    expect(sent!.params).toEqual(["Thandi", expect.stringMatching(/^R\s?\d/), order.id.slice(0, 8), `http://localhost:3000/order-confirmation?id=${order.id}`, "Scentara"]);
    expect(sent!.text).toContain(`for order ${order.id.slice(0, 8)}`);
    await wa.fake.emitStatus(sent!.wamid, "sent");
    await wa.fake.emitStatus(sent!.wamid, "delivered");
    let [m] = await messagesOf(order.id);
    expect(m).toMatchObject({ status: "delivered", test: true, label: "Payment received" });
    await wa.fake.emitStatus(sent!.wamid, "read");
    [m] = await messagesOf(order.id);
    expect(m!.status).toBe("read");
    expect(wa.responses.every((r) => r === 200)).toBe(true);
  });

  it("once the retention job erased its number and words, the admin's order says so instead of a bare template with {{1}}", async () => {
    const s = await shopper({ optIn: true });
    const order = await paidOrder(s.id, s.phone);
    await sendDueWhatsappMessages(db());
    const [before] = await messagesOf(order.id);
    expect(before).toMatchObject({ erased: false, to: s.digits, label: "Payment received" });
    expect(before!.text).toContain(`for order ${order.id.slice(0, 8)}`);
    // this message only is old enough (the other tests' messages keep their words)
    await db().updateTable("whatsapp_messages").set({ created_at: "2000-06-01T10:00:00.000Z" }).where("order_id", "=", order.id).execute();
    expect(await eraseOldWhatsappMessages(db(), { textBefore: "2001-01-01T00:00:00.000Z", recordBefore: "2000-01-01T00:00:00.000Z" })).toEqual({ texts: 1, records: 0 });
    const [erased] = await messagesOf(order.id);
    expect(erased).toMatchObject({ erased: true, to: "", text: "", label: "Payment received", status: before!.status });
  });

  it("the confirmation e-mail names the number and a signed stop link, which asks first and then opts out (logged once)", async () => {
    const s = await shopper({ optIn: true });
    const lines = await whatsappEmailLines(db(), s.id);
    const link = lines.join("\n").match(/https?:\/\/\S+\/whatsapp\/stop\?token=\S+/)![0];
    const path = link.replace(/^https?:\/\/[^/]+/, "");
    const page = await dataOf(await callLoader(stopPage.loader, path));
    expect(page.state).toMatchObject({ kind: "ready", active: true });
    expect((await whatsappSubscription(db(), s.id))?.active).toBe(true); // opening changed nothing
    for (let i = 0; i < 2; i++) await callAction(stopPage.action, path, { token: new URL(link).searchParams.get("token")! });
    // two rows, the opt-in and one opt-out for two presses (rows of one millisecond have no order between them)
    const rows = (await whatsappConsents(s.id)).map((r) => [r.granted, r.source]);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(expect.arrayContaining([[true, "checkout"], [false, "unsubscribe"]]));
    const forged = await callAction(stopPage.action, "/whatsapp/stop", { token: `${new URL(link).searchParams.get("token")!}x` });
    expect(statusOf(forged)).toBe(400);
  });
});

describe("the webhook", () => {
  it("GET: the verify token answers the challenge as text; anything else 403", async () => {
    process.env.WHATSAPP_VERIFY_TOKEN = "a-token-the-owner-chose";
    resetEnvForTests();
    try {
      const ok = (await callLoader(webhook.loader, "/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=a-token-the-owner-chose&hub.challenge=1158201444")) as Response;
      expect([ok.status, ok.headers.get("content-type"), await ok.text()]).toEqual([200, "text/plain; charset=utf-8", "1158201444"]);
      for (const q of ["hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1", "hub.mode=unsubscribe&hub.verify_token=a-token-the-owner-chose&hub.challenge=1", "hub.mode=subscribe&hub.challenge=1"]) {
        expect(((await callLoader(webhook.loader, `/webhooks/whatsapp?${q}`)) as Response).status).toBe(403);
      }
    } finally {
      delete process.env.WHATSAPP_VERIFY_TOKEN;
      resetEnvForTests();
    }
  });

  it("forged, altered and unsigned POSTs are refused and change nothing; a replayed one changes nothing either", async () => {
    const s = await shopper({ optIn: true });
    const order = await paidOrder(s.id, s.phone);
    await sendDueWhatsappMessages(db());
    const wamid = wa.fake.sent[0]!.wamid;
    const delivered = wa.fake.statusWebhook(wamid, "delivered");
    const stop = wa.fake.inboundWebhook(s.digits, "STOP");
    const before = await row(order.id);
    expect((await postWhatsappWebhook(delivered.body, { "content-type": "application/json" })).status).toBe(401);
    expect((await postWhatsappWebhook(delivered.body, { ...delivered.headers, "x-hub-signature-256": `sha256=${"0".repeat(64)}` })).status).toBe(403);
    expect((await postWhatsappWebhook(delivered.body.replace('"delivered"', '"read"'), delivered.headers)).status).toBe(403);
    expect((await postWhatsappWebhook(stop.body, { ...stop.headers, "x-hub-signature-256": delivered.headers["x-hub-signature-256"]! })).status).toBe(403);
    expect(await row(order.id)).toEqual(before);
    expect((await whatsappSubscription(db(), s.id))?.active).toBe(true);

    expect((await postWhatsappWebhook(delivered.body, delivered.headers)).status).toBe(200);
    const after = await row(order.id);
    expect(after.status).toBe("delivered");
    expect((await (await postWhatsappWebhook(delivered.body, delivered.headers)).json()).received).toBe(true); // the replay
    expect(await row(order.id)).toEqual(after);
  });

  it("statuses apply once each, in any order: a read before its delivered is not undone, and each time is kept", async () => {
    const s = await shopper({ optIn: true });
    const order = await paidOrder(s.id, s.phone);
    await sendDueWhatsappMessages(db());
    const wamid = wa.fake.sent[0]!.wamid;
    await wa.fake.emitStatus(wamid, "read");
    await wa.fake.emitStatus(wamid, "delivered");
    await wa.fake.emitStatus(wamid, "sent");
    await wa.fake.emitStatus(wamid, "failed"); // a late failure after it was read: not believed
    const r = await row(order.id);
    expect(r.status).toBe("read");
    expect([r.sent_at, r.delivered_at, r.read_at].every(Boolean)).toBe(true);
    expect(r.failed_at).toBeNull();
  });

  it('an inbound "stop" (any case, spaces) opts the number out, logged once; later news is not queued', async () => {
    const s = await shopper({ optIn: true });
    await wa.fake.inboundText(s.digits, "  Stop \n");
    await wa.fake.inboundText(s.digits, "STOP"); // again, or Meta's retry: nothing more
    await wa.fake.inboundText(s.digits, "stop please"); // not the word alone: nothing
    // the opt-in and the STOP may share a millisecond: the log's order within one is not told, so the rows are compared as a set
    expect((await whatsappConsents(s.id)).map((r) => [r.granted, r.source, r.wording]).sort()).toEqual(
      [
        [true, "checkout", whatsappConsentWording(s.phone, "Scentara")],
        [false, "whatsapp_reply", WHATSAPP_OPT_OUT_WORDING.reply(s.phone)],
      ].sort(),
    );
    const order = await paidOrder(s.id, s.phone);
    expect(await messagesOf(order.id)).toEqual([]);
  });
});

describe("sending", () => {
  it("the same news queued twice is one message", async () => {
    const s = await shopper({ optIn: true });
    const order = await paidOrder(s.id, s.phone);
    expect(await queueOrderUpdate(db(), order.id, "payment_received")).toBeNull();
    expect(await messagesOf(order.id)).toHaveLength(1);
  });

  it("a refusal to try again later is retried after its backoff and sent once; giving up after the last try falls back to e-mail", async () => {
    const s = await shopper({ optIn: true });
    const order = await paidOrder(s.id, s.phone);
    const t0 = new Date();
    wa.fake.failNext(1, "retry");
    expect(await sendDueWhatsappMessages(db(), { now: t0 })).toMatchObject({ sent: 0, retried: 1 });
    expect(await row(order.id)).toMatchObject({ status: "queued", attempts: 1 });
    expect(await sendDueWhatsappMessages(db(), { now: new Date(t0.getTime() + backoffMs(1) - 1000) })).toMatchObject({ sent: 0, retried: 0 });
    expect(await sendDueWhatsappMessages(db(), { now: new Date(t0.getTime() + backoffMs(1)) })).toMatchObject({ sent: 1 });
    expect(await sendDueWhatsappMessages(db(), { now: new Date(t0.getTime() + 24 * 3600_000) })).toMatchObject({ sent: 0 });
    const id = (await row(order.id)).id;
    expect(wa.fake.sent.filter((m) => m.reference === id)).toHaveLength(1);

    // a number the API keeps refusing ("9999"): tried WHATSAPP_MAX_ATTEMPTS times, then failed, covered by the confirmation e-mail
    const stuck = await shopper({ optIn: true, phone: "+27825559999" });
    const other = await paidOrder(stuck.id, stuck.phone);
    let at = new Date();
    for (let i = 0; i < WHATSAPP_MAX_ATTEMPTS; i++) {
      await sendDueWhatsappMessages(db(), { now: at });
      at = new Date(at.getTime() + backoffMs(i + 1));
    }
    const [m] = await messagesOf(other.id);
    expect(m).toMatchObject({ status: "failed", attempts: WHATSAPP_MAX_ATTEMPTS, emailCovered: true });
    const confirmation = await db().selectFrom("mail_outbox").select("id").where("to_address", "=", stuck.email).execute();
    expect((await row(other.id)).email_id).toBe(confirmation[0]!.id);
  });

  it("two senders claiming at once send every message exactly once", async () => {
    const orders = [];
    for (let i = 0; i < 6; i++) {
      const s = await shopper({ optIn: true });
      orders.push(await paidOrder(s.id, s.phone));
    }
    const runs = await Promise.all([sendDueWhatsappMessages(db(), { limit: 50 }), sendDueWhatsappMessages(db(), { limit: 50 }), sendDueWhatsappMessages(db(), { limit: 50 })]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(6);
    const ids = (await db().selectFrom("whatsapp_messages").select("id").where("order_id", "in", orders.map((o) => o.id)).execute()).map((r) => r.id).sort();
    expect(wa.fake.sent.map((m) => m.reference).sort()).toEqual(ids);
  });

  it("a claim left by a process that died is never sent again: failed, and the e-mail covers it", async () => {
    const s = await shopper({ optIn: true });
    const order = await paidOrder(s.id, s.phone);
    const t0 = new Date();
    // a process claimed it and stopped before WhatsApp answered
    await db().updateTable("whatsapp_messages").set({ status: "sending", claim_token: "dead-process", lease_until: new Date(t0.getTime() + WHATSAPP_LEASE_MS).toISOString(), attempts: 1 }).where("order_id", "=", order.id).execute();
    expect(await sendDueWhatsappMessages(db(), { now: t0 })).toMatchObject({ sent: 0, lapsed: 0 });
    expect(await sendDueWhatsappMessages(db(), { now: new Date(t0.getTime() + WHATSAPP_LEASE_MS + 1000) })).toMatchObject({ sent: 0, lapsed: 1 });
    expect(await messagesOf(order.id)).toMatchObject([{ status: "failed", emailCovered: true }]);
    expect(wa.fake.sent).toEqual([]);
  });

  it("a message WhatsApp reports failed (a number not on WhatsApp) is covered by e-mail: the event's own, else its text by e-mail", async () => {
    const s = await shopper({ optIn: true, phone: "+27825550000" });
    const order = await paidOrder(s.id, s.phone);
    await setOrderStatus(db(), order.id, "delivered"); // no e-mail of its own at this step
    await sendDueWhatsappMessages(db());
    for (const m of wa.fake.sent) await wa.fake.emitStatus(m.wamid, "failed");
    const messages = await messagesOf(order.id);
    expect(messages.map((m) => [m.event, m.status, m.emailCovered])).toEqual([
      ["payment_received", "failed", true],
      ["delivered", "failed", true],
    ]);
    expect(messages[0]!.error).toMatch(/131026/);
    const mails = await db().selectFrom("mail_outbox").select(["id", "subject", "text_body"]).where("to_address", "=", s.email).orderBy("created_at").execute();
    expect(mails).toHaveLength(2); // the order confirmation, and the delivered message's text
    expect(mails[1]!.subject).toMatch(/delivered, order/);
    expect(mails[1]!.text_body).toContain(`your order ${order.id.slice(0, 8)} has been delivered`);
    // failing again (a replayed webhook) sends no second e-mail
    expect(await markFailed(db(), (await row(order.id)).id, "again", new Date())).toBe(false);
    expect(await db().selectFrom("mail_outbox").select("id").where("to_address", "=", s.email).execute()).toHaveLength(2);
  });
});
