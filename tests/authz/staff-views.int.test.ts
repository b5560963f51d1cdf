/**
 * What each member of staff is shown (issue 38): the matrix proves what the server answers; this proves the admin's
 * menu and pages carry only what the person's role allows — a packer's dashboard has the orders to look after and no
 * revenue, a packer's orders page links no invoice, a bookkeeper sees the sales — on SQLite and PostgreSQL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { adminPagesFor } from "~/components/admin/admin-ui";
import { markOrderPaid } from "~/modules/flows/order-paid.server";
import { callLoader, dataOf } from "../setup/route";
import { insertAwaitingOrder } from "../factories/payments";
import { createUser, sessionCookieFor } from "../factories/users";
import * as layout from "~/routes/admin";
import * as dashboard from "~/routes/admin._index";
import * as orders from "~/routes/admin.orders";

const db = () => getDb();
const cookies = { owner: "", packer: "", bookkeeper: "", marketer: "" };

beforeAll(async () => {
  cookies.owner = await sessionCookieFor(db(), (await createUser(db(), { isAdmin: true })).id);
  for (const role of ["packer", "bookkeeper", "marketer"] as const) cookies[role] = await sessionCookieFor(db(), (await createUser(db(), { role })).id);
  // a paid order waiting to be packed: it has an invoice
  const order = await insertAwaitingOrder(db(), { userId: (await createUser(db())).id });
  await db().transaction().execute((trx) => markOrderPaid(trx, order.id));
});

const load = async (route: { loader: (args: any) => unknown }, path: string, who: keyof typeof cookies) => dataOf(await callLoader(route.loader as any, path, { headers: { cookie: cookies[who] } }));

describe("what each member of staff is shown", () => {
  it("the menu lists only the pages the role opens, and says the role", async () => {
    const menu = async (who: keyof typeof cookies) => {
      const d = await load(layout, "/admin", who);
      return { role: d.role, pages: adminPagesFor(d.permissions).map((p) => p.label) };
    };
    expect(await menu("packer")).toEqual({ role: "Packer", pages: ["Dashboard", "Orders", "Returns"] });
    expect(await menu("bookkeeper")).toEqual({ role: "Bookkeeper", pages: ["Dashboard", "Orders", "Returns"] });
    expect(await menu("marketer")).toEqual({ role: "Marketer", pages: ["Dashboard", "Coupons", "Reviews", "Marketing", "WhatsApp"] });
    const owner = await menu("owner");
    expect(owner.role).toBe("Owner");
    expect(owner.pages).toEqual(expect.arrayContaining(["Products", "Gift cards", "Users", "Shipping", "Data", "Privacy"]));
  });

  it("a packer's dashboard has the orders to look after, not the sales, the customers or the settings", async () => {
    const d = await load(dashboard, "/admin", "packer");
    expect(d.orders.processing).toBeGreaterThanOrEqual(1);
    expect(d.sales).toBeNull();
    expect(d.users).toBeNull();
    expect(d.reviewRequests).toBeNull();
    expect(d.shop.map((c: { label: string }) => c.label)).toEqual(["Orders"]);
    expect(d.quickActions.map((a: { label: string }) => a.label)).toEqual(["Manage Orders"]);
    // what a packer does with orders: no payments to confirm
    expect(d.quickActions[0].text).toBe("Pack, ship and track orders.");
    expect(JSON.stringify(d)).not.toMatch(/revenue/i);
  });

  it("a bookkeeper's dashboard has the sales; a marketer's has no orders but the review requests", async () => {
    const bookkeeper = await load(dashboard, "/admin", "bookkeeper");
    expect(bookkeeper.sales.revenue.orders).toBeGreaterThanOrEqual(1);
    expect(bookkeeper.quickActions.find((a: { label: string }) => a.label === "Manage Orders").text).toBe("See orders and where they are.");
    expect(bookkeeper.users).toBeNull();
    const marketer = await load(dashboard, "/admin", "marketer");
    expect(marketer.orders).toBeNull();
    expect(marketer.sales).toBeNull();
    expect(marketer.reviewRequests).not.toBeNull();
    expect(marketer.shop.map((c: { label: string }) => c.label)).toEqual(["Coupons", "Reviews"]);
  });

  it("the orders page links a paid order's invoice for the bookkeeper, not for the packer", async () => {
    const invoiceOf = async (who: keyof typeof cookies) => (await load(orders, "/admin/orders?status=processing", who)).list.rows.find((o: { paymentStatus: string }) => o.paymentStatus === "completed")?.invoice;
    expect(await invoiceOf("bookkeeper")).toMatchObject({ href: expect.stringMatching(/\/invoice\.pdf$/) });
    expect(await invoiceOf("packer")).toBeUndefined();
  });
});
