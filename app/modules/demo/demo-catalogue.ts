import type { DiscountType } from "~/db/schema";
import type { BottleLook } from "./demo-images.server";
import type { ScentProfile } from "~/modules/scent/scent.logic";
import type { Intensity, Occasion, ScentFamily, Season } from "~/modules/scent/scent.vocabulary";

/**
 * The demo shop: fictional, designer-inspired fragrances with original names. "In the spirit of" wording describes a
 * scent family; no product is named after a real brand or a real perfume. Each names the designer fragrance it is
 * inspired by separately (DEMO_INSPIRED_BY), shown as "Inspired by …" with the not-affiliated wording. Prices are
 * integer cents.
 */

export interface DemoCategory {
  name: string;
  slug: string;
}

export const DEMO_CATEGORIES: readonly DemoCategory[] = [
  { name: "For Him", slug: "for-him" },
  { name: "For Her", slug: "for-her" },
  { name: "Unisex", slug: "unisex" },
];

export interface DemoProduct {
  name: string;
  category: "for-him" | "for-her" | "unisex";
  priceCents: number;
  /** How long ago it was added, so 'newest first' means something. */
  daysAgo: number;
  /** One line for cards, meta descriptions and the opening of the description. */
  tagline: string;
  story: string;
  top: string[];
  heart: string[];
  base: string[];
  look: BottleLook;
  /** Bulk pricing: 3–5 units and 6+ units at lower unit prices. */
  tiers?: boolean;
}

