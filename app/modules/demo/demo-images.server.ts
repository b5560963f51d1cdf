import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { IMAGE_WIDTHS } from "~/modules/media/images";
import { mediaStore } from "~/modules/media/media-store.server";
import { productImageUrlBase, renditionKey, safeBase, shortHash, writeRenditions } from "~/modules/media/product-images.server";

/**
 * Product images made on this machine, nothing downloaded: an SVG still life of a perfume bottle per product
 * (silhouette, cap, collar, liquid and backdrop vary), rendered by sharp to square WebP at every IMAGE_WIDTHS width.
 * File names carry a short content hash, so they can be cached forever: `{slug}-{hash}-{width}.webp`.
 */

export type BottleShape = "column" | "square" | "flask" | "arch" | "orb" | "facet" | "amphora" | "tapered";
export type CapShape = "cube" | "cylinder" | "sphere" | "disc" | "tall" | "crystal" | "dome";
export type Metal = "gold" | "silver" | "rose" | "black" | "bronze";
export type Backdrop = "arch" | "disc" | "plain" | "columns";
export type LabelStyle = "plate" | "engraved" | "band";

export interface BottleLook {
  bottle: BottleShape;
  cap: CapShape;
  metal: Metal;
  /** The perfume's colour (hex). */
  liquid: string;
  /** Backdrop gradient, top then bottom (hex). */
  background: readonly [string, string];
  backdrop: Backdrop;
  label: LabelStyle;
  /** Cap finish: metal (default) or a coloured lacquer (hex). */
  capColor?: string;
}

/** Bump when the drawing changes, so new renditions get new (cache-busting) names. */
const DRAWING_VERSION = "3";

// --- colour helpers ---

function hexToRgb(hex: string): [number, number, number] {
  const h = hex.replace("#", "");
  const n = Number.parseInt(h.length === 3 ? [...h].map((c) => c + c).join("") : h, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function rgbToHex([r, g, b]: [number, number, number]): string {
  const c = (v: number) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, "0");
  return `#${c(r)}${c(g)}${c(b)}`;
}

/** Mix towards white (amount > 0) or black (amount < 0). */
function shade(hex: string, amount: number): string {
  const [r, g, b] = hexToRgb(hex);
  const target = amount > 0 ? 255 : 0;
  const t = Math.abs(amount);
  return rgbToHex([r + (target - r) * t, g + (target - g) * t, b + (target - b) * t]);
}

function luminance(hex: string): number {
  const [r, g, b] = hexToRgb(hex).map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);
}

const METALS: Record<Metal, string[]> = {
  gold: ["#7a5a2b", "#c9a86a", "#f4e4bb", "#b08a4f", "#e8d19c", "#6e5026"],
  silver: ["#6f7379", "#c3c6cb", "#f6f7f8", "#a3a7ad", "#e4e6e9", "#63666c"],
  rose: ["#8a5a4b", "#d7a894", "#f7dfd4", "#b98471", "#ecc6b6", "#7a4d3f"],
  black: ["#0d0c0c", "#2c2a29", "#5b5856", "#1b1a19", "#3b3937", "#0a0909"],
  bronze: ["#5b3b1f", "#9b6b3c", "#d9b07c", "#83582f", "#c1935f", "#4d311a"],
};

function metalGradient(id: string, stops: string[]): string {
  const offsets = [0, 0.22, 0.42, 0.6, 0.8, 1];
  return `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="0">${stops
    .map((c, i) => `<stop offset="${offsets[i]}" stop-color="${c}"/>`)
    .join("")}</linearGradient>`;
}

function lacquerStops(hex: string): string[] {
  return [shade(hex, -0.45), shade(hex, -0.1), shade(hex, 0.35), shade(hex, -0.05), shade(hex, 0.15), shade(hex, -0.5)];
}

// --- geometry (a 1000 × 1000 canvas; the bottle stands on a surface at y = FLOOR) ---

const CX = 500;
const FLOOR = 790;
/** The bottle is drawn at a comfortable size, then enlarged around its foot to fill the frame. */
const SCALE = 1.1;

