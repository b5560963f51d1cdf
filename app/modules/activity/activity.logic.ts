import { formatRand } from "~/utils/money";

/**
 * The activity log's pure rules (browser-safe, no I/O): what the records are called and where their pages are, and the
 * change between two snapshots of a record as "field: before → after" (docs/decisions/060).
 */

/** The records an admin change can be about; each has a snapshot in activity-records.server.ts and a page here. */
export const RECORD_TYPES = [
  "product",
  "order",
  "coupon",
  "gift-card",
  "review",
  "zone",
  "settings",
  "category",
  "announcement",
  "return",
  "message",
  "user",
  "staff-role",
  "staff-invitation",
  "backup",
  "import",
  "export",
  "privacy-request",
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export const RECORD_LABELS: Record<RecordType, string> = {
  product: "Product",
  order: "Order",
  coupon: "Coupon",
  "gift-card": "Gift card",
  review: "Review",
  zone: "Delivery zone",
  settings: "Settings",
  category: "Category",
  announcement: "Announcement",
  return: "Return",
  message: "Message",
  user: "User",
  "staff-role": "Staff role",
  "staff-invitation": "Staff invitation",
  backup: "Backup",
  import: "Product import",
  export: "Export",
  "privacy-request": "Data request",
};

export function isRecordType(value: string): value is RecordType {
  return (RECORD_TYPES as readonly string[]).includes(value);
}

const SETTINGS_PAGES: Record<string, string> = {
  delivery: "/admin/shipping",
  samples: "/admin/samples",
  gift_card_sales: "/admin/gift-cards",
  rewards: "/admin/marketing/rewards",
};

/** The admin page of a record, or null when it has none (an export, a deleted backup). */
export function recordHref(type: string | null, id: string | null): string | null {
  if (!type) return null;
  const q = (path: string, value: string) => `${path}?q=${encodeURIComponent(value)}`;
  switch (type) {
    case "product":
      return id ? `/admin/products/edit/${encodeURIComponent(id)}` : "/admin/products";
    case "order":
      return id ? q("/admin/orders", id.slice(0, 8)) + "&status=all" : "/admin/orders";
    case "coupon":
      return "/admin/coupons";
    case "gift-card":
      return id ? `/admin/gift-cards/${encodeURIComponent(id)}` : "/admin/gift-cards";
    case "review":
      return "/admin/reviews";
    case "zone":
      return "/admin/shipping";
    case "settings":
      return (id && SETTINGS_PAGES[id]) || null;
    case "category":
      return "/admin/categories";
    case "announcement":
      return id ? `/admin/marketing/${encodeURIComponent(id)}` : "/admin/marketing";
    case "return":
      return id ? `/admin/returns/${encodeURIComponent(id)}` : "/admin/returns";
    case "message":
      return "/admin/inbox";
    case "user":
      return id ? q("/admin/users", id) : "/admin/users";
    case "staff-role":
    case "staff-invitation":
      return "/admin/staff";
    case "backup":
      return "/admin/data";
    case "import":
      return "/admin/products/import";
    case "privacy-request":
      return "/admin/privacy";
    default:
      return null;
  }
}

/** A value in a snapshot once flattened: what a table cell can show. */
export type Flat = string | number | boolean | null;
export type Snapshot = Record<string, unknown>;

/** Fields that change with every write and say nothing to a reader. */
const NOISE = new Set(["updated_at"]);

/**
 * A snapshot as one level of "path: value": nested objects and arrays (a product's sizes, an order's lines, a settings
 * JSON) become "sizes › 50 ml › price_cents". Text that holds JSON (an order's address) is read as JSON.
 */
export function flatten(value: unknown, prefix = "", out: Record<string, Flat> = {}): Record<string, Flat> {
  if (typeof value === "string" && /^\s*[[{]/.test(value)) {
    try {
      return flatten(JSON.parse(value), prefix, out);
    } catch {
      // not JSON after all: kept as text
    }
  }
  if (value !== null && typeof value === "object") {
    // a list item names itself by its `key` (a size's label), which is not one of its fields
    const entries = Array.isArray(value) ? value.map((v, i) => [childKey(v, i), withoutKey(v)] as const) : Object.entries(value);
    if (entries.length === 0 && prefix) out[prefix] = Array.isArray(value) ? "(none)" : "(empty)";
    for (const [key, v] of entries) {
      if (NOISE.has(key)) continue;
      flatten(v, prefix ? `${prefix} › ${key}` : key, out);
    }
    return out;
  }
  if (prefix) out[prefix] = value === undefined ? null : (value as Flat);
  return out;
}

/** A list item's name in a path: its own `key` (the snapshot names it), else its position. */
function childKey(v: unknown, i: number): string {
  if (v && typeof v === "object" && "key" in v && (typeof v.key === "string" || typeof v.key === "number")) return String(v.key);
  return String(i + 1);
}

function withoutKey(value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value) && "key" in value) return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "key"));
  return value;
}

