import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { SHIPPING_ADMIN_MESSAGES as M } from "~/modules/shipping/shipping-admin.schema";
import { loadShippingZones } from "~/modules/shipping/shipping.server";
import { ADMIN_ACCESS_REQUIRED } from "~/utils/errors";
import { onStorefrontChange } from "~/utils/storefront-changes.server";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { insertZone } from "../../tests/factories/orders";
import * as route from "./admin.shipping";

const db = () => getDb();
let cookie = "";
let customerCookie = "";
const changes: string[] = [];

beforeAll(async () => {
  const admin = await createUser(db(), { isAdmin: true });
  cookie = await sessionCookieFor(db(), admin.id);
  const customer = await createUser(db());
  customerCookie = await sessionCookieFor(db(), customer.id);
  onStorefrontChange((reason) => changes.push(reason));
});

type Form = Record<string, string | string[]>;
const post = (form: Form, as = cookie) => callAction(route.action, "/admin/shipping", form, { headers: as ? { cookie: as } : {} });
const page = async () => dataOf(await callLoader(route.loader, "/admin/shipping", { headers: { cookie } }));

/** Every row of the shipping tables, for "nothing changed". */
async function shippingState(): Promise<string> {
  const parts: string[] = [];
  for (const table of ["shipping_zones", "shipping_rules", "shipping_zone_provinces"]) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db());
    parts.push(table, ...rows.map((r) => JSON.stringify(r)).sort());
  }
  return parts.join("\n");
}

const zoneByName = (name: string) => db().selectFrom("shipping_zones").selectAll().where("name", "=", name).executeTakeFirst();
const provincesOf = async (zoneId: string) =>
  (await db().selectFrom("shipping_zone_provinces").select("province").where("zone_id", "=", zoneId).orderBy("province").execute()).map((r) => r.province);
const rulesOf = async (zoneId: string) =>
  db().selectFrom("shipping_rules").select(["id", "min_total_cents", "max_total_cents", "rate_cents"]).where("zone_id", "=", zoneId).orderBy("min_total_cents").execute();

let n = 0;
const uniqueName = (prefix: string) => `${prefix} ${++n}`;

