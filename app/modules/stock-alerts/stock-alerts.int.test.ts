/**
 * Back-in-stock alerts on SQLite and PostgreSQL (docs/decisions/057): a visitor's request waits for its confirmation
 * (unconfirmed gets nothing), each person gets ONE e-mail when stock returns (also when it returns twice, and with
 * two runners at once), a sold-out size is waited for on its own, and the address is deleted after sending, after
 * 6 months, or when an unconfirmed link expires (the clock is passed in).
 */
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as confirmRoute from "~/routes/stock-alerts.confirm";
import * as apiRoute from "~/routes/api.stock-alerts";
import { listConsents } from "~/modules/consent/consent.server";
import { refreshProductSummaries } from "~/modules/catalog/sizes.server";
import { env } from "~/utils/env.server";
import { newId } from "~/utils/ids";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { insertProduct, updateProduct } from "../../../tests/factories/catalog";
import { createUser, sessionCookieFor, uniqueEmail } from "../../../tests/factories/users";
import { requestStockAlert, sendBackInStock, waitingCounts } from "./stock-alerts.server";
import { STOCK_ALERT_MESSAGES } from "./stock-alerts.logic";

const db = () => getDb();
const IP = "203.0.113.9";
const DAY = 24 * 60 * 60_000;

async function mailTo(email: string) {
  return db().selectFrom("mail_outbox").select(["subject", "text_body"]).where("to_address", "=", email).orderBy("created_at").execute();
}
async function alertsOf(email: string) {
  return db().selectFrom("stock_alerts").select(["status", "product_id", "size_id"]).where("email", "=", email).execute();
}
function confirmLink(text: string): string {
  const url = /(https?:\/\/\S+\/stock-alerts\/confirm\?token=\S+)/.exec(text)?.[1];
  if (!url) throw new Error(`no confirmation link in: ${text}`);
  return url.slice(env().PUBLIC_BASE_URL.replace(/\/+$/, "").length);
}
const backInStock = async (email: string) => (await mailTo(email)).filter((m) => m.subject.endsWith("is back in stock"));

