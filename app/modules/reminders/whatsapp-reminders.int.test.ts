/**
 * Reminders by WhatsApp (issue 34 point 2: "one reminder e-mail, and WhatsApp if they opted in to marketing there";
 * docs/decisions/056 addendum), on SQLite and PostgreSQL, through the profile route, the reminder job, the WhatsApp
 * outbox and the shop's Cloud API client speaking to the local fake: the opt-in is its own consent (profile only,
 * logged with its words), separate from order updates; nobody without it gets a WhatsApp reminder; it goes beside the
 * e-mail (or alone), once per cart or order even with two runners, with the restore or pay link; STOP ends both.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { syncSavedCart } from "~/modules/cart/saved-cart.server";
import { listConsents } from "~/modules/consent/consent.server";
import { configuredHoldPolicy } from "~/modules/flows/order-expired.server";
import { markFailed, messagesForOrders, sendDueWhatsappMessages } from "~/modules/whatsapp/outbox.server";
import { optInToWhatsapp, whatsappSubscription } from "~/modules/whatsapp/subscriptions.server";
import { REMINDER_TEMPLATES, WHATSAPP_MARKETING_CONSENT } from "~/modules/whatsapp/templates";
import * as preferences from "~/routes/profile.preferences";
import { installFakeWhatsapp, postWhatsappWebhook } from "../../../tests/fakes/whatsapp";
import { insertProduct } from "../../../tests/factories/catalog";
import { insertOrder } from "../../../tests/factories/orders";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { callAction, dataOf } from "../../../tests/setup/route";
import { sendDueReminders } from "./reminders.server";

const db = () => getDb();
const MIN = 60_000;
const HOUR = 60 * MIN;
const settings = { cartAfterMinutes: 24 * 60, orderAfterMinutes: 30 };
const run = (now: Date) => sendDueReminders(db(), { settings, holdPolicy: configuredHoldPolicy(60, 3), now });

let wa: Awaited<ReturnType<typeof installFakeWhatsapp>>;
let phoneSeq = 3000;
let tests = 0;
let t0: Date;
const at = (ms: number) => new Date(t0.getTime() + ms);

beforeAll(async () => {
  wa = await installFakeWhatsapp();
});
afterAll(async () => {
  await wa.uninstall();
});
beforeEach(async () => {
  // each test has its own month, after every other reminder test's, and only its own people agreed to anything
  t0 = new Date(Date.UTC(2033, 0, 1) + ++tests * 30 * 24 * HOUR);
  wa.fake.sent.length = 0;
  await db().updateTable("users").set({ email_marketing: false }).execute();
  await db().updateTable("whatsapp_subscriptions").set({ marketing_opted_in_at: null }).execute();
  await db().updateTable("whatsapp_messages").set({ status: "skipped" }).where("status", "in", ["queued", "sending"]).execute();
});

/** A shopper: e-mail marketing on or off; WhatsApp updates on a fresh number, and reminders there, through the profile. */
async function shopper(options: { email?: boolean; updates?: boolean; reminders?: boolean } = {}) {
  const user = await createUser(db(), { emailMarketing: options.email ?? false });
  const phone = `+2782777${String(++phoneSeq).padStart(4, "0")}`;
  const cookie = await sessionCookieFor(db(), user.id);
  if (options.updates || options.reminders) await optInToWhatsapp(db(), { userId: user.id, phone, source: "checkout", shopName: "Scentara" });
  if (options.reminders) await profile(cookie, "whatsapp-reminders-on");
  return { ...user, phone, digits: phone.slice(1), cookie };
}

async function profile(cookie: string, intent: string) {
  return dataOf(await callAction(preferences.action, "/profile/preferences", { intent }, { headers: { cookie } })) as Promise<{ ok: boolean; message?: string; error?: string }>;
}

