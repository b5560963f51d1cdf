/**
 * The wishlist on SQLite and PostgreSQL (docs/decisions/057): the sign-in merge keeps every item of both lists, the
 * page works as form posts, the share link shows the list read-only and a changed one shows nothing, and the opt-in
 * wishlist e-mails go only to who asked, once per change, with their own off link.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as page from "~/routes/wishlist";
import * as shared from "~/routes/wishlist.shared.$token";
import * as api from "~/routes/api.wishlist";
import * as login from "~/routes/auth.login";
import * as alertsOff from "~/routes/wishlist.alerts-off";
import { listConsents } from "~/modules/consent/consent.server";
import { env } from "~/utils/env.server";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { insertProduct, updateProduct } from "../../../tests/factories/catalog";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { addToWishlist, sendWishlistAlerts, wishlistIds, wishlistShareUrl } from "./wishlist.server";

const db = () => getDb();
const pathOf = (url: string) => url.slice(env().PUBLIC_BASE_URL.replace(/\/+$/, "").length);

describe("the wishlist", () => {
  it("signing in merges the browser's list into the account's, keeping every item of both once", async () => {
    const [a, b, c] = [await insertProduct(db()), await insertProduct(db()), await insertProduct(db())];
    const user = await createUser(db());
    await addToWishlist(db(), user.id, [a.id, b.id]);
    const answer = await callAction(login.action, "/auth/login", { email: user.email, password: user.password, wishlist: JSON.stringify([b.id, c.id, "no-such-product"]) });
    expect(statusOf(answer)).toBe(302);
    expect(new Set(await wishlistIds(db(), user.id))).toEqual(new Set([a.id, b.id, c.id]));

    // the script's merge of what a browser still held (the same function): nothing lost, nothing doubled
    const cookie = await sessionCookieFor(db(), user.id);
    const merged = await dataOf(await callAction(api.action, "/api/wishlist", { intent: "merge", ids: JSON.stringify([c.id, a.id]) }, { headers: { cookie } }));
    expect([...merged.ids].sort()).toEqual([a.id, b.id, c.id].sort());
  });

  it("/wishlist without JavaScript: the server's list, Remove as a form post; a visitor's page has no list of its own", async () => {
    const [a, b] = [await insertProduct(db(), { name: "Iris Noir" }), await insertProduct(db(), { name: "Neroli Sun" })];
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    // a heart's plain post: saved, and back to the page it was on
    const saved = await callAction(page.action, "/wishlist", { intent: "add", productId: a.id, redirect: `/products/${a.slug}` }, { headers: { cookie } });
    expect(statusOf(saved)).toBe(302);
    expect((saved as Response).headers.get("Location")).toBe(`/products/${a.slug}`);
    await callAction(page.action, "/wishlist", { intent: "add", productId: b.id }, { headers: { cookie } });
    const shown = await dataOf(await callLoader(page.loader, "/wishlist", { headers: { cookie } }));
    expect(shown.products.map((p: { name: string }) => p.name).sort()).toEqual(["Iris Noir", "Neroli Sun"]);

    const removed = await callAction(page.action, "/wishlist", { intent: "remove", productId: a.id }, { headers: { cookie } });
    expect((removed as Response).headers.get("Location")).toBe("/wishlist");
    expect(await wishlistIds(db(), user.id)).toEqual([b.id]);

    expect(await dataOf(await callLoader(page.loader, "/wishlist"))).toEqual({ signedIn: false });
    // a visitor's page asks for its browser's products: public facts only
    const products = await dataOf(await callLoader(api.loader, `/api/wishlist?ids=${a.id},${b.id}`));
    expect(products.products.map((p: { id: string }) => p.id)).toEqual([a.id, b.id]);
  });

  it("the share link shows the list read-only to anyone; a changed link shows nothing", async () => {
    const product = await insertProduct(db(), { name: "Shared Rose" });
    const owner = await createUser(db());
    await addToWishlist(db(), owner.id, [product.id]);
    const path = pathOf(wishlistShareUrl(owner.id));
    const token = path.split("/").pop()!;
    const seen = await dataOf(await callLoader(shared.loader, path, { params: { token } }));
    expect(seen.products.map((p: { name: string }) => p.name)).toEqual(["Shared Rose"]);
    expect(JSON.stringify(seen)).not.toContain(owner.email);
    // read-only: the route has no action at all, so nothing can be posted to it
    expect((shared as Record<string, unknown>).action).toBeUndefined();

    const changed = token.slice(0, 10) + (token[10] === "A" ? "B" : "A") + token.slice(11);
    const refused = await callLoader(shared.loader, `/wishlist/shared/${changed}`, { params: { token: changed } });
    expect(statusOf(refused)).toBe(404);
    expect((await dataOf(refused)).products).toEqual([]);
  });

  it("wishlist e-mails go only to who opted in (logged), once per change, with their own off link", async () => {
    const product = await insertProduct(db(), { name: "Oud Royale", price_cents: 50000, stock: 0 });
    const optedIn = await createUser(db());
    const silent = await createUser(db());
    for (const u of [optedIn, silent]) await addToWishlist(db(), u.id, [product.id]);
    const cookie = await sessionCookieFor(db(), optedIn.id);
    await callAction(page.action, "/wishlist", { intent: "alerts", alerts: "on" }, { headers: { cookie } });
    expect((await listConsents(db(), optedIn.id)).map((c) => [c.purpose, c.granted, c.source])).toEqual([["wishlist_alerts", true, "wishlist"]]);

    await updateProduct(db(), product.id, { price_cents: 42000, stock: 3 });
    const runs = await Promise.all([sendWishlistAlerts(db(), { limit: 10 }), sendWishlistAlerts(db(), { limit: 10 })]);
    expect(runs[0].sent + runs[1].sent).toBe(1);
    expect((await sendWishlistAlerts(db(), { limit: 10 })).sent).toBe(0);
    const mails = await db().selectFrom("mail_outbox").select(["to_address", "text_body", "list_unsubscribe"]).where("subject", "=", "News from your wishlist").where("to_address", "in", [optedIn.email, silent.email]).execute();
    expect(mails.map((m) => m.to_address)).toEqual([optedIn.email]);
    expect(mails[0]!.text_body).toContain("Oud Royale: now R420.00 (was R500.00), back in stock");

    // the off link works signed out, once
    const off = pathOf(mails[0]!.list_unsubscribe!);
    expect(statusOf(await callAction(alertsOff.action, off, {}))).toBe(200);
    expect((await listConsents(db(), optedIn.id)).map((c) => [c.granted, c.source])).toEqual([[true, "wishlist"], [false, "unsubscribe"]]);
    await updateProduct(db(), product.id, { price_cents: 30000 });
    expect((await sendWishlistAlerts(db(), { limit: 10 })).sent).toBe(0);
  });
});
