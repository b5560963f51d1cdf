import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ParsedMail } from "mailparser";
import { getDb } from "~/db/db.server";
import { placeOrder } from "~/modules/flows/order-placed.server";
import { setOrderStatus } from "~/modules/flows/order-changed-by-owner.server";
import { action, loader } from "~/routes/admin.gift-cards.$id";
import { loader as confirmationLoader } from "~/routes/order-confirmation";
import { loader as profileLoader } from "~/routes/profile._index";
import { resetEnvForTests } from "~/utils/env.server";
import { addDays, saDay } from "~/utils/sa-days";
import { TEST_ADDRESS } from "../../../tests/factories/orders";
import { insertProduct } from "../../../tests/factories/catalog";
import { postWebhook, simulatedWebhook } from "../../../tests/factories/payments";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";
import { pdfText } from "../../../tests/factories/pdf-text";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { normalizeGiftCardCode } from "./gift-card-code.logic";
import { resolveGiftCardCodes } from "./gift-card-orders.server";
import { changeGiftCardRecipient, GIFT_CARD_EMAIL_MESSAGES, giftCardChanges, resendGiftCardEmail } from "./gift-card-email-changes.server";
import { GIFT_CARD_PRODUCT_ID, giftCardToken, type GiftCardRequest } from "./gift-card-sales.logic";
import { saveGiftCardSaleSettings, sendDueGiftCardEmails, soldGiftCardsOfOrder } from "./gift-card-sales.server";
import { findGiftCardByCode, issueGiftCard } from "./gift-cards.server";
import { unlinkGiftCardsOfPerson } from "./gift-cards-privacy.server";

/**
 * The owner's corrections to a sold card's e-mail (docs/decisions/053 addendum "Changing and resending a sold card"),
 * on the real database (both engines) and a real SMTP server: a wrong address or day corrected before it goes, sent
 * now, sent again to a corrected address with the same code and PDF; each recorded with who and when; a change racing
 * the send-gift-cards job, and a double click on Resend, each send one e-mail.
 */
const db = () => getDb();
let mail: MailServer;
let buyer: TestUser;
let admin: TestUser;
let adminCookie: string;

beforeAll(async () => {
  mail = await startMailServer();
  process.env.SMTP_URL = mail.url;
  resetEnvForTests();
  await saveGiftCardSaleSettings(db(), { enabled: true, amountsCents: [25000, 50000, 100000], minCents: 10000, maxCents: 500000 });
  buyer = await createUser(db(), { email: `sipho.${Math.random().toString(36).slice(2, 8)}@example.co.za` });
  admin = await createUser(db(), { isAdmin: true });
  adminCookie = await sessionCookieFor(db(), admin.id);
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  await mail.close();
});
beforeEach(() => mail.clear());

const today = () => saDay(new Date());
const unique = (name: string) => `${name}.${Math.random().toString(36).slice(2, 8)}@example.co.za`;
const ADMIN = () => ({ kind: "admin" as const, id: admin.id });

/** Buys one R500 card and pays it through the verified simulated webhook; answers the order and the card. */
async function buyCard(r: Partial<GiftCardRequest> = {}) {
  const request = { amountCents: 50000, recipientName: "Thandi", recipientEmail: unique("thandi"), senderName: "Sipho", message: "Happy birthday!", sendOn: today(), ...r };
  const order = await placeOrder(db(), buyer, { lines: [{ productId: GIFT_CARD_PRODUCT_ID, sizeId: giftCardToken(request), quantity: 1 }], shippingAddress: TEST_ADDRESS });
  const checkoutId = `sim_${order.id}`;
  await db().updateTable("orders").set({ payment_provider: "simulated", payment_id: checkoutId }).where("id", "=", order.id).execute();
  expect((await postWebhook("simulated", simulatedWebhook(checkoutId, order.totalAmountCents))).status).toBe(200);
  const [card] = await soldGiftCardsOfOrder(db(), order.id);
  return { order, card: card!, request: { ...request, recipientEmail: request.recipientEmail! } };
}

