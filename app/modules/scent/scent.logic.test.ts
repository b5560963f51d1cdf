import { describe, expect, it } from "vitest";
import { DEMO_INSPIRED_BY, DEMO_PRODUCTS, demoScentProfile } from "~/modules/demo/demo-catalogue";
import { findScents, matchLove, NO_ANSWERS, similarTo, toCandidate, TopK, type FinderAnswers, type ScentCandidate, type ScentProfile } from "./scent.logic";
import { parseFinder, serializeFinder, BUDGET_CHOICES } from "./scent.schema";
import { AUDIENCES, INTENSITIES, noteCarries, noteKey, OCCASIONS, SCENT_FAMILIES, type ScentFamily } from "./scent.vocabulary";

/** The demo catalogue as the matching sees it: 42 products with real-shaped profiles, every 7th sold out. */
function demoCatalogue(soldOutEvery = 7): ScentCandidate[] {
  return DEMO_PRODUCTS.map((p, i) =>
    toCandidate({
      id: `p${String(i).padStart(2, "0")}`,
      name: p.name,
      priceCents: p.priceCents,
      stock: soldOutEvery && i % soldOutEvery === 3 ? 0 : null,
      house: DEMO_INSPIRED_BY[p.name]?.[0] ?? null,
      fragrance: DEMO_INSPIRED_BY[p.name]?.[1] ?? null,
      profile: demoScentProfile(p),
    }),
  );
}

function candidate(id: string, over: Partial<ScentProfile> & { price?: number; stock?: number | null; house?: string; fragrance?: string } = {}): ScentCandidate {
  const { price = 50000, stock = null, house = null, fragrance = null, ...profile } = over;
  return toCandidate({
    id,
    name: id,
    priceCents: price,
    stock,
    house,
    fragrance,
    profile: { family: null, top: [], heart: [], base: [], intensity: null, occasion: null, seasons: [], audience: null, ...profile },
  });
}

const answers = (over: Partial<FinderAnswers>): FinderAnswers => ({ ...NO_ANSWERS, ...over });

