/**
 * Money-path factories for integration tests: orders (with lines), coupons, shipping zones (with rules).
 * Every insert returns what it wrote; overrides win over the defaults. Amounts are integer cents.
 */
import type { Queryable } from "~/db/db.server";
import type { DiscountType, OrderStatus, PaymentStatus, ShippingAddress } from "~/db/schema";
import { newId } from "~/utils/ids";
import { insertProduct } from "./catalog";
import type { Order, OrderLine } from "~/modules/orders/order.types";

let seq = 0;
function next() {
  seq += 1;
  return seq;
}

const DAY = 24 * 60 * 60 * 1000;

export const TEST_ADDRESS: ShippingAddress = {
  name: "Thandi Nkosi",
  telephone: "+27821234567",
  street: "12 Jacaranda Street",
  suburb: "Menlo Park",
  city: "Pretoria",
  postalCode: "0081",
  province: "Gauteng",
};

// ---------------------------------------------------------------- coupons

export interface CouponRow {
  id: string;
  code: string;
  discount_type: DiscountType;
  discount_value: number;
  minimum_spend_cents: number;
  max_redemptions: number | null;
  times_redeemed: number;
  start_date: string;
  end_date: string;
  is_active: boolean;
  description: string | null;
  created_by: string | null;
  created_at: string;
}

/** A coupon valid from yesterday for 30 days: 10% off, no minimum, unlimited, active (override anything). */
export async function insertCoupon(db: Queryable, overrides: Partial<CouponRow> = {}): Promise<CouponRow> {
  const n = next();
  const now = Date.now();
  const row: CouponRow = {
    id: newId(),
    code: `TEST${n}`,
    discount_type: "percentage",
    discount_value: 10,
    minimum_spend_cents: 0,
    max_redemptions: null,
    times_redeemed: 0,
    start_date: new Date(now - DAY).toISOString(),
    end_date: new Date(now + 30 * DAY).toISOString(),
    is_active: true,
    description: null,
    created_by: null,
    created_at: new Date(now).toISOString(),
    ...overrides,
  };
  await db.insertInto("coupons").values(row).execute();
  return row;
}

// ---------------------------------------------------------------- shipping

export interface ZoneRuleInput {
  minTotalCents: number;
  maxTotalCents?: number | null;
  rateCents: number;
}

export interface ZoneRow {
  id: string;
  name: string;
  base_rate_cents: number;
  created_at: string;
  rules: { id: string; zone_id: string; min_total_cents: number; max_total_cents: number | null; rate_cents: number }[];
}

/** A shipping zone (default base rate R85) with optional rules and the provinces it serves. */
export async function insertZone(
  db: Queryable,
  overrides: { name?: string; baseRateCents?: number; rules?: ZoneRuleInput[]; provinces?: string[] } = {},
): Promise<ZoneRow> {
  const n = next();
  const zone = {
    id: newId(),
    name: overrides.name ?? `Zone ${String(n).padStart(3, "0")}`,
    base_rate_cents: overrides.baseRateCents ?? 8500,
    created_at: new Date().toISOString(),
  };
  await db.insertInto("shipping_zones").values(zone).execute();
  const rules = (overrides.rules ?? []).map((r) => ({
    id: newId(),
    zone_id: zone.id,
    min_total_cents: r.minTotalCents,
    max_total_cents: r.maxTotalCents ?? null,
    rate_cents: r.rateCents,
  }));
  if (rules.length) await db.insertInto("shipping_rules").values(rules).execute();
  const provinces = overrides.provinces ?? [];
  if (provinces.length) await db.insertInto("shipping_zone_provinces").values(provinces.map((province) => ({ province, zone_id: zone.id }))).execute();
  return { ...zone, rules };
}

// ---------------------------------------------------------------- orders

export interface OrderLineInput {
  /** An existing product; when absent a product is created (price = unitPriceCents). */
  productId?: string | null;
  /** the size bought: the product's one size (its id is the product's) unless given */
  sizeId?: string | null;
  sizeLabel?: string | null;
  name?: string;
  quantity?: number;
  unitPriceCents?: number;
}

