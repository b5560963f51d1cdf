import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/db.server";
import { migrateTo, migrateToLatest } from "~/db/migrate.server";
import type { RewardEntryKind } from "~/db/schema";
import { changeBalances, credit, REWARDS_SYSTEM } from "~/modules/rewards/reward-ledger.server";
import { rewardFigures } from "~/modules/rewards/rewards-admin.server";
import { newId } from "~/utils/ids";
import { insertReviewer } from "../../../tests/factories/catalog";
import { TWO_MEMBERS_FIGURES } from "../../../tests/factories/rewards";
import { createThrowawayDatabase } from "../../../tests/setup/pg-database";

/**
 * Migration 0059 on a shop whose members already have a ledger: each account's running totals are filled from its
 * entries, so Admin → Rewards shows the same figures as when it summed the ledger, and later entries add to them.
 */
let shop: DatabaseHandle;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (process.env.TEST_DB === "postgres") {
    const made = await createThrowawayDatabase(process.env.TEST_PG_URL!, "m0059");
    shop = openDatabase(made.url, 2);
    drop = made.drop;
  } else {
    shop = openDatabase(":memory:");
  }
  await migrateTo(shop.db, "0058_referrals");
}, 60_000);

afterAll(async () => {
  await shop.close();
  await drop?.();
});

/** A member whose ledger holds these entries (available, pending, owed deltas), written as 0057's code wrote them. */
async function memberWithLedger(entries: Array<[RewardEntryKind, number, number, number]>) {
  const db = shop.db;
  const user = await insertReviewer(db, `m0059-${newId()}@example.com`);
  const balances = { available: 0, pending: 0, owed: 0 };
  let position = 0;
  for (const [kind, available, pending, owed] of entries) {
    balances.available += available;
    balances.pending += pending;
    balances.owed += owed;
    position += 1;
    if (position === 1) await db.insertInto("reward_accounts").values({ user_id: user.id, joined_at: "2026-11-01T08:00:00.000Z", created_at: "2026-11-01T08:00:00.000Z" }).execute();
    await db
      .insertInto("reward_ledger")
      .values({ id: newId(), user_id: user.id, position, kind, available_delta: available, pending_delta: pending, owed_delta: owed, available_after: balances.available, pending_after: balances.pending, owed_after: balances.owed, actor_kind: "system", created_at: "2026-11-02T08:00:00.000Z" })
      .execute();
  }
  await db.updateTable("reward_accounts").set({ available_points: balances.available, pending_points: balances.pending, owed_points: balances.owed, entry_count: position }).where("user_id", "=", user.id).execute();
  return user;
}

describe("migration 0059", () => {
  it("fills each member's totals from their ledger: the figures are what the ledger summed by kind gave", async () => {
    // the story of TWO_MEMBERS_FIGURES, as ledger rows. a: earns 300, 200 become available, spends 120, 20 released,
    // 10 given back, 50 expire, 5 taken away by hand
    const a = await memberWithLedger([
      ["earned", 0, 300, 0],
      ["available", 200, -200, 0],
      ["redeemed", -120, 0, 0],
      ["released", 20, 0, 0],
      ["given_back", 10, 0, 0],
      ["expired", -50, 0, 0],
      ["adjusted", -5, 0, 0],
    ]);
    // b: 40 pending taken back, 25 more than they have taken back (owed), then 30 added by hand (25 pay what is owed)
    await memberWithLedger([
      ["earned", 0, 40, 0],
      ["reversed", 0, -40, 0],
      ["reversed", 0, 0, 25],
      ["adjusted", 5, 0, -25],
    ]);

    await migrateToLatest(shop.db);
    expect(await rewardFigures(shop.db)).toEqual(TWO_MEMBERS_FIGURES);

    // a change after the migration adds to the totals filled
    await changeBalances(shop.db, a.id, "given_back", credit(7), { actor: REWARDS_SYSTEM });
    expect(await rewardFigures(shop.db)).toMatchObject({ givenBack: 17, available: 67 });
  });
});
