import { describe, expect, it } from "vitest";
import {
  CSV_MESSAGES,
  decodeCsvBytes,
  detectDelimiter,
  formatTiers,
  htmlToText,
  joinList,
  mapHeader,
  neutraliseCell,
  OUR_HEADER,
  parseCsvAmount,
  parseTiers,
  readRow,
  VARIATION_MESSAGES,
  scentCells,
  splitList,
  unescapeWooNewlines,
  unneutraliseCell,
  wooCategory,
  type HeaderMap,
  fileNotes,
  parseCsvDecimal,
  readWooSale,
  ROW_MESSAGES,
} from "./csv-columns";

const WOO_HEADER = [
  "ID", "Type", "SKU", "Name", "Published", "Is featured?", "Visibility in catalog", "Short description", "Description",
  "Date sale price starts", "Date sale price ends", "Tax status", "Tax class", "In stock?", "Stock", "Low stock amount",
  "Backorders allowed?", "Sold individually?", "Weight (kg)", "Length (cm)", "Width (cm)", "Height (cm)",
  "Allow customer reviews?", "Purchase note", "Sale price", "Regular price", "Categories", "Tags", "Shipping class",
  "Images", "Download limit", "Download expiry days", "Parent", "Grouped products", "Upsells", "Cross-sells",
  "External URL", "Button text", "Position", "Attribute 1 name", "Attribute 1 value(s)", "Attribute 1 visible", "Attribute 1 global",
];

function wooMap(): HeaderMap {
  const mapped = mapHeader(WOO_HEADER);
  if (!mapped.ok) throw new Error(mapped.message);
  return mapped.map;
}

function wooRow(values: Record<string, string>): string[] {
  return WOO_HEADER.map((h) => values[h] ?? "");
}

describe("amounts", () => {
  it.each([
    ["R 1 299,00", 129900],
    ["1299.00", 129900],
    ["1299", 129900],
    ["R1 299.00", 129900],
    ["1 299,5", 129950],
    ["1,299.50", 129950],
    ["1.299,50", 129950],
    ["0,99", 99],
    ["r 45", 4500],
    ["1\u00a0299,00", 129900],
    ["R1,299.00", 129900],
    [".50", 50],
    ["0.2", 20],
  ])("%s → %i cents", (text, cents) => expect(parseCsvAmount(text)).toBe(cents));

  it.each(["", "abc", "-5", "1,299", "1.299", "12.345", "1 299,00 ZAR", "1e3", "1,2,3", ".", "R"])("%j is refused", (text) => expect(parseCsvAmount(text)).toBeNull());
});

describe("measurements as WooCommerce and spreadsheets write them (issue 32)", () => {
  it.each([
    [".2", 0.2],
    ["0.2", 0.2],
    ["0,35", 0.35],
    ["1 299,00", 1299],
    ["1,299.5", 1299.5],
    ["12", 12],
  ])("%j → %d", (text, value) => expect(parseCsvDecimal(text)).toBe(value));
  it.each(["", "heavy", "-1", "1e3", "..2"])("%j is not a number", (text) => expect(parseCsvDecimal(text)).toBeNull());

  const header = (unit: string) => ["Type", "Name", "Published", "Regular price", `Weight (${unit})`];
  it.each([
    ["lbs", ".2", 91],
    ["oz", "12", 340],
    ["kg", "0,35", 350],
    ["g", "420", 420],
    ["lbs", "", null],
    ["kg", "0", null],
  ])("Weight (%s) %j → %j grams", (unit, cell, grams) => {
    const mapped = mapHeader(header(unit));
    if (!mapped.ok) throw new Error(mapped.message);
    expect(readRow(["simple", "Oud", "1", "10", cell], mapped.map).product?.weightGrams).toBe(grams);
  });
  it("the preview says once that the weights were converted, not for grams", () => {
    const lbs = mapHeader(header("lbs"));
    const g = mapHeader(header("g"));
    if (!lbs.ok || !g.ok) throw new Error("header");
    expect(fileNotes(lbs.map)).toEqual(['Weights are in pounds (lbs) in this file ("Weight (lbs)"): converted to grams.']);
    expect(fileNotes(g.map)).toEqual([]);
  });
});

