/**
 * /rewards (issue 40 point 3, docs/decisions/062): the programme's rules in plain words with the owner's numbers, and
 * for a signed-in shopper the words they agree to by joining (kept in the consent log) or their balances and Leave.
 * Only while the programme is on (404 otherwise). Personal (no-store), never in the shared page cache; works without
 * JavaScript: Join and Leave are form posts.
 */
import { RewardRulesList } from "~/components/rewards-rules";
import { Form, Link, data, useNavigation } from "react-router";
import type { Route } from "./+types/rewards";
import { Button, ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { loginPath } from "~/modules/accounts/redirect";
import { getSessionUser, requireUserAction } from "~/modules/accounts/session.server";
import { joinFromPage, leaveFromPage, REWARDS_PAGE_MESSAGES, rewardsPage } from "~/modules/rewards/rewards-profile.server";
import { loadRewardSettings } from "~/modules/rewards/rewards.server";
import { rootDataOf } from "~/modules/settings/root-data";
import { formError } from "~/utils/errors";
import { readFields } from "~/utils/request.server";

const NO_STORE = { "Cache-Control": "private, no-store" };

export function meta({ matches }: Route.MetaArgs) {
  const { shop } = rootDataOf(matches);
  return [{ title: `Rewards | ${shop.name}` }, { name: "description", content: `${shop.name} Rewards: points on what you pay for goods, worth rand off your next scent.` }];
}

export function headers() {
  return NO_STORE;
}

async function settingsOrNotFound() {
  const settings = await loadRewardSettings(getDb());
  if (!settings.pointsOn) throw data("Not found", { status: 404, headers: NO_STORE });
  return settings;
}

export async function loader({ request }: Route.LoaderArgs) {
  const settings = await settingsOrNotFound();
  const user = await getSessionUser(request);
  return { ...(await rewardsPage(getDb(), settings, user)), signIn: loginPath("/rewards") };
}

export async function action({ request }: Route.ActionArgs) {
  const settings = await settingsOrNotFound();
  const user = await requireUserAction(request);
  const fields = await readFields(request);
  const db = getDb();
  const answer =
    fields.intent === "join" ? await joinFromPage(db, user, settings, fields.wording ?? "") : fields.intent === "leave" ? await leaveFromPage(db, user) : null;
  if (!answer) return formError(REWARDS_PAGE_MESSAGES.unknown, 400);
  if (!answer.ok) return formError(answer.message, 409);
  return { ok: true as const, message: answer.message };
}

const link = "text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink hover:decoration-ink";

export default function Rewards({ loaderData, actionData }: Route.ComponentProps) {
  const { rules, viewer } = loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <main id="main" className="container-page pt-28 pb-20 sm:pt-36">
      <div className="mx-auto max-w-3xl">
        <p className="eyebrow">Points in rand</p>
        <h1 className="mt-2 text-4xl text-ink sm:text-5xl">Rewards</h1>
        <p className="mt-4 max-w-xl text-base leading-relaxed text-ink-soft">
          Every order brings you closer to the next scent: a point for every {rules.earnPer} you pay for goods, each worth {rules.pointWorth} off a later order.
        </p>

        <section aria-labelledby="membership-title" className="mt-10 border border-line bg-white/60 px-5 py-7 sm:px-8">
          {actionData ? <div className="mb-6">{actionData.ok ? <Notice tone="success">{actionData.message}</Notice> : <Notice tone="error">{actionData.error}</Notice>}</div> : null}
          {viewer.kind === "visitor" ? (
            <>
              <h2 id="membership-title" className="text-2xl text-ink">Join for free</h2>
              <p className="mt-2 text-sm leading-relaxed text-ink-soft">Sign in to your account to join; your points are kept with it.</p>
              <ButtonLink to={loaderData.signIn} className="mt-6">
                Sign in to join
              </ButtonLink>
            </>
          ) : viewer.kind === "shopper" ? (
            <>
              <h2 id="membership-title" className="text-2xl text-ink">Join the programme</h2>
              <p className="mt-2 text-sm text-ink-soft">By joining you agree to:</p>
              <blockquote className="mt-3 border-l-2 border-gold-light pl-4 text-sm leading-relaxed text-ink" data-testid="rewards-wording">
                {viewer.wording}
              </blockquote>
              <Form method="post" className="mt-6">
                <input type="hidden" name="intent" value="join" />
                <input type="hidden" name="wording" value={viewer.wording} />
                <Button type="submit" disabled={busy}>
                  {busy ? "Joining…" : "Join Rewards"}
                </Button>
              </Form>
              <p className="mt-3 text-xs text-muted">Free to join; leave at any time from this page.</p>
            </>
          ) : (
            <>
              <h2 id="membership-title" className="text-2xl text-ink">Your points</h2>
              <p className="mt-1 text-xs text-muted">Member since {viewer.joined}</p>
              <dl className="mt-5 grid gap-4 sm:grid-cols-2">
                <Balance label="Yours to spend" value={viewer.available} />
                <Balance label="Pending" value={viewer.pending} />
                {viewer.owed ? <Balance label="Owed" value={viewer.owed} /> : null}
              </dl>
              <p className="mt-5 text-sm">
                <Link to="/profile/rewards" className={link}>
                  See your points and their history
                </Link>
              </p>
              <Form method="post" className="mt-8 flex flex-col gap-3 border-t border-line pt-6 sm:flex-row sm:items-center sm:justify-between">
                <p className="text-xs leading-relaxed text-ink-soft sm:max-w-sm">Leaving stops new points; the points you have stay yours to spend until they expire.</p>
                <input type="hidden" name="intent" value="leave" />
                <Button type="submit" variant="secondary" size="sm" disabled={busy} className="shrink-0">
                  Leave Rewards
                </Button>
              </Form>
            </>
          )}
        </section>

        <RewardRulesList items={rules.items} />
      </div>
    </main>
  );
}

function Balance({ label, value }: { label: string; value: string }) {
  return (
    <div className="border-l-2 border-gold-light pl-4">
      <dt className="text-xs font-medium uppercase tracking-[0.16em] text-muted">{label}</dt>
      <dd className="mt-1 font-display text-2xl text-ink">{value}</dd>
    </div>
  );
}

