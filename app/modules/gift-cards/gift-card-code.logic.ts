/**
 * A gift card's code as people read, write and type it (browser-safe; made on the server by gift-card-code.server.ts).
 *
 * 16 symbols from a 32-letter alphabet (5 bits each: 80 bits, issue 33 asks for at least 80), shown in four groups of
 * four: "K7QM-2WXE-H9TP-RB4N". The alphabet leaves out what is misread: no 0/O, no 1/I. Typing is forgiving: case,
 * spaces and dashes don't matter, and I or 1 are read as L (neither is ever in a code).
 */
export const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const CODE_LENGTH = 16;
export const CODE_GROUP = 4;
/** log2(32) × 16: the guessing space of a code */
export const CODE_BITS = Math.log2(CODE_ALPHABET.length) * CODE_LENGTH;

const VALID = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

/** The code as stored and compared: upper case, separators gone, I and 1 read as L; null when it can't be a code. */
export function normalizeGiftCardCode(input: string): string | null {
  const compact = input
    .toUpperCase()
    .replace(/[\s\-_.]/g, "")
    .replace(/[I1]/g, "L");
  return VALID.test(compact) ? compact : null;
}

/** "K7QM-2WXE-H9TP-RB4N": the normalised code in groups of four, for reading aloud and printing. */
export function formatGiftCardCode(code: string): string {
  const groups: string[] = [];
  for (let i = 0; i < code.length; i += CODE_GROUP) groups.push(code.slice(i, i + CODE_GROUP));
  return groups.join("-");
}

/** What a shopper and the owner see of a card: its last four characters ("ending RB4N"). */
export function lastFourOf(code: string): string {
  return code.slice(-4);
}

/** "Gift card ending RB4N" */
export function giftCardLabel(last4: string): string {
  return `Gift card ending ${last4}`;
}
