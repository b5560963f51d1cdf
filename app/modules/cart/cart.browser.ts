import { useSyncExternalStore } from "react";
import { cartLineKey } from "~/modules/orders/cart-quote";

/**
 * The cart lives in the browser (SPEC §3: localStorage key `cart`, lines {id, name, price, quantity}).
 * `price` is integer cents and only for display: the server reprices every line from the database at checkout.
 * Works before hydration and on the server (empty cart), and stays in sync across tabs.
 */
export const CART_KEY = "cart";
export const CART_EVENT = "scentara:cart";

export interface CartLine {
  /** the product */
  id: string;
  /**
   * the size's id (docs/decisions/049); absent on lines saved before sizes: the server takes the product's first. A
   * sample or a discovery set carries its token here (app/modules/samples/samples.logic.ts).
   */
  size?: string;
  /** the size's label for display ("50 ml") */
  sizeLabel?: string;
  name: string;
  /** cents, display only */
  price: number;
  quantity: number;
}

/** The line's key: product and size (cartLineKey), the same key the quote answers with. */
export function lineKeyOf(line: CartLine): string {
  return cartLineKey({ productId: line.id, sizeId: line.size });
}

const EMPTY: CartLine[] = [];

function isLine(value: unknown): value is CartLine {
  const v = value as CartLine;
  return (
    !!v &&
    typeof v.id === "string" &&
    typeof v.name === "string" &&
    Number.isSafeInteger(v.price) &&
    v.price >= 0 &&
    Number.isSafeInteger(v.quantity) &&
    v.quantity >= 1 &&
    (v.size === undefined || (typeof v.size === "string" && v.size.length > 0 && v.size.length <= 1000)) &&
    (v.sizeLabel === undefined || typeof v.sizeLabel === "string")
  );
}

/** Parses what is stored, dropping anything malformed rather than failing the page. */
export function parseCart(raw: string | null): CartLine[] {
  if (!raw) return EMPTY;
  try {
    const parsed = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isLine) : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** Adding a product (in a size) already in the cart adds to its quantity (SPEC §4). Pure, for tests and for writeCart. */
export function addLine(lines: CartLine[], line: CartLine): CartLine[] {
  const key = lineKeyOf(line);
  const existing = lines.find((l) => lineKeyOf(l) === key);
  if (!existing) return [...lines, line];
  return lines.map((l) => (lineKeyOf(l) === key ? { ...l, name: line.name, sizeLabel: line.sizeLabel, price: line.price, quantity: l.quantity + line.quantity } : l));
}

export function countItems(lines: CartLine[]): number {
  return lines.reduce((n, l) => n + l.quantity, 0);
}

let cachedRaw: string | null | undefined;
let cachedLines: CartLine[] = EMPTY;

export function readCart(): CartLine[] {
  if (typeof window === "undefined") return EMPTY;
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(CART_KEY);
  } catch {
    return EMPTY; // storage disabled (private mode on some phones)
  }
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedLines = parseCart(raw);
  }
  return cachedLines;
}

export function writeCart(lines: CartLine[]) {
  try {
    if (lines.length === 0) window.localStorage.removeItem(CART_KEY);
    else window.localStorage.setItem(CART_KEY, JSON.stringify(lines));
  } catch {
    // storage full or disabled: the in-page event still updates what the user sees
  }
  window.dispatchEvent(new Event(CART_EVENT));
}

export function addToCart(line: CartLine) {
  writeCart(addLine(readCart(), line));
}

function subscribe(onChange: () => void) {
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === CART_KEY) onChange();
  };
  window.addEventListener(CART_EVENT, onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CART_EVENT, onChange);
    window.removeEventListener("storage", onStorage);
  };
}

/** The cart lines, re-rendering when they change in this tab or another. */
export function useCart(): CartLine[] {
  return useSyncExternalStore(subscribe, readCart, () => EMPTY);
}
