/**
 * "Your points expire soon" (issue 40 point 1, docs/decisions/062): one e-mail a month before a member's points
 * expire, only to members who agreed to marketing (docs/decisions/039: it is the shop asking them back, so it goes as
 * marketing, with the unsubscribe footer and one-click header). Each lot is claimed once (`expiry_noticed_at`, a
 * conditional update), so two servers never send it twice; a member with several lots expiring gets one e-mail.
 */
import type { Queryable } from "~/db/db.server";
import { sendMail } from "~/modules/mail/mailer.server";
import { unsubscribeLinks } from "~/modules/marketing/unsubscribe.server";
import { formatIssueDate } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { balancesOf } from "./reward-ledger.server";
import { pointsWords, type RewardSettings } from "./rewards.logic";

/** How long before a lot expires its e-mail goes. */
export const EXPIRY_NOTICE_DAYS = 31;

export async function sendPointsExpiryNotices(db: Queryable, s: RewardSettings, now: Date, limit = 200): Promise<number> {
  const until = new Date(now.getTime() + EXPIRY_NOTICE_DAYS * 86_400_000).toISOString();
  const lots = await db
    .selectFrom("reward_earnings")
    .innerJoin("users", "users.id", "reward_earnings.user_id")
    .select(["reward_earnings.id", "reward_earnings.user_id", "reward_earnings.remaining_points", "reward_earnings.expires_at", "users.email", "users.email_marketing"])
    .where("reward_earnings.remaining_points", ">", 0)
    .where("reward_earnings.expiry_noticed_at", "is", null)
    .where("reward_earnings.expires_at", ">", now.toISOString())
    .where("reward_earnings.expires_at", "<=", until)
    .orderBy("reward_earnings.expires_at")
    .limit(limit)
    .execute();
  const byPerson = new Map<string, { email: string; marketing: boolean; points: number; first: string }>();
  for (const lot of lots) {
    // claimed first: of two runners, one tells the member about this lot (asked or not: never looked at again)
    const claimed = await db.updateTable("reward_earnings").set({ expiry_noticed_at: now.toISOString() }).where("id", "=", lot.id).where("expiry_noticed_at", "is", null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const person = byPerson.get(lot.user_id) ?? { email: lot.email, marketing: lot.email_marketing === true, points: 0, first: lot.expires_at! };
    person.points += Number(lot.remaining_points);
    byPerson.set(lot.user_id, person);
  }
  const config = env();
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  let sent = 0;
  for (const [userId, person] of byPerson) {
    if (!person.marketing) continue;
    // never more than they have (points a refund took back may still be counted on a lot)
    person.points = Math.min(person.points, (await balancesOf(db, userId))?.available ?? 0);
    if (person.points === 0) continue;
    await sendMail(
      {
        to: person.email,
        subject: `${config.SHOP_NAME}: ${person.points.toLocaleString("en-ZA")} reward points expire on ${formatIssueDate(person.first)}`,
        text: [
          "Hi there,",
          "",
          `${pointsWords(person.points, s.pointValueCents)} of yours expire on ${formatIssueDate(person.first)}.`,
          "Spend them on your next order: choose how many at checkout.",
          "",
          `Your points: ${base}/profile/rewards`,
          "",
          config.SHOP_NAME,
        ].join("\n"),
        replyTo: config.CONTACT_EMAIL,
        kind: "marketing",
        reason: "You receive this because you joined our rewards programme and agreed to news and offers.",
        unsubscribe: unsubscribeLinks(userId, now),
      },
      db,
    );
    sent += 1;
  }
  return sent;
}
