/**
 * Scent profiles, the finder, similar scents and the shop's family and note filters (issue 22), on SQLite and
 * PostgreSQL, through the route loaders where there is one. The demo catalogue is seeded (without images), so the
 * answers are the shop's own.
 */
import { listSizes } from "~/modules/catalog/sizes.server";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { seedDemo } from "~/modules/demo/seed.server";
import { DEMO_PRODUCTS } from "~/modules/demo/demo-catalogue";
import { loadShopPage } from "~/modules/catalog/catalog.server";
import { parseShopFilters } from "~/modules/catalog/shop-filters.logic";
import { getAdminProduct, saveProduct } from "~/modules/catalog/catalog-admin.server";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import * as addProduct from "~/routes/admin.products.add";
import { addSize, insertProduct } from "../../../tests/factories/catalog";
import { refreshProductSummaries } from "~/modules/catalog/sizes.server";
import { loader as finderLoader } from "~/routes/scent-finder";
import { forgetScentCatalogue, getScentProfile, runFinder, scentCatalogue, similarScents } from "./scent-finder.server";
import { profileToColumns } from "~/modules/scent/scent-profile";
import { NO_ANSWERS } from "~/modules/scent/scent.logic";

type FinderData = Awaited<ReturnType<typeof finderLoader>>;
const finder = async (query: string) => {
  const result = await callLoader(finderLoader, `/scent-finder${query}`);
  expect(statusOf(result)).toBe(200);
  return dataOf<FinderData>(result);
};
const idOf = async (slug: string) => (await getDb().selectFrom("products").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  await seedDemo(getDb(), { images: false });
  forgetScentCatalogue();
}, 60_000);

describe("the demo catalogue's profiles", () => {
  it("gives every demo product a family, a pyramid, intensity, occasion, seasons and an audience", async () => {
    const rows = await getDb().selectFrom("products").select(["name", "scent_family", "scent_top", "scent_heart", "scent_base", "scent_intensity", "scent_occasion", "scent_seasons", "scent_for"]).execute();
    expect(rows).toHaveLength(DEMO_PRODUCTS.length);
    for (const r of rows) {
      expect([r.name, r.scent_family && r.scent_top && r.scent_heart && r.scent_base && r.scent_intensity && r.scent_occasion && r.scent_seasons && r.scent_for ? "complete" : "missing"]).toEqual([r.name, "complete"]);
    }
    const cartographer = await getScentProfile(getDb(), await idOf("midnight-cartographer"));
    expect(cartographer).toMatchObject({ family: "aromatic", top: ["Calabrian bergamot", "pink pepper", "sea salt"], audience: "men" });
  });
});

describe("the finder's loader", () => {
  it("shows the questions and fragrance suggestions from the inspired-by data when nothing is answered", async () => {
    const d = await finder("");
    expect(d.answered).toBe(false);
    expect(d.result).toBeNull();
    expect(d.loves).toEqual(expect.arrayContaining(["Tom Ford", "Dior Sauvage", "Chanel Bleu de Chanel"]));
  });

  it("answers five questions with three distinct picks, each with its reason, the named fragrance's own first", async () => {
    const d = await finder("?for=men&when=evening&family=woody&love=Dior+Sauvage&strength=strong&budget=800&go=1");
    expect(d.ignored).toEqual([]);
    const picks = d.result!.picks;
    expect(picks).toHaveLength(3);
    expect(new Set(picks.map((p) => p.id)).size).toBe(3);
    expect(picks[0]).toMatchObject({ name: "Blue Meridian", named: true });
    expect(picks[0]!.reason).toBe("Inspired by Sauvage, the one you named, strong, from day into evening, R259.00");
    for (const p of picks) expect(p.priceCents).toBeLessThanOrEqual(80_000);
  });

  it("opened again (a shared link, another visitor) gives the same picks", async () => {
    const query = "?for=women&when=day&family=floral&family=fruity&strength=light&budget=600";
    const first = await finder(query);
    forgetScentCatalogue(); // as a fresh process would: built again from the database
    const again = await finder(query);
    expect(again.result!.picks.map((p) => p.id)).toEqual(first.result!.picks.map((p) => p.id));
    expect(["floral", "fruity"]).toContain((await getScentProfile(getDb(), first.result!.picks[0]!.id))!.family);
  });

  it("puts in-stock scents first and notices a change of stock at once", async () => {
    const db = getDb();
    const id = await idOf("blue-meridian");
    await db.updateTable("products").set({ stock: 0 }).where("id", "=", id).execute();
    forgetScentCatalogue(); // what storefrontChanged does after a sale or an admin save
    const d = await finder("?love=sauvage");
    expect(d.result!.picks[0]!.id).not.toBe(id);
    expect(d.result!.notes.join(" ")).toContain("Blue Meridian, is sold out right now");
    await db.updateTable("products").set({ stock: null }).where("id", "=", id).execute();
    forgetScentCatalogue();
  });

  it("never errs on bad input: it says what it ignored and still answers", async () => {
    const long = encodeURIComponent("x".repeat(10_000));
    const d = await finder(`?family=stinky&family=woody&for=aliens&budget=-5&love=${long}&strength=11`);
    expect(d.ignored.join(" ")).toContain("We ignored the kind of scent “stinky”");
    expect(d.ignored.join(" ")).toContain("We ignored the budget “-5”");
    expect(d.ignored.join(" ")).toContain("first 100 characters");
    expect(d.result!.picks).toHaveLength(3);
    const huge = await finder("?budget=1000000000");
    expect(huge.ignored[0]).toContain("We ignored the budget “1000000000”");
    expect(huge.result!.picks).toHaveLength(3);
  });

  it("says so when nothing fits the budget, and how far it looked", async () => {
    const d = await finder("?budget=100");
    expect(d.result!.budgetWidened).toBe(true);
    expect(d.result!.notes[0]).toBe("Nothing in the shop is R100.00 or less, so we looked up to R199.00: our most affordable scents.");
    expect(d.result!.picks.map((p) => p.name).sort()).toEqual(["Fynbos Garden", "Lily of Dawn", "White Tea Ritual"]);
  });
});