const to = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.text : "");
const mailTo = (address: string) => mail.received.filter((m) => to(m) === address);
function codeIn(m: ParsedMail): string {
  const found = /Your gift card code: ([A-Z0-9-]{19})/.exec(m.text ?? "");
  if (!found) throw new Error(`no code in: ${m.text}`);
  return found[1]!;
}

const post = (id: string, form: Record<string, string>, cookie = adminCookie) => callAction(action, `/admin/gift-cards/${id}`, { id, ...form }, { headers: { cookie }, params: { id } });
const pageOf = async (id: string) => dataOf<Awaited<ReturnType<typeof loader>>>(await callLoader(loader, `/admin/gift-cards/${id}`, { headers: { cookie: adminCookie }, params: { id } }));
const cardRow = (id: string) => db().selectFrom("gift_cards").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("before it is e-mailed", () => {
  it("the owner corrects the name, the address and the day: the buyer's order page shows the new recipient, the change says who and when, and the card goes to the new address on the new day only", async () => {
    const { order, card, request } = await buyCard({ sendOn: addDays(today(), 3) });
    const newDay = addDays(today(), 10);
    const res = await post(card.id, { intent: "recipient", recipientName: "  Thandiwe  ", recipientEmail: "Thandiwe.M@Example.co.za", sendOn: newDay });
    expect(await dataOf(res)).toMatchObject({ ok: true, message: GIFT_CARD_EMAIL_MESSAGES.changed });

    const confirmation = await dataOf(await callLoader(confirmationLoader, `/order-confirmation?id=${order.id}`, { headers: { cookie: await sessionCookieFor(db(), buyer.id) } }));
    expect(confirmation.soldCards).toEqual([expect.objectContaining({ to: "Thandiwe", sendOn: newDay, emailed: false })]);
    const page = await pageOf(card.id);
    expect(page.email).toMatchObject({ recipientName: "Thandiwe", recipientEmail: "thandiwe.m@example.co.za", sendOn: newDay, offer: "change" });
    expect(page.changes).toEqual([expect.objectContaining({ what: "Recipient or day changed", who: `Admin ${admin.email}` })]);
    expect(page.changes[0]!.detail).toBe(`Thandi <${request.recipientEmail}> → Thandiwe <thandiwe.m@example.co.za>; Day ${request.sendOn} → ${newDay}`);

    // the old day passes with nothing sent; the new day sends it to the new address, once
    expect(await sendDueGiftCardEmails(db(), { now: new Date(`${addDays(today(), 4)}T08:00:00.000Z`) })).toBe(0);
    const onTheDay = new Date(`${newDay}T08:00:00.000Z`);
    expect(await sendDueGiftCardEmails(db(), { now: onTheDay })).toBe(1);
    expect(await sendDueGiftCardEmails(db(), { now: onTheDay })).toBe(0);
    expect(mailTo(request.recipientEmail)).toHaveLength(0);
    expect(mailTo("thandiwe.m@example.co.za")).toHaveLength(1);
    expect(mailTo("thandiwe.m@example.co.za")[0]!.text).toContain("Hi Thandiwe,");
  });

  it("the recipient's profile follows the address: the card leaves the old address's profile and shows in the new one's", async () => {
    const { card, request } = await buyCard({ sendOn: addDays(today(), 2) });
    const before = await createUser(db(), { email: request.recipientEmail });
    const after = await createUser(db(), { email: unique("naledi") });
    const profileCards = async (user: TestUser) => (await dataOf(await callLoader(profileLoader, "/profile", { headers: { cookie: await sessionCookieFor(db(), user.id) } }))).giftCards.map((c: { id: string }) => c.id);
    expect(await profileCards(before)).toContain(card.id);
    await changeGiftCardRecipient(db(), card.id, { recipientName: "Naledi", recipientEmail: after.email }, { actor: ADMIN() });
    expect(await profileCards(before)).not.toContain(card.id);
    expect(await profileCards(after)).toContain(card.id);
  });

  it("bad input gets the form's message on its field and changes nothing", async () => {
    const { card } = await buyCard({ sendOn: addDays(today(), 3) });
    mail.clear();
    const before = await cardRow(card.id);
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ recipientName: "Thandi", recipientEmail: "thandi@", sendOn: "" }, "recipientEmail", "Enter a valid e-mail address, e.g. thandi@example.co.za"],
      [{ recipientName: "", recipientEmail: "thandi@example.co.za", sendOn: "" }, "recipientName", "Enter the recipient's name"],
      [{ recipientName: "Thandi", recipientEmail: "thandi@example.co.za", sendOn: addDays(today(), -1) }, "sendOn", "Choose today or a later date"],
      [{ recipientName: "Thandi", recipientEmail: "thandi@example.co.za", sendOn: addDays(today(), 400) }, "sendOn", "Choose a date within the next year"],
      [{ recipientName: "Thandi", recipientEmail: "thandi@example.co.za", sendOn: "24/12/2026" }, "sendOn", "Choose a date"],
      [{ recipientName: "x".repeat(61), recipientEmail: "thandi@example.co.za", sendOn: "" }, "recipientName", "The name can be at most 60 characters"],
    ];
    for (const [form, field, message] of cases) {
      for (const intent of ["recipient", "send-now"]) {
        const res = await post(card.id, { intent, ...form });
        expect(statusOf(res), `${intent} ${JSON.stringify(form)}`).toBe(400);
        expect(await dataOf(res)).toMatchObject({ ok: false, error: message, fieldErrors: { [field]: message } });
      }
    }
    expect(await cardRow(card.id)).toEqual(before);
    expect(await giftCardChanges(db(), card.id)).toEqual([]);
    expect(mail.received).toHaveLength(0);
  });

  it("Send now sends it at once to the corrected address (code and PDF), once: a second Send now is told to use Resend, and the job sends nothing more", async () => {
    const { order, card } = await buyCard({ sendOn: addDays(today(), 20) });
    const res = await post(card.id, { intent: "send-now", recipientName: "Thandi", recipientEmail: "thandi.right@example.co.za", sendOn: "" });
    expect(await dataOf(res)).toMatchObject({ ok: true, message: "Gift card e-mailed to thandi.right@example.co.za" });
    const [sent] = mailTo("thandi.right@example.co.za");
    expect(sent!.subject).toBe("Sipho sent you a Scentara gift card");
    expect(codeIn(sent!).endsWith(card.last4)).toBe(true);
    expect(sent!.attachments[0]!.contentType).toBe("application/pdf");
    expect(pdfText(sent!.attachments[0]!.content)).toContain("R500.00");

    const again = await post(card.id, { intent: "send-now", recipientName: "Thandi", recipientEmail: "thandi.right@example.co.za", sendOn: "" });
    expect(statusOf(again)).toBe(409);
    expect(await dataOf(again)).toMatchObject({ error: GIFT_CARD_EMAIL_MESSAGES.justSent });
    expect(await sendDueGiftCardEmails(db(), { now: new Date(Date.now() + 30 * 86_400_000), orderId: order.id })).toBe(0);
    expect(mail.received.filter((m) => m.subject === "Sipho sent you a Scentara gift card")).toHaveLength(1);
    expect((await pageOf(card.id)).changes.map((c) => c.what)).toEqual(["Recipient or day changed", "Sent now"]);
    expect((await cardRow(card.id)).send_on).toBe(today());
  });

  it("a change racing the job: the card goes once, to the address that won; a change that lost is told to use Resend", async () => {
    for (const sendNow of [false, true]) {
      const { card, request } = await buyCard({ sendOn: addDays(today(), 1) });
      mail.clear();
      const onTheDay = new Date(`${addDays(today(), 1)}T08:00:00.000Z`);
      const [job, change] = await Promise.allSettled([
        sendDueGiftCardEmails(db(), { now: onTheDay }),
        changeGiftCardRecipient(db(), card.id, { recipientName: "Thandi", recipientEmail: "thandi.fixed@example.co.za", sendOn: addDays(today(), 1) }, { actor: ADMIN(), sendNow, now: onTheDay }),
      ]);
      await sendDueGiftCardEmails(db(), { now: onTheDay });
      const gift = mail.received.filter((m) => m.subject === "Sipho sent you a Scentara gift card");
      expect(gift, `sendNow ${sendNow}`).toHaveLength(1);
      expect(job.status).toBe("fulfilled");
      if (change.status === "fulfilled") expect(to(gift[0]!)).toBe("thandi.fixed@example.co.za");
      else {
        expect(String(change.reason)).toContain(GIFT_CARD_EMAIL_MESSAGES.justSent);
        expect(to(gift[0]!)).toBe(request.recipientEmail);
      }
    }
  });
});

