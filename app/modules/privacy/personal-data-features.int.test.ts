/**
 * The POPIA kit over the data of issue 33/34 (docs/decisions/040 addendum; 053–057), on SQLite and PostgreSQL:
 * "Download my data" has each new section with the person's own rows and never another person's; deleting the
 * account deletes each of them, unlinks the gift cards without touching their money, and leaves another person's
 * rows alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { deleteAccount } from "~/modules/flows/account-deleted.server";
import { readOrder } from "~/modules/samples/order-view.server";
import { appendEntry, issueGiftCard } from "~/modules/gift-cards/gift-cards.server";
import { newId } from "~/utils/ids";
import { insertProduct } from "../../../tests/factories/catalog";
import { insertOrder } from "../../../tests/factories/orders";
import { createUser, type TestUser } from "../../../tests/factories/users";
import { buildDataArchive, collectPersonalData } from "./export.server";
import type { PersonalData } from "./export.logic";
import { unzip } from "../../../tests/factories/unzip";

const db = () => getDb();
const DAY = 86_400_000;
const stamp = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY).toISOString();

interface Person extends TestUser {
  name: string;
  phone: string;
  orderId: string;
  productId: string;
  giftCardId: string;
  giftCode: string;
}

/** A shopper who used every feature: a gift card issued to them, a sample credit, WhatsApp, a cart, a wishlist… */
async function personWithFeatures(name: string, phone: string): Promise<Person> {
  const user = await createUser(db(), { email: `${name.toLowerCase()}.features@example.co.za` });
  const product = await insertProduct(db(), { name: `${name}'s Vetiver`, price_cents: 90000 });
  const order = await insertOrder(db(), { userId: user.id, status: "processing", paymentStatus: "completed", lines: [{ productId: product.id, name: `${name}'s Vetiver`, unitPriceCents: 90000 }] });
  const card = await issueGiftCard(db(), { amountCents: 50000, recipientEmail: user.email.toUpperCase(), note: `Sorry about the late parcel, ${name}`, actor: { kind: "system", id: null } });
  await db().transaction().execute((trx) => appendEntry(trx, card.id, "redemption", -10000, { actor: { kind: "user", id: user.id }, orderId: order.id }));
  await db()
    .insertInto("sample_credits")
    .values({ id: newId(), user_id: user.id, product_id: product.id, name: `${name}'s Vetiver`, amount_cents: 3500, source_order_id: order.id, source_sample_id: newId(), unit: 0, granted_at: stamp(-1), expires_at: stamp(59) })
    .execute();
  await db().insertInto("whatsapp_subscriptions").values({ user_id: user.id, phone, opted_in_at: stamp(-2), opted_out_at: null, updated_at: stamp(-2) }).execute();
  await db()
    .insertInto("whatsapp_messages")
    .values({
      id: newId(),
      dedupe_key: `payment_received:${order.id}`,
      order_id: order.id,
      user_id: user.id,
      event: "payment_received",
      to_phone: phone,
      template: "payment_received",
      language: "en",
      params: JSON.stringify([name, order.id.slice(0, 8)]),
      status: "delivered",
      is_test: true,
      next_attempt_at: stamp(-1),
      created_at: stamp(-1),
      updated_at: stamp(-1),
      sent_at: stamp(-1),
      delivered_at: stamp(-1),
    })
    .execute();
  const lines = JSON.stringify([{ productId: product.id, sizeId: product.id, quantity: 2 }]);
  await db().insertInto("saved_carts").values({ user_id: user.id, lines, version: 3, cart_id: newId(), changed_at: stamp(-1), updated_at: stamp(-1) }).execute();
  await db()
    .insertInto("reminders")
    .values({ id: newId(), kind: "cart", subject_id: newId(), user_id: user.id, lines, status: "sent", error: `550 mailbox of ${name} full once`, claimed_at: stamp(-1), sent_at: stamp(-1) })
    .execute();
  await db().insertInto("wishlist_items").values({ user_id: user.id, product_id: product.id, created_at: stamp(-3), alert_price_cents: 90000, alert_in_stock: 1 }).execute();
  await db().insertInto("wishlist_alerts").values({ user_id: user.id, opted_in_at: stamp(-3) }).execute();
  // one request signed in, one made earlier as a visitor under the same address (in capitals)
  await db().insertInto("stock_alerts").values({ id: newId(), product_id: product.id, size_id: null, user_id: user.id, email: user.email, status: "waiting", created_at: stamp(-4), confirmed_at: stamp(-4) }).execute();
  await db().insertInto("stock_alerts").values({ id: newId(), product_id: product.id, size_id: null, user_id: null, email: user.email.toUpperCase(), status: "pending", created_at: stamp(-5), confirmed_at: null }).execute();
  return { ...user, name, phone, orderId: order.id, productId: product.id, giftCardId: card.id, giftCode: card.code };
}

