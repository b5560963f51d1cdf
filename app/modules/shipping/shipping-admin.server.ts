import { inTransaction } from "~/db/in-transaction.server";
import { isUniqueViolation, type DB, type Queryable, type Trx } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { formatRand } from "~/utils/money";
import { SHIPPING_ADMIN_MESSAGES as M, type RuleSaveInput, type ZoneSaveInput } from "./shipping-admin.schema";
import { findOverlappingRule, ruleRangeLabel, sortProvinces } from "./shipping.logic";

/**
 * Shipping zones and their rules as the owner runs them (SPEC §2 Shipping, §7 shipping_zones / shipping_rules), and
 * the provinces each zone serves (migration 0004). Every change is one transaction that first takes the zone's row
 * (an UPDATE that changes nothing: a row lock on PostgreSQL, the write lock on SQLite), so two admins saving rules of
 * one zone at once are checked one after the other and can't slip an overlap in between.
 */
export interface AdminRule {
  id: string;
  minTotalCents: number;
  maxTotalCents: number | null;
  rateCents: number;
}

export interface AdminZone {
  id: string;
  name: string;
  baseRateCents: number;
  provinces: string[];
  createdAt: string;
  rules: AdminRule[];
}

/** Every zone by name (as the checkout lists them), each with its rules by min total and its provinces. */
export async function listAdminZones(db: Queryable): Promise<AdminZone[]> {
  const zones = await db.selectFrom("shipping_zones").select(["id", "name", "base_rate_cents", "created_at"]).orderBy("name").orderBy("id").execute();
  if (zones.length === 0) return [];
  const ids = zones.map((z) => z.id);
  const [rules, provinces] = await Promise.all([
    db
      .selectFrom("shipping_rules")
      .select(["id", "zone_id", "min_total_cents", "max_total_cents", "rate_cents"])
      .where("zone_id", "in", ids)
      .orderBy("min_total_cents")
      .orderBy("id")
      .execute(),
    db.selectFrom("shipping_zone_provinces").select(["zone_id", "province"]).where("zone_id", "in", ids).execute(),
  ]);
  return zones.map((z) => ({
    id: z.id,
    name: z.name,
    baseRateCents: Number(z.base_rate_cents),
    createdAt: z.created_at,
    provinces: sortProvinces(provinces.filter((p) => p.zone_id === z.id).map((p) => p.province)),
    rules: rules
      .filter((r) => r.zone_id === z.id)
      .map((r) => ({ id: r.id, minTotalCents: Number(r.min_total_cents), maxTotalCents: r.max_total_cents === null ? null : Number(r.max_total_cents), rateCents: Number(r.rate_cents) })),
  }));
}

