import { sql } from "kysely";
import { containsInsensitive, isUniqueViolation, type Queryable } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import type { DiscountType } from "~/db/schema";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { COUPON_ADMIN_MESSAGES, type CouponSaveInput } from "./coupons-admin.schema";
import type { CouponStatusFilter } from "./coupons.logic";

/** Coupons as the owner runs them (SPEC §2 Coupons, §7 coupons / coupon_usage). */
export const ADMIN_COUPONS_PAGE_SIZE = 25;

export interface AdminCoupon {
  id: string;
  code: string;
  discountType: DiscountType;
  discountValue: number;
  minimumSpendCents: number;
  maxRedemptions: number | null;
  timesRedeemed: number;
  startDate: string;
  endDate: string;
  isActive: boolean;
  description: string | null;
  createdAt: string;
}

export interface CouponStats {
  total: number;
  active: number;
  scheduled: number;
  expired: number;
  redemptions: number;
  /** the discount given, from coupon_usage (reserved and confirmed redemptions) */
  discountGivenCents: number;
}

/**
 * The list (newest first, search by code or description, SPEC §4 status filters) and the page's figures. "Expired"
 * compares with the end of the end date's South African day, as the storefront does (the end date is stored so).
 */
export async function listAdminCoupons(db: Queryable, input: { q: string; status: string; page: number }, now = new Date()): Promise<Page<AdminCoupon> & { stats: CouponStats }> {
  const nowIso = now.toISOString();
  let query = db
    .selectFrom("coupons")
    .select(["id", "code", "discount_type", "discount_value", "minimum_spend_cents", "max_redemptions", "times_redeemed", "start_date", "end_date", "is_active", "description", "created_at"]);
  if (input.q) query = query.where((eb) => eb.or([containsInsensitive("code", input.q), containsInsensitive("description", input.q)]));
  const status = input.status as CouponStatusFilter | "";
  if (status === "expired") query = query.where("end_date", "<", nowIso);
  else if (status === "inactive") query = query.where("is_active", "=", false);
  else if (status === "active") query = query.where("is_active", "=", true).where("end_date", ">=", nowIso);
  const [page, stats, given] = await Promise.all([
    paginate(query.orderBy("created_at", "desc").orderBy("id", "desc"), { page: input.page, pageSize: ADMIN_COUPONS_PAGE_SIZE }),
    db
      .selectFrom("coupons")
      .select((eb) => [
        eb.fn.countAll<number>().as("total"),
        eb.fn.sum<number>(eb.case().when(eb.and([eb("is_active", "=", true), eb("end_date", ">=", nowIso), eb("start_date", "<=", nowIso)])).then(1).else(0).end()).as("active"),
        eb.fn.sum<number>(eb.case().when(eb.and([eb("start_date", ">", nowIso), eb("end_date", ">=", nowIso)])).then(1).else(0).end()).as("scheduled"),
        eb.fn.sum<number>(eb.case().when("end_date", "<", nowIso).then(1).else(0).end()).as("expired"),
        eb.fn.sum<number>(sql`times_redeemed`).as("redemptions"),
      ])
      .executeTakeFirstOrThrow(),
    db.selectFrom("coupon_usage").select((eb) => eb.fn.sum<number>("discount_amount_cents").as("cents")).executeTakeFirstOrThrow(),
  ]);
  return {
    ...page,
    rows: page.rows.map((r) => ({
      id: r.id,
      code: r.code,
      discountType: r.discount_type,
      discountValue: Number(r.discount_value),
      minimumSpendCents: Number(r.minimum_spend_cents),
      maxRedemptions: r.max_redemptions === null ? null : Number(r.max_redemptions),
      timesRedeemed: Number(r.times_redeemed),
      startDate: r.start_date,
      endDate: r.end_date,
      isActive: r.is_active === true,
      description: r.description,
      createdAt: r.created_at,
    })),
    stats: {
      total: Number(stats.total),
      active: Number(stats.active ?? 0),
      scheduled: Number(stats.scheduled ?? 0),
      expired: Number(stats.expired ?? 0),
      redemptions: Number(stats.redemptions ?? 0),
      discountGivenCents: Number(given.cents ?? 0),
    },
  };
}

/** Creates or updates a coupon; a code another coupon has is refused. created_by is the admin who made it. */
export async function saveCoupon(db: Queryable, input: CouponSaveInput, adminId: string): Promise<{ created: boolean }> {
  const clash = await db
    .selectFrom("coupons")
    .select("id")
    .where("code", "=", input.code)
    .$if(!!input.id, (q) => q.where("id", "<>", input.id!))
    .executeTakeFirst();
  if (clash) throw new DomainError(COUPON_ADMIN_MESSAGES.codeTaken, 409, "code");
  const values = {
    code: input.code,
    discount_type: input.discountType,
    discount_value: input.discountValue,
    minimum_spend_cents: input.minimumSpend,
    max_redemptions: input.maxRedemptions,
    start_date: input.startDate,
    end_date: input.endDate, // the end of its South African day (couponSaveSchema): the storefront reads it so
    description: input.description,
  };
  try {
    if (input.id) {
      const result = await db.updateTable("coupons").set(values).where("id", "=", input.id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new DomainError("That coupon no longer exists", 404);
      return { created: false };
    }
    await db
      .insertInto("coupons")
      .values({ id: newId(), ...values, times_redeemed: 0, is_active: true, created_by: adminId, created_at: new Date().toISOString() })
      .execute();
    return { created: true };
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError(COUPON_ADMIN_MESSAGES.codeTaken, 409, "code");
    throw error;
  }
}

export async function setCouponActive(db: Queryable, id: string, isActive: boolean): Promise<void> {
  const result = await db.updateTable("coupons").set({ is_active: isActive }).where("id", "=", id).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new DomainError("That coupon no longer exists", 404);
}

/** Deletes a coupon and its usage rows; orders keep the code and the discount they were given. */
export async function deleteCoupon(db: Queryable, id: string): Promise<void> {
  const result = await db.deleteFrom("coupons").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new DomainError("That coupon no longer exists", 404);
}
