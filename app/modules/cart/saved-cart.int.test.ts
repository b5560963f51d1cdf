/**
 * A signed-in shopper's cart kept on the server (issue 34 points 2 and 5), on SQLite and PostgreSQL, through POST
 * /api/cart as the browser calls it: the merge at sign-in keeps every item of both carts (a product in a size in both
 * at the larger quantity), so device B shows device A's items; a browser that saw the latest version replaces (its
 * removals stick); prices sent are never kept; a visitor's cart is not stored.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as route from "~/routes/api.cart";
import { callAction, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { insertProduct } from "../../../tests/factories/catalog";
import { saveSampleSettings } from "~/modules/samples/samples.server";
import { DEFAULT_SAMPLE_SETTINGS, DISCOVERY_SET_ID, SAMPLE_SIZE_ID, setToken } from "~/modules/samples/samples.logic";

const db = () => getDb();

interface Answer {
  owner: string;
  version: number;
  lines: Array<{ id: string; size?: string; sizeLabel?: string; name: string; price: number; quantity: number }>;
}

/** What a browser keeps after a sync: whose cart, its version, and (from now on) that version's lines. */
interface Seen {
  owner: string;
  version: number;
  lines?: Answer["lines"];
}

async function sync(cookie: string | null, lines: unknown[], state: Seen | null = null) {
  const result = await callAction(
    route.action,
    "/api/cart",
    {
      lines: JSON.stringify(lines),
      baseVersion: state ? String(state.version) : "",
      owner: state?.owner ?? "",
      baseLines: state?.lines ? JSON.stringify(state.lines.map((l) => ({ productId: l.id, ...(l.size ? { sizeId: l.size } : {}), quantity: l.quantity }))) : "",
    },
    { headers: cookie ? { cookie } : {} },
  );
  return { status: statusOf(result), data: (await dataOf(result)) as Answer };
}

const brief = (a: Answer) => a.lines.map((l) => `${l.name}${l.sizeLabel ? ` (${l.sizeLabel})` : ""} ×${l.quantity}`);