async function leaveCart(userId: string) {
  const product = await insertProduct(db(), { name: "Velvet Rose", price_cents: 45000 });
  await db().updateTable("product_sizes").set({ label: "50 ml" }).where("id", "=", product.id).execute();
  await syncSavedCart(db(), userId, { lines: [{ productId: product.id, sizeId: product.id, quantity: 2 }], baseVersion: null, owner: null }, t0);
}

const messagesTo = (userId: string) => db().selectFrom("whatsapp_messages").selectAll().where("user_id", "=", userId).execute();
const mailsTo = (email: string) => db().selectFrom("mail_outbox").select(["id", "subject"]).where("to_address", "=", email).execute();
const consents = async (userId: string, purpose: string) => (await listConsents(db(), userId)).filter((c) => c.purpose === purpose);

describe("the opt-in to reminders on WhatsApp", () => {
  it("is its own consent, given in the profile while updates are on, logged with the words shown; off on its own", async () => {
    const none = await shopper();
    expect((await profile(none.cookie, "whatsapp-reminders-on")).error).toMatch(/Turn on WhatsApp updates first/);
    expect(await consents(none.id, "whatsapp_marketing")).toEqual([]);

    const s = await shopper({ updates: true });
    expect((await whatsappSubscription(db(), s.id))?.reminders).toBe(false); // updates alone are not a yes to reminders
    expect((await profile(s.cookie, "whatsapp-reminders-on")).message).toMatch(/Reminders on WhatsApp are on/);
    await profile(s.cookie, "whatsapp-reminders-on"); // again: no second row
    const given = await consents(s.id, "whatsapp_marketing");
    expect(given).toHaveLength(1);
    expect(given[0]).toMatchObject({ granted: true, source: "profile", wording: WHATSAPP_MARKETING_CONSENT.wording(s.phone, "Scentara") });
    expect(given[0]!.wording).toContain(`Reminders on WhatsApp to 082 777`);

    await profile(s.cookie, "whatsapp-reminders-off");
    const sub = await whatsappSubscription(db(), s.id);
    expect(sub).toMatchObject({ active: true, reminders: false }); // order updates stay on
    // given and withdrawn within a millisecond or two: compared as a set (the log's order within one is not told)
    expect((await consents(s.id, "whatsapp_marketing")).map((c) => c.granted).sort()).toEqual([false, true]);
  });
});