describe("findScents: every combination of answers", () => {
  const catalogue = demoCatalogue();
  const byId = new Map(catalogue.map((c) => [c.id, c]));
  const loves = ["", "Sauvage", "tom ford", "something we have never heard of"];
  const budgets = [null, ...BUDGET_CHOICES, 300, 1];
  // every family alone, none, and a pair (the form lets the shopper tick several)
  const familySets: ScentFamily[][] = [[], ...SCENT_FAMILIES.map((f) => [f]), ["woody", "amber"]];
  let combinations = 0;

  it("returns three distinct products, or says honestly why fewer, and keeps every rule", () => {
    // One assertion at the end, not ~100 000 expect calls (they cost seconds on a loaded machine).
    const failures: string[] = [];
    const check = (ok: boolean, rule: string, a: FinderAnswers) => {
      if (!ok && failures.length < 20) failures.push(`${rule}: ${JSON.stringify(a)}`);
    };
    for (const audience of [null, ...AUDIENCES])
      for (const occasion of [null, ...OCCASIONS])
        for (const intensity of [null, ...INTENSITIES])
          for (const families of familySets)
            for (const love of loves)
              for (const budgetRand of budgets) {
                combinations++;
                const a = answers({ audience, occasion, intensity, families, love, budgetRand });
                const r = findScents(catalogue, a);
                const picks = r.picks.map((p) => byId.get(p.id)!);
                const notes = r.notes.join(" ");
                const budget = budgetRand === null ? Infinity : budgetRand * 100;
                check(new Set(r.picks.map((p) => p.id)).size === r.picks.length, "distinct", a);
                check(r.picks.length === 3 || /Only|only/.test(notes), "three, or says why fewer", a);
                // the budget: never exceeded while something fits; when nothing fits, it says so
                if (catalogue.some((c) => c.priceCents <= budget)) check(picks.every((p) => p.priceCents <= budget), "within budget", a);
                else check(notes.includes("Nothing in the shop is"), "says the budget was widened", a);
                // out of stock never above in stock
                const firstOut = picks.findIndex((p) => !p.inStock);
                if (firstOut >= 0) check(picks.slice(firstOut).every((p) => !p.inStock), "in stock first", a);
                // every pick has its one line, ending on its price
                for (const p of r.picks) check(/R\d[\d ]*\.\d\d(, sold out for now)?$/.test(p.reason), "reason line", a);
                // the top pick is of a chosen family when an in-stock one fits (and no fragrance was named)
                if (families.length && r.love.kind !== "fragrance") {
                  const pool = catalogue.filter((c) => c.priceCents <= budget);
                  if (pool.some((c) => c.inStock && c.family && families.includes(c.family))) check(families.includes(picks[0]!.family!), "top pick's family", a);
                  else if (pool.length) check(/We have no .* right now|are sold out right now/.test(notes), "says the family is missing", a);
                }
                // a named fragrance's own product comes first when it is in stock and within budget
                const love_ = r.love;
                if (love_.kind === "fragrance") {
                  const eligible = catalogue.filter((c) => love_.ids.includes(c.id) && c.inStock && c.priceCents <= budget);
                  if (eligible.length) check(eligible.some((c) => c.id === picks[0]!.id), "named fragrance first", a);
                  else check(notes.includes("Our scent inspired by"), "says why the named one is missing", a);
                }
              }
    expect(failures).toEqual([]);
    expect(combinations).toBe(4 * 4 * 4 * 12 * 4 * 6);
  }, 60_000);

  it("is deterministic: the same answers give the same picks (the result page is cached and shared)", () => {
    const a = answers({ audience: "men", occasion: "evening", families: ["woody"], intensity: "strong", budgetRand: 800 });
    expect(findScents(catalogue, a)).toEqual(findScents([...catalogue].reverse(), a));
  });
});

