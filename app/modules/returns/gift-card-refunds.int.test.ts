import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { placeOrder } from "~/modules/flows/order-placed.server";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { setOrderStatus } from "~/modules/flows/order-changed-by-owner.server";
import { issueGiftCard, findGiftCard, giftCardLedger, findGiftCardByCode } from "~/modules/gift-cards/gift-cards.server";
import { normalizeGiftCardCode } from "~/modules/gift-cards/gift-card-code.logic";
import { payOrderWithGiftCards } from "~/modules/flows/order-paid.server";
import { returnRequestSchema } from "./returns.schema";
import { insertProduct } from "../../../tests/factories/catalog";
import { TEST_ADDRESS } from "../../../tests/factories/orders";
import { outboxFor } from "../../../tests/factories/payments";
import { createUser, type TestUser } from "../../../tests/factories/users";
import { refundReturn } from "~/modules/flows/return-refunded.server";
import { approveReturn, receiveReturn } from "./returns-admin.server";
import { requestReturn } from "./returns.server";

/**
 * Refunds of orders that gift cards paid, and refunds to a new gift card (docs/decisions/053), on the real database:
 * the provider (or the EFT) pays back at most what it took and the cards get the rest; an order paid wholly by card is
 * refunded to it; a new gift card only when the shopper chose one at the request.
 */
const db = () => getDb();
let shopper: TestUser;
beforeAll(async () => {
  shopper = await createUser(db(), { email: "lerato.returns@example.co.za" });
});

const ADMIN = { kind: "admin" as const, id: null };

/** A delivered order of one R899 bottle (R70 delivery), `cardCents` of it paid by a gift card, the rest otherwise. */
async function deliveredOrder(cardCents: number | null) {
  const p = await insertProduct(db(), { name: "Oud Royale", price_cents: 89900 });
  const card = cardCents ? await issueGiftCard(db(), { amountCents: cardCents, actor: ADMIN }) : null;
  const order = await placeOrder(db(), shopper, { lines: [{ productId: p.id, quantity: 1 }], shippingAddress: TEST_ADDRESS, giftCardIds: card ? [card.id] : [] });
  if (order.giftCardCents === order.totalAmountCents) expect(await payOrderWithGiftCards(db(), order.id)).toBe(true);
  else await db().transaction().execute((trx) => markOrderPaid(trx, order.id));
  await setOrderStatus(db(), order.id, "delivered");
  const line = await db().selectFrom("order_lines").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow();
  return { order, card, lineId: line.id };
}

async function returned(o: Awaited<ReturnType<typeof deliveredOrder>>, refundTo?: "original" | "gift_card") {
  const { id } = await requestReturn(db(), { id: shopper.id, isAdmin: false }, { orderId: o.order.id, reason: "changed_mind", note: "", opened: false, lines: [{ lineId: o.lineId, quantity: 1 }], refundTo });
  await approveReturn(db(), id, "");
  await receiveReturn(db(), id, {});
  return id;
}

const row = (id: string) => db().selectFrom("returns").select(["refund_to", "refund_cents", "refund_method", "refund_gift_card_cents", "refund_gift_card_id"]).where("id", "=", id).executeTakeFirstOrThrow();

describe("an order paid partly by gift card", () => {
  it("refunds through the EFT at most what it paid, and the rest back to the gift card", async () => {
    const o = await deliveredOrder(20000);
    const id = await returned(o);
    const total = o.order.totalAmountCents;
    const message = await refundReturn(db(), id, { amountCents: total, method: "eft", reference: "EFT-1" });
    expect(message).toContain(`R200.00 back to the gift card you paid with`);
    expect(await row(id)).toMatchObject({ refund_to: "original", refund_cents: total, refund_method: "eft", refund_gift_card_cents: 20000 });
    expect((await findGiftCard(db(), o.card!.id))?.balanceCents).toBe(20000);
    expect((await giftCardLedger(db(), o.card!.id)).map((e) => [e.kind, e.amountCents])).toEqual([
      ["issue", 20000],
      ["redemption", -20000],
      ["refund", 20000],
    ]);
  });

  it("a smaller refund goes to the provider's part first; the card gets only what the provider can't take", async () => {
    const o = await deliveredOrder(20000);
    const id = await returned(o);
    const providerTook = o.order.totalAmountCents - 20000;
    await refundReturn(db(), id, { amountCents: providerTook - 100, method: "eft", reference: "" });
    expect((await row(id)).refund_gift_card_cents).toBe(0);
    expect((await findGiftCard(db(), o.card!.id))?.balanceCents).toBe(0);
  });
});

describe("an order paid wholly by gift card", () => {
  it("is refunded back to its card, with no EFT to pay", async () => {
    const o = await deliveredOrder(200000);
    const id = await returned(o);
    const total = o.order.totalAmountCents;
    const message = await refundReturn(db(), id, { amountCents: total, method: "provider", reference: "" });
    expect(message).toContain("back to the gift card you paid with");
    expect(await row(id)).toMatchObject({ refund_method: null, refund_gift_card_cents: total });
    expect((await findGiftCard(db(), o.card!.id))?.balanceCents).toBe(200000);
  });
});

describe("a refund to a new gift card", () => {
  it("is never the default: a request without a choice is refunded to the payment", async () => {
    expect(returnRequestSchema.parse({ reason: "changed_mind", lines: "{}" }).refundTo).toBe("original");
    const o = await deliveredOrder(null);
    const id = await returned(o);
    await refundReturn(db(), id, { amountCents: 50000, method: "eft", reference: "" });
    expect(await row(id)).toMatchObject({ refund_to: "original", refund_method: "eft", refund_gift_card_cents: 0, refund_gift_card_id: null });
  });

  it("when the shopper chose it, the refund is a new card e-mailed to them, whose code works", async () => {
    const o = await deliveredOrder(null);
    const id = await returned(o, "gift_card");
    const message = await refundReturn(db(), id, { amountCents: 89900, method: "eft", reference: "" });
    expect(message).toContain("as a new gift card");
    const r = await row(id);
    expect(r).toMatchObject({ refund_to: "gift_card", refund_method: null, refund_gift_card_cents: 89900 });
    const card = await findGiftCard(db(), r.refund_gift_card_id!);
    expect(card).toMatchObject({ balanceCents: 89900, recipientEmail: "lerato.returns@example.co.za", issuedByKind: "admin" });
    const mail = (await outboxFor(db(), "lerato.returns@example.co.za")).find((m) => m.subject.includes("your refund as a gift card of R899.00"));
    const code = /Your gift card code: ([A-Z0-9-]{19})/.exec(mail?.text_body ?? "")?.[1];
    expect((await findGiftCardByCode(db(), normalizeGiftCardCode(code ?? "")!))?.id).toBe(card!.id);
  });
});
