/**
 * Admin → Privacy (docs/decisions/040) on SQLite and PostgreSQL: the policy with the configured periods, the last
 * retention runs with what they erased, and the requests about personal data with who made them — naming no one.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { deleteUserByAdmin } from "~/modules/flows/account-deleted.server";
import { downloadPersonalData } from "~/modules/privacy/export.server";
import { DEFAULT_RETENTION } from "~/modules/privacy/retention.logic";
import { runRetention } from "~/modules/privacy/retention.server";
import { newId } from "~/utils/ids";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { callLoader, dataOf } from "../../tests/setup/route";
import { loader } from "./admin.privacy";

const db = () => getDb();

describe("Admin → Privacy", () => {
  it("shows the policy, the last run and what it erased, and the requests without naming the person", async () => {
    const admin = await createUser(db(), { isAdmin: true, email: "privacy.admin@scentara.test" });
    const cookie = await sessionCookieFor(db(), admin.id);
    const load = async () => dataOf(await callLoader(loader, "/admin/privacy", { headers: { cookie } }));

    const empty = await load();
    expect(empty.last).toBeNull();
    expect(empty.rules.map((r: { what: string; kept: string }) => [r.what, r.kept])).toContainEqual(["Contact messages", "12 months"]);
    expect(empty.rules.map((r: { setting: string | null }) => r.setting)).toContain("RETENTION_INVOICE_YEARS");

    await db().insertInto("contact_messages").values({ id: newId(), name: "Old", email: "old@example.co.za", message: "Hi", created_at: "2024-01-01T00:00:00.000Z" }).execute();
    await runRetention(db(), { policy: DEFAULT_RETENTION, holder: "test" });
    const customer = await createUser(db(), { email: "private.person@example.co.za" });
    await downloadPersonalData(db(), customer.id, { kind: "self" });
    await deleteUserByAdmin(db(), admin.id, customer.id);

    const page = await load();
    expect(page.last).toMatchObject({ outcome: "done", erased: 1 });
    expect(page.runs[0].erased).toBe("1 contact message");
    expect(page.year).toEqual({ exports: 1, erasures: 1 });
    expect(page.requests.map((r: { what: string; by: string }) => [r.what, r.by])).toEqual([
      ["Account deletion", "Admin (privacy.admin@scentara.test)"],
      ["Download of their data", "The person"],
    ]);
    expect(page.requests[0].done).toBe("Account erased; 0 paid orders kept for the tax record");
    expect(JSON.stringify(page)).not.toContain("private.person");
  });
});

