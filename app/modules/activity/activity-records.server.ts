/**
 * What each record of the activity log is made of (docs/decisions/060): a record type's snapshot reads the rows that
 * make it up (a product: its row, its sizes, its tier prices and its sample setting; an order: its row, its lines and
 * its shipments), so an admin change is logged as the fields that differ between the snapshot before and after it.
 * Only the database is imported, as in activity.server.ts: every area and flow may use it. Secrets (a gift card's code,
 * an order's checkout token) are never part of a snapshot.
 */
import type { Queryable } from "~/db/db.server";
import type { RecordType, Snapshot } from "./activity.logic";

export interface RecordSnapshot {
  /** how a reader names the record: "Amber Lantern", "#1a2b3c4d", "SUMMER10" */
  label: string;
  values: Snapshot;
}

type Reader = (db: Queryable, id: string) => Promise<RecordSnapshot | null>;

function omit<T extends object>(row: T, keys: string[]): Snapshot {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)));
}

const product: Reader = async (db, id) => {
  const row = await db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [sizes, tiers, sample] = await Promise.all([
    db.selectFrom("product_sizes").selectAll().where("product_id", "=", id).orderBy("position").orderBy("id").execute(),
    db.selectFrom("product_tiers").selectAll().where("product_id", "=", id).orderBy("min_quantity").orderBy("id").execute(),
    db.selectFrom("product_samples").select(["offered", "bulk_ml"]).where("product_id", "=", id).executeTakeFirst(),
  ]);
  const sizeLabel = new Map(sizes.map((s) => [s.id, s.label]));
  return {
    label: row.name,
    values: {
      ...omit(row, ["id", "created_at", "max_price_cents"]),
      sizes: sizes.map((s) => ({ key: s.label, ...omit(s, ["id", "product_id", "label", "created_at"]) })),
      tiers: tiers.map((t) => ({ key: `${t.size_id ? `${sizeLabel.get(t.size_id) ?? t.size_id} ` : ""}${t.min_quantity}+`, ...omit(t, ["id", "product_id", "size_id"]) })),
      sample: sample ?? null,
    },
  };
};

const order: Reader = async (db, id) => {
  const row = await db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [lines, shipments] = await Promise.all([
    db.selectFrom("order_lines").selectAll().where("order_id", "=", id).orderBy("position").orderBy("id").execute(),
    db.selectFrom("shipments").selectAll().where("order_id", "=", id).orderBy("created_at").orderBy("id").execute(),
  ]);
  return {
    label: `#${id.slice(0, 8)}`,
    values: {
      ...omit(row, ["id", "created_at", "checkout_token", "checkout_url"]),
      lines: lines.map((l) => ({ key: `${l.name}${l.size_label ? ` ${l.size_label}` : ""}`, ...omit(l, ["id", "order_id", "name", "position", "size_label"]) })),
      shipments: shipments.map((s) => ({ key: s.tracking_reference ?? s.id, ...omit(s, ["id", "order_id", "created_at", "collection_pin", "last_polled_at"]) })),
    },
  };
};

function single<T extends "coupons" | "reviews" | "categories" | "announcements" | "contact_messages" | "staff_roles" | "staff_invitations" | "users">(
  table: T,
  label: (row: Record<string, unknown>) => string,
  hidden: string[] = [],
): Reader {
  return async (db, id) => {
    const row = (await (db as Queryable).selectFrom(table as "coupons").selectAll().where("id", "=", id).executeTakeFirst()) as Record<string, unknown> | undefined;
    return row ? { label: label(row), values: omit(row, ["id", "created_at", ...hidden]) } : null;
  };
}

const giftCard: Reader = async (db, id) => {
  const row = await db.selectFrom("gift_cards").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  // the code (its hash and its sealed copy) is the card's money: never in the log
  return { label: `gift card ${row.id.slice(0, 8)}`, values: omit(row, ["id", "created_at", "code_hash", "code_sealed", "email_claimed_at"]) };
};

const returnRecord: Reader = async (db, id) => {
  const row = await db.selectFrom("returns").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const lines = await db.selectFrom("return_lines").selectAll().where("return_id", "=", id).orderBy("id").execute();
  return {
    label: `return of #${row.order_id.slice(0, 8)}`,
    values: { ...omit(row, ["id", "created_at"]), lines: lines.map((l) => ({ key: l.id, ...omit(l, ["id", "return_id"]) })) },
  };
};

