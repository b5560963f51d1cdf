import { createHash, randomBytes } from "node:crypto";
import { CODE_ALPHABET, CODE_LENGTH } from "./gift-card-code.logic";

/**
 * A new code: 16 symbols from crypto's random bytes. 256 is a multiple of 32, so `byte % 32` is uniform and every code
 * is one of 32^16 = 2^80 equally likely ones.
 */
export function newGiftCardCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  let code = "";
  for (const byte of bytes) code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
  return code;
}

/**
 * What is stored of a code: its SHA-256. A leaked database does not hand out spendable codes, and 80 random bits
 * can't be found from a hash by trying. Takes the normalised code.
 */
export function hashGiftCardCode(code: string): string {
  return createHash("sha256").update(`gift-card:${code}`).digest("hex");
}