describe("WooCommerce's sale price and dates (issue 32)", () => {
  const today = "2026-11-28";
  it("on sale today: the sale price, and the regular price as the was price", () => {
    expect(readWooSale("1 299,00", "899,00", "", "", today)).toEqual({ price: "899,00", wasPrice: "1 299,00" });
    expect(readWooSale("1299", "899", "2026-11-01", "2026-11-28", today)).toEqual({ price: "899", wasPrice: "1299" });
    expect(readWooSale("1299", "899", "2026-11-28 00:00:00", "", today)).toEqual({ price: "899", wasPrice: "1299" });
  });
  it("a sale that has ended, or not yet started: the regular price, with a note", () => {
    expect(readWooSale("1299", "899", "2026-10-01", "2026-11-27", today)).toEqual({ wasPrice: "", note: ROW_MESSAGES.saleEnded("2026-11-27") });
    expect(readWooSale("1299", "899", "2026-12-01", "2026-12-31", today)).toEqual({ wasPrice: "", note: ROW_MESSAGES.saleNotStarted("2026-12-01") });
  });
  it("no sale clears a was price; a sale price not below the regular one is ignored; no column says nothing", () => {
    expect(readWooSale("1299", "", "", "", today)).toEqual({ wasPrice: "" });
    expect(readWooSale("1299", "1299", "", "", today)).toEqual({ wasPrice: "", note: ROW_MESSAGES.saleNotLower });
    expect(readWooSale("1299", undefined, undefined, undefined, today)).toEqual({});
  });
  it("a sale price or date that can't be read is the row's error, naming the column", () => {
    const map = wooMap();
    const read = readRow(wooRow({ Type: "simple", Name: "Oud", Published: "1", "Regular price": "1299", "Sale price": "cheap" }), map, today);
    expect(read.errors).toEqual([{ column: "Sale price", message: ROW_MESSAGES.salePrice("cheap") }]);
    const dated = readRow(wooRow({ Type: "simple", Name: "Oud", Published: "1", "Regular price": "1299", "Sale price": "899", "Date sale price ends": "31/12/2026" }), map, today);
    expect(dated.errors).toEqual([{ column: "Date sale price ends", message: ROW_MESSAGES.saleDate("31/12/2026") }]);
  });
  it("our own file's was price must be above the price", () => {
    const mapped = mapHeader(["Name", "Price (ZAR)", "Was price (ZAR)"]);
    if (!mapped.ok) throw new Error(mapped.message);
    expect(readRow(["Oud", "899.00", "1299.00"], mapped.map).product).toMatchObject({ priceCents: 89900, wasPriceCents: 129900 });
    expect(readRow(["Oud", "899.00", ""], mapped.map).product).toMatchObject({ wasPriceCents: null });
    expect(readRow(["Oud", "899.00", "899.00"], mapped.map).errors).toEqual([{ column: "Was price (ZAR)", message: ROW_MESSAGES.wasPriceNotHigher }]);
  });
});

describe("formula neutralising (the rule itself: app/utils/csv-cell.test.ts)", () => {
  it.each(["=HYPERLINK(\"http://evil.example\",\"x\")", "+27 82", "-5 ml", "@SUM(A1)", "\tx", "\rx", "\nx"])("%j gets an apostrophe and comes back exactly", (text) => {
    expect(neutraliseCell(text)).toBe(`'${text}`);
    expect(unneutraliseCell(neutraliseCell(text))).toBe(text);
  });
  it.each(["Oud Wood", "'quoted'", "'=already", "''+twice", "", "1299.00"])("%j round-trips", (text) => {
    expect(unneutraliseCell(neutraliseCell(text))).toBe(text);
  });
  it("leaves ordinary text alone", () => expect(neutraliseCell("Velvet Oud")).toBe("Velvet Oud"));
});

