import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { sendOrderPaidEmails } from "~/modules/flows/order-messages.server";
import { env, resetEnvForTests } from "~/utils/env.server";
import { insertAwaitingOrder } from "../../../tests/factories/payments";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { callAction, dataOf, statusOf } from "../../../tests/setup/route";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";
import { privacyFooterText } from "./mail-footer";
import { sendMail } from "./mailer.server";

/**
 * The SMTP path against a real SMTP server started here (the `smtp-server` package), every message read back with
 * `mailparser`: what a customer's mail server receives, not only what the outbox table holds.
 */
let server: MailServer;
let received: ParsedMail[] = [];

beforeAll(async () => {
  // a mailbox that doesn't exist: the server refuses it, as a real one does
  server = await startMailServer({ refuse: (address) => (address.startsWith("nobody@") ? { code: 550, message: "5.1.1 No such user" } : undefined) });
  received = server.received;
  process.env.SMTP_URL = server.url;
  resetEnvForTests();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  await server.close();
});

beforeEach(() => {
  server.clear();
});

describe("e-mail over SMTP", () => {
  it("delivers a message with the shop's sender and stamps it sent in the outbox", async () => {
    const result = await sendMail({ to: "thandi@example.co.za", subject: "Your Scentara order", text: "Thank you — enjoy your fragrance." });
    expect(result.delivered).toBe(true);
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.subject).toBe("Your Scentara order");
    expect(mail.text?.trim()).toBe(`Thank you — enjoy your fragrance.\n\n${privacyFooterText(env().PUBLIC_BASE_URL)}`);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("thandi@example.co.za");
    expect(mail.from?.value[0]).toMatchObject({ name: "Scentara", address: "no-reply@scentara.co.za" }); // MAIL_FROM's default
    const row = await getDb().selectFrom("mail_outbox").select(["sent_at", "error"]).where("id", "=", result.id).executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
    expect(row.error).toBeNull();
  });

  it("sends the paid order's confirmation to the customer and the notice to the shop, with the server's amounts", async () => {
    const customer = await createUser(getDb(), { email: "lerato.smtp@example.co.za" });
    const order = await insertAwaitingOrder(getDb(), { userId: customer.id, lines: [{ name: "Amber Lantern", quantity: 2, unitPriceCents: 59900 }], shippingCents: 0 });
    await sendOrderPaidEmails(getDb(), order.id);
    expect(received.map((m) => m.subject).sort()).toEqual([`New order ${order.id.slice(0, 8)}: R1 198.00`, `Scentara: order ${order.id.slice(0, 8)} confirmed`].sort());
    const confirmation = received.find((m) => m.subject?.endsWith("confirmed"))!;
    expect(confirmation.to && !Array.isArray(confirmation.to) ? confirmation.to.text : "").toBe("lerato.smtp@example.co.za");
    expect(confirmation.text).toContain("- Amber Lantern: 2 x R599.00 = R1 198.00");
    expect(confirmation.text).toContain("Total: R1 198.00");
    const notice = received.find((m) => m.subject?.startsWith("New order"))!;
    expect(notice.to && !Array.isArray(notice.to) ? notice.to.text : "").toBe(env().CONTACT_EMAIL);
    expect(notice.replyTo?.text).toBe("lerato.smtp@example.co.za");
  });

  it("keeps a refused message in the outbox with the server's reason", async () => {
    const result = await sendMail({ to: "nobody@example.co.za", subject: "Hello", text: "x" });
    expect(result.delivered).toBe(false);
    expect(received).toHaveLength(0);
    const row = await getDb().selectFrom("mail_outbox").select(["sent_at", "error"]).where("id", "=", result.id).executeTakeFirstOrThrow();
    expect(row.sent_at).toBeNull();
    expect(row.error).toMatch(/No such user/);
  });

  it("the owner's status e-mail reaches the customer with the tracking number; a refused mailbox is the owner's 'Failed to send email: …'", async () => {
    const route = await import("~/routes/admin.orders");
    const admin = await createUser(getDb(), { isAdmin: true });
    const cookie = await sessionCookieFor(getDb(), admin.id);
    const post = (form: Record<string, string>) => callAction(route.action, "/admin/orders", form, { headers: { cookie } });

    const customer = await createUser(getDb(), { email: "sipho.smtp@example.co.za" });
    const order = await insertAwaitingOrder(getDb(), { userId: customer.id, status: "processing", paymentStatus: "completed", trackingNumber: "TCG123456ZA" });
    expect(await dataOf(await post({ intent: "status", id: order.id, status: "shipped" }))).toMatchObject({ ok: true, message: "Order status updated to shipped" });
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toBe(`Scentara: your order ${order.id.slice(0, 8)} is on its way`);
    expect(received[0]!.text).toContain("Tracking number: TCG123456ZA");

    expect(await dataOf(await post({ intent: "email", id: order.id }))).toMatchObject({ ok: true, message: "Status email sent successfully!" });
    expect(received).toHaveLength(2);

    const unreachable = await createUser(getDb(), { email: "nobody@smtp-refused.example.co.za" });
    const other = await insertAwaitingOrder(getDb(), { userId: unreachable.id });
    const refused = await post({ intent: "email", id: other.id });
    expect(statusOf(refused)).toBe(502);
    expect((await dataOf(refused)).error).toMatch(/^Failed to send email: .*No such user/);
  });
});
