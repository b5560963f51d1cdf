import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { insertOrder } from "../../../tests/factories/orders";
import { createUser } from "../../../tests/factories/users";
import * as migration from "./0008_invoice_numbers";

/** Migration 0008 numbers the orders already paid, in the order they were paid, and starts the counter after them. */
describe("migration 0008: invoice numbers", () => {
  it("numbers existing paid orders by payment time, leaves unpaid ones, and the counter continues after them", async () => {
    const db = getDb();
    const raw = db as unknown as Kysely<any>;
    await migration.down(raw);
    const user = await createUser(db);
    const paidLater = await insertOrder(raw as never, { userId: user.id, status: "delivered", paymentStatus: "completed", processingStartedAt: "2025-05-01T10:00:00.000Z" });
    const paidFirst = await insertOrder(raw as never, { userId: user.id, status: "shipped", paymentStatus: "completed", processingStartedAt: "2025-02-01T10:00:00.000Z" });
    const unpaid = await insertOrder(raw as never, { userId: user.id });
    await migration.up(raw);

    const number = async (id: string) => (await db.selectFrom("orders").select(["invoice_number", "invoice_issued_at"]).where("id", "=", id).executeTakeFirstOrThrow());
    expect(await number(paidFirst.id)).toEqual({ invoice_number: 1, invoice_issued_at: "2025-02-01T10:00:00.000Z" });
    expect(await number(paidLater.id)).toEqual({ invoice_number: 2, invoice_issued_at: "2025-05-01T10:00:00.000Z" });
    expect((await number(unpaid.id)).invoice_number).toBeNull();
    const counter = await db.selectFrom("invoice_counter").selectAll().execute();
    expect(counter.map((c) => ({ id: Number(c.id), next: Number(c.next_number) }))).toEqual([{ id: 1, next: 3 }]);
  });
});
