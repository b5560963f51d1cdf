/**
 * Selling gift cards (issue 33 point 3, docs/decisions/053 "Selling gift cards"): the pure rules, browser-safe.
 * A gift card travels through the cart as an ordinary cart line with a reserved product id and a token in its size
 * field (as samples do, docs/decisions/054), so the browser's cart, the quote URL and the checkout post carry it
 * unchanged; the server reads the token, checks it against the owner's settings and prices it (never the browser):
 *   {id: "gift-card", size: 'gift:{"a":50000,"to":"Thandi","email":"thandi@example.co.za","on":"2026-12-24","msg":"…","from":"Sipho"}'}
 * The amount is in cents; `email` absent = the card is for the buyer; `on` the South African day it is e-mailed.
 */
import { addDays, isCalendarDay, saDay } from "~/utils/sa-days";
import { formatRand } from "~/utils/money";

export const GIFT_CARD_PRODUCT_ID = "gift-card";
const TOKEN_PREFIX = "gift:";
export const GIFT_MESSAGE_MAX = 200;
export const GIFT_NAME_MAX = 60;
const EMAIL_MAX = 254;
/** How far ahead a card may be dated: a year (a birthday next year), not a typo's 2062. */
export const GIFT_SEND_DAYS_AHEAD_MAX = 366;

export interface GiftCardSaleSettings {
  /** gift cards are on sale (the /gift-cards page and its cart lines) */
  enabled: boolean;
  /** the amounts offered as pills, in cents, ascending */
  amountsCents: number[];
  /** any whole-rand amount in this range may be chosen too; null: only the amounts above */
  minCents: number | null;
  maxCents: number | null;
}

/** Off until the owner (or the demo) turns sales on: the spec's behaviour stays the default. */
export const DEFAULT_GIFT_CARD_SALE_SETTINGS: GiftCardSaleSettings = { enabled: false, amountsCents: [25000, 50000, 100000], minCents: 10000, maxCents: 500000 };

/** What a gift card line asks for, as the token carries it. */
export interface GiftCardRequest {
  amountCents: number;
  /** the recipient's name; null: for the buyer themself */
  recipientName: string | null;
  /** null: for the buyer themself (the card comes to the buyer's own e-mail) */
  recipientEmail: string | null;
  senderName: string | null;
  message: string | null;
  /** YYYY-MM-DD (South African day) the card is e-mailed */
  sendOn: string;
}

export function isGiftCardLine(line: { productId?: string; id?: string; sizeId?: string | null; size?: string | null }): boolean {
  const id = line.productId ?? line.id;
  const size = line.sizeId ?? line.size;
  return id === GIFT_CARD_PRODUCT_ID && typeof size === "string" && size.startsWith(TOKEN_PREFIX);
}

export function giftCardToken(r: GiftCardRequest): string {
  const payload: Record<string, string | number> = { a: r.amountCents, on: r.sendOn };
  if (r.recipientName) payload.to = r.recipientName;
  if (r.recipientEmail) payload.email = r.recipientEmail;
  if (r.senderName) payload.from = r.senderName;
  if (r.message) payload.msg = r.message;
  return TOKEN_PREFIX + JSON.stringify(payload);
}

