/**
 * Admin → Marketing → Rewards (issue 40, docs/decisions/062): the programme's settings (off by default), what the shop
 * owes in points (its liability), a member's points changed by hand with a reason (recorded with who and when), and the
 * latest such changes. Admins only: the loader and the action check the role on the server.
 */
import { listReferrals } from "~/modules/rewards/referrals.server";
import { referralReasonWords } from "~/modules/rewards/referrals.logic";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/admin.marketing.rewards";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher, useAdminResult } from "~/components/admin/admin-status";
import { DataTable, type Column } from "~/components/admin/data-table";
import { StatCards } from "~/components/admin/stat-cards";
import { buttonClass } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { ADJUST_REASON_MAX, REWARDS_ADMIN_MESSAGES as M, rewardsAdminIntent } from "~/modules/rewards/rewards-admin.schema";
import { adjustPoints, liabilityOf, recentAdjustments, rewardFigures } from "~/modules/rewards/rewards-admin.server";
import { pointsWords, settingsFromForm } from "~/modules/rewards/rewards.logic";
import { loadRewardSettings, saveRewardSettings } from "~/modules/rewards/rewards.server";
import { formatDateTimeZA } from "~/utils/dates";
import { formatAmount, formatRand } from "~/utils/money";

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "marketing");
  const db = getDb();
  const [settings, figures, adjustments, referrals] = await Promise.all([loadRewardSettings(db), rewardFigures(db), recentAdjustments(db), listReferrals(db)]);
  return {
    settings,
    figures,
    liability: liabilityOf(figures, settings.pointValueCents),
    adjustments: adjustments.map((a) => ({ ...a, when: formatDateTimeZA(a.createdAt) })),
    referrals: referrals.map((r) => ({ ...r, when: formatDateTimeZA(r.createdAt), why: referralReasonWords(r.reason) })),
  };
}

export const action = adminAction(
  rewardsAdminIntent,
  {
    settings: async (db, input) => (await saveRewardSettings(db, settingsFromForm(input)), M.saved),
    adjust: async (db, input, { admin }) => (await adjustPoints(db, { ...input, adminId: admin.id })).message,
  },
  {
    permission: "marketing",
    // points are worth money: a change by hand asks for the password again after 10 minutes, as a gift card issued does
    sensitive: ["adjust"],
    record: { settings: { type: "settings", id: () => "rewards" }, adjust: null },
    failure: { settings: M.failedSettings, adjust: M.failedAdjust },
    // the storefront's footer links to the programme's page while it is on
    storefront: ["settings"],
  },
);

export function meta() {
  return [{ title: "Rewards | Marketing | Admin | Scentara" }];
}

type Adjustment = Route.ComponentProps["loaderData"]["adjustments"][number];
type Referral = Route.ComponentProps["loaderData"]["referrals"][number];

const REFERRAL_STATUS: Record<string, string> = { attributed: "Waiting for a first order", reserved: "On an unpaid order", paid: "Paid: points pending", rewarded: "Rewarded", refused: "Refused", cancelled: "Cancelled" };
const referralColumns: Column<Referral>[] = [
  { header: "When", cell: (r) => r.when, className: "whitespace-nowrap" },
  { header: "Referrer", cell: (r) => r.referrerEmail ?? "a deleted account" },
  { header: "Friend", cell: (r) => r.friendEmail ?? "a deleted account" },
  { header: "State", cell: (r) => <span>{REFERRAL_STATUS[r.status] ?? r.status}{r.why ? <span className="block text-xs text-muted">{r.why}</span> : null}</span> },
  { header: "Friend got", cell: (r) => (r.friendRewardCents ? formatRand(r.friendRewardCents) : "–"), className: "md:text-right tabular-nums" },
];

const points = (n: number) => `${n.toLocaleString("en-ZA")} ${n === 1 ? "point" : "points"}`;
const signed = (n: number) => `${n > 0 ? "+" : "−"}${Math.abs(n).toLocaleString("en-ZA")}`;

const columns: Column<Adjustment>[] = [
  { header: "When", cell: (a) => a.when, className: "whitespace-nowrap" },
  { header: "Customer", cell: (a) => a.customerEmail ?? "a deleted account" },
  { header: "Points", cell: (a) => <span className={`font-medium tabular-nums ${a.points > 0 ? "text-success" : "text-danger"}`}>{signed(a.points)}</span>, className: "md:text-right" },
  { header: "Reason", cell: (a) => a.reason ?? "–" },
  { header: "By", cell: (a) => a.byEmail ?? "a former member of staff" },
];