let thandi: Person;
let sipho: Person;

beforeAll(async () => {
  thandi = await personWithFeatures("Thandi", "27825550101");
  sipho = await personWithFeatures("Sipho", "27825550202");
  // Thandi gave her card's code to Sipho, who paid part of his order with it: his order is not hers to see, and
  // her card is in his download only as far as he used it.
  await db().transaction().execute((trx) => appendEntry(trx, thandi.giftCardId, "redemption", -5000, { actor: { kind: "user", id: sipho.id }, orderId: sipho.orderId }));
});

describe("download my data: the features of issue 33/34", () => {
  it("has each section with the person's own data, and nobody else's", async () => {
    const data: PersonalData = await collectPersonalData(db(), thandi.id);
    const short = thandi.orderId.slice(0, 8);

    // gift cards: her card (last four only), its balance and every change; Sipho's order on it is not named
    const own = data.giftCards.find((c) => c.issuedToYou)!;
    expect(own).toMatchObject({ last4: thandi.giftCode.slice(-4), amountCents: 50000, balanceCents: 35000, status: "active" });
    expect(own.entries.map((x) => [x.kind, x.amountCents, x.balanceAfterCents, x.order])).toEqual([
      ["Issued", 50000, 50000, null],
      ["Paid an order", -10000, 40000, short],
      ["Paid an order", -5000, 35000, null],
    ]);
    expect(data.giftCards.filter((c) => !c.issuedToYou)).toEqual([]);
    // Sipho's own card, and Thandi's only as far as he used it
    const his = await collectPersonalData(db(), sipho.id);
    const borrowed = his.giftCards.find((c) => !c.issuedToYou)!;
    expect(borrowed.last4).toBe(thandi.giftCode.slice(-4));
    expect(borrowed.entries).toEqual([expect.objectContaining({ kind: "Paid an order", amountCents: -5000, order: sipho.orderId.slice(0, 8) })]);

    expect(data.sampleCredits).toEqual([expect.objectContaining({ fragrance: "Thandi's Vetiver", amountCents: 3500, state: "open", earnedOnOrder: short, order: null, usedAt: null })]);
    expect(data.whatsapp.subscription).toMatchObject({ phone: thandi.phone, on: true, optedOutAt: null });
    expect(data.whatsapp.messages).toEqual([expect.objectContaining({ order: short, update: expect.any(String), status: "Delivered", phone: thandi.phone })]);
    expect(data.whatsapp.messages[0]!.deliveredAt).not.toBeNull();
    const size = await db().selectFrom("product_sizes").select("label").where("id", "=", thandi.productId).executeTakeFirstOrThrow();
    expect(data.savedCart!.items).toEqual([{ name: "Thandi's Vetiver", size: size.label || null, quantity: 2 }]);
    expect(data.reminders).toEqual([expect.objectContaining({ kind: "Cart", status: "sent", order: null, items: [expect.objectContaining({ name: "Thandi's Vetiver", quantity: 2 })] })]);
    expect(data.wishlist.items).toEqual([expect.objectContaining({ product: "Thandi's Vetiver", lastToldPriceCents: 90000, lastToldInStock: true })]);
    expect(data.wishlist.alertsOnSince).not.toBeNull();
    expect(data.stockAlerts.map((a) => [a.product, a.status, a.email.toLowerCase()])).toEqual([
      ["Thandi's Vetiver", "waiting", thandi.email],
      ["Thandi's Vetiver", "pending", thandi.email],
    ]);

    // nobody else's: not Sipho's name, address, number or order; never a gift card's code or its hash
    const json = JSON.stringify(data);
    for (const theirs of ["Sipho", sipho.email, sipho.phone, sipho.orderId.slice(0, 8)]) expect(json).not.toContain(theirs);
    const hashes = await db().selectFrom("gift_cards").select("code_hash").execute();
    for (const h of hashes) expect(json).not.toContain(h.code_hash);
    expect(json).not.toContain(thandi.giftCode);
    expect(json).not.toContain(thandi.giftCode.replace(/-/g, ""));
  });

  it("the readable page has a section for each, and the download record counts them", async () => {
    const archive = await buildDataArchive(db(), thandi.id);
    const html = unzip(archive.bytes).get("my-data.html")!.text();
    for (const heading of ["Your gift cards", "Your sample credits", "WhatsApp order updates", "Your cart and reminders", "Your wishlist", "Back-in-stock requests"]) {
      expect(html).toContain(`<h2>${heading}</h2>`);
    }
    expect(html).toContain(`Gift card ending ${thandi.giftCode.slice(-4)}`);
    expect(html).toContain("R350.00");
    expect(html).toContain(thandi.phone);
    expect(html).not.toContain("Sipho");
    expect(archive.counts).toMatchObject({ giftCards: 1, sampleCredits: 1, whatsappMessages: 1, savedCartItems: 1, reminders: 1, wishlistItems: 1, stockAlerts: 2 });
  });
});