describe("admin shipping: zones", () => {
  it("creates a zone: rand to cents, the ticked provinces stored, the storefront told; edits and lists it", async () => {
    const before = changes.length;
    const name = uniqueName("Cape Winelands");
    const result = await post({ intent: "saveZone", name: `  ${name} `, baseRate: "85.50", provinces: ["Northern Cape", "Eastern Cape"] });
    expect(await dataOf(result)).toMatchObject({ ok: true, message: M.zoneCreated });
    const zone = await zoneByName(name);
    expect(zone).toMatchObject({ base_rate_cents: 8550 });
    expect(await provincesOf(zone!.id)).toEqual(["Eastern Cape", "Northern Cape"]);
    expect(changes.length).toBe(before + 1);

    // Edit: new rate, one province dropped, one added.
    expect(await dataOf(await post({ intent: "saveZone", id: zone!.id, name, baseRate: "0", provinces: ["Eastern Cape", "Limpopo"] }))).toMatchObject({ ok: true, message: M.zoneUpdated });
    expect(await zoneByName(name)).toMatchObject({ base_rate_cents: 0 });
    expect(await provincesOf(zone!.id)).toEqual(["Eastern Cape", "Limpopo"]);

    // No provinces ticked: it serves none.
    await post({ intent: "saveZone", id: zone!.id, name, baseRate: "0" });
    expect(await provincesOf(zone!.id)).toEqual([]);
    await post({ intent: "deleteZone", id: zone!.id });
  });

  it.each([
    [{ name: "" }, M.nameRequired, "name"],
    [{ name: "x".repeat(81) }, M.nameTooLong, "name"],
    [{ baseRate: "" }, M.baseRate, "baseRate"],
    [{ baseRate: "-5" }, M.baseRate, "baseRate"],
    [{ baseRate: "12.345" }, M.baseRate, "baseRate"],
    [{ baseRate: "abc" }, M.baseRate, "baseRate"],
    [{ baseRate: "99999999" }, M.tooLarge, "baseRate"],
    [{ provinces: ["Atlantis"] }, M.provinces, "provinces"],
    [{ provinces: ["Gauteng", "Gauteng\u0000"] }, null, null],
  ] as [Form, string | null, string | null][])("refuses %j and changes nothing", async (change, message, field) => {
    const before = await shippingState();
    const result = await post({ intent: "saveZone", name: uniqueName("Refused"), baseRate: "60", ...change });
    expect(statusOf(result)).toBe(400);
    if (message) {
      const body = await dataOf(result);
      expect(body.error).toBe(message);
      expect(body.fieldErrors[field!]).toBe(message);
    }
    expect(await shippingState()).toBe(before);
  });

  it("refuses a name another zone has (any case)", async () => {
    const other = await insertZone(db(), { name: uniqueName("Karoo") });
    const before = await shippingState();
    const result = await post({ intent: "saveZone", name: other.name.toUpperCase(), baseRate: "60" });
    expect(statusOf(result)).toBe(409);
    expect((await dataOf(result)).error).toBe(M.nameTaken);
    expect(await shippingState()).toBe(before);
  });

  it("a province belongs to one zone: taking it from another zone is refused naming that zone, and nothing changes", async () => {
    const cape = await insertZone(db(), { name: uniqueName("Western Cape") });
    await post({ intent: "saveZone", id: cape.id, name: cape.name, baseRate: "85", provinces: ["Western Cape"] });
    const before = await shippingState();

    const created = await post({ intent: "saveZone", name: uniqueName("Cape Express"), baseRate: "50", provinces: ["KwaZulu-Natal", "Western Cape"] });
    expect(statusOf(created)).toBe(409);
    expect(await dataOf(created)).toMatchObject({ error: M.provinceTaken("Western Cape", cape.name), fieldErrors: { provinces: M.provinceTaken("Western Cape", cape.name) } });
    expect(await shippingState()).toBe(before);

    const other = await insertZone(db(), { name: uniqueName("Other") });
    const edited = await post({ intent: "saveZone", id: other.id, name: other.name, baseRate: "50", provinces: ["Western Cape"] });
    expect(statusOf(edited)).toBe(409);
    expect(await provincesOf(other.id)).toEqual([]);
    expect(await provincesOf(cape.id)).toEqual(["Western Cape"]);

    // Saving the zone that has it keeps it; freed there, another zone may take it.
    expect(await dataOf(await post({ intent: "saveZone", id: cape.id, name: cape.name, baseRate: "90", provinces: ["Western Cape"] }))).toMatchObject({ ok: true });
    await post({ intent: "saveZone", id: cape.id, name: cape.name, baseRate: "90" });
    expect(await dataOf(await post({ intent: "saveZone", id: other.id, name: other.name, baseRate: "50", provinces: ["Western Cape"] }))).toMatchObject({ ok: true });
    expect(await provincesOf(other.id)).toEqual(["Western Cape"]);
    // the database itself holds the rule too
    await expect(db().insertInto("shipping_zone_provinces").values({ province: "Western Cape", zone_id: cape.id }).execute()).rejects.toThrow();
    await post({ intent: "deleteZone", id: other.id });
    await post({ intent: "deleteZone", id: cape.id });
  });

  it("deletes a zone with its rules and provinces (the province is free again); a zone that is gone is a 404", async () => {
    const zone = await insertZone(db(), { name: uniqueName("Doomed"), rules: [{ minTotalCents: 0, maxTotalCents: 9999, rateCents: 500 }] });
    await post({ intent: "saveZone", id: zone.id, name: zone.name, baseRate: "85", provinces: ["Mpumalanga"] });
    const before = changes.length;
    expect(await dataOf(await post({ intent: "deleteZone", id: zone.id }))).toMatchObject({ ok: true, message: M.zoneDeleted });
    expect(changes.length).toBe(before + 1);
    expect(await zoneByName(zone.name)).toBeUndefined();
    expect(await rulesOf(zone.id)).toEqual([]);
    expect(await provincesOf(zone.id)).toEqual([]);
    const again = await post({ intent: "deleteZone", id: zone.id });
    expect(statusOf(again)).toBe(404);
    expect((await dataOf(again)).error).toBe(M.zoneGone);
    const gone = await post({ intent: "saveZone", id: zone.id, name: zone.name, baseRate: "1" });
    expect(statusOf(gone)).toBe(404);
  });
});

