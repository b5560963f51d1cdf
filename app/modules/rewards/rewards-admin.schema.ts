/**
 * Admin → Marketing → Rewards (issue 40, docs/decisions/062): the programme's settings and one member's points changed
 * by hand. Browser-safe.
 */
import { z } from "zod";
import { rewardSettingsSchema } from "./rewards.logic";

export const REWARDS_ADMIN_MESSAGES = {
  saved: "Rewards settings saved",
  failedSettings: "Failed to save the rewards settings",
  failedAdjust: "Failed to change the customer's points",
  emailRequired: "Enter the customer's e-mail address",
  emailInvalid: "Enter a valid e-mail address, such as thandi@example.co.za",
  points: "Points must be a whole number, such as 50 to add or -20 to take away",
  pointsZero: "Points can't be 0: add or take away at least 1",
  pointsTooMany: "Change at most 1 000 000 points at a time",
  reasonRequired: "Give a reason for the change",
  reasonTooLong: "Keep the reason to 300 characters or fewer",
  noCustomer: "No customer has that e-mail address.",
  notMember: "This customer hasn't joined the rewards programme.",
  /** a negative change larger than what they have to spend */
  notEnough: (available: number) =>
    available === 0
      ? "This customer has no points available to take away."
      : `This customer has only ${available.toLocaleString("en-ZA")} ${available === 1 ? "point" : "points"} available: you can take away at most that.`,
  /** the answer, and the activity log's summary: what, for whom, and why */
  added: (points: number, email: string, reason: string) => `Added ${points.toLocaleString("en-ZA")} ${points === 1 ? "point" : "points"} to ${email} (“${reason}”)`,
  removed: (points: number, email: string, reason: string) => `Took ${points.toLocaleString("en-ZA")} ${points === 1 ? "point" : "points"} away from ${email} (“${reason}”)`,
} as const;

export const ADJUST_REASON_MAX = 300;
export const ADJUST_POINTS_MAX = 1_000_000;

const M = REWARDS_ADMIN_MESSAGES;

export const rewardsAdminIntent = z.discriminatedUnion("intent", [
  rewardSettingsSchema.extend({ intent: z.literal("settings") }),
  z.object({
    intent: z.literal("adjust"),
    email: z
      .string({ error: M.emailRequired })
      .trim()
      .toLowerCase()
      .min(1, M.emailRequired)
      .max(254, M.emailInvalid)
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, M.emailInvalid),
    // "+50", "50", "-20" (a phone's keyboard may give the typographic minus "−")
    points: z
      .string({ error: M.points })
      .trim()
      .regex(/^[+\-−]?\s*\d{1,7}$/, M.points)
      .transform((v) => Number(v.replace("−", "-").replace(/[+\s]/g, "")))
      .pipe(
        z
          .number()
          .refine((n) => n !== 0, M.pointsZero)
          .refine((n) => Math.abs(n) <= ADJUST_POINTS_MAX, M.pointsTooMany),
      ),
    reason: z.string({ error: M.reasonRequired }).trim().min(1, M.reasonRequired).max(ADJUST_REASON_MAX, M.reasonTooLong),
  }),
]);

export type RewardsAdminInput = z.infer<typeof rewardsAdminIntent>;
export type AdjustInput = Extract<RewardsAdminInput, { intent: "adjust" }>;