// Backdrops: warm, cool, blush, dark, green, stone.
const warm = ["#f6ecdc", "#e6d2b3"] as const;
const sand = ["#f4efe6", "#e2d7c5"] as const;
const cool = ["#e8ecf0", "#c5ced8"] as const;
const mist = ["#eef1f2", "#d3dadd"] as const;
const blush = ["#f9ebe6", "#ecd1c8"] as const;
const lilac = ["#f1ecf4", "#dcd1e3"] as const;
const dusk = ["#3a2c25", "#1f1612"] as const;
const night = ["#26303d", "#141a22"] as const;
const sage = ["#eef0e3", "#d4dbc3"] as const;
const stone = ["#efeae4", "#d6cdc2"] as const;

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  // --- For Him ---
  {
    name: "Midnight Cartographer",
    category: "for-him",
    priceCents: 64900,
    daysAgo: 3,
    tagline: "A cool aromatic fougère for long evenings",
    story:
      "In the spirit of the great blue aromatics: crisp bergamot and lavender over a trail of smoky vetiver. Confident without shouting, it wears close for the first hour and then opens into a clean, mineral warmth that lasts well past midnight.",
    top: ["Calabrian bergamot", "pink pepper", "sea salt"],
    heart: ["lavender absolute", "geranium", "clary sage"],
    base: ["Haitian vetiver", "ambroxan", "cedarwood"],
    look: { bottle: "square", cap: "disc", metal: "black", liquid: "#1d2f4f", background: cool, backdrop: "plain", label: "engraved" },
    tiers: true,
  },
  {
    name: "Iron & Cedar",
    category: "for-him",
    priceCents: 52900,
    daysAgo: 11,
    tagline: "Dry woods, cold metal and a flicker of smoke",
    story:
      "A structured woody scent for the man who likes things built properly. Atlas cedar and a metallic accord are warmed by birch tar, like a workshop at the end of a winter afternoon.",
    top: ["juniper berry", "cardamom", "aldehydes"],
    heart: ["Atlas cedar", "metallic accord", "violet leaf"],
    base: ["birch tar", "guaiac wood", "musk"],
    look: { bottle: "column", cap: "cube", metal: "silver", liquid: "#8c8f92", background: mist, backdrop: "columns", label: "plate" },
  },
  {
    name: "Karoo Dusk",
    category: "for-him",
    priceCents: 44900,
    daysAgo: 19,
    tagline: "Rooibos, saffron and sun-warmed stone",
    story:
      "Inspired by the moment the Karoo turns violet after sunset. Red rooibos and saffron glow over dry amber and a dusty mineral base: an oriental that feels at home in South African heat.",
    top: ["saffron", "mandarin", "dry ginger"],
    heart: ["rooibos", "cinnamon bark", "leather"],
    base: ["amber", "labdanum", "sandalwood"],
    look: { bottle: "facet", cap: "cube", metal: "bronze", liquid: "#a4532a", background: warm, backdrop: "arch", label: "plate" },
    tiers: true,
  },
  {
    name: "Atlantic Drift",
    category: "for-him",
    priceCents: 38900,
    daysAgo: 27,
    tagline: "A bright aquatic citrus from the Cape coast",
    story:
      "A fresh everyday scent in the style of the classic marine colognes. Grapefruit and sea spray over driftwood and white musk: made for summer mornings, office days and the drive down the West Coast.",
    top: ["grapefruit", "sea spray accord", "lemon"],
    heart: ["rosemary", "neroli", "marine notes"],
    base: ["driftwood", "white musk", "oakmoss"],
    look: { bottle: "tapered", cap: "tall", metal: "silver", liquid: "#6fa3bf", background: mist, backdrop: "disc", label: "band" },
  },
  {
    name: "Leather Atlas",
    category: "for-him",
    priceCents: 72900,
    daysAgo: 35,
    tagline: "Supple leather, saffron and raspberry",
    story:
      "An opulent leather in the spirit of the modern niche houses. Saffron and a touch of raspberry lift a soft suede heart, settling into a dark, polished base of oud and amber. A compliment magnet.",
    top: ["saffron", "raspberry", "thyme"],
    heart: ["suede", "jasmine", "olibanum"],
    base: ["oud accord", "amber", "birch"],
    look: { bottle: "square", cap: "crystal", metal: "gold", liquid: "#6b2f1f", background: dusk, backdrop: "columns", label: "plate" },
    tiers: true,
  },
  {
    name: "Smoked Vetiver Reserve",
    category: "for-him",
    priceCents: 58900,
    daysAgo: 44,
    tagline: "Earthy vetiver under a veil of incense",
    story:
      "Green, rooty vetiver roasted over smouldering incense and a spoon of black pepper. Quietly elegant, the kind of scent that is noticed only when someone leans in.",
    top: ["black pepper", "bergamot", "elemi"],
    heart: ["vetiver", "incense", "nutmeg"],
    base: ["cade", "patchouli", "tonka bean"],
    look: { bottle: "column", cap: "tall", metal: "black", liquid: "#4b5b3c", background: sage, backdrop: "arch", label: "engraved" },
  },
  {
    name: "Copper Tobacco",
    category: "for-him",
    priceCents: 66900,
    daysAgo: 52,
    tagline: "Honeyed tobacco leaf and spiced vanilla",
    story:
      "A rich gourmand tobacco in the spirit of the celebrated private-blend vanillas. Cured tobacco leaf, honey and clove melt into a creamy tonka and vanilla base: a winter favourite.",
    top: ["clove", "cinnamon", "honey"],
    heart: ["tobacco leaf", "cacao", "dried fruits"],
    base: ["vanilla", "tonka bean", "dry woods"],
    look: { bottle: "flask", cap: "cube", metal: "bronze", liquid: "#9b5a25", background: warm, backdrop: "disc", label: "band" },
  },
  {
    name: "Northern Ridge",
    category: "for-him",
    priceCents: 34900,
    daysAgo: 61,
    tagline: "Crisp pine, mint and mountain air",
    story:
      "A brisk green scent for early starts: Siberian pine and cool mint over a clean base of cedar and musk. Easy to wear, hard to dislike, and priced for everyday use.",
    top: ["mint", "cardamom", "lime"],
    heart: ["Siberian pine", "fir balsam", "lavender"],
    base: ["cedar", "musk", "moss"],
    look: { bottle: "tapered", cap: "cylinder", metal: "silver", liquid: "#5e8a6a", background: mist, backdrop: "plain", label: "plate" },
  },
  {
    name: "Obsidian Road",
    category: "for-him",
    priceCents: 79900,
    daysAgo: 70,
    tagline: "Dark incense, black pepper and ambergris",
    story:
      "A brooding, sophisticated evening scent. Black pepper and elemi open onto a smoky incense heart, drying down to ambergris and a glossy, mineral darkness like a road after rain.",
    top: ["black pepper", "elemi", "bitter orange"],
    heart: ["frankincense", "myrrh", "iris"],
    base: ["ambergris accord", "papyrus", "labdanum"],
    look: { bottle: "facet", cap: "crystal", metal: "black", liquid: "#2a2326", background: night, backdrop: "arch", label: "plate" },
    tiers: true,
  },
  {
    name: "Gentleman's Ember",
    category: "for-him",
    priceCents: 47900,
    daysAgo: 83,
    tagline: "Warm spices around a glowing amber heart",
    story:
      "A spicy amber in the tradition of the classic barbershop orientals, made modern with a clean musk. Cardamom and nutmeg crackle over smooth amber and sandalwood.",
    top: ["cardamom", "nutmeg", "mandarin"],
    heart: ["amber", "orange blossom", "cinnamon"],
    base: ["sandalwood", "musk", "benzoin"],
    look: { bottle: "tapered", cap: "cube", metal: "gold", liquid: "#b5651d", background: sand, backdrop: "columns", label: "plate" },
  },
  {
    name: "Blue Meridian",
    category: "for-him",
    priceCents: 56900,
    daysAgo: 96,
    tagline: "Fresh spice and radiant ambroxan",
    story:
      "In the spirit of the bestselling fresh-spicy blues: sparkling bergamot and Sichuan pepper over a long, radiant trail of ambroxan. A crowd-pleaser for day and night.",
    top: ["bergamot", "Sichuan pepper", "grapefruit"],
    heart: ["lavender", "geranium", "elemi"],
    base: ["ambroxan", "cedar", "labdanum"],
    look: { bottle: "square", cap: "disc", metal: "silver", liquid: "#27518c", background: cool, backdrop: "disc", label: "band" },
    tiers: true,
  },
  {
    name: "Highveld Storm",
    category: "for-him",
    priceCents: 42900,
    daysAgo: 108,
    tagline: "Ozone, petrichor and electric citrus",
    story:
      "The smell of a Johannesburg afternoon thunderstorm: ozonic accords and petrichor over wet stone, with a bright shock of yuzu. Clean, cool and unmistakably summer.",
    top: ["yuzu", "ozonic accord", "aldehydes"],
    heart: ["petrichor", "violet leaf", "geranium"],
    base: ["wet stone accord", "vetiver", "musk"],
    look: { bottle: "tapered", cap: "tall", metal: "silver", liquid: "#7d98ad", background: mist, backdrop: "disc", label: "band" },
  },
  {
    name: "Cognac Study",
    category: "for-him",
    priceCents: 88900,
    daysAgo: 121,
    tagline: "Aged cognac, oak and cinnamon",
    story:
      "A boozy, velvety scent for slow evenings in a leather armchair. Cognac and oak barrel accords wrapped in cinnamon, tonka and a whisper of praline. Our most indulgent men's fragrance.",
    top: ["cognac accord", "cinnamon", "bergamot"],
    heart: ["oak", "tonka bean", "praline"],
    base: ["sandalwood", "vanilla", "vetiver"],
    look: { bottle: "square", cap: "cube", metal: "gold", liquid: "#8a4b1c", background: dusk, backdrop: "plain", label: "plate" },
  },

  // --- For Her ---
  {
    name: "Rose Parlour",
    category: "for-her",
    priceCents: 58900,
    daysAgo: 2,
    tagline: "A velvety Turkish rose with lychee",
    story:
      "A modern rose in the spirit of the iconic French florals: dewy Turkish rose and juicy lychee over soft patchouli and musk. Romantic, polished and never old-fashioned.",
    top: ["lychee", "pink pepper", "bergamot"],
    heart: ["Turkish rose", "peony", "magnolia"],
    base: ["patchouli", "white musk", "cashmeran"],
    look: { bottle: "orb", cap: "sphere", metal: "rose", liquid: "#e8a3a8", background: blush, backdrop: "disc", label: "band" },
    tiers: true,
  },
  {
    name: "Velvet Peony",
    category: "for-her",
    priceCents: 46900,
    daysAgo: 8,
    tagline: "Fluffy peony, pear and suede",
    story:
      "Soft as a cashmere scarf: peony and crisp pear over a suede-musk base. A light, pretty floral that works from the office to the weekend.",
    top: ["pear", "red berries", "freesia"],
    heart: ["peony", "rose", "lily of the valley"],
    base: ["suede", "musk", "amber"],
    look: { bottle: "arch", cap: "dome", metal: "rose", liquid: "#f2b7c0", background: blush, backdrop: "plain", label: "plate", capColor: "#e9c3c7" },
  },
  {
    name: "Moonlit Jasmine",
    category: "for-her",
    priceCents: 62900,
    daysAgo: 15,
    tagline: "Night-blooming jasmine and warm amber",
    story:
      "A sensual white floral in the spirit of the great evening jasmines. Sambac jasmine and tuberose bloom over a glowing amber and sandalwood base. Made for dinners that run late.",
    top: ["mandarin", "green notes", "pink pepper"],
    heart: ["jasmine sambac", "tuberose", "orange blossom"],
    base: ["amber", "sandalwood", "vanilla"],
    look: { bottle: "facet", cap: "crystal", metal: "gold", liquid: "#e9c989", background: night, backdrop: "arch", label: "plate" },
    tiers: true,
  },
  {
    name: "Golden Hour Nectar",
    category: "for-her",
    priceCents: 54900,
    daysAgo: 23,
    tagline: "Honey, orange blossom and sunlit skin",
    story:
      "Warm, luminous and addictive: orange blossom dripping with honey over a creamy base of vanilla and skin musk. In the spirit of the beloved sweet florals, with a lighter hand.",
    top: ["orange blossom", "pear", "mandarin"],
    heart: ["honey", "jasmine", "heliotrope"],
    base: ["vanilla", "skin musk", "benzoin"],
    look: { bottle: "amphora", cap: "sphere", metal: "gold", liquid: "#e3a33c", background: warm, backdrop: "disc", label: "engraved" },
  },
  {
    name: "Silk Camellia",
    category: "for-her",
    priceCents: 68900,
    daysAgo: 31,
    tagline: "A powdery camellia with iris and aldehydes",
    story:
      "Elegance in the classic Parisian manner: sparkling aldehydes, camellia and iris over a soft powdery base. Timeless, refined and quietly confident.",
    top: ["aldehydes", "neroli", "bergamot"],
    heart: ["camellia", "iris", "rose"],
    base: ["powdery musk", "vetiver", "sandalwood"],
    look: { bottle: "square", cap: "cube", metal: "silver", liquid: "#f1e7d8", background: stone, backdrop: "columns", label: "plate" },
  },
  {
    name: "Pink Protea",
    category: "for-her",
    priceCents: 39900,
    daysAgo: 39,
    tagline: "A joyful fruity floral with a Cape heart",
    story:
      "Our tribute to the national flower: bright pink grapefruit and blackcurrant over a floral heart of protea accord and rose, resting on soft woods. Fun, fresh and sunny.",
    top: ["pink grapefruit", "blackcurrant", "mandarin"],
    heart: ["protea accord", "rose", "freesia"],
    base: ["blond woods", "musk", "ambrette"],
    look: { bottle: "flask", cap: "sphere", metal: "rose", liquid: "#e27a8f", background: blush, backdrop: "arch", label: "band" },
    tiers: true,
  },
  {
    name: "Vanilla Orchid Veil",
    category: "for-her",
    priceCents: 72900,
    daysAgo: 48,
    tagline: "Black orchid, vanilla and dark chocolate",
    story:
      "A luxurious gourmand floral in the spirit of the opulent evening orchids. Dark orchid and truffle over a deep base of vanilla, patchouli and incense. Dramatic and memorable.",
    top: ["black truffle accord", "bergamot", "blackcurrant"],
    heart: ["orchid", "lotus", "spices"],
    base: ["vanilla", "dark chocolate", "patchouli"],
    look: { bottle: "orb", cap: "crystal", metal: "gold", liquid: "#4a1f3d", background: dusk, backdrop: "disc", label: "plate" },
  },
  {
    name: "Cherry Lacquer",
    category: "for-her",
    priceCents: 84900,
    daysAgo: 57,
    tagline: "Glossy black cherry and bitter almond",
    story:
      "Playful and decadent: black cherry liqueur and bitter almond over Turkish rose, tonka and a lacquered wood base. A signature scent for those who like to be remembered.",
    top: ["black cherry", "bitter almond", "cherry liqueur"],
    heart: ["Turkish rose", "jasmine sambac", "plum"],
    base: ["tonka bean", "Peru balsam", "sandalwood"],
    look: { bottle: "column", cap: "cube", metal: "gold", liquid: "#8e1b2b", background: blush, backdrop: "columns", label: "plate", capColor: "#7a1424" },
    tiers: true,
  },
  {
    name: "Lily of Dawn",
    category: "for-her",
    priceCents: 32900,
    daysAgo: 66,
    tagline: "Dewy lily of the valley and green stems",
    story:
      "A clean, green spring floral: lily of the valley, cut stems and a hint of pear on a transparent musk base. Light enough for every day, pretty enough for Sundays.",
    top: ["green stems", "pear", "lemon"],
    heart: ["lily of the valley", "hyacinth", "jasmine"],
    base: ["white musk", "cedar", "moss"],
    look: { bottle: "arch", cap: "tall", metal: "silver", liquid: "#dfe8c2", background: sage, backdrop: "plain", label: "engraved" },
  },
  {
    name: "Pearl Musk",
    category: "for-her",
    priceCents: 44900,
    daysAgo: 75,
    tagline: "A skin-close musk with a soft floral glow",
    story:
      "Like clean skin in the sun: layered white musks with iris and a breath of pear. Intimate and comforting, in the style of the cult 'your skin but better' scents.",
    top: ["pear", "pink pepper", "bergamot"],
    heart: ["iris", "orange blossom", "rose"],
    base: ["white musk", "ambrette", "cashmere woods"],
    look: { bottle: "orb", cap: "sphere", metal: "silver", liquid: "#f4ede4", background: stone, backdrop: "arch", label: "plate" },
  },
  {
    name: "Tuberose Sonata",
    category: "for-her",
    priceCents: 76900,
    daysAgo: 88,
    tagline: "A creamy, radiant tuberose",
    story:
      "An unapologetic white floral: creamy tuberose and ylang-ylang with a touch of coconut, resting on sandalwood and benzoin. Bold, sunny and glamorous.",
    top: ["green leaves", "mandarin", "coconut"],
    heart: ["tuberose", "ylang-ylang", "gardenia"],
    base: ["sandalwood", "benzoin", "musk"],
    look: { bottle: "amphora", cap: "dome", metal: "gold", liquid: "#f0dcb0", background: warm, backdrop: "arch", label: "plate", capColor: "#f3ead9" },
  },
  {
    name: "Sugared Iris",
    category: "for-her",
    priceCents: 66900,
    daysAgo: 101,
    tagline: "Powdery iris dusted with praline",
    story:
      "In the spirit of the modern iris gourmands: buttery orris and violet sweetened with praline and tonka. Soft, elegant and quietly addictive.",
    top: ["pear", "violet", "bergamot"],
    heart: ["orris butter", "jasmine", "praline"],
    base: ["tonka bean", "vanilla", "vetiver"],
    look: { bottle: "flask", cap: "cube", metal: "rose", liquid: "#c7b2d6", background: lilac, backdrop: "disc", label: "engraved" },
    tiers: true,
  },
  {
    name: "Fynbos Garden",
    category: "for-her",
    priceCents: 36900,
    daysAgo: 114,
    tagline: "Buchu, geranium and wild herbs",
    story:
      "A fresh aromatic floral from the Cape Floral Kingdom: buchu, rose geranium and wild honeybush over a soft woody base. Light, herbal and uplifting.",
    top: ["buchu", "lemon", "wild herbs"],
    heart: ["rose geranium", "honeybush", "lavender"],
    base: ["cedar", "musk", "oakmoss"],
    look: { bottle: "tapered", cap: "dome", metal: "gold", liquid: "#b9c98f", background: sage, backdrop: "disc", label: "plate", capColor: "#50613c" },
  },
  {
    name: "Lavender Reverie",
    category: "for-her",
    priceCents: 49900,
    daysAgo: 128,
    tagline: "Creamy lavender with vanilla and tonka",
    story:
      "A cosy, modern lavender softened with vanilla and tonka, in the spirit of the newer feminine fougères. Relaxing by day, quietly seductive by night.",
    top: ["lavender", "bergamot", "mandarin"],
    heart: ["orange blossom", "jasmine", "lavender absolute"],
    base: ["vanilla", "tonka bean", "ambrox"],
    look: { bottle: "column", cap: "sphere", metal: "silver", liquid: "#a893c7", background: lilac, backdrop: "arch", label: "band" },
  },

  // --- Unisex ---
  {
    name: "Amber Lantern",
    category: "unisex",
    priceCents: 59900,
    daysAgo: 1,
    tagline: "Glowing amber, labdanum and vanilla",
    story:
      "A warm, resinous amber to wear like candlelight: labdanum, benzoin and vanilla with a dusting of spice. Comforting and endlessly wearable on any skin.",
    top: ["bergamot", "pink pepper", "cardamom"],
    heart: ["labdanum", "benzoin", "cinnamon"],
    base: ["vanilla", "amber", "sandalwood"],
    look: { bottle: "column", cap: "cube", metal: "gold", liquid: "#c27a2c", background: warm, backdrop: "arch", label: "plate" },
    tiers: true,
  },
  {
    name: "Saffron Silk Route",
    category: "unisex",
    priceCents: 82900,
    daysAgo: 6,
    tagline: "Saffron, jasmine and a crystal-sweet amber",
    story:
      "In the spirit of the famous saffron-amber niche scents: airy saffron and jasmine over a glittering, almost sugary ambergris and cedar. Radiant, modern and long-lasting.",
    top: ["saffron", "bitter orange", "jasmine"],
    heart: ["amberwood", "ambergris accord", "cedar"],
    base: ["fir resin", "musk", "cashmeran"],
    look: { bottle: "facet", cap: "crystal", metal: "rose", liquid: "#d9704f", background: blush, backdrop: "columns", label: "plate" },
    tiers: true,
  },
  {
    name: "Santal Horizon",
    category: "unisex",
    priceCents: 74900,
    daysAgo: 13,
    tagline: "Creamy sandalwood, cardamom and papyrus",
    story:
      "A cult-style woody skin scent: creamy Australian sandalwood with cardamom, violet and leather-soft papyrus. Effortless, unisex and very easy to love.",
    top: ["cardamom", "violet", "iris"],
    heart: ["papyrus", "leather accord", "ambrox"],
    base: ["Australian sandalwood", "cedar", "musk"],
    look: { bottle: "square", cap: "cylinder", metal: "black", liquid: "#d7b98c", background: sand, backdrop: "plain", label: "engraved" },
  },
  {
    name: "White Tea Ritual",
    category: "unisex",
    priceCents: 29900,
    daysAgo: 21,
    tagline: "Calm white tea, bergamot and soft musk",
    story:
      "A serene, transparent scent for quiet mornings: white tea and bergamot over jasmine and a clean, soft musk. Our most affordable fragrance, and one of our most gifted.",
    top: ["bergamot", "lemon", "ginger"],
    heart: ["white tea", "jasmine", "mate"],
    base: ["white musk", "amber", "cedar"],
    look: { bottle: "arch", cap: "cylinder", metal: "silver", liquid: "#ece5cf", background: mist, backdrop: "disc", label: "plate" },
  },
  {
    name: "Cedar & Sea Salt",
    category: "unisex",
    priceCents: 41900,
    daysAgo: 29,
    tagline: "Salted driftwood and wild sage",
    story:
      "A breezy, mineral woody in the style of the favourite British coastal colognes: sea salt, sage and ambrette on sun-bleached cedar. Relaxed and effortlessly fresh.",
    top: ["sea salt", "ambrette", "grapefruit"],
    heart: ["sage", "seaweed accord", "rosemary"],
    base: ["cedar", "driftwood", "musk"],
    look: { bottle: "column", cap: "cylinder", metal: "silver", liquid: "#bfd2d4", background: mist, backdrop: "columns", label: "band" },
  },
  {
    name: "Oud Monsoon",
    category: "unisex",
    priceCents: 89900,
    daysAgo: 42,
    tagline: "Smoky oud, rose and rain-soaked earth",
    story:
      "Our most precious blend: a smoky, animalic oud softened by Taif rose and saffron, grounded in patchouli and wet earth. Deep, regal and unforgettable.",
    top: ["saffron", "cardamom", "raspberry"],
    heart: ["Taif rose", "agarwood (oud)", "geranium"],
    base: ["patchouli", "earthy accord", "labdanum"],
    look: { bottle: "facet", cap: "crystal", metal: "bronze", liquid: "#5a2a1a", background: dusk, backdrop: "columns", label: "plate" },
    tiers: true,
  },
  {
    name: "Fig Leaf Atelier",
    category: "unisex",
    priceCents: 53900,
    daysAgo: 55,
    tagline: "Green fig leaf, milky sap and cedar",
    story:
      "A Mediterranean garden in a bottle: crushed fig leaves, milky sap and coconut over warm cedar. Green, creamy and softly sunny.",
    top: ["fig leaf", "bergamot", "green notes"],
    heart: ["fig milk", "coconut", "iris"],
    base: ["cedar", "benzoin", "musk"],
    look: { bottle: "amphora", cap: "dome", metal: "gold", liquid: "#9bb07a", background: sage, backdrop: "arch", label: "engraved", capColor: "#2f4a33" },
  },
  {
    name: "Neroli Terrace",
    category: "unisex",
    priceCents: 45900,
    daysAgo: 68,
    tagline: "Sparkling neroli, petitgrain and sea air",
    story:
      "A luminous citrus floral from a seaside terrace: neroli, orange blossom and petitgrain lifted by a breath of sea air. Pure sunshine, for any day and anyone.",
    top: ["neroli", "bergamot", "petitgrain"],
    heart: ["orange blossom", "rosemary", "sea air"],
    base: ["amber", "musk", "vetiver"],
    look: { bottle: "flask", cap: "disc", metal: "gold", liquid: "#f0c95e", background: warm, backdrop: "plain", label: "plate" },
  },
  {
    name: "Incense Cathedral",
    category: "unisex",
    priceCents: 69900,
    daysAgo: 79,
    tagline: "Cool church incense and cold stone",
    story:
      "Quiet, cool and contemplative: frankincense and myrrh drifting through stone arches, with a breath of elemi and cedar. A niche-style incense for those who like their scents introspective.",
    top: ["elemi", "pink pepper", "lemon"],
    heart: ["frankincense", "myrrh", "cypress"],
    base: ["cedar", "stone accord", "musk"],
    look: { bottle: "arch", cap: "tall", metal: "black", liquid: "#6e6a66", background: stone, backdrop: "disc", label: "engraved" },
  },
  {
    name: "Cashmere Haze",
    category: "unisex",
    priceCents: 51900,
    daysAgo: 93,
    tagline: "Soft cashmere woods and warm musk",
    story:
      "A cosy, cocooning blend of cashmere woods, ambrette and vanilla musk. Like wrapping yourself in your favourite jumper on a cold Highveld morning.",
    top: ["pink pepper", "pear", "bergamot"],
    heart: ["cashmere woods", "ambrette", "orris"],
    base: ["vanilla musk", "sandalwood", "amber"],
    look: { bottle: "orb", cap: "sphere", metal: "gold", liquid: "#d9b9a0", background: sand, backdrop: "disc", label: "band" },
  },
  {
    name: "Baobab Moon",
    category: "unisex",
    priceCents: 57900,
    daysAgo: 105,
    tagline: "Baobab blossom, coconut water and warm woods",
    story:
      "Inspired by moonlit nights in the Limpopo bushveld: baobab blossom and coconut water over a warm base of sandalwood and tonka. Exotic, creamy and softly luminous.",
    top: ["coconut water", "mandarin", "cardamom"],
    heart: ["baobab blossom", "frangipani", "jasmine"],
    base: ["sandalwood", "tonka bean", "musk"],
    look: { bottle: "amphora", cap: "sphere", metal: "bronze", liquid: "#c89b6d", background: night, backdrop: "disc", label: "plate" },
  },
  {
    name: "Glass Ember",
    category: "unisex",
    priceCents: 86900,
    daysAgo: 119,
    tagline: "Smouldering woods under a clear, sweet amber",
    story:
      "A luminous, transparent amber with smouldering woods and a sugared saffron glow, in the spirit of the celebrated crystal-amber signatures. Projects beautifully and lasts all day.",
    top: ["saffron", "mandarin", "pink pepper"],
    heart: ["burnt sugar accord", "jasmine", "amberwood"],
    base: ["smoked woods", "ambergris accord", "musk"],
    look: { bottle: "facet", cap: "crystal", metal: "gold", liquid: "#c0392b", background: stone, backdrop: "plain", label: "band" },
  },
  {
    name: "Green Tea Pavilion",
    category: "unisex",
    priceCents: 33900,
    daysAgo: 134,
    tagline: "Matcha, yuzu and bamboo",
    story:
      "A crisp, meditative green scent: whisked matcha, yuzu zest and bamboo over light woods. Refreshing on hot days and perfect for the gym bag.",
    top: ["yuzu", "lime", "mint"],
    heart: ["matcha tea", "bamboo", "jasmine tea"],
    base: ["light woods", "musk", "vetiver"],
    look: { bottle: "tapered", cap: "disc", metal: "silver", liquid: "#a6c27a", background: sage, backdrop: "plain", label: "plate" },
  },
  {
    name: "Plum Velours",
    category: "unisex",
    priceCents: 78900,
    daysAgo: 150,
    tagline: "Velvety oud, plum and dark rose",
    story:
      "A plush, jammy oud for grand evenings: dark plum and black rose wrapped in soft oud and suede. Rich but refined, in the manner of the modern Parisian oud houses.",
    top: ["plum", "saffron", "black pepper"],
    heart: ["black rose", "oud accord", "suede"],
    base: ["patchouli", "vanilla", "guaiac wood"],
    look: { bottle: "square", cap: "crystal", metal: "rose", liquid: "#5b1e35", background: night, backdrop: "columns", label: "plate" },
  },
];

