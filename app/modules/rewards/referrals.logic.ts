/**
 * "Give R50, get R50" (issue 40 point 2, docs/decisions/063): the pure rules, browser-safe. A member's link carries a
 * short code; a new shopper who arrives by it gets the friend's reward on their first paid order, and the member
 * points once that order is past its return window. Each refusal has a code (stored) and plain words (shown).
 */
import { formatWholeRand } from "~/utils/money";

/** Codes avoid letters and digits that read alike (0/O, 1/I/L), so one read out or typed from a phone arrives whole. */
export const REFERRAL_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const REFERRAL_CODE_LENGTH = 8;
const CODE = new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

/** A code as typed or linked ("abcd-2345" → "ABCD2345"); null when it can't be one. */
export function normalizeReferralCode(raw: string | null | undefined): string | null {
  const code = (raw ?? "").toUpperCase().replace(/[\s-]/g, "");
  return CODE.test(code) ? code : null;
}

/**
 * An e-mail as one person's: lower case, a `+tag` dropped, and for Gmail the dots too (which Gmail ignores), so
 * thandi.n+shop@gmail.com and thandin@googlemail.com are the same person referring themselves.
 */
export function samePersonEmail(email: string): string {
  const at = email.trim().toLowerCase().lastIndexOf("@");
  if (at <= 0) return email.trim().toLowerCase();
  let local = email.trim().toLowerCase().slice(0, at);
  let domain = email.trim().toLowerCase().slice(at + 1);
  local = local.split("+")[0]!;
  if (domain === "googlemail.com") domain = "gmail.com";
  if (domain === "gmail.com") local = local.replaceAll(".", "");
  return `${local}@${domain}`;
}

/** A telephone number as its last nine digits (082 123 4567, +27 82 123 4567 and 27821234567 are one number). */
export function samePhone(phone: string | null | undefined): string | null {
  const digits = (phone ?? "").replace(/\D/g, "");
  return digits.length >= 9 ? digits.slice(-9) : null;
}

/** A delivery address as the same place, whatever the case, spaces and punctuation: street and postal code. */
export function samePlace(address: { street?: string | null; postalCode?: string | null } | null | undefined): string | null {
  const street = (address?.street ?? "").toLowerCase().replace(/[^a-z0-9]/g, "");
  const code = (address?.postalCode ?? "").replace(/\D/g, "");
  return street && code ? `${street}|${code}` : null;
}

export type ReferralReason = "same_person" | "ordered_before" | "many_accounts" | "same_phone" | "same_address" | "weekly_limit" | "referrer_left" | "refunded" | "cancelled";

/** Why, in the words the shopper and the owner read. */
export const REFERRAL_REASONS: Record<ReferralReason, string> = {
  same_person: "A shopper can't refer themselves (the same account or e-mail address).",
  ordered_before: "The friend's reward is for a first order, and this account has ordered before.",
  many_accounts: "Too many new accounts came from one internet address this week.",
  same_phone: "The order's telephone number is the referrer's.",
  same_address: "The order goes to the referrer's delivery address.",
  weekly_limit: "The referrer reached this week's number of rewards.",
  referrer_left: "The referrer left the rewards programme before the order was paid.",
  refunded: "The friend's first order was refunded within its return window.",
  cancelled: "The friend's first order was cancelled.",
};

export function referralReasonWords(reason: string | null): string {
  return reason && reason in REFERRAL_REASONS ? REFERRAL_REASONS[reason as ReferralReason] : (reason ?? "");
}

/** The text shared on WhatsApp (or anywhere): the friend's reward, the minimum and the link. */
export function shareText(shopName: string, friendRewardCents: number, minOrderCents: number, link: string): string {
  return `${formatWholeRand(friendRewardCents)} off your first ${shopName} order${minOrderCents > 0 ? ` of ${formatWholeRand(minOrderCents)} or more` : ""}: ${link}`;
}

/** The WhatsApp share address (wa.me with the text; the shopper picks the friend in WhatsApp, the shop never sees who). */
export function whatsappShareUrl(text: string): string {
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}