describe("similar scents", () => {
  it("gives three others, same family and shared notes first, in stock first", async () => {
    const db = getDb();
    const similar = await similarScents(db, await idOf("midnight-cartographer"));
    expect(similar).toHaveLength(3);
    expect(similar[0]!.name).toBe("Blue Meridian");
    expect(similar.map((p) => p.slug)).not.toContain("midnight-cartographer");
  });

  it("answers nothing for a product without a profile or an unknown id, without failing", async () => {
    const db = getDb();
    const bare = await insertProduct(db, { name: "Bare Test Scent" });
    forgetScentCatalogue();
    expect(await similarScents(db, bare.id)).toHaveLength(3);
    expect(await similarScents(db, "no-such-id")).toEqual([]);
    await db.deleteFrom("products").where("id", "=", bare.id).execute();
    forgetScentCatalogue();
  });
});

describe("the shop's family and note filters", () => {
  it("narrows to a family and to a note (a kind of rose, never rosemary)", async () => {
    const db = getDb();
    const woody = await loadShopPage(db, parseShopFilters("family=woody"));
    expect(woody.matching).toBe(7);
    expect(woody.filters.family).toBe("woody");
    const rose = await loadShopPage(db, parseShopFilters("note=rose"));
    const names = rose.products.map((p) => p.name).sort();
    expect(names).toContain("Plum Velours"); // black rose
    expect(names).toContain("Rose Parlour"); // Turkish rose
    expect(names).not.toContain("Atlantic Drift"); // rosemary only
    expect(names).not.toContain("Fynbos Garden"); // rose geranium only
    // past the qualifier: "lavender absolute" is lavender
    expect((await loadShopPage(db, parseShopFilters("note=lavender"))).products.map((p) => p.name)).toContain("Midnight Cartographer");
    const both = await loadShopPage(db, parseShopFilters("family=amber&note=vanilla&q=amber"));
    expect(both.products.map((p) => p.name).sort()).toEqual(["Amber Lantern"]);
  });

  it("ignores an unknown family and finds nothing for an unknown note, without an error", async () => {
    const db = getDb();
    const unknown = await loadShopPage(db, parseShopFilters("family=stinky"));
    expect(unknown.filters.family).toBeUndefined();
    expect(unknown.matching).toBe(DEMO_PRODUCTS.length);
    const none = await loadShopPage(db, parseShopFilters(`note=${encodeURIComponent("%_' or 1=1 --")}`));
    expect(none.matching).toBe(0);
  });
});

describe("the admin's profile", () => {
  it("saves a product's profile and reads it back for the form", async () => {
    const db = getDb();
    const category = await db.selectFrom("categories").select("id").executeTakeFirstOrThrow();
    const input = {
      intent: "save" as const,
      name: "Profile Test",
      price: 45000,
      slug: "profile-test",
      categoryId: category.id,
      description: "",
      metaTitle: "",
      metaDesc: "",
      images: [],
      stock: null,
      stockWas: null,
      inspiredHouse: "",
      inspiredFragrance: "",
      sizeMl: null,
      weightGrams: null,
      wasPrice: null,
    };
    const scent = { family: "chypre" as const, top: ["bergamot"], heart: ["rose"], base: ["oakmoss", "patchouli"], intensity: "moderate" as const, occasion: "both" as const, seasons: ["autumn" as const], audience: "women" as const };
    const { id } = await saveProduct(db, input, { uploads: [], shopName: "Scentara", scent });
    expect((await getAdminProduct(db, id))!.scent).toEqual(scent);
    forgetScentCatalogue();
    // the chypre now has a sister: the finder's chypre answer gets it first or second
    const page = await runFinder(db, { ...NO_ANSWERS, families: ["chypre"] });
    expect(page.picks.map((p) => p.name)).toContain("Profile Test");
    // saving without a profile (a caller that doesn't carry one) leaves it alone
    await saveProduct(db, { ...input, id }, { uploads: [], shopName: "Scentara" });
    expect((await getAdminProduct(db, id))!.scent).toEqual(scent);
    await db.updateTable("products").set(profileToColumns({ ...scent, family: null })).where("id", "=", id).execute();
    await db.deleteFrom("products").where("id", "=", id).execute();
    forgetScentCatalogue();
    expect((await scentCatalogue(db)).index.ids.includes(id)).toBe(false);
  });
});