interface Body {
  path: string;
  top: number;
  width: number;
  /** Width of the neck opening the collar sits on. */
  neck: number;
}

function roundedRect(x: number, y: number, w: number, h: number, rTop: number, rBottom: number): string {
  return [
    `M${x + rTop},${y}`,
    `H${x + w - rTop}`,
    `Q${x + w},${y} ${x + w},${y + rTop}`,
    `V${y + h - rBottom}`,
    `Q${x + w},${y + h} ${x + w - rBottom},${y + h}`,
    `H${x + rBottom}`,
    `Q${x},${y + h} ${x},${y + h - rBottom}`,
    `V${y + rTop}`,
    `Q${x},${y} ${x + rTop},${y}`,
    "Z",
  ].join(" ");
}

function bodyFor(shape: BottleShape): Body {
  switch (shape) {
    case "column": {
      const w = 280;
      const h = 450;
      return { path: roundedRect(CX - w / 2, FLOOR - h, w, h, 22, 16), top: FLOOR - h, width: w, neck: 92 };
    }
    case "square": {
      const w = 380;
      const h = 360;
      return { path: roundedRect(CX - w / 2, FLOOR - h, w, h, 34, 26), top: FLOOR - h, width: w, neck: 110 };
    }
    case "flask": {
      const w = 360;
      const h = 410;
      return { path: roundedRect(CX - w / 2, FLOOR - h, w, h, 110, 40), top: FLOOR - h, width: w, neck: 100 };
    }
    case "arch": {
      const w = 300;
      const h = 440;
      const x = CX - w / 2;
      const y = FLOOR - h;
      const r = w / 2;
      const path = `M${x},${y + r} A${r},${r} 0 0 1 ${x + w},${y + r} V${FLOOR - 20} Q${x + w},${FLOOR} ${x + w - 20},${FLOOR} H${x + 20} Q${x},${FLOOR} ${x},${FLOOR - 20} Z`;
      return { path, top: y, width: w, neck: 86 };
    }
    case "orb": {
      const r = 200;
      const cy = FLOOR - r + 8;
      const flat = Math.sqrt(r * r - (FLOOR - cy) ** 2);
      const path = `M${CX - flat},${FLOOR} A${r},${r} 0 1 1 ${CX + flat},${FLOOR} Z`;
      return { path, top: cy - r, width: 2 * r, neck: 96 };
    }
    case "facet": {
      const w = 360;
      const h = 400;
      const c = 78;
      const x = CX - w / 2;
      const y = FLOOR - h;
      const path = `M${x + c},${y} H${x + w - c} L${x + w},${y + c} V${FLOOR - c} L${x + w - c},${FLOOR} H${x + c} L${x},${FLOOR - c} V${y + c} Z`;
      return { path, top: y, width: w, neck: 104 };
    }
    case "amphora": {
      const h = 440;
      const y = FLOOR - h;
      const path = [
        `M${CX - 70},${y}`,
        `H${CX + 70}`,
        `C${CX + 90},${y + 60} ${CX + 215},${y + 120} ${CX + 205},${y + 270}`,
        `C${CX + 198},${y + 380} ${CX + 150},${FLOOR} ${CX + 110},${FLOOR}`,
        `H${CX - 110}`,
        `C${CX - 150},${FLOOR} ${CX - 198},${y + 380} ${CX - 205},${y + 270}`,
        `C${CX - 215},${y + 120} ${CX - 90},${y + 60} ${CX - 70},${y}`,
        "Z",
      ].join(" ");
      return { path, top: y, width: 410, neck: 120 };
    }
    case "tapered": {
      const h = 420;
      const y = FLOOR - h;
      const top = 190;
      const bottom = 145;
      const path = `M${CX - top + 14},${y} H${CX + top - 14} Q${CX + top},${y} ${CX + top},${y + 14} L${CX + bottom},${FLOOR - 12} Q${CX + bottom - 1},${FLOOR} ${CX + bottom - 14},${FLOOR} H${CX - bottom + 14} Q${CX - bottom + 1},${FLOOR} ${CX - bottom},${FLOOR - 12} L${CX - top},${y + 14} Q${CX - top},${y} ${CX - top + 14},${y} Z`;
      return { path, top: y, width: 2 * top, neck: 98 };
    }
  }
}

