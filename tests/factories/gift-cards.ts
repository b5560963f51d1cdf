/**
 * A sold gift card without going through the checkout (the authorization matrix's rows): a paid order, its gift card
 * sale, and the card issued from it as the payment would (issueSoldGiftCards), its code sealed. `emailed`: its e-mail
 * stamped as gone once, as the job leaves it.
 *
 *   const cardId = await insertSoldGiftCard(db, { userId: buyer.id, sendOn: "2026-12-24" });
 */
import type { Queryable } from "~/db/db.server";
import { issueSoldGiftCards } from "~/modules/gift-cards/gift-card-sales.server";
import { newId } from "~/utils/ids";
import { saDay } from "~/utils/sa-days";
import { insertOrder } from "./orders";

export async function insertSoldGiftCard(
  db: Queryable,
  input: { userId: string | null; recipientName?: string | null; recipientEmail?: string | null; sendOn?: string; amountCents?: number; emailed?: boolean },
): Promise<string> {
  const amountCents = input.amountCents ?? 50000;
  const order = await insertOrder(db, { userId: input.userId, status: "processing", paymentStatus: "completed", shippingCents: 0, lines: [{ productId: null, sizeId: null, name: "Gift card", unitPriceCents: amountCents }] });
  const saleId = newId();
  await db
    .insertInto("gift_card_sales")
    .values({
      id: saleId,
      order_id: order.id,
      order_line_id: order.lines[0]!.id,
      amount_cents: amountCents,
      quantity: 1,
      recipient_name: input.recipientName === undefined ? "Thandi" : input.recipientName,
      recipient_email: input.recipientEmail === undefined ? `thandi.${newId().slice(0, 8).toLowerCase()}@example.co.za` : input.recipientEmail,
      sender_name: "Sipho",
      message: null,
      send_on: input.sendOn ?? saDay(new Date()),
    })
    .execute();
  await issueSoldGiftCards(db, order.id);
  const card = await db.selectFrom("gift_cards").select("id").where("sale_id", "=", saleId).executeTakeFirstOrThrow();
  if (input.emailed) await db.updateTable("gift_cards").set({ emailed_at: new Date().toISOString(), email_count: 1 }).where("id", "=", card.id).execute();
  return card.id;
}
