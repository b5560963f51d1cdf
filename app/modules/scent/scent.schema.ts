/**
 * The finder's answers as they live in the URL (/scent-finder?for=men&when=evening&family=woody&love=…&strength=strong&budget=600),
 * so a result is a link: shareable, cached by the visitor page cache, and made by a plain GET form without JavaScript.
 * Plain functions rather than zod, like shop-filters.logic.ts, to keep zod out of the storefront's browser bundle.
 *
 * Bad input never fails the page: what can't be used is left out and named in `ignored`, which the page shows
 * ("We ignored the budget “-5”: …"). Only the first value of a repeated single-answer parameter counts.
 */
import type { FinderAnswers } from "./scent.logic";
import { FAMILY_TEXT, isAudience, isFamily, isIntensity, isOccasion, SCENT_FAMILIES, type ScentFamily } from "./scent.vocabulary";

/** The fragrance box keeps this many characters; the rest is cut (and the page says so). */
export const LOVE_MAX_LENGTH = 100;
/** A budget is whole rand from 1 to this; anything else is ignored (R100 000 is past any bottle in the shop). */
export const BUDGET_MAX_RAND = 100_000;
/** The budget question's choices, in rand; '' = any budget. */
export const BUDGET_CHOICES = [400, 600, 800] as const;

/** The URL's parameter names, in the order the form asks. */
export const FINDER_PARAMS = { audience: "for", occasion: "when", family: "family", love: "love", intensity: "strength", budget: "budget" } as const;

export interface ParsedFinder {
  answers: FinderAnswers;
  /** whether the URL carries answers at all (the page then shows picks, else the questions) */
  answered: boolean;
  /** what was left out, in plain words */
  ignored: string[];
}

/** Quoted for a message: at most 40 characters, so a 10 000-character parameter can't flood the page. */
function quote(value: string): string {
  const chars = Array.from(value.trim());
  return `“${chars.length > 40 ? `${chars.slice(0, 39).join("")}…` : chars.join("")}”`;
}

export function parseFinder(params: URLSearchParams): ParsedFinder {
  const ignored: string[] = [];
  const answered = Object.values(FINDER_PARAMS).some((name) => params.has(name)) || params.has("go");

  const one = <T>(name: string, is: (v: unknown) => v is T, what: string): T | null => {
    const raw = (params.get(name) ?? "").trim();
    if (raw === "") return null;
    const value = raw.toLowerCase();
    if (is(value)) return value;
    ignored.push(`We ignored ${what} ${quote(raw)}: it isn't one of the choices.`);
    return null;
  };

  const audience = one(FINDER_PARAMS.audience, isAudience, "who it is for,");
  const occasion = one(FINDER_PARAMS.occasion, isOccasion, "when it is worn,");
  const intensity = one(FINDER_PARAMS.intensity, isIntensity, "the strength");

  const families: ScentFamily[] = [];
  const unknown: string[] = [];
  // at most as many as there are families: a URL with 10 000 of them is read no further
  for (const raw of params.getAll(FINDER_PARAMS.family).slice(0, SCENT_FAMILIES.length * 2)) {
    const value = raw.trim().toLowerCase();
    if (value === "") continue;
    if (isFamily(value)) {
      if (!families.includes(value)) families.push(value);
    } else if (unknown.length < 3) unknown.push(quote(raw));
  }
  if (unknown.length) ignored.push(`We ignored the kind${unknown.length > 1 ? "s" : ""} of scent ${unknown.join(", ")}: we only know ${SCENT_FAMILIES.map((f) => FAMILY_TEXT[f].label.toLowerCase()).join(", ")}.`);

  const rawLove = (params.get(FINDER_PARAMS.love) ?? "").replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();
  const loveChars = Array.from(rawLove);
  const love = loveChars.slice(0, LOVE_MAX_LENGTH).join("").trim();
  if (loveChars.length > LOVE_MAX_LENGTH) ignored.push(`We read only the first ${LOVE_MAX_LENGTH} characters of the fragrance you love.`);

  let budgetRand: number | null = null;
  const rawBudget = (params.get(FINDER_PARAMS.budget) ?? "").trim();
  if (rawBudget !== "" && rawBudget !== "any") {
    const digits = rawBudget.replace(/^r\s*/i, "");
    const n = /^\d{1,7}$/.test(digits) ? Number(digits) : NaN;
    if (Number.isInteger(n) && n >= 1 && n <= BUDGET_MAX_RAND) budgetRand = n;
    else ignored.push(`We ignored the budget ${quote(rawBudget)}: a budget is a whole number of rand from 1 to ${String(BUDGET_MAX_RAND).replace(/\B(?=(\d{3})+(?!\d))/g, " ")}.`);
  }

  return { answers: { audience, occasion, families, love, intensity, budgetRand }, answered, ignored };
}

/** The answers as URL parameters, in the form's order, empty ones left out (equal answers give equal, cacheable URLs). */
export function serializeFinder(answers: FinderAnswers): URLSearchParams {
  const params = new URLSearchParams();
  if (answers.audience) params.set(FINDER_PARAMS.audience, answers.audience);
  if (answers.occasion) params.set(FINDER_PARAMS.occasion, answers.occasion);
  for (const f of SCENT_FAMILIES) if (answers.families.includes(f)) params.append(FINDER_PARAMS.family, f);
  if (answers.love) params.set(FINDER_PARAMS.love, answers.love);
  if (answers.intensity) params.set(FINDER_PARAMS.intensity, answers.intensity);
  if (answers.budgetRand !== null) params.set(FINDER_PARAMS.budget, String(answers.budgetRand));
  return params;
}

export function finderHref(answers: FinderAnswers): string {
  const query = serializeFinder(answers).toString();
  return query ? `/scent-finder?${query}` : "/scent-finder?go=1";
}
