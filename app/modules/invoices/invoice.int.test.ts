import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { setPaymentStatus } from "~/modules/flows/order-changed-by-owner.server";
import { loader } from "~/routes/orders.invoice[.]pdf";
import { resetEnvForTests } from "~/utils/env.server";
import { formatRand } from "~/utils/money";
import { callLoader, dataOf, statusOf } from "../../../tests/setup/route";
import { insertCoupon, TEST_ADDRESS } from "../../../tests/factories/orders";
import { insertAwaitingOrder, outboxFor, postWebhook, simulatedWebhook } from "../../../tests/factories/payments";
import { pdfReaderLines, pdfText, pdfTextRuns } from "../../../tests/factories/pdf-text";
import { createUser, sessionCookieFor, type TestUser } from "../../../tests/factories/users";
import { formatInvoiceNumber, formatIssueDate, invoicePath, vatInInclusiveTotal } from "./invoice.logic";
import { INVOICE_MESSAGES } from "./invoice.server";

/** GET /orders/:id/invoice.pdf: who may download it, and what the PDF says (its text, extracted). */
const db = () => getDb();
const VAT_SHOP = { SHOP_VAT_NUMBER: "4123456789", SHOP_ADDRESS: "Unit 4, The Old Biscuit Mill | 373 Albert Road, Woodstock | Cape Town 7925", SHOP_LEGAL_NAME: "Scentara Fragrances (Pty) Ltd" };

function configure(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
}

afterEach(() => configure({ SHOP_VAT_NUMBER: undefined, SHOP_ADDRESS: undefined, SHOP_LEGAL_NAME: undefined }));

let owner: TestUser;
let other: TestUser;
let admin: TestUser;
beforeAll(async () => {
  owner = await createUser(db());
  other = await createUser(db());
  admin = await createUser(db(), { isAdmin: true });
});

const as = async (user: TestUser | null) => (user ? { headers: { cookie: await sessionCookieFor(db(), user.id) } } : {});

async function download(orderId: string, user: TestUser | null) {
  return (await callLoader(loader, invoicePath(orderId), { ...(await as(user)), params: { id: orderId } })) as Response;
}

/** An order of two lines with a 10% coupon and R70 delivery, paid through the verified webhook. */
async function paidOrder() {
  const coupon = await insertCoupon(db(), { code: `SPRING${Math.floor(Math.random() * 1e6)}` });
  const order = await insertAwaitingOrder(db(), {
    userId: owner.id,
    coupon,
    discountCents: 9990,
    shippingCents: 7000,
    lines: [
      { name: "Oud Noir 100 ml", quantity: 2, unitPriceCents: 34999 },
      { name: "Fleur de Nuit", quantity: 1, unitPriceCents: 29900 },
    ],
  });
  const res = await postWebhook("simulated", simulatedWebhook(order.checkoutId, order.totalAmountCents));
  expect(res.status).toBe(200);
  const row = await db().selectFrom("orders").select(["invoice_number", "invoice_issued_at"]).where("id", "=", order.id).executeTakeFirstOrThrow();
  return { ...order, invoiceNumber: Number(row.invoice_number), issuedAt: row.invoice_issued_at!, coupon };
}