export interface DemoCustomer {
  email: string;
  name: string;
  daysAgo: number;
}

/** Fictional customers who wrote the demo reviews: user rows only, no accounts or passwords (they cannot sign in). */
export const DEMO_CUSTOMERS: readonly DemoCustomer[] = [
  { email: "thandi.m@example.co.za", name: "Thandi M.", daysAgo: 120 },
  { email: "pieter.vdm@example.co.za", name: "Pieter van der Merwe", daysAgo: 110 },
  { email: "aisha.k@example.co.za", name: "Aisha K.", daysAgo: 95 },
  { email: "sipho.n@example.co.za", name: "Sipho N.", daysAgo: 80 },
  { email: "megan.j@example.co.za", name: "Megan J.", daysAgo: 64 },
  { email: "lerato.d@example.co.za", name: "Lerato D.", daysAgo: 40 },
];

export interface DemoReview {
  product: string;
  customer: string;
  rating: number;
  comment: string;
  daysAgo: number;
}

export const DEMO_REVIEWS: readonly DemoReview[] = [
  { product: "Midnight Cartographer", customer: "sipho.n@example.co.za", rating: 5, comment: "Lasts the whole workday and I get asked what I'm wearing every time. Smells far more expensive than it is.", daysAgo: 2 },
  { product: "Midnight Cartographer", customer: "pieter.vdm@example.co.za", rating: 4, comment: "Fresh and clean, very close to the designer scent I used to buy. Projection drops after a few hours.", daysAgo: 1 },
  { product: "Rose Parlour", customer: "thandi.m@example.co.za", rating: 5, comment: "The most beautiful rose I own. Delivery to Pretoria took two days and it was wrapped so nicely.", daysAgo: 1 },
  { product: "Rose Parlour", customer: "megan.j@example.co.za", rating: 4, comment: "Lovely and feminine, a little sweet at first but the dry-down is gorgeous.", daysAgo: 1 },
  { product: "Amber Lantern", customer: "aisha.k@example.co.za", rating: 5, comment: "Warm, cosy and lasts all day on my skin. My husband keeps borrowing it.", daysAgo: 0 },
  { product: "Karoo Dusk", customer: "sipho.n@example.co.za", rating: 5, comment: "Rooibos in a perfume! Unique and really well made. Perfect for winter evenings.", daysAgo: 10 },
  { product: "Oud Monsoon", customer: "pieter.vdm@example.co.za", rating: 5, comment: "Rich, smoky and very long-lasting. Two sprays are plenty.", daysAgo: 20 },
  { product: "Pink Protea", customer: "lerato.d@example.co.za", rating: 4, comment: "Bright and happy, my go-to summer scent. I bought the three-pack for gifts.", daysAgo: 25 },
  { product: "Golden Hour Nectar", customer: "megan.j@example.co.za", rating: 5, comment: "Honey and orange blossom, just stunning. I've had so many compliments.", daysAgo: 12 },
  { product: "White Tea Ritual", customer: "thandi.m@example.co.za", rating: 4, comment: "Soft and calming, great for the office. Wish it lasted a bit longer but at this price I just reapply.", daysAgo: 14 },
  { product: "Blue Meridian", customer: "lerato.d@example.co.za", rating: 5, comment: "Bought it for my partner, he loves it. Fast delivery to Durban.", daysAgo: 30 },
  { product: "Saffron Silk Route", customer: "aisha.k@example.co.za", rating: 5, comment: "Honestly as good as the niche one I was saving up for. Airy, sweet and it lasts forever.", daysAgo: 4 },
  { product: "Moonlit Jasmine", customer: "lerato.d@example.co.za", rating: 3, comment: "Beautiful jasmine, but a bit strong for me during the day. Perfect for evenings.", daysAgo: 9 },
  { product: "Copper Tobacco", customer: "pieter.vdm@example.co.za", rating: 4, comment: "Sweet tobacco and vanilla, very cosy. Great value.", daysAgo: 40 },
];