describe("bytes → text", () => {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  it("drops a UTF-8 byte-order mark", () => {
    const decoded = decodeCsvBytes(utf8("\uFEFFName,Price (ZAR)\nCrème,1\n"));
    expect(decoded).toEqual({ ok: true, text: "Name,Price (ZAR)\nCrème,1\n" });
  });
  it("refuses UTF-16 (with or without a byte-order mark)", () => {
    const le = Buffer.from("\uFEFFName,Price\n", "utf16le");
    expect(decodeCsvBytes(le)).toEqual({ ok: false, message: CSV_MESSAGES.utf16 });
    expect(decodeCsvBytes(Buffer.from("Name,Price (ZAR)\nA,1\n", "utf16le"))).toEqual({ ok: false, message: CSV_MESSAGES.utf16 });
  });
  it("refuses Latin-1 bytes, naming the line and the byte", () => {
    const latin1 = Buffer.from("Name,Price (ZAR)\nVelvet,1\nCr\xe8me,2\n", "latin1");
    const decoded = decodeCsvBytes(latin1);
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.message).toMatch(/^The file isn't UTF-8: line 3 has a byte \(0xE8\)/);
  });
  it("refuses an Excel workbook and an empty file", () => {
    expect(decodeCsvBytes(Buffer.from("PK\x03\x04rest", "latin1"))).toEqual({ ok: false, message: CSV_MESSAGES.xlsx });
    expect(decodeCsvBytes(new Uint8Array())).toEqual({ ok: false, message: CSV_MESSAGES.empty });
  });
  it("finds the delimiter on the header line", () => {
    expect(detectDelimiter('Name;"Price (ZAR)";Stock\n"a,b";1;2')).toBe(";");
    expect(detectDelimiter("Name,Price (ZAR)\n")).toBe(",");
    expect(detectDelimiter("Name\tPrice (ZAR)\n")).toBe("\t");
  });
});

describe("lists, tiers, descriptions", () => {
  it("splits WooCommerce lists, honouring escaped commas", () => {
    expect(splitList("https://a.example/1.jpg, https://a.example/2,3.jpg\\,x")).toEqual(["https://a.example/1.jpg", "https://a.example/2", "3.jpg,x"]);
    expect(splitList(joinList(["a,b", "c"]))).toEqual(["a,b", "c"]);
  });
  it("writes and reads tiers", () => {
    const tiers = [
      { minQuantity: 10, maxQuantity: null, priceCents: 27900 },
      { minQuantity: 5, maxQuantity: 9, priceCents: 29900 },
      { minQuantity: 3, maxQuantity: 3, priceCents: 31000 },
    ];
    expect(formatTiers(tiers)).toBe("3: 310.00; 5-9: 299.00; 10+: 279.00");
    expect(parseTiers(formatTiers(tiers))).toEqual({ tiers: [...tiers].sort((a, b) => a.minQuantity - b.minQuantity) });
    expect(parseTiers("5–9: R 299,00")).toEqual({ tiers: [{ minQuantity: 5, maxQuantity: 9, priceCents: 29900 }] });
    expect(parseTiers("")).toEqual({ tiers: [] });
    expect(parseTiers("5-9: 299; 8+: 200")).toMatchObject({ error: expect.stringMatching(/overlaps/) });
    expect(parseTiers("9-5: 1")).toMatchObject({ error: expect.stringMatching(/ends before it starts/) });
    expect(parseTiers("five: 1")).toMatchObject({ error: expect.stringMatching(/Write tier prices like/) });
  });
  it("turns WooCommerce HTML and its \\n into text", () => {
    expect(unescapeWooNewlines("Line one\\nLine two\\\\n")).toBe("Line one\nLine two\\n");
    expect(htmlToText("<p>A warm <strong>amber</strong> &amp; oud.</p><ul><li>Top notes: bergamot</li><li>Base notes: oud</li></ul>")).toBe(
      "A warm amber & oud.\n\n• Top notes: bergamot\n• Base notes: oud",
    );
    expect(htmlToText("Price < R500 & free delivery")).toBe("Price < R500 & free delivery");
  });
  it("takes the first category's own name", () => {
    expect(wooCategory("Fragrances > For Her, Gift sets")).toBe("For Her");
    expect(wooCategory("Uncategorized")).toBe("");
    expect(wooCategory("Men\\, Classic")).toBe("Men, Classic");
  });
});