export default function Rewards({ loaderData: d }: Route.ComponentProps) {
  const { settings: s, figures: f, liability } = d;
  const fetcher = useAdminFetcher();
  const result = useAdminResult();
  const errors = result && !result.ok ? result.fieldErrors : {};
  // a change made: the form is emptied for the next one
  const adjustForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok && fetcher.data.intent === "adjust") adjustForm.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return (
    <AdminPage
      title="Rewards"
      description="Members earn points on what they pay for goods and spend them at checkout as a discount. Points stay pending until an order's return window ends. Every point still to be spent is money the shop owes: its liability."
      actions={
        <Link to="/admin/marketing" className={buttonClass("secondary", "md", "whitespace-nowrap")}>
          Announcements
        </Link>
      }
      stats={[
        { label: "Members", value: f.members, hint: s.pointsOn ? "the programme is on" : "the programme is off" },
        { label: "Liability", value: formatRand(liability.availableCents), hint: `${points(f.available)} to spend` },
        { label: "Pending", value: formatRand(liability.pendingCents), hint: `${points(f.pending)} in return windows` },
        { label: "Owed", value: f.owed, hint: "taken from their next points" },
      ]}
      status={<AdminStatus />}
    >
      <section aria-labelledby="rewards-points-heading">
        <h2 id="rewards-points-heading" className="font-display text-xl text-ink">
          Points since the programme began
        </h2>
        <StatCards
          className="mt-3 sm:grid-cols-4"
          cards={[
            { label: "Earned", value: f.earned, hint: "on paid orders" },
            { label: "Made available", value: f.madeAvailable, hint: "after the return window" },
            { label: "Spent", value: f.spent, hint: "at checkout" },
            { label: "Given back", value: f.givenBack, hint: "by refunds" },
            { label: "Taken back", value: f.reversed, hint: "their orders refunded" },
            { label: "Expired", value: f.expired, hint: `after ${s.pointsMonths} months` },
            { label: "Added by hand", value: f.adjustedAdded },
            { label: "Removed by hand", value: f.adjustedRemoved },
          ]}
        />
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <fetcher.Form method="post" className="space-y-4 border border-line bg-white p-4 sm:p-6" aria-labelledby="rewards-settings-heading">
          <h2 id="rewards-settings-heading" className="flex items-center justify-between gap-3 font-display text-xl text-ink">
            Settings
            <span className={`border px-2 py-0.5 font-sans text-[0.68rem] font-medium uppercase tracking-[0.16em] ${s.pointsOn ? "border-success/40 text-success" : "border-line text-muted"}`}>
              {s.pointsOn ? "On" : "Off"}
            </span>
          </h2>
          <input type="hidden" name="intent" value="settings" />
          <label className="flex items-start gap-3 text-sm text-ink">
            <input type="checkbox" name="pointsOn" defaultChecked={s.pointsOn} className="mt-0.5 h-4 w-4 shrink-0 accent-gold" />
            Run the rewards programme: shoppers can join, earn points and spend them, and the shop&rsquo;s footer links to it
          </label>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
            <Field label="Rand per point" error={errors.earnRand} hint="A point for every so many rand paid for goods. Delivery and gift cards earn none.">
              {(p) => <input {...p} name="earnRand" inputMode="decimal" required defaultValue={formatAmount(s.earnCentsPerPoint)} />}
            </Field>
            <Field label="Point value (cents)" error={errors.pointValueCents} hint={`At today's value, 100 points take ${formatRand(100 * s.pointValueCents)} off an order.`}>
              {(p) => <input {...p} name="pointValueCents" type="number" min={1} max={10000} required defaultValue={s.pointValueCents} />}
            </Field>
            <Field label="Fewest points to spend" error={errors.minRedeemPoints} hint={`An order spends none, or at least this many: now ${pointsWords(s.minRedeemPoints, s.pointValueCents)}.`}>
              {(p) => <input {...p} name="minRedeemPoints" type="number" min={1} required defaultValue={s.minRedeemPoints} />}
            </Field>
            <Field label="Months a point lasts" error={errors.pointsMonths} hint="Counted from the day a point can be spent.">
              {(p) => <input {...p} name="pointsMonths" type="number" min={1} max={120} required defaultValue={s.pointsMonths} />}
            </Field>
          </div>
          <fieldset className="space-y-4 border-t border-line pt-4">
            <legend className="sr-only">Referrals</legend>
            <label className="flex items-start gap-3 text-sm text-ink">
              <input type="checkbox" name="referralsOn" defaultChecked={s.referralsOn} className="mt-0.5 h-4 w-4 shrink-0 accent-gold" />
              Give and get: members share a link; a new friend gets a reward on their first order, and the member gets points once that order is past its return window
            </label>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
              <Field label="The friend's reward (R)" error={errors.friendRewardRand} hint="Off their first paid order.">
                {(p) => <input {...p} name="friendRewardRand" inputMode="decimal" required defaultValue={formatAmount(s.friendRewardCents)} />}
              </Field>
              <Field label="The referrer's reward (R)" error={errors.referrerRewardRand} hint="As points worth this much.">
                {(p) => <input {...p} name="referrerRewardRand" inputMode="decimal" required defaultValue={formatAmount(s.referrerRewardCents)} />}
              </Field>
              <Field label="The friend's first order from (R)" error={errors.referralMinOrderRand} hint="In goods, before the reward.">
                {(p) => <input {...p} name="referralMinOrderRand" inputMode="decimal" required defaultValue={formatAmount(s.referralMinOrderCents)} />}
              </Field>
              <Field label="Rewards a week per referrer" error={errors.referralsPerWeek}>
                {(p) => <input {...p} name="referralsPerWeek" type="number" min={1} required defaultValue={s.referralsPerWeek} />}
              </Field>
              <Field label="New friends a week from one address" error={errors.friendsPerAddressPerWeek} hint="More from one internet address are refused.">
                {(p) => <input {...p} name="friendsPerAddressPerWeek" type="number" min={1} required defaultValue={s.friendsPerAddressPerWeek} />}
              </Field>
            </div>
          </fieldset>
          <button type="submit" className={buttonClass("primary", "md")}>
            Save rewards settings
          </button>
        </fetcher.Form>

        <fetcher.Form ref={adjustForm} method="post" className="space-y-4 border border-line bg-white p-4 sm:p-6" aria-labelledby="rewards-adjust-heading">
          <h2 id="rewards-adjust-heading" className="font-display text-xl text-ink">
            Change a member&rsquo;s points
          </h2>
          <p className="text-sm text-ink-soft">Added points settle anything they owe first. Points can only be taken away from what they have available.</p>
          <input type="hidden" name="intent" value="adjust" />
          <Field label="Customer's e-mail" error={errors.email}>
            {(p) => <input {...p} name="email" type="email" autoComplete="off" maxLength={254} required placeholder="thandi@example.co.za" />}
          </Field>
          <Field label="Points" error={errors.points} hint="50 adds points; -20 takes them away.">
            {(p) => <input {...p} name="points" inputMode="numeric" autoComplete="off" required placeholder="50 or -20" />}
          </Field>
          <Field label="Reason" error={errors.reason} hint="Kept with the change, with your name and the time.">
            {(p) => <input {...p} name="reason" maxLength={ADJUST_REASON_MAX} autoComplete="off" required placeholder="Parcel arrived late" />}
          </Field>
          <button type="submit" className={buttonClass("primary", "md")}>
            Change points
          </button>
        </fetcher.Form>
      </div>

      <section aria-labelledby="rewards-adjustments-heading" className="space-y-3">
        <h2 id="rewards-adjustments-heading" className="font-display text-xl text-ink">
          Recent changes by hand
        </h2>
        <DataTable<Adjustment>
          rows={d.adjustments}
          columns={columns}
          rowKey={(a) => a.id}
          caption="The latest 20 changes to members' points by hand, newest first"
          empty={<p className="text-sm text-ink-soft">No points have been changed by hand yet.</p>}
        />
      </section>

      <section aria-labelledby="rewards-referrals-heading" className="space-y-3">
        <h2 id="rewards-referrals-heading" className="font-display text-xl text-ink">
          Referrals
        </h2>
        <DataTable<Referral>
          rows={d.referrals}
          columns={referralColumns}
          rowKey={(r) => r.id}
          caption="Who referred whom, newest first: waiting, paid out, refused (with why)"
          empty={<p className="text-sm text-ink-soft">No friend has come by a member&rsquo;s link yet.</p>}
        />
      </section>
    </AdminPage>
  );
}