/** The request a token carries, or null when it isn't one (its values are checked by checkGiftCardRequest). */
export function parseGiftCardToken(size: string | null | undefined): GiftCardRequest | null {
  if (!size?.startsWith(TOKEN_PREFIX)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(size.slice(TOKEN_PREFIX.length));
  } catch {
    return null;
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const v = raw as Record<string, unknown>;
  const text = (x: unknown) => (typeof x === "string" ? x : x === undefined ? null : undefined);
  const [to, email, from, msg] = [text(v.to), text(v.email), text(v.from), text(v.msg)];
  if (typeof v.a !== "number" || typeof v.on !== "string" || to === undefined || email === undefined || from === undefined || msg === undefined) return null;
  return { amountCents: v.a, sendOn: v.on, recipientName: to, recipientEmail: email, senderName: from, message: msg };
}

/** Plain text: control characters dropped (a message keeps its line breaks), spaces trimmed. */
function plain(value: string | null | undefined, keepLines = false): string {
  const cleaned = (value ?? "").replace(/\r\n?/g, "\n").replace(keepLines ? /[\u0000-\u0009\u000b-\u001f\u007f]/g : /[\u0000-\u001f\u007f]/g, keepLines ? "" : " ");
  return (keepLines ? cleaned.replace(/\n{3,}/g, "\n\n") : cleaned.replace(/\s+/g, " ")).trim();
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The amounts the owner allows: one of the pills, or a whole rand in the range. */
export function isAllowedAmount(cents: number, s: Pick<GiftCardSaleSettings, "amountsCents" | "minCents" | "maxCents">): boolean {
  if (!Number.isSafeInteger(cents) || cents <= 0) return false;
  if (s.amountsCents.includes(cents)) return true;
  return s.minCents !== null && s.maxCents !== null && cents % 100 === 0 && cents >= s.minCents && cents <= s.maxCents;
}

export function amountRule(s: Pick<GiftCardSaleSettings, "amountsCents" | "minCents" | "maxCents">): string {
  const pills = s.amountsCents.map(formatRand).join(", ");
  if (s.minCents === null || s.maxCents === null) return `Choose ${pills}`;
  return `Choose an amount from ${formatRand(s.minCents)} to ${formatRand(s.maxCents)} in whole rand${pills ? ` (or ${pills})` : ""}`;
}

export type GiftCardCheck = { ok: true; request: GiftCardRequest } | { ok: false; errors: Partial<Record<"amount" | "recipientName" | "recipientEmail" | "senderName" | "message" | "sendOn", string>> };

/**
 * Checks what the page posts (or a token carries) and cleans it: the amount allowed, a recipient's name and valid
 * e-mail when it is for someone else, names and message within their lengths in plain text, the day today or later
 * (South African calendar) and within a year. `forSomeoneElse` false drops the recipient fields.
 */
export function checkGiftCardRequest(
  input: { amountCents: number | null; forSomeoneElse: boolean; recipientName?: string | null; recipientEmail?: string | null; senderName?: string | null; message?: string | null; sendOn?: string | null },
  settings: GiftCardSaleSettings,
  now: Date,
): GiftCardCheck {
  const errors: Extract<GiftCardCheck, { ok: false }>["errors"] = {};
  const today = saDay(now);
  if (input.amountCents === null || !isAllowedAmount(input.amountCents, settings)) errors.amount = amountRule(settings);
  const recipientName = input.forSomeoneElse ? plain(input.recipientName) : "";
  const recipientEmail = input.forSomeoneElse ? plain(input.recipientEmail).toLowerCase() : "";
  const senderName = plain(input.senderName);
  const message = plain(input.message, true);
  if (input.forSomeoneElse) {
    errors.recipientName = recipientNameError(recipientName);
    errors.recipientEmail = recipientEmailError(recipientEmail);
  }
  if (senderName.length > GIFT_NAME_MAX) errors.senderName = `Your name can be at most ${GIFT_NAME_MAX} characters`;
  if ([...message].length > GIFT_MESSAGE_MAX) errors.message = `The message can be at most ${GIFT_MESSAGE_MAX} characters`;
  const sendOn = input.forSomeoneElse ? (input.sendOn?.trim() || today) : today;
  errors.sendOn = sendOnError(sendOn, today);
  dropEmpty(errors);
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    request: {
      amountCents: input.amountCents!,
      recipientName: recipientName || null,
      recipientEmail: recipientEmail || null,
      senderName: senderName || null,
      message: message || null,
      sendOn,
    },
  };
}

function recipientNameError(name: string): string | undefined {
  if (!name) return "Enter the recipient's name";
  if (name.length > GIFT_NAME_MAX) return `The name can be at most ${GIFT_NAME_MAX} characters`;
  return undefined;
}

function recipientEmailError(email: string): string | undefined {
  if (!email) return "Enter the recipient's e-mail address";
  if (email.length > EMAIL_MAX || !EMAIL_PATTERN.test(email)) return "Enter a valid e-mail address, e.g. thandi@example.co.za";
  return undefined;
}

function sendOnError(sendOn: string, today: string): string | undefined {
  if (!isCalendarDay(sendOn)) return "Choose a date";
  if (sendOn < today) return "Choose today or a later date";
  if (sendOn > addDays(today, GIFT_SEND_DAYS_AHEAD_MAX)) return "Choose a date within the next year";
  return undefined;
}

function dropEmpty(errors: Record<string, string | undefined>): void {
  for (const key of Object.keys(errors)) if (errors[key] === undefined) delete errors[key];
}

export type RecipientCheck<T> = { ok: true; value: T } | { ok: false; errors: Partial<Record<"recipientName" | "recipientEmail" | "sendOn", string>> };

/**
 * The owner corrects a sold card that has not been e-mailed (docs/decisions/053 addendum): the shop form's rules. A
 * card for someone else (`named`) keeps a name and an address; a card for the buyer themself has no name to give, only
 * the address. The day: today to a year ahead (South African calendar); empty keeps `currentSendOn`.
 */
export function checkRecipientChange(
  input: { recipientName?: string | null; recipientEmail?: string | null; sendOn?: string | null },
  card: { named: boolean; currentSendOn: string },
  now: Date,
): RecipientCheck<{ recipientName: string | null; recipientEmail: string; sendOn: string }> {
  const recipientName = card.named ? plain(input.recipientName) : "";
  const recipientEmail = plain(input.recipientEmail).toLowerCase();
  const sendOn = input.sendOn?.trim() || card.currentSendOn;
  const errors = {
    recipientName: card.named ? recipientNameError(recipientName) : undefined,
    recipientEmail: recipientEmailError(recipientEmail),
    sendOn: sendOnError(sendOn, saDay(now)),
  };
  dropEmpty(errors);
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, value: { recipientName: recipientName || null, recipientEmail, sendOn } };
}

