/**
 * The PDF's built-in fonts (Helvetica) encode text in WinAnsi (Windows-1252): Latin-1 plus a few typographic signs.
 * Anything else is reduced to its base letter (ā → a, ł → l), or replaced by '?', so a customer's name never prints
 * as garbage or breaks the document.
 */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
const FALLBACKS: Record<string, string> = { "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "ħ": "h", "ŧ": "t", "‐": "-", "‑": "-", "‒": "-", "−": "-", "′": "'", "″": '"', "\u00a0": " " };

function isWinAnsi(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch);
}

export function toWinAnsi(text: string): string {
  let out = "";
  for (const ch of text.replace(/[\r\n\t]+/g, " ")) {
    if (isWinAnsi(ch) && ch !== "\u00a0") out += ch;
    else if (FALLBACKS[ch] !== undefined) out += FALLBACKS[ch];
    else {
      // Decomposed, a letter with marks is the letter and combining marks (U+0300–U+036F): keep the letter.
      const base = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += base && [...base].every(isWinAnsi) ? base : "?";
    }
  }
  return out;
}