export interface DemoZone {
  name: string;
  baseRateCents: number;
  rules: { minCents: number; maxCents: number | null; rateCents: number }[];
  /** the provinces it serves (each province in one zone at most) */
  provinces: readonly string[];
}

/**
 * Shipping: rules pick a rate by the order total (both ends inclusive, max null = unbounded); no match falls back to
 * the base rate. Each province is served by one zone, so the checkout preselects the shopper's. Zones are listed by
 * name, and "Gauteng Metro" (the first) stays the default when no province is chosen yet.
 */
export const DEMO_SHIPPING_ZONES: readonly DemoZone[] = [
  {
    name: "Gauteng Metro",
    baseRateCents: 6000,
    rules: [
      { minCents: 0, maxCents: 29999, rateCents: 6000 },
      { minCents: 30000, maxCents: 59899, rateCents: 4500 },
      { minCents: 59900, maxCents: null, rateCents: 0 },
    ],
    provinces: ["Gauteng"],
  },
  {
    name: "Rest of South Africa",
    baseRateCents: 9500,
    rules: [
      { minCents: 0, maxCents: 29999, rateCents: 9500 },
      { minCents: 30000, maxCents: 59899, rateCents: 7000 },
      { minCents: 59900, maxCents: null, rateCents: 0 },
    ],
    provinces: ["Eastern Cape", "Free State", "KwaZulu-Natal", "Limpopo", "Mpumalanga", "Northern Cape", "North West"],
  },
  {
    name: "Western Cape",
    baseRateCents: 7500,
    rules: [
      { minCents: 0, maxCents: 29999, rateCents: 7500 },
      { minCents: 30000, maxCents: 59899, rateCents: 5500 },
      { minCents: 59900, maxCents: null, rateCents: 0 },
    ],
    provinces: ["Western Cape"],
  },
];