describe("findScents: rules", () => {
  it("puts the named fragrance's own product first, with a line that says so", () => {
    const catalogue = demoCatalogue(0);
    const r = findScents(catalogue, answers({ love: "Dior Sauvage", families: ["floral"], audience: "women" }));
    expect(catalogue.find((c) => c.id === r.picks[0]!.id)!.name).toBe("Blue Meridian");
    expect(r.picks[0]!.named).toBe(true);
    expect(r.picks[0]!.reason).toMatch(/^Inspired by Sauvage, the one you named/);
  });

  it("says why the named fragrance's product is missing: sold out, or over budget", () => {
    const soldOut = demoCatalogue(0).map((c) => (c.name === "Blue Meridian" ? { ...c, inStock: false } : c));
    const r = findScents(soldOut, answers({ love: "sauvage" }));
    expect(soldOut.find((c) => c.id === r.picks[0]!.id)!.inStock).toBe(true);
    expect(r.notes.join(" ")).toContain("Blue Meridian, is sold out right now");
    const poor = findScents(demoCatalogue(0), answers({ love: "sauvage", budgetRand: 400 }));
    expect(poor.notes.join(" ")).toContain("Blue Meridian, costs R569.00, over your budget");
  });

  it("never lets a sold-out product outrank one in stock, however well it matches", () => {
    const catalogue = [
      candidate("perfect", { family: "woody", audience: "men", intensity: "strong", occasion: "evening", stock: 0, fragrance: "Oud Wood", house: "Tom Ford" }),
      candidate("poor", { family: "floral", audience: "women", intensity: "light", occasion: "day" }),
    ];
    const r = findScents(catalogue, answers({ love: "oud wood", families: ["woody"], audience: "men" }));
    expect(r.picks.map((p) => p.id)).toEqual(["poor", "perfect"]);
    expect(r.picks[1]!.reason).toMatch(/sold out for now$/);
  });

  it("never exceeds the budget while something fits, and says there are fewer", () => {
    const catalogue = [candidate("cheap", { price: 30000 }), candidate("mid", { price: 60000 }), candidate("dear", { price: 90000 })];
    const r = findScents(catalogue, answers({ budgetRand: 400 }));
    expect(r.picks.map((p) => p.id)).toEqual(["cheap"]);
    expect(r.notes).toContain("Only one of our scents is R400.00 or less; a higher budget shows more.");
  });

  it("widens a budget nothing fits to the most affordable three, and says how far", () => {
    const catalogue = [candidate("a", { price: 30000 }), candidate("b", { price: 35000 }), candidate("c", { price: 41000 }), candidate("d", { price: 90000 })];
    const r = findScents(catalogue, answers({ budgetRand: 100 }));
    expect(r.picks.map((p) => p.id).sort()).toEqual(["a", "b", "c"]);
    expect(r.budgetWidened).toBe(true);
    expect(r.notes[0]).toBe("Nothing in the shop is R100.00 or less, so we looked up to R410.00: our most affordable scents.");
  });

  it("falls back on near families when the chosen one has nothing, and names them", () => {
    const catalogue = [candidate("w", { family: "woody" }), candidate("f", { family: "floral" }), candidate("g", { family: "gourmand" }), candidate("q", { family: "aquatic" })];
    const r = findScents(catalogue, answers({ families: ["chypre"] }));
    expect(r.picks.map((p) => p.id).slice(0, 2).sort()).toEqual(["f", "w"]);
    expect(r.notes[0]).toBe("We have no chypre scents right now, so these are the nearest kinds: floral and woody.");
  });

  it("names an unknown fragrance honestly and follows the other answers", () => {
    const r = findScents(demoCatalogue(0), answers({ love: "Zzyzx Eau Fraîche", families: ["aquatic"] }));
    expect(r.love.kind).toBe("unknown");
    expect(r.notes).toContain("We don't know “Zzyzx Eau Fraîche” yet, so your picks follow your other answers.");
    expect(r.picks).toHaveLength(3);
  });

  it("tells a house from a fragrance, and writes the reason line with it", () => {
    const catalogue = demoCatalogue(0);
    expect(matchLove(catalogue, "I love Tom Ford").kind).toBe("house");
    const oud = matchLove(catalogue, "tom ford OUD WOOD!");
    expect(oud).toMatchObject({ kind: "fragrance", fragrance: "Oud Wood", house: "Tom Ford" });
    expect(matchLove(catalogue, "chanel n°5")).toMatchObject({ kind: "fragrance", fragrance: "N°5" });
    expect(matchLove(catalogue, "  ")).toEqual({ kind: "none" });
    const r = findScents(catalogue, answers({ love: "Tom Ford", families: ["woody"], occasion: "evening", intensity: "strong" }));
    expect(r.picks[0]!.reason).toBe("Woody and warm like the Tom Ford you named, strong enough for evenings, R899.00");
  });

  it("says when none of the named house's scents made the picks", () => {
    const r = findScents(demoCatalogue(0), answers({ love: "Tom Ford", families: ["woody"], budgetRand: 800 }));
    expect(r.love.kind).toBe("house");
    expect(r.notes).toContain("None of our Tom Ford-inspired scents at R800.00 or less fits your other answers as well as these.");
  });

  it("answers an empty or tiny catalogue with what it has", () => {
    expect(findScents([], answers({})).picks).toEqual([]);
    expect(findScents([], answers({})).notes).toEqual(["The shop has no scents so far."]);
    const two = findScents([candidate("a"), candidate("b")], answers({ budgetRand: 1000 }));
    expect(two.picks).toHaveLength(2);
    expect(two.notes).toEqual(["The shop has only 2 scents so far."]);
  });
});

