/**
 * A return's e-mails through a real SMTP server started here (smtp-server), each read back with mailparser: what the
 * shopper's and the shop's mail servers receive at each step, from the request to the refund and its credit note.
 */
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { setOrderStatus } from "~/modules/flows/order-changed-by-owner.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { action as adminReturnAction } from "~/routes/admin.returns.$id";
import { action as requestAction } from "~/routes/orders.return";
import { env, resetEnvForTests } from "~/utils/env.server";
import { insertAwaitingOrder } from "../../../tests/factories/payments";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { callAction } from "../../../tests/setup/route";
import { privacyFooterText } from "../mail/mail-footer";
import { startMailServer, type MailServer } from "../../../tests/factories/mail-server";

let mailServer: MailServer;

beforeAll(async () => {
  mailServer = await startMailServer();
  process.env.SMTP_URL = mailServer.url;
  process.env.SHOP_ADDRESS = "Unit 4, The Old Biscuit Mill | 373 Albert Road, Woodstock | Cape Town 7925";
  resetEnvForTests();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.SHOP_ADDRESS;
  resetEnvForTests();
  await mailServer.close();
});

const to = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.text : "");

describe("a return's e-mails over SMTP", () => {
  it("the shopper hears of each step, the shop of the request; the refund e-mail carries the amount and the credit note", async () => {
    const db = getDb();
    const shopper = await createUser(db, { email: `lerato.returns.${Date.now()}@example.co.za` });
    const admin = await createUser(db, { isAdmin: true });
    const [shopperCookie, adminCookie] = [await sessionCookieFor(db, shopper.id), await sessionCookieFor(db, admin.id)];
    const order = await insertAwaitingOrder(db, { userId: shopper.id, lines: [{ name: "Amber Lantern", quantity: 1, unitPriceCents: 59900 }], shippingCents: 0, shippingAddress: { name: "Lerato Mokoena", telephone: "+27821234567", street: "5 Long Street", suburb: "Gardens", city: "Cape Town", postalCode: "8001", province: "Western Cape" } });
    await db.transaction().execute((trx) => markOrderPaid(trx, order.id));
    await setOrderStatus(db, order.id, "delivered");
    const short = order.id.slice(0, 8);
    mailServer.clear();

    await callAction(requestAction, `/orders/${order.id}/return`, { reason: "not_for_me", [`qty.${order.lines[0]!.id}`]: "1" }, { headers: { cookie: shopperCookie }, params: { id: order.id } });
    const { id } = await db.selectFrom("returns").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow();
    const step = (form: Record<string, string>) => callAction(adminReturnAction, `/admin/returns/${id}`, { id, ...form }, { headers: { cookie: adminCookie }, params: { id } });
    await step({ intent: "approve", message: "Thank you, Lerato. Use any courier; keep the slip." });
    await step({ intent: "receive" });
    await step({ intent: "refund", amount: "599.00", method: "eft", reference: "FNB 555" });

    expect(mailServer.received.map((m) => [to(m), m.subject])).toEqual([
      [env().CONTACT_EMAIL, `Return requested for order ${short}`],
      [shopper.email, `Scentara: we have your return request for order ${short}`],
      [shopper.email, `Scentara: your return for order ${short} is approved`],
      [shopper.email, `Scentara: we have received your return for order ${short}`],
      [shopper.email, `Scentara: your refund for order ${short}`],
    ]);
    // the shop can answer the shopper straight from its notice
    expect(mailServer.received[0]!.replyTo?.value[0]?.address).toBe(shopper.email);
    expect(mailServer.received[0]!.text).toContain("Reason: The scent isn't for me");

    const approved = mailServer.received[2]!.text!;
    expect(approved).toContain("Hi Lerato Mokoena,");
    expect(approved).toContain("Thank you, Lerato. Use any courier; keep the slip.");
    expect(approved).toContain("Please send the items to:\n  Unit 4, The Old Biscuit Mill\n  373 Albert Road, Woodstock\n  Cape Town 7925");
    expect(approved).toContain("The only charge you may be asked to pay is the direct cost of returning the goods (ECTA s44(2)).");

    const refund = mailServer.received[4]!.text!;
    const { credit_note_number } = await db.selectFrom("returns").select("credit_note_number").where("id", "=", id).executeTakeFirstOrThrow();
    expect(refund).toContain(`We have refunded R599.00 for your return from order ${short}, by bank transfer (EFT).`);
    expect(refund).toContain(`Your credit note CN-${String(credit_note_number).padStart(6, "0")}: ${env().PUBLIC_BASE_URL}/returns/${id}/credit-note.pdf`);
    expect(refund).toContain(`Your return: ${env().PUBLIC_BASE_URL}/orders/${order.id}/return`);
    expect(refund.trim().endsWith(privacyFooterText(env().PUBLIC_BASE_URL).trim())).toBe(true);
  });
});