describe("deleting the account: the features of issue 33/34", () => {
  it("deletes each personal row, keeps the gift card's money unlinked, and leaves the other person's rows alone", async () => {
    const count = async (table: "wishlist_items" | "wishlist_alerts" | "saved_carts" | "whatsapp_subscriptions" | "sample_credits", userId: string) =>
      Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", userId).executeTakeFirstOrThrow()).n);
    const ledgerBefore = await db().selectFrom("gift_card_ledger").select(["position", "kind", "amount_cents", "balance_after_cents", "order_id"]).where("gift_card_id", "=", thandi.giftCardId).orderBy("position").execute();

    const result = await deleteAccount(db(), thandi.id, { kind: "self" });

    for (const table of ["wishlist_items", "wishlist_alerts", "saved_carts", "whatsapp_subscriptions", "sample_credits"] as const) {
      expect(await count(table, thandi.id), table).toBe(0);
      expect(await count(table, sipho.id), table).toBe(1);
    }
    // back-in-stock requests under her account and under her address as a visitor
    expect(await db().selectFrom("stock_alerts").select("id").where((eb) => eb(eb.fn("lower", ["email"]), "=", thandi.email)).execute()).toEqual([]);
    expect(await db().selectFrom("stock_alerts").select("id").where((eb) => eb(eb.fn("lower", ["email"]), "=", sipho.email)).execute()).toHaveLength(2);
    // her WhatsApp messages (by account and by order) go; his stay
    expect(await db().selectFrom("whatsapp_messages").select("id").where("order_id", "=", thandi.orderId).execute()).toEqual([]);
    expect(await db().selectFrom("whatsapp_messages").select("to_phone").where("user_id", "=", sipho.id).execute()).toEqual([{ to_phone: sipho.phone }]);
    // her reminder stays in the figures, naming nobody and holding no items
    const reminders = await db().selectFrom("reminders").select(["user_id", "lines", "error", "status"]).where("status", "=", "sent").execute();
    expect(reminders).toHaveLength(2);
    expect(reminders).toContainEqual({ user_id: null, lines: [], error: null, status: "sent" });
    expect(reminders).toContainEqual(expect.objectContaining({ user_id: sipho.id, lines: [{ productId: sipho.productId, sizeId: sipho.productId, quantity: 2 }] }));

    // the gift card: its money and every movement unchanged, no longer naming her; it still pays with its code
    const card = await db().selectFrom("gift_cards").select(["recipient_email", "note", "balance_cents", "status"]).where("id", "=", thandi.giftCardId).executeTakeFirstOrThrow();
    expect(card).toEqual({ recipient_email: null, note: null, balance_cents: 35000, status: "active" });
    const ledgerAfter = await db().selectFrom("gift_card_ledger").select(["position", "kind", "amount_cents", "balance_after_cents", "order_id", "actor_id", "note"]).where("gift_card_id", "=", thandi.giftCardId).orderBy("position").execute();
    expect(ledgerAfter.map(({ actor_id: _a, note: _n, ...money }) => money)).toEqual(ledgerBefore);
    expect(ledgerAfter.map((l) => l.actor_id)).toEqual([null, null, sipho.id]);
    expect(await db().selectFrom("gift_card_ledger").select("id").where("actor_id", "=", thandi.id).execute()).toEqual([]);
    expect((await db().selectFrom("gift_cards").select("recipient_email").where("id", "=", sipho.giftCardId).executeTakeFirstOrThrow()).recipient_email).toBe(sipho.email);

    // the record of the deletion counts them, and the e-mail tells her the card keeps its money
    expect(result.summary).toMatchObject({ giftCardsUnlinked: 1, sampleCreditsDeleted: 1, whatsappMessagesDeleted: 1, savedCartsDeleted: 1, remindersAnonymised: 1, wishlistItemsDeleted: 1, stockAlertsDeleted: 2 });
    expect(result.giftCards).toEqual([{ last4: thandi.giftCode.slice(-4), balanceCents: 35000, expiresAt: expect.any(String) }]);
    const mail = await db().selectFrom("mail_outbox").select("text_body").where("to_address", "=", thandi.email).where("subject", "like", "%has been deleted").executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`Gift card ending ${thandi.giftCode.slice(-4)}: R350.00`);
  });

  it("an order that used a sample credit keeps its bill's words after the credit went with the account (the kept tax invoice reads as before)", async () => {
    const naledi = await createUser(db(), { email: "naledi.credit@example.co.za" });
    const product = await insertProduct(db(), { name: "Naledi's Rose", price_cents: 90000 });
    const source = await insertOrder(db(), { userId: naledi.id, status: "delivered", paymentStatus: "completed", lines: [{ productId: product.id, name: "Naledi's Rose (2 ml sample)", unitPriceCents: 3500 }] });
    const bottle = await insertOrder(db(), { userId: naledi.id, status: "processing", paymentStatus: "completed", lines: [{ productId: product.id, name: "Naledi's Rose", unitPriceCents: 90000 }] });
    await db().updateTable("orders").set({ sample_credit_cents: 3500, discount_amount_cents: 3500 }).where("id", "=", bottle.id).execute();
    await db()
      .insertInto("sample_credits")
      .values({ id: newId(), user_id: naledi.id, product_id: product.id, name: "Naledi's Rose", amount_cents: 3500, source_order_id: source.id, source_sample_id: newId(), unit: 0, granted_at: stamp(-5), expires_at: stamp(55), reserved_order_id: bottle.id, used_at: stamp(-1) })
      .execute();
    expect((await readOrder(db(), bottle.id))!.sampleCreditLabel).toBe("Sample credit (Naledi's Rose)");

    const result = await deleteAccount(db(), naledi.id, { kind: "self" });

    expect(result.summary).toMatchObject({ sampleCreditsDeleted: 1 });
    expect(await db().selectFrom("sample_credits").select("id").where("reserved_order_id", "=", bottle.id).execute()).toEqual([]);
    const kept = (await readOrder(db(), bottle.id))!;
    expect(kept).toMatchObject({ userId: null, sampleCreditCents: 3500, sampleCreditLabel: "Sample credit (Naledi's Rose)" });
  });
});