export interface DemoCoupon {
  code: string;
  discountType: DiscountType;
  /** percentage: whole percent; fixed_amount: cents; free_delivery: minimum spend in cents. */
  discountValue: number;
  minimumSpendCents: number;
  maxRedemptions: number | null;
  validDays: number;
  description: string;
}

export const DEMO_COUPONS: readonly DemoCoupon[] = [
  {
    code: "WELCOME10",
    discountType: "percentage",
    discountValue: 10,
    minimumSpendCents: 0,
    maxRedemptions: null,
    validDays: 365,
    description: "10% off your order",
  },
  {
    code: "FREESHIP",
    discountType: "free_delivery",
    discountValue: 30000,
    minimumSpendCents: 30000,
    maxRedemptions: null,
    validDays: 365,
    description: "Free delivery on orders of R300 or more",
  },
];

/** Bulk tier prices for a base price: 3–5 units about 8% less, 6+ about 15% less, rounded to whole rand. */
export function demoTiers(priceCents: number) {
  const rand = (fraction: number) => Math.round((priceCents * fraction) / 100) * 100;
  return [
    { minQuantity: 3, maxQuantity: 5 as number | null, priceCents: rand(0.92) },
    { minQuantity: 6, maxQuantity: null as number | null, priceCents: rand(0.85) },
  ];
}