export interface InsertOrderInput {
  userId: string | null;
  lines?: OrderLineInput[];
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  couponCode?: string | null;
  discountCents?: number;
  shippingCents?: number;
  shippingZoneId?: string | null;
  shippingAddress?: ShippingAddress;
  paymentProvider?: string | null;
  paymentId?: string | null;
  createdAt?: string;
  processingStartedAt?: string | null;
  notes?: string | null;
  trackingNumber?: string | null;
}

/** The order as stored: the app's one order shape, with the lines' row ids. */
export interface InsertedOrder extends Omit<Order, "createdAt" | "shippingAddress" | "lines"> {
  lines: Array<OrderLine & { id: string }>;
}

/**
 * An order with its lines, stored directly (no pricing rules applied: what you pass is what is stored).
 * Defaults: one line of a fresh product at R349.99, shipping R70, pending/pending.
 * total = subtotal - discount + shipping (never below 0); original_total only when a coupon code is given.
 */
export async function insertOrder(db: Queryable, input: InsertOrderInput): Promise<InsertedOrder> {
  const lineInputs = input.lines ?? [{}];
  const lines = [];
  for (const [position, l] of lineInputs.entries()) {
    const unitPriceCents = l.unitPriceCents ?? 34999;
    const quantity = l.quantity ?? 1;
    let productId = l.productId;
    let name = l.name;
    if (productId === undefined) {
      const product = await insertProduct(db, { price_cents: unitPriceCents, ...(name ? { name } : {}) });
      productId = product.id;
      name ??= product.name;
    }
    lines.push({
      id: newId(),
      productId,
      sizeId: l.sizeId !== undefined ? l.sizeId : productId,
      sizeLabel: l.sizeLabel ?? null,
      name: name ?? "Fragrance",
      quantity,
      unitPriceCents,
      totalPriceCents: unitPriceCents * quantity,
      position,
    });
  }
  const subtotalCents = lines.reduce((s, l) => s + l.totalPriceCents, 0);
  const discountCents = input.discountCents ?? 0;
  const shippingCents = input.shippingCents ?? 7000;
  const totalAmountCents = Math.max(0, subtotalCents - discountCents + shippingCents);
  const couponCode = input.couponCode ?? null;
  const createdAt = input.createdAt ?? new Date().toISOString();
  const order = {
    id: newId(),
    userId: input.userId,
    status: input.status ?? "pending",
    paymentStatus: input.paymentStatus ?? "pending",
    subtotalCents,
    discountCents,
    shippingCents,
    totalAmountCents,
    originalTotalCents: couponCode ? subtotalCents + shippingCents : null,
    couponCode,
  } satisfies Omit<InsertedOrder, "lines">;
  await db
    .insertInto("orders")
    .values({
      id: order.id,
      user_id: order.userId,
      status: order.status,
      payment_status: order.paymentStatus,
      subtotal_cents: subtotalCents,
      discount_amount_cents: discountCents,
      shipping_cents: shippingCents,
      total_amount_cents: totalAmountCents,
      original_total_cents: order.originalTotalCents,
      coupon_code: couponCode,
      shipping_zone_id: input.shippingZoneId ?? null,
      shipping_address: JSON.stringify(input.shippingAddress ?? TEST_ADDRESS),
      payment_provider: input.paymentProvider ?? null,
      payment_id: input.paymentId ?? null,
      notes: input.notes ?? null,
      tracking_number: input.trackingNumber ?? null,
      created_at: createdAt,
      updated_at: createdAt,
      processing_started_at: input.processingStartedAt ?? null,
    })
    .execute();
  if (lines.length) {
    await db
      .insertInto("order_lines")
      .values(
        lines.map((l) => ({
          id: l.id,
          order_id: order.id,
          product_id: l.productId,
          size_id: l.sizeId,
          size_label: l.sizeLabel,
          name: l.name,
          quantity: l.quantity,
          unit_price_cents: l.unitPriceCents,
          total_price_cents: l.totalPriceCents,
          position: l.position,
        })),
      )
      .execute();
  }
  return { ...order, lines: lines.map(({ position: _p, ...l }) => l) };
}