describe("admin shipping: rules", () => {
  it("adds rules (both ends inclusive: adjacent ranges are fine), refuses an overlap naming the rule, and changes nothing", async () => {
    const zone = await insertZone(db(), { name: uniqueName("Rules") });
    expect(await dataOf(await post({ intent: "saveRule", zoneId: zone.id, minTotal: "300", maxTotal: "598.99", rate: "45" }))).toMatchObject({ ok: true, message: M.ruleAdded });
    expect(await dataOf(await post({ intent: "saveRule", zoneId: zone.id, minTotal: "0", maxTotal: "299.99", rate: "60" }))).toMatchObject({ ok: true });
    expect(await dataOf(await post({ intent: "saveRule", zoneId: zone.id, minTotal: "599", maxTotal: "", rate: "0" }))).toMatchObject({ ok: true });
    expect((await rulesOf(zone.id)).map((r) => [r.min_total_cents, r.max_total_cents, r.rate_cents])).toEqual([
      [0, 29999, 6000],
      [30000, 59899, 4500],
      [59900, null, 0],
    ]);

    const before = await shippingState();
    for (const [min, max, clash] of [
      ["299.99", "300", "R0.00 – R299.99 (rate R60.00)"],
      ["598.99", "", "R300.00 – R598.99 (rate R45.00)"],
      ["1000", "2000", "R599.00 and more (rate R0.00)"],
      ["100", "200", "R0.00 – R299.99 (rate R60.00)"],
    ]) {
      const result = await post({ intent: "saveRule", zoneId: zone.id, minTotal: min!, maxTotal: max!, rate: "10" });
      expect(statusOf(result)).toBe(409);
      expect((await dataOf(result)).error).toBe(`This range overlaps the zone's rule ${clash}: a total may match one rule only`);
    }
    expect(await shippingState()).toBe(before);

    // The storefront's logic prices with them as listed.
    const [loaded] = (await loadShippingZones(db())).filter((z) => z.id === zone.id);
    expect(loaded!.rules.map((r) => r.minTotalCents)).toEqual([0, 30000, 59900]);
  });

  it("edits a rule: its own range is no clash; moved into a neighbour it is refused; max below min is refused", async () => {
    const zone = await insertZone(db(), {
      name: uniqueName("Edit rules"),
      rules: [
        { minTotalCents: 0, maxTotalCents: 29999, rateCents: 6000 },
        { minTotalCents: 30000, maxTotalCents: null, rateCents: 4500 },
      ],
    });
    const [low, high] = zone.rules;
    expect(await dataOf(await post({ intent: "saveRule", id: low!.id, zoneId: zone.id, minTotal: "0", maxTotal: "299.99", rate: "55" }))).toMatchObject({ ok: true, message: M.ruleUpdated });
    expect((await rulesOf(zone.id))[0]).toMatchObject({ rate_cents: 5500 });

    const before = await shippingState();
    const into = await post({ intent: "saveRule", id: low!.id, zoneId: zone.id, minTotal: "0", maxTotal: "300", rate: "55" });
    expect(statusOf(into)).toBe(409);
    expect((await dataOf(into)).error).toBe(M.overlap("R300.00 and more", "R45.00"));
    const backwards = await post({ intent: "saveRule", id: high!.id, zoneId: zone.id, minTotal: "500", maxTotal: "400", rate: "1" });
    expect(statusOf(backwards)).toBe(400);
    expect(await dataOf(backwards)).toMatchObject({ error: M.maxBelowMin, fieldErrors: { maxTotal: M.maxBelowMin } });
    for (const bad of [{ minTotal: "-1" }, { rate: "" }, { rate: "1.234" }, { maxTotal: "x" }, { zoneId: "" }]) {
      const result = await post({ intent: "saveRule", zoneId: zone.id, minTotal: "1000", maxTotal: "", rate: "1", ...bad });
      expect(statusOf(result), JSON.stringify(bad)).toBe(400);
    }
    expect(await shippingState()).toBe(before);
  });

  it("a rule for a zone that is gone is a 404; deletes a rule; a rule that is gone is a 404", async () => {
    const missing = await post({ intent: "saveRule", zoneId: "no-such-zone", minTotal: "0", maxTotal: "", rate: "1" });
    expect(statusOf(missing)).toBe(404);
    expect((await dataOf(missing)).error).toBe(M.zoneGone);
    const zone = await insertZone(db(), { name: uniqueName("Delete rule"), rules: [{ minTotalCents: 0, maxTotalCents: null, rateCents: 100 }] });
    const ruleId = zone.rules[0]!.id;
    expect(await dataOf(await post({ intent: "deleteRule", id: ruleId }))).toMatchObject({ ok: true, message: M.ruleDeleted });
    expect(await rulesOf(zone.id)).toEqual([]);
    expect(statusOf(await post({ intent: "deleteRule", id: ruleId }))).toBe(404);
  });
});