describe("the invoice's PDF", () => {
  it("a VAT-registered shop's tax invoice holds every item of VAT Act s20(4), with the order's amounts", async () => {
    configure(VAT_SHOP);
    const order = await paidOrder();
    const res = await download(order.id, owner);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    const number = formatInvoiceNumber(order.invoiceNumber);
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="Scentara-${number}.pdf"`);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe("%PDF-");
    const runs = pdfTextRuns(pdf);
    const text = runs.join("\n");

    // the words, the supplier, its address and VAT number
    expect(runs).toContain("TAX INVOICE");
    expect(runs).toContain("SCENTARA");
    for (const s of ["Scentara Fragrances (Pty) Ltd", "Unit 4, The Old Biscuit Mill", "373 Albert Road, Woodstock", "Cape Town 7925", "VAT registration number 4123456789"]) expect(runs).toContain(s);
    // a unique serial number, the date of issue, the order as reference
    expect(runs).toContain(number);
    expect(runs).toContain(formatIssueDate(order.issuedAt));
    expect(runs).toContain(`Order #${order.id.slice(0, 8)}`);
    // the recipient: name, delivery address, e-mail
    for (const s of [TEST_ADDRESS.name, TEST_ADDRESS.street, `${TEST_ADDRESS.suburb}, ${TEST_ADDRESS.city}`, `${TEST_ADDRESS.province} ${TEST_ADDRESS.postalCode}`, owner.email]) expect(runs).toContain(s);
    // each line: description, quantity, unit price, line total
    for (const l of order.lines) {
      const at = runs.indexOf(l.name);
      expect(at, l.name).toBeGreaterThanOrEqual(0);
      expect(runs.slice(at + 1, at + 4)).toEqual([String(l.quantity), formatRand(l.unitPriceCents), formatRand(l.totalPriceCents)]);
    }
    // the discount with its coupon, the delivery, the total including VAT and the VAT at 15 %
    const after = (label: string) => runs[runs.indexOf(label) + 1];
    expect(after("Subtotal")).toBe(formatRand(order.subtotalCents));
    expect(after(`Discount (coupon ${order.coupon.code})`)).toBe(formatRand(-9990));
    expect(after("Delivery")).toBe("R70.00");
    expect(order.totalAmountCents).toBe(69998 + 29900 - 9990 + 7000);
    expect(after("Total (including VAT)")).toBe(formatRand(order.totalAmountCents));
    const vat = vatInInclusiveTotal(order.totalAmountCents);
    expect(vat).toBe(Math.round((order.totalAmountCents * 15) / 115));
    expect(after("VAT at 15% included")).toBe(formatRand(vat));
    expect(text).toContain(`includes VAT of ${formatRand(vat)}`);

    // and as a PDF reader extracts it (issue 22 review): every word comes out as itself, the title as "TAX INVOICE"
    const read = (await pdfReaderLines(pdf)).join("\n");
    expect(read).toContain("TAX INVOICE");
    for (const run of runs) expect(read, run).toContain(run.replace(/\s+/g, " ").trim());
    expect(read).not.toMatch(/\b[A-Z] [A-Z] [A-Z]\b/);
  });

  it("a shop without a VAT number issues an ordinary invoice: no 'Tax Invoice', no VAT claims, no address invented", async () => {
    const order = await paidOrder();
    const res = await download(order.id, owner);
    expect(res.status).toBe(200);
    const runs = pdfTextRuns(new Uint8Array(await res.arrayBuffer()));
    const text = runs.join("\n");
    expect(runs).toContain("INVOICE");
    expect(text).not.toMatch(/TAX INVOICE|Tax Invoice|VAT/);
    expect(runs).toContain("Total");
    expect(runs[runs.indexOf("Total") + 1]).toBe(formatRand(order.totalAmountCents));
    expect(runs).toContain(formatInvoiceNumber(order.invoiceNumber));
    // the supplier is the shop's name and its contact address, nothing more
    const from = runs.indexOf("FROM");
    expect(runs.slice(from, from + 4)).toEqual(["FROM", "BILLED AND DELIVERED TO", "Scentara", "hello@scentara.co.za"]);
  });

  it("the owner's EFT confirmation makes the invoice available too", async () => {
    const order = await insertAwaitingOrder(db(), { userId: owner.id, checkoutId: null });
    expect((await download(order.id, owner)).status).toBe(404);
    await setPaymentStatus(db(), order.id, "completed");
    const res = await download(order.id, owner);
    expect(res.status).toBe(200);
    expect(pdfText(new Uint8Array(await res.arrayBuffer()))).toContain(formatRand(order.totalAmountCents));
  });
});