describe("back in stock", () => {
  it("a visitor's request waits for its confirmation: unconfirmed gets nothing; confirmed gets one e-mail, and the address is deleted", async () => {
    const product = await insertProduct(db(), { name: "Velvet Oud", stock: 0 });
    const email = uniqueEmail("visitor");
    const asked = await dataOf(await callAction(apiRoute.action, "/api/stock-alerts", { productId: product.id, email }));
    expect(asked).toMatchObject({ ok: true, kind: "confirm-sent", message: STOCK_ALERT_MESSAGES.confirmSent(email) });
    expect(await alertsOf(email)).toEqual([{ status: "pending", product_id: product.id, size_id: null }]);
    const [confirmation] = await mailTo(email);
    expect(confirmation!.subject).toBe("Confirm: tell me when Velvet Oud is back");

    // asked again: the same answer, no second confirmation e-mail
    await callAction(apiRoute.action, "/api/stock-alerts", { productId: product.id, email });
    expect(await mailTo(email)).toHaveLength(1);

    // back in stock before the confirmation: nothing goes out; the request still waits for its confirmation
    await updateProduct(db(), product.id, { stock: 4 });
    expect((await sendBackInStock(db(), { limit: 10 })).sent).toBe(0);
    expect(await backInStock(email)).toHaveLength(0);
    await updateProduct(db(), product.id, { stock: 0 });

    // opening the link changes nothing (mail scanners open links); its button confirms, with the consent logged
    const path = confirmLink(confirmation!.text_body);
    expect((await dataOf(await callLoader(confirmRoute.loader, path))).state.kind).toBe("ready");
    expect((await alertsOf(email))[0]!.status).toBe("pending");
    const confirmed = await dataOf(await callAction(confirmRoute.action, path, {}));
    expect(confirmed.state).toMatchObject({ kind: "confirmed", what: "Velvet Oud" });
    const consents = await db().selectFrom("consents").select(["purpose", "source", "user_id", "wording"]).where("email", "=", email).execute();
    expect(consents).toEqual([expect.objectContaining({ purpose: "stock_alert", source: "product_page", user_id: null })]);
    expect((await waitingCounts(db(), [product.id])).get(product.id)).toBe(1);

    // back twice, quickly: one e-mail, and the address is gone after it
    await updateProduct(db(), product.id, { stock: 3 });
    expect((await sendBackInStock(db(), { limit: 10 })).sent).toBe(1);
    await updateProduct(db(), product.id, { stock: 0 });
    await updateProduct(db(), product.id, { stock: 6 });
    expect((await sendBackInStock(db(), { limit: 10 })).sent).toBe(0);
    const sent = await backInStock(email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text_body).toContain(`/products/${product.slug}`);
    expect(await alertsOf(email)).toEqual([]);
    expect((await waitingCounts(db(), [product.id])).get(product.id)).toBeUndefined();
  });

  it("a signed-in shopper waits in one tap (their account's address, the consent logged); two runners at once send one e-mail", async () => {
    const product = await insertProduct(db(), { name: "Amber Nights", stock: 0 });
    const user = await createUser(db());
    const answer = await callAction(apiRoute.action, "/api/stock-alerts", { productId: product.id }, { headers: { cookie: await sessionCookieFor(db(), user.id) } });
    expect(await dataOf(answer)).toMatchObject({ ok: true, kind: "waiting" });
    expect(await alertsOf(user.email)).toEqual([{ status: "waiting", product_id: product.id, size_id: null }]);
    expect((await listConsents(db(), user.id)).map((c) => c.purpose)).toEqual(["stock_alert"]);
    expect(await mailTo(user.email)).toEqual([]); // no confirmation needed

    await updateProduct(db(), product.id, { stock: 2 });
    const runs = await Promise.all([sendBackInStock(db(), { limit: 10 }), sendBackInStock(db(), { limit: 10 })]);
    expect(runs[0].sent + runs[1].sent).toBe(1);
    expect(await backInStock(user.email)).toHaveLength(1);
  });

  it("a sold-out size is waited for on its own: another size in stock sends nothing; its own restock does", async () => {
    const product = await insertProduct(db(), { name: "Cedar Veil", stock: 5 });
    const big = newId();
    await db().insertInto("product_sizes").values({ id: big, product_id: product.id, label: "100 ml", code: "100ml", size_ml: 100, price_cents: 59900, stock: 0, position: 1 }).execute();
    await refreshProductSummaries(db(), [product.id]);
    const email = uniqueEmail("sizes");
    const user = await createUser(db(), { email });
    // the product (5 of the small size) isn't sold out: only the size can be waited for
    await expect(requestStockAlert(db(), { productId: product.id, sizeId: null, user, ip: IP })).rejects.toMatchObject({ status: 409 });
    await requestStockAlert(db(), { productId: product.id, sizeId: big, user, ip: IP });
    await db().updateTable("product_sizes").set({ stock: 9 }).where("id", "=", product.id).execute();
    expect((await sendBackInStock(db(), { limit: 10 })).sent).toBe(0);
    await db().updateTable("product_sizes").set({ stock: 1 }).where("id", "=", big).execute();
    expect((await sendBackInStock(db(), { limit: 10 })).sent).toBe(1);
    const [mail] = await backInStock(email);
    expect(mail!.subject).toBe("Cedar Veil (100 ml) is back in stock");
    expect(mail!.text_body).toContain(`/products/${product.slug}?size=100ml`);
  });

  it("requests are deleted unsent after 6 months, and unconfirmed ones when their link expires; the throttle holds the rest", async () => {
    const product = await insertProduct(db(), { name: "Saffron Dusk", stock: 0 });
    const now = new Date("2027-06-15T10:00:00.000Z");
    const old = await createUser(db());
    const recent = await createUser(db());
    await requestStockAlert(db(), { productId: product.id, sizeId: null, user: old, ip: IP, now: new Date("2026-12-14T10:00:00.000Z") });
    await requestStockAlert(db(), { productId: product.id, sizeId: null, user: recent, ip: IP, now: new Date(now.getTime() - DAY) });
    const unconfirmed = uniqueEmail("late");
    await requestStockAlert(db(), { productId: product.id, sizeId: null, user: null, email: unconfirmed, ip: IP, now: new Date(now.getTime() - 8 * DAY) });

    // nothing is back yet: the run only deletes what is past its time
    const run = await sendBackInStock(db(), { limit: 10, now });
    expect(run).toMatchObject({ sent: 0, expired: 2 });
    expect(await alertsOf(old.email)).toEqual([]);
    expect(await alertsOf(unconfirmed)).toEqual([]);
    expect(await alertsOf(recent.email)).toHaveLength(1);

    // the throttle: three people wait, a run of one sends one
    const more = [await createUser(db()), await createUser(db())];
    for (const u of more) await requestStockAlert(db(), { productId: product.id, sizeId: null, user: u, ip: IP, now });
    await updateProduct(db(), product.id, { stock: 10 });
    expect(await sendBackInStock(db(), { limit: 1, now })).toMatchObject({ sent: 1, more: true });
    expect((await sendBackInStock(db(), { limit: 5, now })).sent).toBe(2);
    expect(await db().selectFrom("stock_alerts").select("id").where("product_id", "=", product.id).execute()).toEqual([]);
  });

  it("refuses what it can't do and writes nothing: an in-stock product, a bad address, a changed link", async () => {
    const inStock = await insertProduct(db(), { stock: 3 });
    const soldOut = await insertProduct(db(), { stock: 0 });
    const refused = await callAction(apiRoute.action, "/api/stock-alerts", { productId: inStock.id, email: uniqueEmail() });
    expect(statusOf(refused)).toBe(409);
    const bad = await callAction(apiRoute.action, "/api/stock-alerts", { productId: soldOut.id, email: "not an address" });
    expect(statusOf(bad)).toBe(400);
    expect(await db().selectFrom("stock_alerts").select("id").where("product_id", "in", [inStock.id, soldOut.id]).execute()).toEqual([]);

    const email = uniqueEmail("tamper");
    await requestStockAlert(db(), { productId: soldOut.id, sizeId: null, user: null, email, ip: IP });
    const path = confirmLink((await mailTo(email))[0]!.text_body);
    const tampered = path.slice(0, -3) + (path.endsWith("AAA") ? "BBB" : "AAA");
    const answer = await callAction(confirmRoute.action, tampered, {});
    expect(statusOf(answer)).toBe(400);
    expect((await dataOf(answer)).state).toEqual({ kind: "refused", message: STOCK_ALERT_MESSAGES.invalid });
    expect(await alertsOf(email)).toEqual([{ status: "pending", product_id: soldOut.id, size_id: null }]);
  });
});