describe("similarTo: if you love X, try Y", () => {
  it("prefers the same family and shared notes, in stock first, never the product itself", () => {
    const catalogue = demoCatalogue(0);
    const cartographer = catalogue.find((c) => c.name === "Midnight Cartographer")!;
    const similar = similarTo(catalogue, cartographer.id);
    expect(similar).toHaveLength(3);
    expect(similar.map((c) => c.id)).not.toContain(cartographer.id);
    // Blue Meridian shares the family (aromatic), bergamot, lavender, geranium, ambroxan, cedar
    expect(similar[0]!.name).toBe("Blue Meridian");
    const soldOut = catalogue.map((c) => (c.name === "Blue Meridian" ? { ...c, inStock: false } : c));
    expect(similarTo(soldOut, cartographer.id).map((c) => c.name)).not.toContain("Blue Meridian");
  });

  it("weighs the same house: two Tom Ford leathers are closer than a stranger with the same family", () => {
    const catalogue = [
      candidate("src", { family: "leather", house: "Tom Ford", top: ["saffron"] }),
      candidate("same-house", { family: "leather", house: "Tom Ford" }),
      candidate("stranger", { family: "leather", house: "Dior" }),
    ];
    expect(similarTo(catalogue, "src", 1).map((c) => c.id)).toEqual(["same-house"]);
  });

  it("answers nothing for an unknown product", () => {
    expect(similarTo(demoCatalogue(), "nope")).toEqual([]);
  });
});

describe("notes", () => {
  it("compares notes by material, with qualifiers and aliases resolved", () => {
    expect(noteKey("Lavender absolute")).toBe("lavender");
    expect(noteKey("agarwood (oud)")).toBe("oud");
    expect(noteKey("Ambrox")).toBe("ambroxan");
    expect(noteCarries("Turkish rose", "rose")).toBe(true);
    expect(noteCarries("rosemary", "rose")).toBe(false);
    expect(noteCarries("rose geranium", "rose")).toBe(false);
  });
});

describe("TopK", () => {
  it("keeps the best k by key, then name, then id", () => {
    const top = new TopK<string>(2);
    for (const [id, k] of [["c", 2], ["a", 1], ["b", 1], ["d", 0]] as const) top.offer(id, 0, k, id, id);
    expect(top.items()).toEqual(["d", "a"]);
  });
});

describe("the finder's URL", () => {
  it("reads good answers and round-trips them", () => {
    const parsed = parseFinder(new URLSearchParams("for=men&when=evening&family=woody&family=amber&love=Tom+Ford&strength=strong&budget=600"));
    expect(parsed).toEqual({
      answered: true,
      ignored: [],
      answers: { audience: "men", occasion: "evening", families: ["woody", "amber"], love: "Tom Ford", intensity: "strong", budgetRand: 600 },
    });
    expect(serializeFinder(parsed.answers).toString()).toBe("for=men&when=evening&family=amber&family=woody&love=Tom+Ford&strength=strong&budget=600");
  });

  it("ignores bad input and says what it ignored", () => {
    const long = "x".repeat(10_000);
    const parsed = parseFinder(new URLSearchParams({ family: "smelly", for: "aliens", budget: "-5", love: long, strength: "nuclear", when: "<script>" }));
    expect(parsed.answers).toEqual({ audience: null, occasion: null, families: [], love: "x".repeat(100), intensity: null, budgetRand: null });
    expect(parsed.ignored).toHaveLength(6);
    expect(parsed.ignored.join("\n")).toContain("We ignored the budget “-5”");
    expect(parsed.ignored.join("\n")).toContain("We ignored the kind of scent “smelly”");
    expect(parsed.ignored.join("\n")).toContain("first 100 characters");
    expect(parseFinder(new URLSearchParams("budget=1000000000")).ignored[0]).toContain("We ignored the budget “1000000000”");
    expect(parseFinder(new URLSearchParams("budget=R500")).answers.budgetRand).toBe(500);
    expect(parseFinder(new URLSearchParams("")).answered).toBe(false);
  });
});