function capFor(shape: CapShape, baseY: number, fill: string): { svg: string; top: number } {
  switch (shape) {
    case "cube": {
      const w = 150;
      const h = 140;
      return { svg: `<rect x="${CX - w / 2}" y="${baseY - h}" width="${w}" height="${h}" rx="6" fill="${fill}"/>`, top: baseY - h };
    }
    case "cylinder": {
      const w = 118;
      const h = 150;
      return {
        svg: `<rect x="${CX - w / 2}" y="${baseY - h}" width="${w}" height="${h}" rx="10" fill="${fill}"/><ellipse cx="${CX}" cy="${baseY - h + 8}" rx="${w / 2 - 4}" ry="7" fill="#ffffff" opacity=".18"/>`,
        top: baseY - h,
      };
    }
    case "tall": {
      const w = 84;
      const h = 210;
      return { svg: `<rect x="${CX - w / 2}" y="${baseY - h}" width="${w}" height="${h}" rx="8" fill="${fill}"/>`, top: baseY - h };
    }
    case "sphere": {
      const r = 82;
      return { svg: `<circle cx="${CX}" cy="${baseY - r + 6}" r="${r}" fill="${fill}"/>`, top: baseY - 2 * r + 6 };
    }
    case "disc": {
      const w = 230;
      const h = 64;
      return {
        svg: `<rect x="${CX - w / 2}" y="${baseY - h}" width="${w}" height="${h}" rx="14" fill="${fill}"/><rect x="${CX - w / 2 + 10}" y="${baseY - h + 10}" width="${w - 20}" height="3" fill="#ffffff" opacity=".25"/>`,
        top: baseY - h,
      };
    }
    case "dome": {
      const w = 170;
      const h = 120;
      return {
        svg: `<path d="M${CX - w / 2},${baseY} V${baseY - h + w / 2 - 20} A${w / 2},${w / 2 - 20} 0 0 1 ${CX + w / 2},${baseY - h + w / 2 - 20} V${baseY} Z" fill="${fill}"/>`,
        top: baseY - h - 10,
      };
    }
    case "crystal": {
      const w = 170;
      const h = 170;
      const y = baseY - h;
      const facets = `<path d="M${CX - w / 2},${y + 55} L${CX},${y} L${CX + w / 2},${y + 55} L${CX + w / 2 - 25},${baseY} H${CX - w / 2 + 25} Z" fill="${fill}"/>
        <path d="M${CX - w / 2},${y + 55} L${CX},${y} L${CX - 20},${y + 70} Z" fill="#ffffff" opacity=".35"/>
        <path d="M${CX - 20},${y + 70} L${CX + w / 2},${y + 55} L${CX},${y} Z" fill="#ffffff" opacity=".12"/>
        <path d="M${CX - 20},${y + 70} L${CX + w / 2 - 25},${baseY} L${CX + w / 2},${y + 55} Z" fill="#000000" opacity=".12"/>
        <path d="M${CX - 20},${y + 70} L${CX - w / 2 + 25},${baseY} L${CX - w / 2},${y + 55} Z" fill="#ffffff" opacity=".18"/>`;
      return { svg: facets, top: y };
    }
  }
}

function backdropFor(kind: Backdrop, bg: readonly [string, string], accent: string): string {
  const tone = shade(bg[0], 0.35);
  switch (kind) {
    case "arch":
      return `<path d="M310,${FLOOR} V300 A190,190 0 0 1 690,300 V${FLOOR} Z" fill="${tone}" opacity=".55"/>
        <path d="M310,${FLOOR} V300 A190,190 0 0 1 690,300 V${FLOOR}" fill="none" stroke="${accent}" stroke-width="1.5" opacity=".35"/>`;
    case "disc":
      return `<circle cx="${CX}" cy="470" r="300" fill="${tone}" opacity=".5"/>
        <circle cx="${CX}" cy="470" r="318" fill="none" stroke="${accent}" stroke-width="1.5" opacity=".3"/>`;
    case "columns":
      return `<rect x="196" y="90" width="70" height="${FLOOR - 90}" fill="${tone}" opacity=".22"/>
        <rect x="734" y="90" width="70" height="${FLOOR - 90}" fill="${tone}" opacity=".22"/>
        <line x1="196" y1="90" x2="804" y2="90" stroke="${accent}" stroke-width="1.5" opacity=".3"/>
        <ellipse cx="${CX}" cy="480" rx="330" ry="320" fill="url(#glow)" opacity=".5"/>`;
    case "plain":
      return `<ellipse cx="${CX}" cy="500" rx="380" ry="360" fill="url(#glow)"/>`;
  }
}

