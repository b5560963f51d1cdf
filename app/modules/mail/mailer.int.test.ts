import { expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { privacyFooterText } from "./mail-footer";
import { sendMail } from "./mailer.server";

it("without SMTP configured, an e-mail is kept in the outbox and reported as not delivered", async () => {
  const result = await sendMail({ to: "buyer@example.co.za", subject: "Your order", text: "Thank you" });
  expect(result.delivered).toBe(false);
  const rows = await getDb().selectFrom("mail_outbox").selectAll().execute();
  expect(rows).toHaveLength(1);
  // the body as composed, then the privacy notice's link (every e-mail's footer: docs/decisions/037)
  expect(rows[0]).toMatchObject({ id: result.id, to_address: "buyer@example.co.za", subject: "Your order", text_body: `Thank you\n\n${privacyFooterText("http://localhost:3000")}`, sent_at: null });
});