/** A resend's corrected address (empty: the one on record), as the shop form checks an address. */
export function checkResendAddress(input: string | null | undefined, onRecord: string | null): RecipientCheck<string> {
  const email = plain(input).toLowerCase() || (onRecord ?? "");
  const error = recipientEmailError(email);
  return error ? { ok: false, errors: { recipientEmail: error } } : { ok: true, value: email };
}

/** The line as the cart, the order and the invoice name it: "Gift card for Thandi" with the amount as its label. */
export function giftCardLineName(r: Pick<GiftCardRequest, "recipientName">): string {
  return r.recipientName ? `Gift card for ${r.recipientName}` : "Gift card";
}

export function giftCardLineLabel(r: Pick<GiftCardRequest, "amountCents">): string {
  return formatRand(r.amountCents);
}

/** The cart line the page adds (its price for display only: the server prices it again). */
export function giftCardCartLine(r: GiftCardRequest): { id: string; size: string; sizeLabel: string; name: string; price: number; quantity: number } {
  return { id: GIFT_CARD_PRODUCT_ID, size: giftCardToken(r), sizeLabel: giftCardLineLabel(r), name: giftCardLineName(r), price: r.amountCents, quantity: 1 };
}

/** Reads "R500", "500", "1 000" as whole-rand cents (the "other amount" field); null when it isn't whole rand. */
export function parseWholeRand(text: string | null | undefined): number | null {
  const t = (text ?? "").trim().replace(/^R\s*/i, "").replace(/[\s\u00a0]/g, "");
  if (!/^\d{1,7}$/.test(t)) return null;
  return Number(t) * 100;
}