const zone: Reader = async (db, id) => {
  const row = await db.selectFrom("shipping_zones").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [provinces, rules] = await Promise.all([
    db.selectFrom("shipping_zone_provinces").select("province").where("zone_id", "=", id).orderBy("province").execute(),
    db.selectFrom("shipping_rules").selectAll().where("zone_id", "=", id).orderBy("min_total_cents").orderBy("id").execute(),
  ]);
  return {
    label: row.name,
    values: {
      ...omit(row, ["id", "created_at"]),
      provinces: provinces.map((p) => p.province).join(", "),
      rules: rules.map((r) => ({ key: r.id.slice(0, 8), ...omit(r, ["id", "zone_id"]) })),
    },
  };
};

const settings: Reader = async (db, key) => {
  const row = await db.selectFrom("settings").select(["key", "value"]).where("key", "=", key).executeTakeFirst();
  if (!row) return { label: key, values: {} };
  let value: unknown = row.value;
  try {
    value = JSON.parse(row.value);
  } catch {
    // a plain text setting
  }
  return { label: key.replaceAll("_", " "), values: value && typeof value === "object" ? (value as Snapshot) : { value } };
};

/** record type → how to read it; a type without a reader is logged with its summary alone (a backup, an export). */
const READERS: Partial<Record<RecordType, Reader>> = {
  product,
  order,
  coupon: single("coupons", (r) => String(r.code)),
  "gift-card": giftCard,
  review: single("reviews", (r) => `${r.rating}★ review`),
  zone,
  settings,
  category: single("categories", (r) => String(r.name)),
  announcement: single("announcements", (r) => String(r.subject)),
  return: returnRecord,
  message: single("contact_messages", (r) => `message from ${r.name}`),
  user: single("users", (r) => String(r.email), ["image"]),
  "staff-role": single("staff_roles", (r) => String(r.name)),
  // an invitation's token hash opens nothing, but it stays out of the log all the same
  "staff-invitation": single("staff_invitations", (r) => String(r.email), ["token_hash"]),
};

/** A record's snapshot now (inside a transaction: as the transaction sees it), or null when it does not exist. */
export async function snapshotRecord(db: Queryable, type: RecordType, id: string): Promise<RecordSnapshot | null> {
  const read = READERS[type];
  return read ? read(db, id) : null;
}

export function hasSnapshot(type: RecordType): boolean {
  return READERS[type] !== undefined;
}

/** A record found by the natural key a form gives it (a new coupon's code, a new category's name), after it is made. */
const FIND_BY: Partial<Record<RecordType, (db: Queryable, value: string) => Promise<{ id: string } | undefined>>> = {
  coupon: (db, code) => db.selectFrom("coupons").select("id").where("code", "=", code).executeTakeFirst(),
  category: (db, name) => db.selectFrom("categories").select("id").where("name", "=", name).executeTakeFirst(),
  product: (db, slug) => db.selectFrom("products").select("id").where("slug", "=", slug).executeTakeFirst(),
  zone: (db, name) => db.selectFrom("shipping_zones").select("id").where("name", "=", name).executeTakeFirst(),
  "staff-role": (db, name) => db.selectFrom("staff_roles").select("id").where("name", "=", name).executeTakeFirst(),
  // a new invitation: the address's newest one still open
  "staff-invitation": (db, email) =>
    db.selectFrom("staff_invitations").select("id").where("email", "=", email).where("accepted_at", "is", null).where("revoked_at", "is", null).orderBy("created_at", "desc").executeTakeFirst(),
};

export async function findRecordId(db: Queryable, type: RecordType, value: string): Promise<string | null> {
  const find = FIND_BY[type];
  return find ? ((await find(db, value))?.id ?? null) : null;
}

/** The record a part of it belongs to: a tier price's product, a delivery rule's zone. */
export async function ownerOf(db: Queryable, part: "tier" | "rule", id: string): Promise<string | null> {
  if (part === "tier") return (await db.selectFrom("product_tiers").select("product_id as id").where("id", "=", id).executeTakeFirst())?.id ?? null;
  return (await db.selectFrom("shipping_rules").select("zone_id as id").where("id", "=", id).executeTakeFirst())?.id ?? null;
}
