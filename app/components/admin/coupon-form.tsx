import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { listHref, type ListQuery } from "~/modules/admin/list-query";
import type { listAdminCoupons } from "~/modules/coupons/coupons-admin.server";
import { ADMIN_COUPON_CODE_MAX } from "~/modules/coupons/coupons-admin.schema";
import type { CouponDisplayStatus } from "~/modules/coupons/coupons.logic";
import { formatAmount, formatRand } from "~/utils/money";
import { useAdminFetcher } from "./admin-status";
import { FormDialog } from "./form-dialog";

/** The pieces of Admin → Coupons (app/routes/admin.coupons.tsx): a coupon's status and value, its switch, its form. */

/** A coupon as the list shows it: its status now and its days (South African calendar). */
export type CouponRow = Awaited<ReturnType<typeof listAdminCoupons>>["rows"][number] & { status: CouponDisplayStatus; start: string; end: string };

export const COUPON_STATUS_STYLE: Record<CouponDisplayStatus, string> = {
  Active: "bg-success/10 text-success",
  Scheduled: "bg-blush text-ink",
  Inactive: "bg-sand text-ink-soft",
  Expired: "bg-line text-muted",
};

/** What the coupon gives, as the owner reads it. */
export function couponValueText(c: Pick<CouponRow, "discountType" | "discountValue">): string {
  if (c.discountType === "percentage") return `${c.discountValue}% off`;
  if (c.discountType === "fixed_amount") return `${formatRand(c.discountValue)} off`;
  return c.discountValue > 0 ? `Free delivery from ${formatRand(c.discountValue)}` : "Free delivery";
}

export function ToggleActive({ id, isActive, code, action }: { id: string; isActive: boolean; code: string; action: string }) {
  const fetcher = useAdminFetcher();
  return (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="isActive" value={isActive ? "false" : "true"} />
      <button type="submit" className="text-xs font-medium uppercase tracking-[0.14em] text-ink underline-offset-4 hover:underline">
        {isActive ? "Deactivate" : "Activate"}
        <span className="sr-only"> {code}</span>
      </button>
    </fetcher.Form>
  );
}

export function CouponDialog({ path, coupon, query, defaults }: { path: string; coupon: CouponRow | null; query: ListQuery; defaults: { startDate: string; endDate: string } }) {
  const key = coupon?.id ?? "new";
  const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";
  const value = coupon ? (coupon.discountType === "percentage" ? String(coupon.discountValue) : formatAmount(coupon.discountValue)) : "";
  return (
    <FormDialog
      title={coupon ? `Edit coupon ${coupon.code}` : "New coupon"}
      trigger={
        coupon ? (
          <>
            Edit<span className="sr-only"> {coupon.code}</span>
          </>
        ) : (
          "New Coupon"
        )
      }
      triggerClassName={coupon ? "text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline" : buttonClass("primary", "md")}
      openHref={listHref(path, query, { edit: key })}
      closeHref={listHref(path, query)}
      openOnLoad={query.edit === key}
      submitLabel={coupon ? "Save Coupon" : "Create Coupon"}
    >
      <input type="hidden" name="intent" value="save" />
      {coupon ? <input type="hidden" name="id" value={coupon.id} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <label className={label}>
          Code
          <input name="code" defaultValue={coupon?.code ?? ""} maxLength={ADMIN_COUPON_CODE_MAX} required autoCapitalize="characters" className={`${controlClass} mt-1 font-mono uppercase`} />
        </label>
        <label className={label}>
          Discount type
          <select name="discountType" defaultValue={coupon?.discountType ?? "percentage"} className={`${controlClass} mt-1`}>
            <option value="percentage">Percentage off</option>
            <option value="fixed_amount">Rand off</option>
            <option value="free_delivery">Free delivery</option>
          </select>
        </label>
        <label className={label}>
          Value
          <input name="discountValue" defaultValue={value} inputMode="decimal" required placeholder="10" className={`${controlClass} mt-1`} />
          <span className="mt-1 block text-xs normal-case tracking-normal text-muted">Percent 0–100; rand off; for free delivery, the spend that qualifies (R).</span>
        </label>
        <label className={label}>
          Minimum spend (R)
          <input name="minimumSpend" defaultValue={coupon ? formatAmount(coupon.minimumSpendCents) : "0"} inputMode="decimal" className={`${controlClass} mt-1`} />
        </label>
        <label className={label}>
          Max redemptions
          <input name="maxRedemptions" defaultValue={coupon?.maxRedemptions ?? ""} inputMode="numeric" placeholder="unlimited" className={`${controlClass} mt-1`} />
        </label>
        <span aria-hidden="true" className="hidden sm:block" />
        <label className={label}>
          Start date
          <input type="date" name="startDate" defaultValue={coupon?.start ?? defaults.startDate} required className={`${controlClass} mt-1`} />
        </label>
        <label className={label}>
          End date (to the end of that day)
          <input type="date" name="endDate" defaultValue={coupon?.end ?? defaults.endDate} required className={`${controlClass} mt-1`} />
        </label>
      </div>
      <label className={label}>
        Description (optional)
        <input name="description" defaultValue={coupon?.description ?? ""} maxLength={300} className={`${controlClass} mt-1 normal-case tracking-normal`} />
      </label>
    </FormDialog>
  );
}
