/**
 * Marketing e-mail as a real mail server receives it (an `smtp-server` started here, read back with `mailparser`):
 * the announcement with the RFC 8058 headers and the footer POPIA s69(4) asks for, the header's address doing the
 * one-click unsubscribe, and a transactional e-mail linking the preferences without any unsubscribe header.
 */
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as oneClick from "~/routes/unsubscribe.one-click";
import { sendOrderStatusEmail } from "~/modules/flows/order-messages.server";
import { preferencesUrl } from "~/modules/mail/mail-footer";
import { env, resetEnvForTests } from "~/utils/env.server";
import { insertAwaitingOrder } from "../../../tests/factories/payments";
import { createUser } from "../../../tests/factories/users";
import { callAction, statusOf } from "../../../tests/setup/route";
import { sendAnnouncementBatch } from "./announcement-sender.server";
import { queueAnnouncement, saveAnnouncement } from "./announcements.server";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";

let mailServer: MailServer;

beforeAll(async () => {
  mailServer = await startMailServer();
  process.env.SMTP_URL = mailServer.url;
  process.env.SHOP_LEGAL_NAME = "Scentara (Pty) Ltd";
  process.env.SHOP_ADDRESS = "12 Main Road|Rondebosch|Cape Town 7700";
  resetEnvForTests();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.SHOP_LEGAL_NAME;
  delete process.env.SHOP_ADDRESS;
  resetEnvForTests();
  await mailServer.close();
});

beforeEach(() => {
  mailServer.clear();
});

const toOf = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.text : "");

describe("an announcement over SMTP", () => {
  it("arrives with List-Unsubscribe and List-Unsubscribe-Post: One-Click, names the shop, and its header's address unsubscribes in one POST", async () => {
    const db = getDb();
    const admin = await createUser(db, { isAdmin: true });
    const keen = await createUser(db, { email: "lerato.keen@example.co.za", emailMarketing: true });
    const never = await createUser(db, { email: "sipho.never@example.co.za" });
    const id = await saveAnnouncement(db, admin.id, { id: "new", subject: "Winter scents are here", body: "Warm, woody, ready for June.", product1: "", product2: "" });
    await queueAnnouncement(db, id, admin.id);
    expect(await sendAnnouncementBatch(db, { limit: 10 })).toMatchObject({ sent: 1, failed: 0 });

    expect(mailServer.received.map(toOf)).toEqual([keen.email]);
    expect(mailServer.received.map(toOf)).not.toContain(never.email);
    const mail = mailServer.received[0]!;
    expect(mail.subject).toBe("Winter scents are here");
    expect(mail.from?.value[0]).toMatchObject({ name: "Scentara", address: "no-reply@scentara.co.za" });
    // the header lines as sent (unfolded): one address in angle brackets, and the one-click marker
    const line = (key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, " ");
    const url = /^List-Unsubscribe: <([^>]+)>$/.exec(line("list-unsubscribe") ?? "")?.[1] ?? "";
    expect(url).toMatch(new RegExp(`^${env().PUBLIC_BASE_URL}/unsubscribe/one-click\\?token=[^\\s]+$`));
    expect(line("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    // the footer: who sends it (s69(4)(a)), why, how to stop it (s69(4)(b)), the preferences and the privacy notice
    expect(mail.text).toContain("Sent by Scentara (Pty) Ltd, trading as Scentara, 12 Main Road, Rondebosch, Cape Town 7700");
    // the footer's link: the page that asks, with the same token
    expect(mail.text).toContain(`Unsubscribe (one click, no sign-in): ${url.replace("/unsubscribe/one-click?", "/unsubscribe?")}`);
    expect(mail.text).toContain(`Or write to ${env().CONTACT_EMAIL} to stop these e-mails.`);
    expect(mail.text).toContain(preferencesUrl(env().PUBLIC_BASE_URL));
    expect(mail.html).toContain("Winter scents are here");

    // what Gmail or Apple Mail do with those headers: POST List-Unsubscribe=One-Click to the address, no cookie
    const path = url.slice(env().PUBLIC_BASE_URL.length);
    const answer = await callAction(oneClick.action, path, { "List-Unsubscribe": "One-Click" }, { headers: { origin: "https://mail.google.com" } });
    expect(statusOf(answer)).toBe(200);
    expect(await (answer as Response).text()).toMatch(/^You're unsubscribed\./);
    const after = await db.selectFrom("users").select("email_marketing").where("id", "=", keen.id).executeTakeFirstOrThrow();
    expect(after.email_marketing).toBe(false);
  });
});

describe("a transactional e-mail over SMTP", () => {
  it("links the e-mail preferences and carries no unsubscribe header (it is not marketing)", async () => {
    const db = getDb();
    const customer = await createUser(db, { email: "naledi.orders@example.co.za" });
    const order = await insertAwaitingOrder(db, { userId: customer.id, status: "processing", paymentStatus: "completed" });
    expect(await sendOrderStatusEmail(db, order.id, { oldStatus: "manual" })).toEqual({ sent: true });
    expect(mailServer.received).toHaveLength(1);
    const mail = mailServer.received[0]!;
    expect(mail.text).toContain(`Your e-mail preferences: ${preferencesUrl(env().PUBLIC_BASE_URL)}`);
    expect(mail.text).not.toContain("Unsubscribe");
    expect(mail.headerLines.map((h) => h.key)).not.toContain("list-unsubscribe");
    expect(mail.headerLines.map((h) => h.key)).not.toContain("list-unsubscribe-post");
  });
});