/** The ways to set a name on the label: one line, or split at word breaks into two or three balanced lines. */
function labelLayouts(name: string): string[][] {
  const upper = name.toUpperCase();
  const words = upper.split(/\s+/);
  const layouts = [[upper]];
  const balanced = (parts: number) => {
    let best: string[] | undefined;
    let bestLongest = Infinity;
    const splits = (start: number, left: number): string[][] => {
      if (left === 1) return [[words.slice(start).join(" ")]];
      const out: string[][] = [];
      for (let i = start + 1; i <= words.length - left + 1; i++) {
        for (const rest of splits(i, left - 1)) out.push([words.slice(start, i).join(" "), ...rest]);
      }
      return out;
    };
    for (const lines of splits(0, parts)) {
      const longest = Math.max(...lines.map((l) => l.length));
      if (longest < bestLongest) {
        bestLongest = longest;
        best = lines;
      }
    }
    return best;
  };
  for (const parts of [2, 3]) {
    if (words.length >= parts) layouts.push(balanced(parts)!);
  }
  return layouts;
}

function labelFor(style: LabelStyle, name: string, body: Body, liquid: string, metalFill: string): string {
  const available = body.width * (style === "band" ? 0.82 : 0.7);
  // Uppercase serif with 0.14em tracking advances ≈ 0.84em per character.
  const fit = (ls: string[]) => Math.min(34, (available * 0.9) / (Math.max(...ls.map((l) => l.length)) * 0.84));
  // Fewer lines read better: take another line only when it makes the lettering clearly larger.
  let lines = [name.toUpperCase()];
  for (const layout of labelLayouts(name).slice(1)) {
    if (fit(lines) < 26 && fit(layout) > fit(lines) * 1.2) lines = layout;
  }
  const size = fit(lines);
  const lineGap = size * 1.22;
  const centreY = FLOOR - (FLOOR - body.top) * 0.44;
  const font = `font-family="Cormorant Garamond, Liberation Serif, DejaVu Serif, Times New Roman, serif"`;
  const blockH = lines.length * lineGap + 34;
  const firstBaseline = centreY - blockH / 2 + size * 0.95 + 6;
  const dark = luminance(liquid) < 0.28;

  const text = (fill: string, opacity = 1) =>
    lines
      .map(
        (line, i) =>
          `<text x="${CX}" y="${(firstBaseline + i * lineGap).toFixed(1)}" text-anchor="middle" ${font} font-size="${size.toFixed(1)}" letter-spacing="${(size * 0.14).toFixed(1)}" fill="${fill}" opacity="${opacity}">${escapeXml(line)}</text>`,
      )
      .join("") +
    `<text x="${CX}" y="${(firstBaseline + (lines.length - 1) * lineGap + 30).toFixed(1)}" text-anchor="middle" ${font} font-size="13" letter-spacing="4.5" fill="${fill}" opacity="${opacity * 0.8}">EAU DE PARFUM</text>`;

  if (style === "plate") {
    const textWidth = Math.max(...lines.map((l) => l.length)) * size * 0.84;
    const w = Math.min(body.width * 0.8, Math.max(body.width * 0.5, textWidth + 56));
    const h = blockH + 26;
    const x = CX - w / 2;
    const y = centreY - h / 2;
    return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#fbf8f2" opacity=".93"/>
      <rect x="${x + 7}" y="${y + 7}" width="${w - 14}" height="${h - 14}" fill="none" stroke="${metalFill}" stroke-width="1.6"/>
      ${text("#1c1714")}`;
  }
  if (style === "band") {
    const h = blockH + 20;
    const y = centreY - h / 2;
    return `<rect x="0" y="${y}" width="1000" height="${h}" fill="${metalFill}" opacity=".9" clip-path="url(#body)"/>
      <rect x="0" y="${y + 5}" width="1000" height="1" fill="#ffffff" opacity=".5" clip-path="url(#body)"/>
      <rect x="0" y="${y + h - 6}" width="1000" height="1" fill="#ffffff" opacity=".5" clip-path="url(#body)"/>
      ${text("#1c1714", 0.9)}`;
  }
  // engraved: lettering directly on the glass
  return text(dark ? "#f6efe2" : "#1c1714", dark ? 0.9 : 0.78);
}

/** The SVG drawing of one product's bottle. Deterministic: the same name and look give the same text. */
export function bottleSvg(name: string, look: BottleLook): string {
  const body = bodyFor(look.bottle);
  const metal = METALS[look.metal];
  const capStops = look.capColor ? lacquerStops(look.capColor) : metal;
  const [bgTop, bgBottom] = look.background;
  const liquidLight = shade(look.liquid, 0.28);
  const liquidDark = shade(look.liquid, -0.3);
  const liquidTop = body.top + (FLOOR - body.top) * (look.bottle === "orb" ? 0.3 : 0.2);
  const collarH = 34;
  const neckY = body.top - collarH + 4;
  const cap = capFor(look.cap, neckY + 2, "url(#cap)");
  const floorTone = shade(bgBottom, -0.06);
  const accent = METALS[look.metal === "black" ? "gold" : look.metal][1]!;

  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200" viewBox="0 0 1000 1000">
<defs>
  <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bgTop}"/><stop offset="1" stop-color="${bgBottom}"/></linearGradient>
  <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${floorTone}"/><stop offset="1" stop-color="${shade(floorTone, -0.08)}"/></linearGradient>
  <radialGradient id="glow" cx=".5" cy=".5" r=".5"><stop offset="0" stop-color="#ffffff" stop-opacity=".55"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>
  <linearGradient id="liquid" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${liquidLight}"/><stop offset=".55" stop-color="${look.liquid}"/><stop offset="1" stop-color="${liquidDark}"/></linearGradient>
  <linearGradient id="depth" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#000000" stop-opacity=".32"/><stop offset=".18" stop-color="#000000" stop-opacity="0"/>
    <stop offset=".78" stop-color="#000000" stop-opacity="0"/><stop offset="1" stop-color="#000000" stop-opacity=".38"/>
  </linearGradient>
  <linearGradient id="glass" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff" stop-opacity=".5"/><stop offset="1" stop-color="#ffffff" stop-opacity=".22"/></linearGradient>
  <linearGradient id="shine" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff" stop-opacity=".75"/><stop offset=".6" stop-color="#ffffff" stop-opacity=".25"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></linearGradient>
  ${metalGradient("metal", metal)}
  ${metalGradient("cap", capStops)}
  <clipPath id="body"><path d="${body.path}"/></clipPath>
  <radialGradient id="shadow" cx=".5" cy=".5" r=".5"><stop offset="0" stop-color="#1c1714" stop-opacity=".34"/><stop offset=".55" stop-color="#1c1714" stop-opacity=".16"/><stop offset="1" stop-color="#1c1714" stop-opacity="0"/></radialGradient>
</defs>
<rect width="1000" height="1000" fill="url(#bg)"/>
${backdropFor(look.backdrop, look.background, accent)}
<rect x="0" y="${FLOOR}" width="1000" height="${1000 - FLOOR}" fill="url(#floor)"/>
<rect x="0" y="${FLOOR}" width="1000" height="1.5" fill="#ffffff" opacity=".45"/>
<ellipse cx="${CX + 18}" cy="${FLOOR + 4}" rx="${body.width * 0.7 * SCALE}" ry="34" fill="url(#shadow)"/>
<g transform="translate(${CX} ${FLOOR}) scale(${SCALE}) translate(${-CX} ${-FLOOR})">
  <path d="${body.path}" fill="url(#glass)"/>
  <g clip-path="url(#body)">
    <rect x="0" y="${liquidTop}" width="1000" height="${FLOOR - liquidTop}" fill="url(#liquid)"/>
    <rect x="0" y="${liquidTop}" width="1000" height="3" fill="#ffffff" opacity=".45"/>
    <rect x="${CX - body.width / 2}" y="${body.top}" width="${body.width}" height="${FLOOR - body.top}" fill="url(#depth)"/>
    <rect x="0" y="${FLOOR - 30}" width="1000" height="30" fill="#ffffff" opacity=".22"/>
    <rect x="${CX - body.width * 0.36}" y="${body.top + 26}" width="${body.width * 0.075}" height="${(FLOOR - body.top) * 0.8}" rx="${body.width * 0.037}" fill="url(#shine)"/>
    <rect x="${CX + body.width * 0.4}" y="${body.top + 40}" width="6" height="${(FLOOR - body.top) * 0.62}" rx="3" fill="#ffffff" opacity=".35"/>
  </g>
  <path d="${body.path}" fill="none" stroke="#ffffff" stroke-opacity=".7" stroke-width="3"/>
  ${labelFor(look.label, name, body, look.liquid, METALS[look.metal === "black" ? "gold" : look.metal][1]!)}
<rect x="${CX - body.neck / 2}" y="${neckY}" width="${body.neck}" height="${collarH}" fill="url(#metal)"/>
<rect x="${CX - body.neck / 2}" y="${neckY + 6}" width="${body.neck}" height="2" fill="#ffffff" opacity=".4"/>
${cap.svg}
</g>
</svg>`;
}

/** The stored URL (largest rendition) of a demo product's image; known before anything is rendered. */
export function demoImageUrl(slug: string, name: string, look: BottleLook): string {
  const svg = bottleSvg(name, look);
  return `${productImageUrlBase()}/${demoImageStem(slug, svg)}-1200.webp`;
}

function demoImageStem(slug: string, svg: string): string {
  return `${safeBase(slug)}-${shortHash(DRAWING_VERSION + svg)}`;
}

async function exists(path: string) {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Renders a demo product's bottle to the three WebP renditions in the media store (skipped when they are already
 * there) and returns the stored URL of the largest one.
 */
export async function renderDemoImage(slug: string, name: string, look: BottleLook): Promise<string> {
  const svg = bottleSvg(name, look);
  const url = demoImageUrl(slug, name, look);
  const stem = demoImageStem(slug, svg);
  const store = mediaStore();
  const keys = IMAGE_WIDTHS.map((w) => renditionKey(stem, w));
  const present = await Promise.all(keys.map((k) => store.exists(k)));
  if (present.every(Boolean)) return url;
  const cache = demoImageCacheDir();
  const cached = (k: string) => join(cache, k.slice(k.lastIndexOf("/") + 1));
  if (await allExist(keys.map(cached))) {
    for (const k of keys) await store.put(k, await readFile(cached(k)), "image/webp");
    return url;
  }
  // Rasterise once (raw pixels: no intermediate encoding), then resize and encode each width. sharp is loaded only
  // here: a shop whose demo images are cached (or stored already) starts without libvips.
  const { default: sharp } = await import("sharp");
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  const written = await writeRenditions(sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }), stem, true);
  try {
    await mkdir(cache, { recursive: true });
    for (const file of written) await writeFile(cached(file.key), file.data);
  } catch {
    // The cache only saves time on the next fresh media store (tests, new installs); never fail for it.
  }
  return url;
}

/**
 * Rendered demo images are also kept in a per-machine cache (their names are content hashes, so a cached file is
 * always the right one): a fresh media store (end-to-end runs, a new install, a new bucket) then gets them by copying.
 */
export function demoImageCacheDir(): string {
  return process.env.DEMO_IMAGE_CACHE ? resolve(process.env.DEMO_IMAGE_CACHE) : join(tmpdir(), "scentara-demo-images");
}

async function allExist(paths: string[]) {
  const present = await Promise.all(paths.map((p) => exists(p)));
  return present.every(Boolean);
}