describe("admin shipping: the page and who may use it", () => {
  it("lists zones by name with their rules by min total, provinces and what no zone serves", async () => {
    const b = await insertZone(db(), { name: "ZZ Page B", rules: [{ minTotalCents: 50000, rateCents: 0 }, { minTotalCents: 0, maxTotalCents: 49999, rateCents: 7000 }] });
    const a = await insertZone(db(), { name: "ZZ Page A", baseRateCents: 9900 });
    await post({ intent: "saveZone", id: a.id, name: a.name, baseRate: "99", provinces: ["Free State", "Gauteng"] });
    const d = await page();
    const names = d.zones.map((z: { name: string }) => z.name);
    expect(names.indexOf("ZZ Page A")).toBeLessThan(names.indexOf("ZZ Page B"));
    const shownA = d.zones.find((z: { id: string }) => z.id === a.id);
    expect(shownA).toMatchObject({ baseRate: "R99.00", baseRateInput: "99.00", provinces: ["Free State", "Gauteng"] });
    expect(d.zones.find((z: { id: string }) => z.id === b.id).rules.map((r: { range: string; rate: string }) => [r.range, r.rate])).toEqual([
      ["R0.00 – R499.99", "R70.00"],
      ["R500.00 and more", "Free"],
    ]);
    expect(d.servedBy["Gauteng"]).toBe("ZZ Page A");
    expect(d.unserved).not.toContain("Gauteng");
    expect(d.unserved).toContain("Limpopo");
    await post({ intent: "deleteZone", id: a.id });
    await post({ intent: "deleteZone", id: b.id });
  });

  it("only an admin: a visitor goes to login, a customer is denied, and their posts change nothing", async () => {
    const visitorPage = await callLoader(route.loader, "/admin/shipping");
    expect(statusOf(visitorPage)).toBe(302);
    expect(statusOf(await callLoader(route.loader, "/admin/shipping", { headers: { cookie: customerCookie } }))).toBe(403);
    const zone = await insertZone(db(), { name: uniqueName("Guarded"), rules: [{ minTotalCents: 0, rateCents: 100 }] });
    const before = await shippingState();
    for (const as of ["", customerCookie]) {
      const forms: Form[] = [
        { intent: "saveZone", name: uniqueName("Sneaky"), baseRate: "1", provinces: ["Limpopo"] },
        { intent: "saveZone", id: zone.id, name: zone.name, baseRate: "0" },
        { intent: "deleteZone", id: zone.id },
        { intent: "saveRule", zoneId: zone.id, minTotal: "0", maxTotal: "", rate: "0" },
        { intent: "deleteRule", id: zone.rules[0]!.id },
      ];
      for (const form of forms) {
        const result = await post(form, as);
        expect(statusOf(result)).toBe(403);
        expect((await dataOf(result)).error).toBe(ADMIN_ACCESS_REQUIRED);
      }
    }
    expect(await shippingState()).toBe(before);
  });
});