describe("the admin product form's scent profile (through the action)", () => {
  const post = async (fields: Record<string, string | string[]>) => {
    const admin = await createUser(getDb(), { isAdmin: true });
    const cookie = await sessionCookieFor(getDb(), admin.id);
    const category = await getDb().selectFrom("categories").select("id").executeTakeFirstOrThrow();
    const form = new FormData();
    for (const [k, v] of Object.entries({ intent: "save", price: "399.00", slug: "", categoryId: category.id, ...fields })) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
    return callAction(addProduct.action, "/admin/products/add", form, { headers: { cookie } });
  };

  it("saves family, notes (trimmed, duplicates dropped), wear, seasons and audience", async () => {
    const result = await post({
      name: "Form Profile Test",
      scentFamily: "woody",
      scentTop: " bergamot ,  pink pepper, Bergamot",
      scentHeart: "cedar",
      scentBase: "vetiver, musk",
      scentIntensity: "strong",
      scentOccasion: "evening",
      scentSeasons: ["winter", "autumn"],
      scentFor: "anyone",
    });
    expect(statusOf(result)).toBe(200);
    const row = await getDb().selectFrom("products").select(["id", "scent_top", "scent_seasons"]).where("slug", "=", "form-profile-test").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ scent_top: "bergamot, pink pepper", scent_seasons: "autumn, winter" });
    expect((await getAdminProduct(getDb(), row.id))!.scent).toEqual({
      family: "woody",
      top: ["bergamot", "pink pepper"],
      heart: ["cedar"],
      base: ["vetiver", "musk"],
      intensity: "strong",
      occasion: "evening",
      seasons: ["autumn", "winter"],
      audience: "anyone",
    });
    await getDb().deleteFrom("products").where("id", "=", row.id).execute();
  });

  it.each([
    [{ scentFamily: "stinky" }, "Choose a family from the list", "scentFamily"],
    [{ scentTop: "bergamot; <script>" }, "Top notes: “bergamot; <script>” isn't a note", "scentTop"],
    [{ scentSeasons: ["monsoon"] }, "Choose seasons from the list", "scentSeasons"],
  ])("refuses %j with a message on the field, and saves nothing", async (fields, message, field) => {
    const before = (await getDb().selectFrom("products").select("id").execute()).length;
    const result = await post({ name: "Refused Profile", ...fields });
    expect(statusOf(result)).toBe(400);
    const body = (await dataOf(result)) as { error: string; fieldErrors: Record<string, string> };
    expect(body.error).toContain(message);
    expect(body.fieldErrors[field]).toContain(message);
    expect((await getDb().selectFrom("products").select("id").execute()).length).toBe(before);
  });
});

describe("a finder pick sold in sizes (issue 33)", () => {
  it("adds its cheapest visible size, the one its price and the budget answer are of", async () => {
    const db = getDb();
    const query = "?for=men&when=evening&family=woody&love=Dior+Sauvage&strength=strong&go=1";
    const first = (await finder(query)).result!.picks[0]!;
    // the demo sells it in sizes: the pick is its cheapest visible one
    const cheapest = [...(await listSizes(db, [first.id]))].sort((a, b) => a.priceCents - b.priceCents)[0]!;
    expect(first.size).toMatchObject({ id: cheapest.id });
    expect(first.priceCents).toBe(cheapest.priceCents);
    const small = await addSize(db, first.id, { label: "20 ml", size_ml: 20, price_cents: first.priceCents - 10000, stock: 4 });
    const retired = await addSize(db, first.id, { label: "10 ml", size_ml: 10, price_cents: 1000, hidden: 1 });
    forgetScentCatalogue();
    try {
      const again = (await finder(query)).result!.picks.find((p) => p.id === first.id)!;
      expect(again.size).toEqual({ id: small.id, label: "20 ml", stock: 4 });
      expect(again.priceCents).toBe(first.priceCents - 10000);
    } finally {
      await db.deleteFrom("product_sizes").where("id", "in", [small.id, retired.id]).execute();
      await refreshProductSummaries(db, [first.id]);
      forgetScentCatalogue();
    }
  });
});