describe("headers", () => {
  it("knows our header, with its every column", () => {
    const mapped = mapHeader(OUR_HEADER);
    expect(mapped.ok && mapped.map.format).toBe("scentara");
    expect(mapped.ok && mapped.map.ignored).toEqual([]);
  });
  it("maps WooCommerce's columns and names the ones it ignores", () => {
    const map = wooMap();
    expect(map.format).toBe("woocommerce");
    expect(map.ignored).toEqual(expect.arrayContaining(["Tags", "Tax status", "Length (cm)", "Attribute 1 visible", "Position"]));
    for (const used of ["ID", "Parent", "SKU", "Name", "Regular price", "Description", "Short description", "Categories", "Images", "Stock", "In stock?", "Weight (kg)", "Type", "Published", "Attribute 1 name", "Sale price", "Date sale price starts", "Date sale price ends"]) {
      expect(map.ignored).not.toContain(used);
    }
  });
  it("says which required column is missing", () => {
    expect(mapHeader(["SKU", "Name", "Stock"])).toEqual({ ok: false, message: CSV_MESSAGES.missingColumns(["Price (ZAR)"], "scentara") });
    expect(mapHeader(["ID", "Type", "SKU", "Published", "Regular price"])).toEqual({ ok: false, message: CSV_MESSAGES.missingColumns(["Name"], "woocommerce") });
    expect(mapHeader(["Foo", "Bar"])).toEqual({ ok: false, message: CSV_MESSAGES.unknownFormat });
    expect(mapHeader(["Name", "Price (ZAR)", "name"])).toEqual({ ok: false, message: CSV_MESSAGES.duplicateHeader("name") });
  });
});

describe("a WooCommerce row", () => {
  const map = wooMap();
  it("becomes our product", () => {
    const read = readRow(
      wooRow({
        Type: "simple", SKU: "SC-OUD-100", Name: "Velvet Oud", Published: "1", "Short description": "<p>Warm &amp; smoky.</p>",
        Description: "Top notes: saffron\\nBase notes: oud", "In stock?": "1", Stock: "12", "Weight (kg)": "0,35",
        "Regular price": "1 299,00", "Sale price": "999", Categories: "Fragrances > For Him", Images: "https://shop.example/wp-content/uploads/oud.jpg",
        "Attribute 1 name": "Size", "Attribute 1 value(s)": "100ml",
      }),
      map,
    );
    expect(read.errors).toEqual([]);
    expect(read.product).toEqual({
      sku: "SC-OUD-100",
      name: "Velvet Oud",
      // on sale: the sale price is the price, the regular price the was price
      priceCents: 99900,
      wasPriceCents: 129900,
      description: "Warm & smoky.\n\nTop notes: saffron\nBase notes: oud",
      category: "For Him",
      images: ["https://shop.example/wp-content/uploads/oud.jpg"],
      stock: 12,
      weightGrams: 350,
      sizeMl: 100,
    });
  });
  it("out of stock without a count is stock 0; in stock without one is not counted", () => {
    expect(readRow(wooRow({ Type: "simple", Name: "A", Published: "1", "Regular price": "10", "In stock?": "0" }), map).product?.stock).toBe(0);
    expect(readRow(wooRow({ Type: "simple", Name: "A", Published: "1", "Regular price": "10", "In stock?": "1" }), map).product?.stock).toBeNull();
  });
  it("skips drafts and what isn't sold here with a reason", () => {
    expect(readRow(wooRow({ Type: "simple", Name: "A", Published: "-1", "Regular price": "10" }), map).skip).toMatch(/draft/);
    expect(readRow(wooRow({ Type: "grouped", Name: "A", Published: "1" }), map).skip).toMatch(/grouped/);
    expect(readRow(wooRow({ Type: "variable", Name: "A", Published: "-1" }), map).skip).toMatch(/draft/);
  });
});