/**
 * The designer fragrance each demo product is inspired by (house, fragrance), chosen for its notes: Blue Meridian's
 * bergamot, Sichuan pepper, lavender and ambroxan are Sauvage's; Santal Horizon's sandalwood, cardamom, papyrus and
 * leather are Santal 33's. Keyed by product name; every demo product has one (seed.int.test.ts checks it).
 */
export const DEMO_INSPIRED_BY: Readonly<Record<string, readonly [house: string, fragrance: string]>> = {
  "Midnight Cartographer": ["Chanel", "Bleu de Chanel"],
  "Iron & Cedar": ["Dior", "Fahrenheit"],
  "Karoo Dusk": ["Tom Ford", "Ombré Leather"],
  "Atlantic Drift": ["Giorgio Armani", "Acqua di Giò"],
  "Leather Atlas": ["Tom Ford", "Tuscan Leather"],
  "Smoked Vetiver Reserve": ["Lalique", "Encre Noire"],
  "Copper Tobacco": ["Tom Ford", "Tobacco Vanille"],
  "Northern Ridge": ["Creed", "Silver Mountain Water"],
  "Obsidian Road": ["Hermès", "Terre d'Hermès"],
  "Gentleman's Ember": ["Paco Rabanne", "1 Million"],
  "Blue Meridian": ["Dior", "Sauvage"],
  "Highveld Storm": ["Issey Miyake", "L'Eau d'Issey Pour Homme"],
  "Cognac Study": ["Kilian", "Angels' Share"],
  "Rose Parlour": ["Chanel", "Coco Mademoiselle"],
  "Velvet Peony": ["Jo Malone London", "Peony & Blush Suede"],
  "Moonlit Jasmine": ["Dior", "J'adore"],
  "Golden Hour Nectar": ["Kilian", "Love, Don't Be Shy"],
  "Silk Camellia": ["Chanel", "N°5"],
  "Pink Protea": ["Marc Jacobs", "Daisy"],
  "Vanilla Orchid Veil": ["Tom Ford", "Black Orchid"],
  "Cherry Lacquer": ["Tom Ford", "Lost Cherry"],
  "Lily of Dawn": ["Dior", "Diorissimo"],
  "Pearl Musk": ["Narciso Rodriguez", "For Her"],
  "Tuberose Sonata": ["Frédéric Malle", "Carnal Flower"],
  "Sugared Iris": ["Lancôme", "La Vie Est Belle"],
  "Fynbos Garden": ["Hermès", "Un Jardin sur le Toit"],
  "Lavender Reverie": ["Yves Saint Laurent", "Libre"],
  "Amber Lantern": ["Maison Francis Kurkdjian", "Grand Soir"],
  "Saffron Silk Route": ["Maison Francis Kurkdjian", "Baccarat Rouge 540"],
  "Santal Horizon": ["Le Labo", "Santal 33"],
  "White Tea Ritual": ["Bvlgari", "Eau Parfumée au Thé Blanc"],
  "Cedar & Sea Salt": ["Jo Malone London", "Wood Sage & Sea Salt"],
  "Oud Monsoon": ["Tom Ford", "Oud Wood"],
  "Fig Leaf Atelier": ["Diptyque", "Philosykos"],
  "Neroli Terrace": ["Tom Ford", "Neroli Portofino"],
  "Incense Cathedral": ["Comme des Garçons", "Avignon"],
  "Cashmere Haze": ["Glossier", "You"],
  "Baobab Moon": ["Tom Ford", "Soleil Blanc"],
  "Glass Ember": ["Maison Margiela", "Replica By the Fireplace"],
  "Green Tea Pavilion": ["Bvlgari", "Eau Parfumée au Thé Vert"],
  "Plum Velours": ["Maison Francis Kurkdjian", "Oud Satin Mood"],
};

