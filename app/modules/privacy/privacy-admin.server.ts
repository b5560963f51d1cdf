/**
 * Admin → Privacy (docs/decisions/040): the retention policy as the job applies it, its last runs, and the record of
 * people's requests about their data (downloads, deletions) — when, by whom, what was done, never whose data.
 */
import type { Queryable } from "~/db/db.server";
import { env, type Env } from "~/utils/env.server";
import { retentionRules, type RetentionRule } from "./retention.logic";
import { listRetentionRuns, retentionPolicy, type RetentionRunView } from "./retention.server";

export interface PrivacyRequestView {
  id: string;
  kind: "export" | "erasure";
  by: "self" | "admin";
  /** the admin who deleted an account (their address; null for the person's own requests or a deleted admin) */
  adminEmail: string | null;
  summary: Record<string, number>;
  createdAt: string;
}

export interface PrivacyOverview {
  rules: RetentionRule[];
  runs: RetentionRunView[];
  requests: PrivacyRequestView[];
  /** over the last 365 days */
  year: { exports: number; erasures: number };
}

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

export async function privacyOverview(db: Queryable, config: Env = env(), now: Date = new Date()): Promise<PrivacyOverview> {
  const since = new Date(now.getTime() - YEAR_MS).toISOString();
  const [runs, requests, counts] = await Promise.all([
    listRetentionRuns(db, 10),
    db
      .selectFrom("privacy_requests as r")
      .leftJoin("users as a", "a.id", "r.actor_user_id")
      .select(["r.id", "r.kind", "r.requested_by", "r.summary", "r.created_at", "a.email as admin_email"])
      .orderBy("r.created_at", "desc")
      .orderBy("r.id", "desc")
      .limit(20)
      .execute(),
    db
      .selectFrom("privacy_requests")
      .select(["kind", (eb) => eb.fn.countAll<number>().as("n")])
      .where("created_at", ">=", since)
      .groupBy("kind")
      .execute(),
  ]);
  const year = { exports: 0, erasures: 0 };
  for (const c of counts) {
    if (c.kind === "export") year.exports = Number(c.n);
    else year.erasures = Number(c.n);
  }
  return {
    rules: retentionRules(retentionPolicy(config)),
    runs,
    requests: requests.map((r) => ({
      id: r.id,
      kind: r.kind,
      by: r.requested_by,
      adminEmail: r.admin_email ?? null,
      summary: r.summary ?? {},
      createdAt: r.created_at,
    })),
    year,
  };
}