/** Takes the zone's row for the rest of the transaction; a zone that is gone is refused. */
async function lockZone(trx: Trx, zoneId: string): Promise<void> {
  const result = await trx.updateTable("shipping_zones").set((eb) => ({ name: eb.ref("name") })).where("id", "=", zoneId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new DomainError(M.zoneGone, 404);
}

/**
 * Creates or updates a zone with the provinces it serves. A name another zone has, or a province another zone
 * serves, is refused naming that zone, and nothing changes.
 */
export async function saveZone(db: DB, input: ZoneSaveInput): Promise<{ created: boolean; id: string }> {
  try {
    return await inTransaction(db, async (trx) => {
      const id = input.id ?? newId();
      if (input.id) await lockZone(trx, input.id);
      const sameName = await trx
        .selectFrom("shipping_zones")
        .select(["id", "name"])
        .where((eb) => eb(eb.fn("lower", ["name"]), "=", input.name.toLowerCase()))
        .where("id", "<>", id)
        .executeTakeFirst();
      if (sameName) throw new DomainError(M.nameTaken, 409, "name");
      if (input.provinces.length > 0) {
        const taken = await trx
          .selectFrom("shipping_zone_provinces as p")
          .innerJoin("shipping_zones as z", "z.id", "p.zone_id")
          .select(["p.province", "z.name"])
          .where("p.province", "in", input.provinces)
          .where("p.zone_id", "<>", id)
          .execute();
        const first = sortProvinces(taken.map((t) => t.province))[0];
        if (first) throw new DomainError(M.provinceTaken(first, taken.find((t) => t.province === first)!.name), 409, "provinces");
      }
      if (input.id) {
        await trx.updateTable("shipping_zones").set({ name: input.name, base_rate_cents: input.baseRate }).where("id", "=", id).execute();
        await trx.deleteFrom("shipping_zone_provinces").where("zone_id", "=", id).execute();
      } else {
        await trx.insertInto("shipping_zones").values({ id, name: input.name, base_rate_cents: input.baseRate, created_at: new Date().toISOString() }).execute();
      }
      if (input.provinces.length > 0) {
        await trx
          .insertInto("shipping_zone_provinces")
          .values(input.provinces.map((province) => ({ province, zone_id: id })))
          .execute();
      }
      return { created: !input.id, id };
    });
  } catch (error) {
    // Another admin took one of these provinces between our check and our insert: the key refused it.
    if (isUniqueViolation(error)) throw new DomainError(M.provincesChanged, 409, "provinces");
    throw error;
  }
}

/** Deletes a zone, its rules and its provinces; orders that shipped with it keep their delivery charge. */
export async function deleteZone(db: DB, id: string): Promise<{ name: string }> {
  return inTransaction(db, async (trx) => {
    const zone = await trx.selectFrom("shipping_zones").select("name").where("id", "=", id).executeTakeFirst();
    if (!zone) throw new DomainError(M.zoneGone, 404);
    await trx.deleteFrom("shipping_zone_provinces").where("zone_id", "=", id).execute();
    await trx.deleteFrom("shipping_rules").where("zone_id", "=", id).execute();
    await trx.deleteFrom("shipping_zones").where("id", "=", id).execute();
    return { name: zone.name };
  });
}

/**
 * Adds a rule to a zone, or changes one. A range that shares a total (both ends inclusive) with another rule of the
 * zone is refused naming that rule, and nothing changes. Moving a rule to another zone is not offered.
 */
export async function saveRule(db: DB, input: RuleSaveInput): Promise<{ created: boolean; id: string }> {
  return inTransaction(db, async (trx) => {
    let zoneId = input.zoneId;
    if (input.id) {
      const rule = await trx.selectFrom("shipping_rules").select("zone_id").where("id", "=", input.id).executeTakeFirst();
      if (!rule) throw new DomainError(M.ruleGone, 404);
      zoneId = rule.zone_id;
    }
    await lockZone(trx, zoneId);
    const rules = (await trx.selectFrom("shipping_rules").select(["id", "min_total_cents", "max_total_cents", "rate_cents"]).where("zone_id", "=", zoneId).execute()).map((r) => ({
      id: r.id,
      minTotalCents: Number(r.min_total_cents),
      maxTotalCents: r.max_total_cents === null ? null : Number(r.max_total_cents),
      rateCents: Number(r.rate_cents),
    }));
    const candidate = { minTotalCents: input.minTotal, maxTotalCents: input.maxTotal };
    const clash = findOverlappingRule(rules, candidate, input.id);
    if (clash) throw new DomainError(M.overlap(ruleRangeLabel(clash), formatRand(clash.rateCents)), 409, "minTotal");
    const values = { min_total_cents: input.minTotal, max_total_cents: input.maxTotal, rate_cents: input.rate };
    if (input.id) {
      await trx.updateTable("shipping_rules").set(values).where("id", "=", input.id).execute();
      return { created: false, id: input.id };
    }
    const id = newId();
    await trx.insertInto("shipping_rules").values({ id, zone_id: zoneId, ...values }).execute();
    return { created: true, id };
  });
}

export async function deleteRule(db: DB, id: string): Promise<void> {
  const result = await db.deleteFrom("shipping_rules").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new DomainError(M.ruleGone, 404);
}
