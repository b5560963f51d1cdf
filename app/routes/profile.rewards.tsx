/**
 * /profile/rewards (issue 40, docs/decisions/062): the shopper's points — yours to spend (and their worth in rand),
 * pending, owed, expiring within a month — and their history, each change with its order. Only while the programme is
 * on (404 otherwise; the frame shows the tab then). Someone who never joined is sent to /rewards to join.
 */
import { data, Link } from "react-router";
import type { Route } from "./+types/profile.rewards";
import { ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { profileRewards } from "~/modules/rewards/rewards-profile.server";
import { loadRewardSettings } from "~/modules/rewards/rewards.server";

export async function loader({ request }: Route.LoaderArgs) {
  const settings = await loadRewardSettings(getDb());
  if (!settings.pointsOn) throw data("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  const user = await requireUser(request);
  return profileRewards(getDb(), user.id, settings);
}

type Account = NonNullable<Route.ComponentProps["loaderData"]["account"]>;
type Share = NonNullable<Route.ComponentProps["loaderData"]["referrals"]>;

/** Give and get (docs/decisions/063): the member's link, its code and a WhatsApp share; the shop never asks who. */
function ShareLink({ share }: { share: Share }) {
  const f = share.friends;
  return (
    <section aria-labelledby="share-heading" className="mt-8 border border-line bg-white/60 p-5 sm:p-6" data-testid="referral-share">
      <p className="eyebrow">Give {share.friendReward}, get {share.yourReward.replace(/ \(.*\)$/, "")}</p>
      <h3 id="share-heading" className="mt-2 font-display text-2xl text-ink">
        Share your link
      </h3>
      <p className="mt-2 text-sm text-ink-soft">
        A friend who is new to us gets {share.friendReward} off their first order of {share.minOrder} or more. You get {share.yourReward} once their order is past its return window.
      </p>
      <p className="mt-4 break-all border border-line bg-sand/60 px-3 py-2 font-mono text-sm text-ink" data-testid="referral-link">
        {share.url}
      </p>
      <p className="mt-2 text-xs text-muted">
        Your code: <span className="font-mono tracking-[0.14em] text-ink">{share.code}</span>
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <a href={share.whatsapp} target="_blank" rel="noopener noreferrer" className="inline-flex min-h-11 items-center gap-2 bg-ink px-5 text-xs font-medium uppercase tracking-[0.16em] text-ivory hover:bg-ink-soft">
          Share on WhatsApp
        </a>
      </div>
      {f.waiting + f.pending + f.rewarded + f.refused > 0 ? (
        <p className="mt-4 text-xs text-muted">
          Friends who came: {f.waiting} still to order, {f.pending} pending, {f.rewarded} rewarded{f.refused ? `, ${f.refused} not rewarded` : ""}.
        </p>
      ) : null}
    </section>
  );
}
type Line = Account["history"][number];

const link = "text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink hover:decoration-ink";

export default function ProfileRewards({ loaderData }: Route.ComponentProps) {
  const { member, account, referrals } = loaderData;
  return (
    <div>
      <h2 id="profile-section-title" className="text-2xl text-ink">Rewards</h2>
      {!account ? (
        <div className="mt-8 border border-line bg-white/60 px-6 py-12 text-center">
          <p className="font-display text-2xl text-ink">You haven't joined yet</p>
          <p className="mt-2 text-sm text-ink-soft">Earn points on what you pay for goods, and spend them on your next scent.</p>
          <ButtonLink to="/rewards" className="mt-6">
            Join Rewards
          </ButtonLink>
        </div>
      ) : (
        <>
          {!member ? (
            <div className="mt-6">
              <Notice tone="info">
                You have left the programme: new orders earn no points. The points below stay yours to spend until they expire.{" "}
                <Link to="/rewards" className={link}>
                  Join again
                </Link>
              </Notice>
            </div>
          ) : null}
          <Balances account={account} />
          {referrals ? <ShareLink share={referrals} /> : null}
          <History lines={account.history} />
          <p className="mt-8 text-sm text-ink-soft">
            <Link to="/rewards" className={link}>
              How Rewards works
            </Link>
          </p>
        </>
      )}
    </div>
  );
}

function Balances({ account }: { account: Account }) {
  return (
    <>
      <dl className="mt-8 grid gap-px border border-line bg-line sm:grid-cols-2">
        <div className="bg-ivory px-5 py-6">
          <dt className="text-xs font-medium uppercase tracking-[0.16em] text-muted">Yours to spend</dt>
          <dd className="mt-2">
            <span className="font-display text-4xl text-ink" data-testid="rewards-available">{account.available.points}</span>
            <span className="ml-2 text-sm text-ink-soft">points</span>
            <span className="mt-1 block text-sm font-medium text-gold">worth {account.available.worth}</span>
          </dd>
        </div>
        <div className="bg-ivory px-5 py-6">
          <dt className="text-xs font-medium uppercase tracking-[0.16em] text-muted">Pending</dt>
          <dd className="mt-2">
            <span className="font-display text-4xl text-ink" data-testid="rewards-pending">{account.pending.points}</span>
            <span className="ml-2 text-sm text-ink-soft">points</span>
            <span className="mt-1 block text-sm text-ink-soft">worth {account.pending.worth}; they become yours once the return window of their order has ended.</span>
          </dd>
        </div>
      </dl>
      <div className="mt-4 space-y-3">
        {account.owed ? (
          <Notice tone="info" title={`Owed: ${account.owed}`}>
            Taken back by a refund after they were spent; your next points pay it first.
          </Notice>
        ) : null}
        {account.expiring ? (
          <Notice tone="info" title={`${account.expiring.points} expire within a month`}>
            The first on {account.expiring.first}: spend them at checkout before then.
          </Notice>
        ) : null}
      </div>
      <p className="mt-4 text-xs text-muted">Spend from {account.minRedeem} at checkout.</p>
    </>
  );
}

function History({ lines }: { lines: Line[] }) {
  return (
    <section aria-labelledby="rewards-history" className="mt-12">
      <h3 id="rewards-history" className="text-xl text-ink">History</h3>
      {lines.length === 0 ? (
        <p className="mt-4 text-sm text-ink-soft">Nothing yet: the points of your first paid order will show here.</p>
      ) : (
        <ul className="mt-4 divide-y divide-line border-y border-line" data-testid="rewards-history">
          {lines.map((l, i) => (
            <li key={i} className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 py-4 sm:grid-cols-[7rem_1fr_auto] sm:px-2">
              <span className="text-sm text-ink-soft sm:pt-0.5">{l.date}</span>
              <span className={`text-right font-medium tabular-nums sm:order-3 ${l.tone === "gain" ? "text-success" : l.tone === "loss" ? "text-danger" : "text-ink-soft"}`}>
                {l.points}
                {l.pending ? <span className="block text-[0.7rem] font-normal uppercase tracking-[0.14em] text-muted">pending</span> : null}
              </span>
              <span className="col-span-2 min-w-0 text-sm text-ink sm:col-span-1">
                {l.words}
                {l.order ? (
                  <>
                    {" · "}
                    <Link to={l.order.href} className={`font-mono ${link}`}>
                      <span className="sr-only">order </span>#{l.order.shortId}
                    </Link>
                  </>
                ) : null}
                {l.notes.length ? <span className="mt-0.5 block text-xs text-muted">{l.notes.join("; ")}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
