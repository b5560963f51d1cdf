import { correction, generate } from "lean-qr";
import { toSvgPath } from "lean-qr/extras/svg";

/** A QR code as an SVG path, made on the server (lean-qr, no dependencies): the page draws it in an <svg>. */
export interface QrCode {
  /** modules per side (without the quiet zone) */
  size: number;
  /** the dark modules, for an SVG <path d> in a viewBox of 0 0 size size */
  path: string;
}

export function encode(text: string): QrCode {
  const code = generate(text, { minCorrectionLevel: correction.M });
  return { size: code.size, path: toSvgPath(code) };
}