describe("a WooCommerce variable product (issue 33)", () => {
  const map = wooMap();
  const variation = (values: Record<string, string>) =>
    readRow(wooRow({ Type: "variation", Name: "Velvet Oud - 50ml", Published: "1", Parent: "SC-OUD", "Attribute 1 name": "Size", ...values }), map, "2026-11-28");

  it("its own row is the product, without a price, its weight kept for its sizes", () => {
    const read = readRow(wooRow({ ID: "44", Type: "variable", SKU: "SC-OUD", Name: "Velvet Oud", Published: "1", Categories: "For Him", "Weight (kg)": "0.4", "Attribute 1 name": "Size", "Attribute 1 value(s)": "30ml, 50ml" }), map);
    expect(read.errors).toEqual([]);
    expect(read.woo).toEqual({ id: "44", sku: "SC-OUD", variable: true });
    expect(read.product).toMatchObject({ sku: "SC-OUD", name: "Velvet Oud", category: "For Him", weightGrams: 400 });
  });

  it("a variation by size is a size: its label in ml whatever WooCommerce wrote, its SKU, sale, stock and weight", () => {
    const read = variation({ SKU: "SC-OUD-50", "Attribute 1 value(s)": "1.7 oz", "Regular price": "899", "Sale price": "799", Stock: "4", "Weight (kg)": ".35" });
    expect(read.errors).toEqual([]);
    expect(read.woo).toEqual({ id: "", sku: "SC-OUD-50", parent: "SC-OUD" });
    expect(read.product).toMatchObject({ sizeLabel: "50 ml", sizeMl: 50, sizeSku: "SC-OUD-50", priceCents: 79900, wasPriceCents: 89900, stock: 4, weightGrams: 350 });
    expect(variation({ "Attribute 1 name": "pa_size", "Attribute 1 value(s)": "100 ml", "Regular price": "1299" }).product).toMatchObject({ sizeLabel: "100 ml", sizeMl: 100 });
    // a size that isn't in millilitres keeps its name
    expect(variation({ "Attribute 1 value(s)": "Travel spray", "Regular price": "199" }).product).toMatchObject({ sizeLabel: "Travel spray", sizeMl: null });
    // stock kept on the variable product: not counted on the size, and the row says so
    const shared = variation({ "Attribute 1 value(s)": "50ml", "Regular price": "10", Stock: "parent", "In stock?": "1" });
    expect(shared.product?.stock).toBeNull();
    expect(shared.notes).toEqual([VARIATION_MESSAGES.stockOnParent]);
  });

  it("a variation of another attribute, or of any size, is skipped with its reason", () => {
    expect(variation({ "Attribute 1 name": "Color", "Attribute 1 value(s)": "Red", "Regular price": "10" })).toMatchObject({
      skip: VARIATION_MESSAGES.notBySize([{ name: "Color", value: "Red" }]),
      woo: { parent: "SC-OUD", by: ["Color"] },
    });
    expect(variation({ "Attribute 1 value(s)": "", "Regular price": "10" }).skip).toBe(VARIATION_MESSAGES.noSize);
    expect(variation({ Parent: "", "Attribute 1 value(s)": "50ml", "Regular price": "10" }).skip).toBe(VARIATION_MESSAGES.noParent);
    expect(variation({ Published: "0", "Attribute 1 value(s)": "50ml", "Regular price": "10" }).skip).toBe(VARIATION_MESSAGES.disabled);
  });

  it("a size variation with an error names its column", () => {
    expect(variation({ "Attribute 1 value(s)": "50ml", "Regular price": "lots" }).errors).toEqual([{ column: "Regular price", message: ROW_MESSAGES.price("lots") }]);
  });
  it("names the column of each error", () => {
    const read = readRow(wooRow({ Type: "simple", Name: "", Published: "1", "Regular price": "R abc", "Weight (kg)": "heavy" }), map);
    expect(read.errors).toEqual(
      expect.arrayContaining([
        { column: "Name", message: "Name is required" },
        { column: "Regular price", message: "\"R abc\" isn't an amount in rand: write it like 1299.00 (or R 1 299,00)" },
        { column: "Weight (kg)", message: "\"heavy\" isn't a weight" },
      ]),
    );
  });
  it("takes WooCommerce's formula escaping off", () => {
    expect(readRow(wooRow({ Type: "simple", Name: "'=HYPERLINK(\"x\")", Published: "1", "Regular price": "10" }), map).product?.name).toBe('=HYPERLINK("x")');
  });
});

