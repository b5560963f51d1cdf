import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { resetEnvForTests } from "~/utils/env.server";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";
import { retryDueMail } from "./mail-retries.server";
import { MAIL_RETRY_DELAYS_MS, sendMail } from "./mailer.server";

/**
 * Refused e-mail tried again (migration 0055), against a real SMTP server started here that answers as a mail server
 * does when it can't take a message now ("451 try again later") or ever ("550 no such user"); what it accepts is read
 * back with mailparser. The clock is the test's: each run is given its `now`, nothing waits.
 */
let mail: MailServer;
/** while true, every recipient gets 451 (greylisting, a full queue) */
let busy = false;

beforeAll(async () => {
  mail = await startMailServer({
    refuse: (address) => (address.startsWith("nobody@") ? { code: 550, message: "No such user" } : busy ? { code: 451, message: "Try again later" } : undefined),
  });
  process.env.SMTP_URL = mail.url;
  resetEnvForTests();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  await mail.close();
});

beforeEach(() => {
  mail.clear();
  busy = false;
});

const row = (id: string) =>
  getDb().selectFrom("mail_outbox").select(["sent_at", "error", "attempts", "retry_at"]).where("id", "=", id).executeTakeFirstOrThrow();
const minutes = (from: Date, n: number) => new Date(from.getTime() + n * 60_000);

describe("e-mail the mail server refused", () => {
  it("an order confirmation refused with 451 arrives on the next try, once, with its reply-to and text", async () => {
    busy = true;
    const sentAt = new Date();
    const first = await sendMail({ to: "thandi@example.co.za", subject: "Order 1A2B3C4D confirmed", text: "Thank you for your order.", replyTo: "orders@scentara.co.za", kind: "transactional" });
    expect(first.delivered).toBe(false);
    expect(mail.received).toHaveLength(0);
    const refused = await row(first.id);
    expect(refused).toMatchObject({ sent_at: null, attempts: 1 });
    expect(refused.error).toMatch(/Try again later/);
    expect(Date.parse(refused.retry_at!) - sentAt.getTime()).toBeGreaterThanOrEqual(MAIL_RETRY_DELAYS_MS[0] - 1000);

    // not yet due: nothing is tried
    expect(await retryDueMail(getDb(), minutes(sentAt, 0.5))).toEqual({ sent: 0, failed: 0, gaveUp: 0 });
    busy = false;
    expect(await retryDueMail(getDb(), minutes(sentAt, 2))).toEqual({ sent: 1, failed: 0, gaveUp: 0 });
    expect(mail.received).toHaveLength(1);
    expect(mail.received[0]!.subject).toBe("Order 1A2B3C4D confirmed");
    expect(mail.received[0]!.text).toContain("Thank you for your order.");
    expect(mail.received[0]!.replyTo?.text).toBe("orders@scentara.co.za");
    expect(await row(first.id)).toMatchObject({ attempts: 2, retry_at: null, error: null });
    expect((await row(first.id)).sent_at).not.toBeNull();
    // sent: a later run sends nothing again
    expect(await retryDueMail(getDb(), minutes(sentAt, 600))).toEqual({ sent: 0, failed: 0, gaveUp: 0 });
    expect(mail.received).toHaveLength(1);
  });

  it("each refusal waits longer; after the sixth try the message is given up, its error kept", async () => {
    busy = true;
    const start = new Date();
    const { id } = await sendMail({ to: "sipho@example.co.za", subject: "Your parcel is on its way", text: "Tracking: FZ1" });
    let now = start;
    for (const [i, delay] of MAIL_RETRY_DELAYS_MS.entries()) {
      const due = Date.parse((await row(id)).retry_at!);
      expect(due - now.getTime()).toBeGreaterThanOrEqual(delay - 1000);
      now = new Date(due);
      const run = await retryDueMail(getDb(), now);
      expect(run, `try ${i + 2}`).toEqual(i === MAIL_RETRY_DELAYS_MS.length - 1 ? { sent: 0, failed: 0, gaveUp: 1 } : { sent: 0, failed: 1, gaveUp: 0 });
    }
    const last = await row(id);
    expect(last).toMatchObject({ sent_at: null, attempts: MAIL_RETRY_DELAYS_MS.length + 1, retry_at: null });
    expect(last.error).toMatch(/given up after 6 tries/);
    busy = false;
    expect(await retryDueMail(getDb(), minutes(now, 24 * 60))).toEqual({ sent: 0, failed: 0, gaveUp: 0 });
    expect(mail.received).toHaveLength(0);
  });

  it("a mailbox that doesn't exist (550) is not tried again, nor is a message whose stored copy lacks its single-use link", async () => {
    const now = new Date();
    const nobody = await sendMail({ to: "nobody@example.co.za", subject: "Order confirmed", text: "Thanks" });
    expect(await row(nobody.id)).toMatchObject({ attempts: 1, retry_at: null });
    busy = true;
    const invitation = await sendMail({ to: "packer@example.co.za", subject: "Join the team", text: "Accept: https://shop.example/staff/invitation?token=SECRET123", secret: "SECRET123" });
    expect(await row(invitation.id)).toMatchObject({ attempts: 1, retry_at: null });
    busy = false;
    expect(await retryDueMail(getDb(), minutes(now, 600))).toEqual({ sent: 0, failed: 0, gaveUp: 0 });
    expect(mail.received).toHaveLength(0);
  });

  it("two runs at once send a due message once", async () => {
    busy = true;
    const now = new Date();
    const { id } = await sendMail({ to: "lerato@example.co.za", subject: "Payment received", text: "Thanks" });
    busy = false;
    const runs = await Promise.all([retryDueMail(getDb(), minutes(now, 2)), retryDueMail(getDb(), minutes(now, 2))]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect(mail.received).toHaveLength(1);
    expect(await row(id)).toMatchObject({ attempts: 2, retry_at: null });
  });
});