/** The demo product's inspired-by columns. */
export function demoInspiredBy(p: DemoProduct): { inspired_house: string | null; inspired_fragrance: string | null } {
  const pair = DEMO_INSPIRED_BY[p.name];
  return { inspired_house: pair?.[0] ?? null, inspired_fragrance: pair?.[1] ?? null };
}

/** The product description shown on the product page: the story, then the notes pyramid. */
export function demoDescription(p: DemoProduct): string {
  return [
    `${p.tagline}.`,
    p.story,
    `Top notes: ${p.top.join(", ")}.\nHeart notes: ${p.heart.join(", ")}.\nBase notes: ${p.base.join(", ")}.`,
    "Eau de parfum, 100 ml.",
  ].join("\n\n");
}

export function demoMetaDescription(p: DemoProduct): string {
  const text = `${p.name}: ${p.tagline.charAt(0).toLowerCase()}${p.tagline.slice(1)}. Notes of ${[p.top[0], p.heart[0], p.base[0]].join(", ")}. Delivered across South Africa.`;
  return text.length <= 160 ? text : `${text.slice(0, 157).trimEnd()}…`;
}

/**
 * The rest of each demo product's scent profile (issue 22, docs/decisions/035): its family, how strong it is, when it
 * is worn and in which seasons (South African seasons: summer is December). Chosen from its notes and from the
 * designer fragrance it is inspired by (Karoo Dusk follows Ombré Leather into leather; Rose Parlour follows Coco
 * Mademoiselle into chypre). The notes pyramid is the product's own top/heart/base; who it is for follows its category.
 * Keyed by product name; every demo product has one (app/modules/scent/scent.int.test.ts checks it).
 */