describe("the scent profile's columns (issue 22)", () => {
  function ourMap(header: readonly string[] = OUR_HEADER): HeaderMap {
    const mapped = mapHeader([...header]);
    if (!mapped.ok) throw new Error(mapped.message);
    return mapped.map;
  }
  const ourRow = (values: Record<string, string>, header: readonly string[] = OUR_HEADER) => header.map((h) => values[h] ?? "");
  const base = { Name: "Velvet Oud", "Price (ZAR)": "100" };

  it("are ours, after the others, with clear headers", () => {
    expect(OUR_HEADER.slice(-8)).toEqual(["Scent family", "Top notes", "Heart notes", "Base notes", "Intensity", "Worn", "Seasons", "Made for"]);
  });

  it("read as the admin form's values: any case, notes and seasons as lists, an empty cell as not said", () => {
    const read = readRow(
      ourRow({
        ...base,
        "Scent family": " Woody ",
        "Top notes": "saffron,  pink   pepper, Saffron",
        "Heart notes": "Turkish rose",
        "Base notes": "",
        Intensity: "STRONG",
        Worn: "evening",
        Seasons: "winter, Autumn, winter",
        "Made for": "",
      }),
      ourMap(),
    );
    expect(read.errors).toEqual([]);
    expect(read.product).toMatchObject({
      scentFamily: "woody",
      scentTop: ["saffron", "pink pepper"],
      scentHeart: ["Turkish rose"],
      scentBase: [],
      scentIntensity: "strong",
      scentOccasion: "evening",
      scentSeasons: ["autumn", "winter"],
      scentFor: null,
    });
  });

  it("come back exactly as the export writes them", () => {
    const profile = {
      family: "floral" as const,
      top: ["lychee", "pink pepper"],
      heart: ["Turkish rose", "peony"],
      base: ["white musk"],
      intensity: "moderate" as const,
      occasion: "both" as const,
      seasons: ["spring" as const, "summer" as const],
      audience: "women" as const,
    };
    const cells = scentCells(profile);
    expect(cells).toEqual({
      scentFamily: "floral",
      scentTop: "lychee, pink pepper",
      scentHeart: "Turkish rose, peony",
      scentBase: "white musk",
      scentIntensity: "moderate",
      scentOccasion: "both",
      scentSeasons: "spring, summer",
      scentFor: "women",
    });
    const header = ["Name", "Price (ZAR)", "Scent family", "Top notes", "Heart notes", "Base notes", "Intensity", "Worn", "Seasons", "Made for"];
    const read = readRow(["Rose", "1", ...Object.values(cells)], ourMap(header));
    expect(read.product).toMatchObject({
      scentFamily: profile.family,
      scentTop: profile.top,
      scentHeart: profile.heart,
      scentBase: profile.base,
      scentIntensity: profile.intensity,
      scentOccasion: profile.occasion,
      scentSeasons: profile.seasons,
      scentFor: profile.audience,
    });
    const empty = scentCells({ family: null, top: [], heart: [], base: [], intensity: null, occasion: null, seasons: [], audience: null });
    expect(Object.values(empty).every((v) => v === "")).toBe(true);
  });

  it("a file without them (an older export, WooCommerce) says nothing about the profile", () => {
    const old = OUR_HEADER.slice(0, -8);
    const read = readRow(ourRow(base, old), ourMap(old));
    expect(read.errors).toEqual([]);
    expect(Object.keys(read.product!).filter((k) => k.startsWith("scent"))).toEqual([]);
    const woo = readRow(wooRow({ Type: "simple", Name: "A", Published: "1", "Regular price": "10" }), wooMap());
    expect(Object.keys(woo.product!).filter((k) => k.startsWith("scent"))).toEqual([]);
  });

  it("a value outside the lists is an error naming the column and the allowed values", () => {
    const read = readRow(
      ourRow({ ...base, "Scent family": "warm", "Top notes": "bergamot, =1+1", Intensity: "very", Worn: "noon", Seasons: "summer; winter", "Made for": "kids" }),
      ourMap(),
    );
    expect(read.product).toBeUndefined();
    expect(read.errors).toEqual([
      { column: "Scent family", message: '"warm" isn\'t one of the choices: write fresh, aquatic, floral, fruity, gourmand, amber, woody, aromatic, chypre or leather, or leave the cell empty' },
      { column: "Top notes", message: "Top notes: “=1+1” isn't a note (letters, at most 40 characters; separate notes with commas)" },
      { column: "Intensity", message: '"very" isn\'t one of the choices: write light, moderate or strong, or leave the cell empty' },
      { column: "Worn", message: '"noon" isn\'t one of the choices: write day, evening or both, or leave the cell empty' },
      { column: "Seasons", message: '"summer; winter" isn\'t a season: write any of spring, summer, autumn, winter (separated by commas), or leave the cell empty' },
      { column: "Made for", message: '"kids" isn\'t one of the choices: write women, men or anyone, or leave the cell empty' },
    ]);
    const tooMany = readRow(ourRow({ ...base, "Base notes": "a, b, c, d, e, f, g, h, i" }), ourMap());
    expect(tooMany.errors).toEqual([{ column: "Base notes", message: "Base notes: at most 8 notes" }]);
  });
});