describe("the cart kept on the server", () => {
  it("signing in on a second device merges: every item of both, the larger quantity of the same product and size", async () => {
    const user = await createUser(db());
    const rose = await insertProduct(db(), { name: "Velvet Rose", price_cents: 45000 });
    const amber = await insertProduct(db(), { name: "Amber Lantern", price_cents: 52000 });
    const oud = await insertProduct(db(), { name: "Oud Noir", price_cents: 61000 });
    await db().updateTable("product_sizes").set({ label: "50 ml" }).where("id", "=", rose.id).execute();

    // device A: signed in, its cart saved (its first sync is its sign-in merge, with nothing on the server yet)
    const a = await sync(await sessionCookieFor(db(), user.id), [
      { productId: rose.id, sizeId: rose.id, quantity: 1 },
      { productId: amber.id, quantity: 2 },
    ]);
    expect(a.status).toBe(200);
    expect(brief(a.data)).toEqual(["Velvet Rose (50 ml) ×1", "Amber Lantern ×2"]);

    // device B had a visitor's cart; signing in merges it with A's
    const b = await sync(await sessionCookieFor(db(), user.id), [
      { productId: rose.id, sizeId: rose.id, quantity: 3 },
      { productId: oud.id, quantity: 1 },
    ]);
    expect(brief(b.data).sort()).toEqual(["Amber Lantern ×2", "Oud Noir ×1", "Velvet Rose (50 ml) ×3"]);
    expect(b.data.version).toBe(a.data.version + 1);

    // B removes Oud Noir, having seen the latest version: the removal sticks
    const cookie = await sessionCookieFor(db(), user.id);
    const removed = await sync(cookie, [{ productId: rose.id, sizeId: rose.id, quantity: 3 }, { productId: amber.id, quantity: 2 }], b.data);
    expect(brief(removed.data)).toEqual(["Velvet Rose (50 ml) ×3", "Amber Lantern ×2"]);

    // A, still on its old version and from before browsers kept that version's lines, adds Oud Noir again: merged,
    // nothing of B's lost
    const stale = await sync(cookie, [{ productId: rose.id, sizeId: rose.id, quantity: 1 }, { productId: amber.id, quantity: 2 }, { productId: oud.id, quantity: 1 }], { owner: a.data.owner, version: a.data.version });
    expect(brief(stale.data).sort()).toEqual(["Amber Lantern ×2", "Oud Noir ×1", "Velvet Rose (50 ml) ×3"]);
  });

  it("across two signed-in devices a removal sticks: a device that saw an older version applies only its own changes since", async () => {
    const user = await createUser(db());
    const [rose, amber, oud, musk] = await Promise.all(
      ["Velvet Rose", "Amber Lantern", "Oud Noir", "White Musk"].map((name) => insertProduct(db(), { name, price_cents: 40000 })),
    );
    const cookie = await sessionCookieFor(db(), user.id);
    const line = (p: { id: string }, quantity = 1) => ({ productId: p.id, quantity });
    // both devices see the same cart: Rose, Amber, Oud
    const start = await sync(cookie, [line(rose), line(amber), line(oud)]);
    const deviceA: Seen = start.data;
    const deviceB: Seen = (await sync(cookie, [line(rose), line(amber), line(oud)], start.data)).data;

    // A removes Oud Noir
    const afterA = await sync(cookie, [line(rose), line(amber)], deviceA);
    expect(brief(afterA.data)).toEqual(["Velvet Rose ×1", "Amber Lantern ×1"]);

    // B, idle on the older version, syncs its unchanged cart (a page opened): Oud Noir stays removed
    const idle = await sync(cookie, [line(rose), line(amber), line(oud)], deviceB);
    expect(brief(idle.data)).toEqual(["Velvet Rose ×1", "Amber Lantern ×1"]);

    // B, still on that older version, had meanwhile added White Musk and raised Amber to 2: its changes go over A's
    const edited = await sync(cookie, [line(rose), line(amber, 2), line(oud), line(musk)], deviceB);
    expect(brief(edited.data)).toEqual(["Velvet Rose ×1", "Amber Lantern ×2", "White Musk ×1"]);

    // A, on the version it last saw, removes Velvet Rose; then B (older again) removes Amber: both removals stick
    const aRemoves = await sync(cookie, [line(amber)], afterA.data);
    expect(brief(aRemoves.data)).toEqual(["Amber Lantern ×2", "White Musk ×1"]);
    const bRemoves = await sync(cookie, [line(rose), line(musk)], edited.data);
    expect(brief(bRemoves.data)).toEqual(["White Musk ×1"]);

    // a conflict keeps the item: A removes White Musk while B (older) raised it to 3
    const aDrops = await sync(cookie, [], bRemoves.data);
    expect(aDrops.data.lines).toEqual([]);
    const bRaises = await sync(cookie, [line(musk, 3)], bRemoves.data);
    expect(brief(bRaises.data)).toEqual(["White Musk ×3"]);
  });

  it("two devices saving at once from the same version: each one's changes are kept, a removal on either too", async () => {
    const user = await createUser(db());
    const [rose, amber, oud, musk] = await Promise.all(
      ["Velvet Rose", "Amber Lantern", "Oud Noir", "White Musk"].map((name) => insertProduct(db(), { name, price_cents: 40000 })),
    );
    const line = (p: { id: string }, quantity = 1) => ({ productId: p.id, quantity });
    const start = (await sync(await sessionCookieFor(db(), user.id), [line(rose), line(amber)])).data;
    const [cookieA, cookieB] = await Promise.all([sessionCookieFor(db(), user.id), sessionCookieFor(db(), user.id)]);
    // A removes Rose and adds Oud; B removes Amber and adds Musk; both saw the same version
    const [a, b] = await Promise.all([sync(cookieA, [line(amber), line(oud)], start), sync(cookieB, [line(rose), line(musk)], start)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const final = await db().selectFrom("saved_carts").select(["lines", "version"]).where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(final.lines.map((l) => l.productId).sort()).toEqual([oud.id, musk.id].sort());
    expect(Number(final.version)).toBe(start.version + 2);
  });

  it("sample and discovery-set lines are kept and named while samples are on offer", async () => {
    await saveSampleSettings(db(), { ...DEFAULT_SAMPLE_SETTINGS, enabled: true, priceCents: 3500, setSize: 2, setPriceCents: 6000 });
    const user = await createUser(db());
    const rose = await insertProduct(db(), { name: "Velvet Rose", price_cents: 45000 });
    const oud = await insertProduct(db(), { name: "Oud Noir", price_cents: 61000 });
    const answer = await sync(await sessionCookieFor(db(), user.id), [
      { productId: rose.id, sizeId: SAMPLE_SIZE_ID, quantity: 1 },
      { productId: DISCOVERY_SET_ID, sizeId: setToken([rose.id, oud.id]), quantity: 1 },
    ]);
    expect(answer.data.lines).toEqual([
      { id: rose.id, size: SAMPLE_SIZE_ID, sizeLabel: "2 ml sample", name: "Velvet Rose", price: 3500, quantity: 1 },
      { id: DISCOVERY_SET_ID, size: setToken([rose.id, oud.id]), sizeLabel: "2 × 2 ml", name: "Discovery set: Velvet Rose, Oud Noir", price: 6000, quantity: 1 },
    ]);
    await saveSampleSettings(db(), DEFAULT_SAMPLE_SETTINGS);
  });

  it("names and prices come from the database; unknown products and sizes of another product are dropped", async () => {
    const user = await createUser(db());
    const rose = await insertProduct(db(), { name: "Velvet Rose", price_cents: 45000 });
    const other = await insertProduct(db());
    const answer = await sync(await sessionCookieFor(db(), user.id), [
      { productId: rose.id, quantity: 1, price: 1, name: "Free perfume" },
      { productId: "no-such-product", quantity: 1 },
      { productId: rose.id, sizeId: other.id, quantity: 1 },
    ]);
    expect(answer.data.lines).toEqual([{ id: rose.id, name: "Velvet Rose", price: 45000, quantity: 1 }]);
    const stored = await db().selectFrom("saved_carts").select("lines").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(stored.lines).toEqual([{ productId: rose.id, quantity: 1 }]);
  });

  it("a visitor's cart stays in their browser (401, nothing stored); bad input changes nothing", async () => {
    const product = await insertProduct(db());
    const before = await db().selectFrom("saved_carts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect((await sync(null, [{ productId: product.id, quantity: 1 }])).status).toBe(401);
    const user = await createUser(db());
    expect((await sync(await sessionCookieFor(db(), user.id), [{ productId: product.id, quantity: 0 }])).status).toBe(400);
    const after = await db().selectFrom("saved_carts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