const ALL_YEAR: readonly Season[] = ["spring", "summer", "autumn", "winter"];
const WARM: readonly Season[] = ["spring", "summer"];
const COLD: readonly Season[] = ["autumn", "winter"];
export const DEMO_SCENT: Readonly<Record<string, readonly [ScentFamily, Intensity, Occasion, readonly Season[]]>> = {
  "Midnight Cartographer": ["aromatic", "strong", "both", ["spring", "autumn", "winter"]],
  "Iron & Cedar": ["woody", "moderate", "evening", COLD],
  "Karoo Dusk": ["leather", "strong", "evening", COLD],
  "Atlantic Drift": ["aquatic", "light", "day", WARM],
  "Leather Atlas": ["leather", "strong", "evening", COLD],
  "Smoked Vetiver Reserve": ["woody", "strong", "evening", COLD],
  "Copper Tobacco": ["gourmand", "strong", "evening", COLD],
  "Northern Ridge": ["fresh", "light", "day", WARM],
  "Obsidian Road": ["woody", "moderate", "both", ["spring", "autumn", "winter"]],
  "Gentleman's Ember": ["amber", "strong", "evening", COLD],
  "Blue Meridian": ["aromatic", "strong", "both", ALL_YEAR],
  "Highveld Storm": ["aquatic", "light", "day", WARM],
  "Cognac Study": ["gourmand", "strong", "evening", COLD],
  "Rose Parlour": ["chypre", "moderate", "both", ["spring", "autumn"]],
  "Velvet Peony": ["floral", "light", "day", WARM],
  "Moonlit Jasmine": ["floral", "strong", "evening", ["spring", "summer", "autumn"]],
  "Golden Hour Nectar": ["gourmand", "moderate", "evening", COLD],
  "Silk Camellia": ["floral", "moderate", "both", ALL_YEAR],
  "Pink Protea": ["fruity", "light", "day", WARM],
  "Vanilla Orchid Veil": ["amber", "strong", "evening", COLD],
  "Cherry Lacquer": ["fruity", "strong", "evening", COLD],
  "Lily of Dawn": ["floral", "light", "day", ["spring"]],
  "Pearl Musk": ["floral", "light", "both", ALL_YEAR],
  "Tuberose Sonata": ["floral", "strong", "evening", WARM],
  "Sugared Iris": ["gourmand", "moderate", "both", COLD],
  "Fynbos Garden": ["fresh", "light", "day", WARM],
  "Lavender Reverie": ["aromatic", "moderate", "both", ["spring", "autumn"]],
  "Amber Lantern": ["amber", "strong", "evening", COLD],
  "Saffron Silk Route": ["amber", "strong", "both", ALL_YEAR],
  "Santal Horizon": ["woody", "moderate", "both", ALL_YEAR],
  "White Tea Ritual": ["fresh", "light", "day", WARM],
  "Cedar & Sea Salt": ["aquatic", "light", "day", WARM],
  "Oud Monsoon": ["woody", "strong", "evening", COLD],
  "Fig Leaf Atelier": ["fresh", "light", "day", WARM],
  "Neroli Terrace": ["fresh", "light", "day", ["summer"]],
  "Incense Cathedral": ["woody", "moderate", "evening", COLD],
  "Cashmere Haze": ["woody", "light", "both", ALL_YEAR],
  "Baobab Moon": ["floral", "moderate", "day", ["summer"]],
  "Glass Ember": ["amber", "strong", "evening", COLD],
  "Green Tea Pavilion": ["fresh", "light", "day", WARM],
  "Plum Velours": ["amber", "strong", "evening", ["winter"]],
};

const DEMO_AUDIENCE = { "for-him": "men", "for-her": "women", unisex: "anyone" } as const;

/** The demo product's scent profile: its notes pyramid, DEMO_SCENT's family and wear, its category's audience. */
export function demoScentProfile(p: DemoProduct): ScentProfile {
  const [family, intensity, occasion, seasons] = DEMO_SCENT[p.name] ?? [null, null, null, []];
  return { family, top: [...p.top], heart: [...p.heart], base: [...p.base], intensity, occasion, seasons: [...seasons], audience: DEMO_AUDIENCE[p.category] };
}

/**
 * The demo's sizes (issue 33, docs/decisions/051): every scent in its 100 ml bottle (the price above; its bulk tiers
 * price it), most also in 50 ml, a few in 30 ml as well; a few oud and reserve blends come in 100 ml only. The 100 ml
 * is listed first, the flagship bottle a product page opens with, as it did when it was the only one.
 */
export const DEMO_BOTTLE_ML = 100;
const ALSO_30_ML = new Set(["Rose Parlour", "Fynbos Garden", "Santal Horizon", "Neroli Terrace", "Blue Meridian"]);
const ONLY_100_ML = new Set(["Oud Monsoon", "Incense Cathedral", "Smoked Vetiver Reserve"]);

export interface DemoSize {
  ml: number;
  label: string;
  priceCents: number;
  /** SC-<first four letters of up to three words of the name>-<ml>: "SC-MIDN-CART-100" */
  sku: string;
  /** bottles on the shelf: enough that the demo's own shoppers don't run out */
  stock: number;
}

/** A stable number from a name, so the demo's stock is the same on every seed. */
function spread(text: string, span: number): number {
  let h = 7;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 1_000_003;
  return h % span;
}

/** A smaller bottle's price: the 100 ml's share, to a whole R10 less R1 (R399.00), as the demo's prices end. */
const smallerPrice = (priceCents: number, share: number) => Math.round((priceCents * share) / 1000) * 1000 - 100;

export function demoSizes(p: DemoProduct): DemoSize[] {
  const code = p.name
    .toUpperCase()
    .replace(/[^A-Z ]/g, "")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 3)
    .map((w) => w.slice(0, 4))
    .join("-");
  const size = (ml: number, priceCents: number, stock: number): DemoSize => ({ ml, label: `${ml} ml`, priceCents, sku: `SC-${code}-${ml}`, stock });
  const sizes = [size(DEMO_BOTTLE_ML, p.priceCents, 30 + spread(p.name, 31))];
  if (ONLY_100_ML.has(p.name)) return sizes;
  sizes.push(size(50, smallerPrice(p.priceCents, 0.62), 24 + spread(`${p.name}:50`, 25)));
  if (ALSO_30_ML.has(p.name)) sizes.push(size(30, smallerPrice(p.priceCents, 0.45), 18 + spread(`${p.name}:30`, 19)));
  return sizes;
}