describe("who may download it", () => {
  it("owner 200, admin 200, another customer 404 exactly like a missing order, visitor to login", async () => {
    const order = await paidOrder();
    expect((await download(order.id, owner)).status).toBe(200);
    const byAdmin = await download(order.id, admin);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.headers.get("Content-Type")).toBe("application/pdf");

    const byOther = await download(order.id, other);
    const missing = await download(crypto.randomUUID(), other);
    expect(byOther.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(await byOther.text()).toBe(await missing.text());
    expect(byOther.headers.get("Content-Type")).toBe(missing.headers.get("Content-Type"));

    const byVisitor = await download(order.id, null);
    expect(statusOf(byVisitor)).toBe(302);
    expect(byVisitor.headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(invoicePath(order.id))}`);
  });

  it("an unpaid order has no invoice: 404 saying so, to its owner; to anyone else it is simply not found", async () => {
    const order = await insertAwaitingOrder(db(), { userId: owner.id });
    const res = await download(order.id, owner);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe(INVOICE_MESSAGES.unpaid);
    const byOther = await download(order.id, other);
    expect((await byOther.json()).error).toBe(INVOICE_MESSAGES.notFound);
  });

  it("a payment the owner sets back from completed hides the invoice; completed again shows the same number", async () => {
    const order = await paidOrder();
    await setPaymentStatus(db(), order.id, "pending");
    expect((await download(order.id, owner)).status).toBe(404);
    await setPaymentStatus(db(), order.id, "completed");
    const res = await download(order.id, owner);
    expect(res.headers.get("Content-Disposition")).toContain(formatInvoiceNumber(order.invoiceNumber));
  });

  it.each(["", "x".repeat(65), "../../etc/passwd", "abc%00", "' or 1=1 --"])("a malformed id %j is not found", async (id) => {
    const res = (await callLoader(loader, "/orders/x/invoice.pdf", { ...(await as(owner)), params: { id } })) as Response;
    expect(res.status).toBe(404);
  });
});

describe("where the invoice is offered", () => {
  it("the confirmation e-mail says 'Your invoice: <url>', and the shop's notice names the invoice", async () => {
    const order = await paidOrder();
    const mails = await outboxFor(db());
    const url = `http://localhost:3000/orders/${order.id}/invoice.pdf`;
    const toCustomer = mails.find((m) => m.to_address === owner.email && m.text_body.includes(order.id));
    expect(toCustomer?.text_body).toContain(`Your invoice: ${url}`);
    const toShop = mails.find((m) => m.to_address !== owner.email && m.text_body.includes(order.id));
    expect(toShop?.text_body).toContain(`Invoice ${formatInvoiceNumber(order.invoiceNumber)}: ${url}`);
  });

  it("the confirmation page links a paid order's invoice, and an unpaid order's not", async () => {
    const { loader: confirmation } = await import("~/routes/order-confirmation");
    const paid = await paidOrder();
    const unpaid = await insertAwaitingOrder(db(), { userId: owner.id });
    const read = async (id: string) => dataOf(await callLoader(confirmation, `/order-confirmation?id=${id}`, await as(owner)));
    expect((await read(paid.id)).invoice).toEqual({ number: formatInvoiceNumber(paid.invoiceNumber), href: invoicePath(paid.id) });
    expect((await read(unpaid.id)).invoice).toBeNull();
  });

  it("the profile's Orders tab links each paid order's invoice", async () => {
    const { loader: ordersTab } = await import("~/routes/profile.orders");
    const customer = await createUser(db());
    const paid = await insertAwaitingOrder(db(), { userId: customer.id, checkoutId: null });
    await setPaymentStatus(db(), paid.id, "completed");
    const unpaid = await insertAwaitingOrder(db(), { userId: customer.id });
    const data = await dataOf(await callLoader(ordersTab, "/profile/orders", { headers: { cookie: await sessionCookieFor(db(), customer.id) } }));
    const rows = new Map(data.orders.map((o: { id: string; invoice: unknown }) => [o.id, o.invoice]));
    expect(rows.get(paid.id)).toEqual({ number: expect.stringMatching(/^INV-\d{6}$/), href: invoicePath(paid.id) });
    expect(rows.get(unpaid.id)).toBeNull();
  });

  it("the owner's order list carries the invoice for its detail", async () => {
    const { loader: adminOrders } = await import("~/routes/admin.orders");
    const order = await paidOrder();
    const data = await dataOf(await callLoader(adminOrders, `/admin/orders?status=processing&q=${order.id.slice(0, 8)}`, await as(admin)));
    const row = data.list.rows.find((o: { id: string }) => o.id === order.id);
    expect(row.invoice).toEqual({ number: formatInvoiceNumber(order.invoiceNumber), href: invoicePath(order.id) });
  });
});
