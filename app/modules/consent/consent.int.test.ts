/**
 * The consent log (issue 21 point 1), on SQLite and PostgreSQL, through the real pages' loaders and actions: what
 * registering, the profile's switch and an admin's change write, what they must not write, the history an admin
 * reads and the whole log as a CSV.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as register from "~/routes/auth.register";
import * as preferencesTab from "~/routes/profile.preferences";
import * as users from "~/routes/admin.users";
import * as consentsCsv from "~/routes/admin.consents[.]csv";
import { PRIVACY_NOTICE_VERSION, TERMS_VERSION } from "~/modules/consent/legal-versions";
import { USER_ADMIN_MESSAGES } from "~/modules/accounts/users-admin.schema";
import { env } from "~/utils/env.server";
import { callAction, callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { createUser, sessionCookieFor, uniqueEmail } from "../../../tests/factories/users";
import { ADMIN_MARKETING_OFF_WORDING, MARKETING_CONSENT, marketingConsentWording, noticeText, REGISTRATION_NOTICE } from "./consent.logic";
import { CONSENT_CSV_COLUMNS, consentBatches, listConsents, recordConsent } from "./consent.server";

const db = () => getDb();
let ipSeq = 0;
const ip = () => `203.0.113.${++ipSeq}`;

async function registerThroughPage(email: string, marketing: boolean) {
  const form: Record<string, string> = { email, password: "a quiet sandalwood evening" };
  if (marketing) form.marketing = "on";
  const result = await callAction(register.action, "/auth/register", form, { ip: ip() });
  expect(statusOf(result)).toBe(302);
  return db().selectFrom("users").select(["id", "email_marketing", "marketing_consent_at"]).where("email", "=", email).executeTakeFirstOrThrow();
}

async function consentCount() {
  return Number((await db().selectFrom("consents").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
}

describe("registering", () => {
  it("without the marketing box: the terms and privacy notice of today's versions, with the words shown; no marketing", async () => {
    const email = uniqueEmail("plain");
    const user = await registerThroughPage(email, false);
    expect(user.email_marketing).toBe(false);
    const rows = await listConsents(db(), user.id);
    const shown = noticeText(REGISTRATION_NOTICE);
    expect(rows.map((r) => [r.purpose, r.version, r.granted, r.source, r.email, r.wording]).sort()).toEqual(
      [
        ["privacy_notice", PRIVACY_NOTICE_VERSION.version, true, "register", email, shown],
        ["terms", TERMS_VERSION.version, true, "register", email, shown],
      ].sort(),
    );
    expect(shown).toContain("Terms & Conditions");
    expect(shown).toContain("privacy notice");
  });

  it("with the box ticked: opted in, with the box's exact words, apart from the terms", async () => {
    const email = uniqueEmail("keen");
    const user = await registerThroughPage(email, true);
    expect(user.email_marketing).toBe(true);
    expect(user.marketing_consent_at).not.toBeNull();
    const marketing = (await listConsents(db(), user.id)).filter((r) => r.purpose === "marketing_email");
    expect(marketing).toHaveLength(1);
    expect(marketing[0]).toMatchObject({ granted: true, source: "register", version: MARKETING_CONSENT.version, wording: marketingConsentWording(env().SHOP_NAME), actorUserId: null });
  });

  it("someone registering an existing address changes nothing of its owner's consents (and ticks nothing for them)", async () => {
    const owner = await createUser(db());
    const before = await consentCount();
    const result = await callAction(register.action, "/auth/register", { email: owner.email, password: "someone else's passphrase", marketing: "on" }, { ip: ip() });
    expect(statusOf(result)).toBe(302); // the same answer as for a new address
    expect(await consentCount()).toBe(before);
    const row = await db().selectFrom("users").select("email_marketing").where("id", "=", owner.id).executeTakeFirstOrThrow();
    expect(row.email_marketing).toBe(false);
  });
});

describe("the profile's switch", () => {
  it("opting in and out is a row each, with the switch's words; saving unchanged records nothing", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const save = (marketing: boolean) =>
      callAction(preferencesTab.action, "/profile/preferences", { intent: "preferences", emailNotifications: "on", ...(marketing ? { emailMarketing: "on" } : {}) }, { headers: { cookie } });

    expect(await dataOf(await save(true))).toMatchObject({ ok: true });
    expect(await dataOf(await save(true))).toMatchObject({ ok: true });
    let rows = await listConsents(db(), user.id);
    expect(rows.map((r) => [r.purpose, r.granted, r.source])).toEqual([["marketing_email", true, "profile"]]);
    expect(rows[0]!.wording).toBe(marketingConsentWording(env().SHOP_NAME));

    await new Promise((r) => setTimeout(r, 2)); // the next row a distinct millisecond later: history is oldest first
    expect(await dataOf(await save(false))).toMatchObject({ ok: true });
    rows = await listConsents(db(), user.id);
    expect(rows.map((r) => [r.purpose, r.granted, r.source])).toEqual([
      ["marketing_email", true, "profile"],
      ["marketing_email", false, "profile"],
    ]);
    const after = await db().selectFrom("users").select(["email_marketing", "marketing_consent_at", "email_notifications"]).where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ email_marketing: false, marketing_consent_at: null, email_notifications: true });
  });

  it("a refused save (bad input) records nothing", async () => {
    const user = await createUser(db());
    const cookie = await sessionCookieFor(db(), user.id);
    const before = await consentCount();
    const result = await callAction(preferencesTab.action, "/profile/preferences", { intent: "preferences", emailMarketing: "yes please" }, { headers: { cookie } });
    expect(statusOf(result)).toBe(400);
    expect(await consentCount()).toBe(before);
  });
});

describe("an admin's change", () => {
  it("turning a customer's marketing off is logged as the admin's doing; turning it on is refused and logs nothing", async () => {
    const admin = await createUser(db(), { isAdmin: true });
    const customer = await createUser(db(), { emailMarketing: true });
    const cookie = await sessionCookieFor(db(), admin.id);
    const post = (form: Record<string, string>) => callAction(users.action, "/admin/users", form, { headers: { cookie } });

    expect(await dataOf(await post({ intent: "update", id: customer.id, emailNotifications: "on" }))).toMatchObject({ ok: true, message: USER_ADMIN_MESSAGES.updated });
    const rows = await listConsents(db(), customer.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: "marketing_email", granted: false, source: "admin", actorUserId: admin.id, wording: ADMIN_MARKETING_OFF_WORDING, email: customer.email });

    const refused = await post({ intent: "update", id: customer.id, emailNotifications: "on", emailMarketing: "on" });
    expect(statusOf(refused)).toBe(409);
    expect(await listConsents(db(), customer.id)).toHaveLength(1);

    // changing only the notifications of someone already off records nothing more
    expect(await dataOf(await post({ intent: "update", id: customer.id }))).toMatchObject({ ok: true });
    expect(await listConsents(db(), customer.id)).toHaveLength(1);
  });

  it("Admin → Users shows a person's history, oldest first, naming the admin who changed it", async () => {
    const admin = await createUser(db(), { isAdmin: true });
    const cookie = await sessionCookieFor(db(), admin.id);
    const email = uniqueEmail("history");
    const customer = await registerThroughPage(email, true);
    await new Promise((r) => setTimeout(r, 2));
    await callAction(users.action, "/admin/users", { intent: "update", id: customer.id, emailNotifications: "on" }, { headers: { cookie } });

    const page = await dataOf(await callLoader(users.loader, `/admin/users?q=${encodeURIComponent(email)}&consents=${customer.id}`, { headers: { cookie } }));
    expect(page.history.userId).toBe(customer.id);
    const rows = page.history.rows as Array<{ purpose: string; verb: string; source: string; actor: string | null; wording: string }>;
    expect(rows).toHaveLength(4);
    expect(rows.at(-1)).toMatchObject({ purpose: "Marketing e-mails", verb: "Withdrawn", source: "Admin", actor: admin.email, wording: ADMIN_MARKETING_OFF_WORDING });
    expect(rows.slice(0, 3).map((r) => r.verb).sort()).toEqual(["Accepted", "Acknowledged", "Given"]);

    // a customer can't read it
    const customerCookie = await sessionCookieFor(db(), customer.id);
    expect(statusOf(await callLoader(users.loader, `/admin/users?consents=${customer.id}`, { headers: { cookie: customerCookie } }))).toBe(403);
  });
});

describe("the whole log as a CSV", () => {
  it("every row once, oldest first, across batches; the owner's download has a BOM, the header and the words", async () => {
    const admin = await createUser(db(), { isAdmin: true });
    const cookie = await sessionCookieFor(db(), admin.id);
    const customer = await createUser(db(), { email: uniqueEmail("csv") });
    // rows made now with times spread over a day, one of them an address a spreadsheet would run as a formula
    const base = Date.now() - 24 * 3600_000;
    for (let i = 0; i < 5; i++) {
      await recordConsent(db(), {
        userId: customer.id,
        email: i === 4 ? "=cmd|'/c calc'!A0@example.test" : customer.email,
        purpose: "marketing_email",
        version: MARKETING_CONSENT.version,
        wording: `words ${i}`,
        granted: i % 2 === 0,
        source: "profile",
        now: new Date(base + i * 60_000),
      });
    }
    const all: string[] = [];
    for await (const batch of consentBatches(db(), 2)) all.push(...batch.map((r) => r.id));
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(await consentCount());

    const response = (await callLoader(consentsCsv.loader, "/admin/consents.csv", { headers: { cookie } })) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="scentara-consent-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parse(new TextDecoder().decode(bytes), { bom: true }) as string[][];
    expect(records[0]).toEqual([...CONSENT_CSV_COLUMNS]);
    const mine = records.filter((r) => r[4] === customer.id);
    expect(mine.map((r) => r[11])).toEqual(["words 0", "words 1", "words 2", "words 3", "words 4"]);
    expect(mine.map((r) => r[8])).toEqual(["Given", "Withdrawn", "Given", "Withdrawn", "Given"]);
    expect(mine[4]![5]).toBe("'=cmd|'/c calc'!A0@example.test");
    expect(mine[0]![6]).toBe("Marketing e-mails");
    expect(mine[0]![9]).toBe("Profile");
  });

  it("is the admin's only: a customer gets 403", async () => {
    const customer = await createUser(db());
    const result = await callLoader(consentsCsv.loader, "/admin/consents.csv", { headers: { cookie: await sessionCookieFor(db(), customer.id) } });
    expect(statusOf(result)).toBe(403);
  });
});

describe("a deleted account", () => {
  it("keeps its rows in the log, no longer linked to an account", async () => {
    const customer = await registerThroughPage(uniqueEmail("leaving"), true);
    const ids = (await listConsents(db(), customer.id)).map((r) => r.id);
    expect(ids).toHaveLength(3);
    await db().deleteFrom("users").where("id", "=", customer.id).execute();
    const rows = await db().selectFrom("consents").select(["id", "user_id"]).where("id", "in", ids).execute();
    expect(rows.map((r) => r.user_id)).toEqual([null, null, null]);
  });
});