export interface Change {
  before: Record<string, Flat> | null;
  after: Record<string, Flat> | null;
}

/**
 * What changed between two snapshots, only the fields that differ: a created record has no "before", a deleted one
 * no "after" (their values are kept whole, so a deleted coupon can still be read).
 */
export function changeBetween(before: Snapshot | null, after: Snapshot | null): Change {
  const b = before ? flatten(before) : null;
  const a = after ? flatten(after) : null;
  if (!b || !a) return { before: b, after: a };
  const changedBefore: Record<string, Flat> = {};
  const changedAfter: Record<string, Flat> = {};
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    const was = key in b ? b[key]! : null;
    const now = key in a ? a[key]! : null;
    if (!sameValue(was, now)) {
      if (key in b) changedBefore[key] = was;
      if (key in a) changedAfter[key] = now;
    }
  }
  return { before: changedBefore, after: changedAfter };
}

/** SQLite's 1/0 and PostgreSQL's true/false are the same value. */
function sameValue(a: Flat, b: Flat): boolean {
  if (a === b) return true;
  if (typeof a === "boolean" || typeof b === "boolean") return Number(a) === Number(b) && a !== null && b !== null;
  return false;
}

export function isEmptyChange(change: Change): boolean {
  return change.before !== null && change.after !== null && Object.keys(change.before).length === 0 && Object.keys(change.after).length === 0;
}

export interface ChangeRow {
  field: string;
  before: string;
  after: string;
}

/** The rows of an entry's changes table (field, before, after), from its stored before/after. */
export function changeRows(before: unknown, after: unknown): ChangeRow[] {
  const b = (before && typeof before === "object" ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === "object" ? after : {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  // amounts in cents read as money: "price" R369.00, not "price cents" 36900
  return keys.map((field) => ({ field: field.replace(/_cents$/, "").replaceAll("_", " "), before: shown(b, field), after: shown(a, field) }));
}

function shown(values: Record<string, unknown>, field: string): string {
  if (!(field in values)) return "—";
  const v = values[field];
  if (v === null || v === undefined) return "(empty)";
  if (field.endsWith("_cents") && typeof v === "number" && Number.isInteger(v)) return formatRand(v);
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** The Activity page's filters, read from its URL (anything unexpected reads as no filter). */
export interface ActivityQuery {
  filters: { person: string; kind: string; type: string; record: string; from: string; to: string };
  before?: number;
  after?: number;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function parseActivityQuery(params: URLSearchParams): ActivityQuery {
  const text = (name: string, max = 100) => (params.get(name) ?? "").trim().slice(0, max);
  const day = (name: string) => {
    const value = text(name);
    // a real day only (2026-02-30 is not one): it must read back as itself
    const t = DAY_PATTERN.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(value) ? value : "";
  };
  const cursor = (name: string) => {
    const n = Number(params.get(name));
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
  };
  const type = text("type");
  return {
    filters: { person: text("person"), kind: text("kind"), type: isRecordType(type) ? type : "", record: isRecordType(type) ? text("record") : "", from: day("from"), to: day("to") },
    before: cursor("before"),
    after: cursor("after"),
  };
}

/** The page's address for these filters and a cursor (empty values left out). */
export function activityHref(path: string, filters: ActivityQuery["filters"], cursor: { before?: number; after?: number } = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
  if (cursor.before) params.set("before", String(cursor.before));
  if (cursor.after) params.set("after", String(cursor.after));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** How a record is named in a list: "Order #1a2b3c4d", "Product 3f9e…". */
export function recordLabel(type: string, id: string | null): string {
  const label = isRecordType(type) ? RECORD_LABELS[type] : type;
  if (!id) return label;
  return `${label} ${type === "order" ? "#" : ""}${id.length > 12 ? id.slice(0, 8) : id}`;
}