describe("once it is e-mailed", () => {
  it("Resend to a corrected address: the same code and PDF arrive there, the address becomes the one on record, and the change says who and when", async () => {
    const { order, card, request } = await buyCard();
    const [first] = mailTo(request.recipientEmail);
    const page = await pageOf(card.id);
    expect(page.email).toMatchObject({ offer: "resend", emailCount: 1 });
    const fixed = unique("thandi.fixed");
    const res = await post(card.id, { intent: "resend", recipientEmail: fixed, sent: "1" });
    expect(await dataOf(res)).toMatchObject({ ok: true, message: `Gift card e-mailed again to ${fixed}` });

    const [resent] = mailTo(fixed);
    expect(resent!.subject).toBe("Sipho sent you a Scentara gift card");
    expect(codeIn(resent!)).toBe(codeIn(first!));
    expect(resent!.attachments).toHaveLength(1);
    expect(resent!.attachments[0]!.contentType).toBe("application/pdf");
    const pdf = pdfText(resent!.attachments[0]!.content);
    expect(pdf).toContain("R500.00");
    expect(pdf).toContain(card.last4);
    // the code still pays
    expect((await findGiftCardByCode(db(), normalizeGiftCardCode(codeIn(resent!))!))?.id).toBe(card.id);

    expect((await cardRow(card.id)).recipient_email).toBe(fixed);
    const after = await pageOf(card.id);
    expect(after.email).toMatchObject({ recipientEmail: fixed, emailCount: 2, offer: "resend" });
    expect(after.changes).toEqual([expect.objectContaining({ what: "E-mailed again", detail: `To Thandi <${fixed}> (was ${request.recipientEmail})`, who: `Admin ${admin.email}` })]);
    expect((await soldGiftCardsOfOrder(db(), order.id))[0]).toMatchObject({ recipientEmail: fixed, recipientName: "Thandi" });
  });

  it("a double click on Resend (two posts of one page at once) sends one e-mail; the page's count then sends again", async () => {
    const { card, request } = await buyCard();
    mail.clear();
    const results = await Promise.all([post(card.id, { intent: "resend", recipientEmail: "", sent: "1" }), post(card.id, { intent: "resend", recipientEmail: "", sent: "1" })]);
    expect(results.map(statusOf).sort()).toEqual([200, 409]);
    expect(mailTo(request.recipientEmail)).toHaveLength(1);
    // a page drawn after it shows 2 sends: that resend is a new one
    expect(await dataOf(await post(card.id, { intent: "resend", recipientEmail: "", sent: "2" }))).toMatchObject({ ok: true });
    expect(mailTo(request.recipientEmail)).toHaveLength(2);
  });

  it("a change of an e-mailed card is refused (use Resend); a resend of one not yet e-mailed is refused; bad addresses change nothing", async () => {
    const sent = await buyCard();
    const res = await post(sent.card.id, { intent: "recipient", recipientName: "Thandi", recipientEmail: "thandi.late@example.co.za", sendOn: "" });
    expect(statusOf(res)).toBe(409);
    expect(await dataOf(res)).toMatchObject({ error: GIFT_CARD_EMAIL_MESSAGES.justSent });
    const bad = await post(sent.card.id, { intent: "resend", recipientEmail: "not-an-address", sent: "1" });
    expect(await dataOf(bad)).toMatchObject({ error: "Enter a valid e-mail address, e.g. thandi@example.co.za", fieldErrors: { recipientEmail: "Enter a valid e-mail address, e.g. thandi@example.co.za" } });
    expect((await cardRow(sent.card.id)).recipient_email).toBe(sent.request.recipientEmail);

    const later = await buyCard({ sendOn: addDays(today(), 5) });
    const early = await post(later.card.id, { intent: "resend", recipientEmail: "", sent: "0" });
    expect(statusOf(early)).toBe(409);
    expect(await dataOf(early)).toMatchObject({ error: GIFT_CARD_EMAIL_MESSAGES.notSentYet });
    expect(await giftCardChanges(db(), sent.card.id)).toEqual([]);
  });

  it("a cancelled card, a spent one and a hand-issued one are not sent: each says why, and the page offers nothing", async () => {
    const cancelled = await buyCard();
    await setOrderStatus(db(), cancelled.order.id, "cancelled");
    mail.clear();
    expect(await dataOf(await post(cancelled.card.id, { intent: "resend", recipientEmail: "", sent: "1" }))).toMatchObject({ error: "This card is cancelled: its e-mail is not sent again" });
    expect((await pageOf(cancelled.card.id)).email).toMatchObject({ kind: "sold", offer: "none" });

    const spent = await buyCard();
    const spender = await createUser(db());
    const p = await insertProduct(db(), { price_cents: 45000 });
    const code = codeIn(mailTo(spent.request.recipientEmail)[0]!);
    const ids = await resolveGiftCardCodes(db(), [code], { userId: spender.id, ip: "203.0.113.20" });
    await placeOrder(db(), spender, { lines: [{ productId: p.id, quantity: 2 }], shippingAddress: TEST_ADDRESS, giftCardIds: ids });
    mail.clear();
    expect(await dataOf(await post(spent.card.id, { intent: "resend", recipientEmail: "", sent: "1" }))).toMatchObject({ error: "This card is spent: its e-mail is not sent again" });

    const byHand = await issueGiftCard(db(), { amountCents: 20000, recipientEmail: unique("goodwill"), actor: ADMIN() });
    await expect(resendGiftCardEmail(db(), byHand.id, { seenCount: 0 }, { actor: ADMIN() })).rejects.toThrow(GIFT_CARD_EMAIL_MESSAGES.handIssued);
    await expect(changeGiftCardRecipient(db(), byHand.id, { recipientEmail: unique("x") }, { actor: ADMIN(), sendNow: true })).rejects.toThrow(GIFT_CARD_EMAIL_MESSAGES.handIssued);
    expect((await pageOf(byHand.id)).email).toMatchObject({ kind: "hand", offer: "none" });
    expect(mail.received).toHaveLength(0);
  });

  it("the recipient deleting their account takes their name and address out of the card's e-mail changes too", async () => {
    const { card, request } = await buyCard();
    const fixed = unique("thandi.deleted");
    await resendGiftCardEmail(db(), card.id, { recipientEmail: fixed, seenCount: 1 }, { actor: ADMIN() });
    const person = await createUser(db(), { email: fixed });
    await db().transaction().execute((trx) => unlinkGiftCardsOfPerson(trx, person.id, fixed));
    const [change] = await giftCardChanges(db(), card.id);
    expect(change).toMatchObject({ kind: "resent", before: { name: null, email: request.recipientEmail }, after: { name: null, email: null } });
    expect(await cardRow(card.id)).toMatchObject({ recipient_email: null, recipient_name: null });
  });
});