describe("a cart's reminder on WhatsApp", () => {
  it("goes beside the e-mail, once, with the restore link, to someone who agreed to both; the fake receives the template", async () => {
    const s = await shopper({ email: true, reminders: true });
    await leaveCart(s.id);
    const runs = await Promise.all([run(at(24 * HOUR + MIN)), run(at(24 * HOUR + MIN))]); // two app servers
    expect(runs.flatMap((r) => r.sent.map((x) => x.userId))).toEqual([s.id]);
    const [mail] = await mailsTo(s.email);
    const [message] = await messagesTo(s.id);
    expect(message).toMatchObject({ template: REMINDER_TEMPLATES.cart.name, event: "reminder:cart", order_id: null, email_id: mail!.id, status: "queued" });
    expect(message!.params[1]).toBe("Velvet Rose (50 ml) ×2");
    expect(message!.params[2]).toMatch(/\/cart\?restore=/);
    await sendDueWhatsappMessages(db(), { now: at(24 * HOUR + 2 * MIN) });
    const sent = wa.fake.sent.filter((m) => m.to === s.digits);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toMatch(/you left Velvet Rose \(50 ml\) ×2 in your cart\. It is kept for you here: http.*\/cart\?restore=/);
    expect(sent[0]!.text).toContain("Reply STOP");
    // later runs and a changed cart: nothing more, on either channel
    await syncSavedCart(db(), s.id, { lines: [{ productId: (await insertProduct(db())).id, quantity: 1 }], baseVersion: null, owner: null }, at(25 * HOUR));
    await run(at(50 * HOUR));
    expect(await messagesTo(s.id)).toHaveLength(1);
    expect(await mailsTo(s.email)).toHaveLength(1);
  });

  it("goes alone to someone who agreed to WhatsApp reminders but not to marketing e-mails (no e-mail at all)", async () => {
    const s = await shopper({ reminders: true });
    await leaveCart(s.id);
    expect((await run(at(24 * HOUR + MIN))).sent.map((x) => x.userId)).toEqual([s.id]);
    expect(await messagesTo(s.id)).toHaveLength(1);
    expect(await mailsTo(s.email)).toEqual([]);
    // it fails at Meta: no e-mail stands in for it (the reminder is marketing, and e-mail was not agreed to)
    const [message] = await messagesTo(s.id);
    expect(await markFailed(db(), message!.id, "undeliverable", at(25 * HOUR))).toBe(true);
    expect(await mailsTo(s.email)).toEqual([]);
  });

  it("never to someone without that consent: order updates alone, or nothing, get no WhatsApp reminder", async () => {
    const updatesOnly = await shopper({ email: true, updates: true });
    const nothing = await shopper({ updates: true });
    await leaveCart(updatesOnly.id);
    await leaveCart(nothing.id);
    expect((await run(at(24 * HOUR + MIN))).sent.map((x) => x.userId)).toEqual([updatesOnly.id]);
    expect(await mailsTo(updatesOnly.email)).toHaveLength(1); // the e-mail, as before
    expect(await messagesTo(updatesOnly.id)).toEqual([]);
    expect(await messagesTo(nothing.id)).toEqual([]);
    expect(await db().selectFrom("reminders").select("id").where("user_id", "=", nothing.id).execute()).toEqual([]);
  });

  it("STOP ends updates and reminders (each withdrawal logged); a reminder queued before it is skipped, not sent", async () => {
    const s = await shopper({ reminders: true });
    await leaveCart(s.id);
    await run(at(24 * HOUR + MIN));
    const stop = wa.fake.inboundWebhook(s.digits, "STOP");
    expect((await postWhatsappWebhook(stop.body, stop.headers)).status).toBe(200);
    expect(await whatsappSubscription(db(), s.id)).toMatchObject({ active: false, reminders: false });
    expect((await consents(s.id, "whatsapp_marketing")).map((c) => `${c.granted} ${c.source}`).sort()).toEqual(["false whatsapp_reply", "true profile"]);
    expect((await consents(s.id, "whatsapp_updates")).map((c) => `${c.granted} ${c.source}`).sort()).toEqual(["false whatsapp_reply", "true checkout"]);
    await sendDueWhatsappMessages(db(), { now: at(24 * HOUR + 2 * MIN) });
    expect(wa.fake.sent.filter((m) => m.to === s.digits)).toEqual([]);
    expect((await messagesTo(s.id))[0]).toMatchObject({ status: "skipped" });
    // opting in to updates again does not bring reminders back: they need their own yes
    await optInToWhatsapp(db(), { userId: s.id, phone: s.phone, source: "profile", shopName: "Scentara" });
    expect((await whatsappSubscription(db(), s.id))?.reminders).toBe(false);
  });
});

describe("an unpaid order's reminder on WhatsApp", () => {
  it("goes once with the order, its items and the payment link, and shows on the order's messages", async () => {
    const s = await shopper({ reminders: true });
    const order = await insertOrder(db(), { userId: s.id, createdAt: t0.toISOString(), lines: [{ name: "Amber Lantern", sizeLabel: "100 ml", quantity: 1, unitPriceCents: 52000 }] });
    await Promise.all([run(at(31 * MIN)), run(at(31 * MIN))]);
    const messages = await messagesTo(s.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ template: REMINDER_TEMPLATES.order.name, order_id: order.id });
    expect(messages[0]!.params.slice(1, 4)).toEqual([`#${order.id.slice(0, 8)}`, "Amber Lantern (100 ml)", expect.stringMatching(new RegExp(`/orders/${order.id}/pay$`))]);
    const shown = (await messagesForOrders(db(), [order.id])).get(order.id)!;
    expect(shown.map((m) => m.label)).toEqual(["Reminder: order not paid yet"]);
  });
});
