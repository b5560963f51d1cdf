/**
 * Every protected route × {visitor, customer, admin}. ONE line per route; later issues add theirs.
 * Expectation presets (tests/authz/matrix.ts): ADMIN_PAGE, ADMIN_ACTION, SIGNED_IN_PAGE, SIGNED_IN_ACTION, or
 * { visitor, customer, admin } with a status, "login", "ok" or { status, error }.
 */
import { ADMIN_ACTION, ADMIN_PAGE, DENY_ACTION, DENY_PAGE, runAuthorizationMatrix, SIGNED_IN_ACTION, SIGNED_IN_PAGE, type MatrixEntry } from "./matrix";
import type { DB } from "~/db/db.server";
import { markOrderPaid } from "~/modules/orders/order-payment.server";
import { bookShipment } from "~/modules/couriers/shipments.server";
import { issueGiftCard } from "~/modules/gift-cards/gift-cards.server";
import { insertAwaitingOrder } from "../factories/payments";
import { insertCoupon, insertZone, TEST_ADDRESS } from "../factories/orders";
import { createUser } from "../factories/users";
import { deliveredOrderOf, returnOf } from "../factories/returns";
import { insertCategory, insertProduct, insertReview, insertTier } from "../factories/catalog";

/** A fresh paid order of this user's (its payment confirmed through the verified path): ready for a courier. */
/** A fresh gift card (issued by hand) to cancel or read. */
async function giftCardOf(db: DB): Promise<string> {
  return (await issueGiftCard(db, { amountCents: 50000, actor: { kind: "admin", id: null } })).id;
}

async function paidOrderOf(db: DB, userId: string): Promise<string> {
  const order = await insertAwaitingOrder(db, { userId });
  await db.transaction().execute((trx) => markOrderPaid(trx, order.id));
  return order.id;
}

/** The invoice download of a fresh order of this user's: paid through the verified path (its number allocated), or not. */
async function invoiceOf(db: DB, userId: string, paid: boolean) {
  const order = await insertAwaitingOrder(db, { userId });
  if (paid) await db.transaction().execute((trx) => markOrderPaid(trx, order.id));
  return { path: `/orders/${order.id}/invoice.pdf`, params: { id: order.id } };
}

const MATRIX: MatrixEntry[] = [
  // accounts
  { path: "/profile", route: () => import("~/routes/profile"), kind: "loader", expect: SIGNED_IN_PAGE, note: "the frame" },
  { path: "/profile?tab=orders", route: () => import("~/routes/profile"), kind: "loader", expect: { visitor: 301, customer: 301, admin: 301 }, note: "an old tab address, to its page" },
  { path: "/profile", route: () => import("~/routes/profile._index"), kind: "loader", expect: SIGNED_IN_PAGE, note: "account" },
  { path: "/profile?index", route: () => import("~/routes/profile._index"), kind: "action", form: { intent: "password", currentPassword: "wrong password", newPassword: "a brand new passphrase" }, expect: { visitor: "login", customer: 400, admin: 400 }, note: "password" },
  { path: "/profile/orders", route: () => import("~/routes/profile.orders"), kind: "loader", expect: SIGNED_IN_PAGE },
  { path: "/profile/preferences", route: () => import("~/routes/profile.preferences"), kind: "loader", expect: SIGNED_IN_PAGE },
  { path: "/profile/preferences", route: () => import("~/routes/profile.preferences"), kind: "action", form: { intent: "preferences", emailMarketing: "on" }, expect: { visitor: "login", customer: 200, admin: 200 }, note: "preferences" },
  { path: "/profile/my-data", route: () => import("~/routes/profile.my-data"), kind: "action", expect: { visitor: "login", customer: 200, admin: 200 }, note: "download my data" },
  { path: "/profile/my-data", route: () => import("~/routes/profile.my-data"), kind: "action", setup: async (db) => ({ form: { userId: (await createUser(db)).id } }), expect: { visitor: "login", customer: { status: 403, error: "You can download only your own data. Signed in, “Download my data” gives you yours." }, admin: { status: 403 } }, note: "someone else's data" },
  { path: "/profile/delete-account", route: () => import("~/routes/profile.delete-account"), kind: "loader", expect: SIGNED_IN_PAGE },
  { path: "/profile/delete-account", route: () => import("~/routes/profile.delete-account"), kind: "action", form: { password: "not the password" }, expect: { visitor: "login", customer: 400, admin: 400 }, note: "wrong password" },

  // payments (the webhook action authenticates by signature, not session: see app/modules/payments/webhooks.int.test.ts)
  { path: "/payment-status", route: () => import("~/routes/payment-status"), kind: "loader", setup: async (db, a) => ({ path: `/payment-status?orderId=${(await insertAwaitingOrder(db, { userId: a.customerId })).id}&status=cancelled` }), expect: { visitor: "login", customer: 200, admin: 404 }, note: "cancel the customer's order" },
  { path: "/payment-status?orderId=test&status=success", route: () => import("~/routes/payment-status"), kind: "loader", expect: { visitor: 200, customer: 200, admin: 200 } },
  { path: "/order-confirmation", route: () => import("~/routes/order-confirmation"), kind: "loader", setup: async (db, a) => ({ path: `/order-confirmation?id=${(await insertAwaitingOrder(db, { userId: a.customerId })).id}` }), expect: SIGNED_IN_PAGE, note: "the customer's order" },
  { path: "/order-confirmation", route: () => import("~/routes/order-confirmation"), kind: "loader", setup: async (db, a) => ({ path: `/order-confirmation?id=${(await insertAwaitingOrder(db, { userId: a.adminId })).id}` }), expect: { visitor: "login", customer: 404, admin: 200 }, note: "someone else's order" },
  { path: "/orders/:id/invoice.pdf", route: () => import("~/routes/orders.invoice[.]pdf"), kind: "loader", setup: async (db, a) => invoiceOf(db, a.customerId, true), expect: SIGNED_IN_PAGE, note: "the customer's paid order" },
  { path: "/orders/:id/invoice.pdf", route: () => import("~/routes/orders.invoice[.]pdf"), kind: "loader", setup: async (db, a) => invoiceOf(db, a.adminId, true), expect: { visitor: "login", customer: 404, admin: 200 }, note: "someone else's paid order" },
  { path: "/orders/:id/invoice.pdf", route: () => import("~/routes/orders.invoice[.]pdf"), kind: "loader", setup: async (db, a) => invoiceOf(db, a.customerId, false), expect: { visitor: "login", customer: 404, admin: 404 }, note: "an unpaid order has none" },
  { path: "/pay/simulated", route: () => import("~/routes/pay.simulated"), kind: "loader", setup: async (db, a) => { const o = await insertAwaitingOrder(db, { userId: a.customerId }); return { path: `/pay/simulated/${o.checkoutId}`, params: { checkoutId: o.checkoutId } }; }, expect: { visitor: "login", customer: 200, admin: 404 }, note: "the customer's checkout" },
  { path: "/pay/simulated", route: () => import("~/routes/pay.simulated"), kind: "action", form: { intent: "pay" }, setup: async (db, a) => { const o = await insertAwaitingOrder(db, { userId: a.customerId }); return { path: `/pay/simulated/${o.checkoutId}`, params: { checkoutId: o.checkoutId } }; }, expect: { visitor: "login", customer: "ok", admin: 404 }, note: "pay the customer's checkout" },
  { path: "/payment/eft", route: () => import("~/routes/payment.eft"), kind: "loader", setup: async (db, a) => { const o = await insertAwaitingOrder(db, { userId: a.customerId, checkoutId: null }); await db.updateTable("orders").set({ payment_method: "eft", payment_provider: "eft" }).where("id", "=", o.id).execute(); return { path: `/payment/eft/${o.id}`, params: { orderId: o.id } }; }, expect: SIGNED_IN_PAGE, note: "the customer's bank-transfer order" },
  { path: "/payment/eft", route: () => import("~/routes/payment.eft"), kind: "loader", setup: async (db, a) => { const o = await insertAwaitingOrder(db, { userId: a.adminId, checkoutId: null }); await db.updateTable("orders").set({ payment_method: "eft", payment_provider: "eft" }).where("id", "=", o.id).execute(); return { path: `/payment/eft/${o.id}`, params: { orderId: o.id } }; }, expect: { visitor: "login", customer: 404, admin: 200 }, note: "someone else's bank-transfer order" },
  { path: "/pay/form", route: () => import("~/routes/pay.form"), kind: "loader", setup: async (db, a) => { const o = await insertAwaitingOrder(db, { userId: a.customerId }); return { path: `/pay/form/${o.id}`, params: { orderId: o.id } }; }, expect: { visitor: "login", customer: 404, admin: 404 }, note: "a redirect provider's order has no form to post" },
  { path: "/webhooks/payments/simulated", route: () => import("~/routes/webhooks.payments"), kind: "loader", params: { provider: "simulated" }, expect: { visitor: 405, customer: 405, admin: 405 } },

  // returns and credit notes (docs/decisions/041): the order's owner asks; anyone else's order is "not found"
  { path: "/orders/:id/return", route: () => import("~/routes/orders.return"), kind: "loader", setup: async (db, a) => { const o = await deliveredOrderOf(db, a.customerId); return { path: `/orders/${o.id}/return`, params: { id: o.id } }; }, expect: SIGNED_IN_PAGE, note: "the customer's delivered order" },
  { path: "/orders/:id/return", route: () => import("~/routes/orders.return"), kind: "loader", setup: async (db, a) => { const o = await deliveredOrderOf(db, a.adminId); return { path: `/orders/${o.id}/return`, params: { id: o.id } }; }, expect: { visitor: "login", customer: 404, admin: 200 }, note: "someone else's order" },
  { path: "/orders/:id/return", route: () => import("~/routes/orders.return"), kind: "action", setup: async (db, a) => { const o = await deliveredOrderOf(db, a.customerId); return { path: `/orders/${o.id}/return`, params: { id: o.id }, form: { reason: "changed_mind", [`qty.${o.lines[0]!.id}`]: "1" } }; }, expect: { visitor: "login", customer: "ok", admin: 404 }, note: "ask to return the customer's items" },
  { path: "/returns/:id/credit-note.pdf", route: () => import("~/routes/returns.credit-note[.]pdf"), kind: "loader", setup: async (db, a) => { const r = await returnOf(db, a.customerId, "refunded"); return { path: `/returns/${r.id}/credit-note.pdf`, params: { id: r.id } }; }, expect: SIGNED_IN_PAGE, note: "the customer's refund" },
  { path: "/returns/:id/credit-note.pdf", route: () => import("~/routes/returns.credit-note[.]pdf"), kind: "loader", setup: async (db, a) => { const r = await returnOf(db, a.adminId, "refunded"); return { path: `/returns/${r.id}/credit-note.pdf`, params: { id: r.id } }; }, expect: { visitor: "login", customer: 404, admin: 200 }, note: "someone else's refund" },
  { path: "/admin/returns", route: () => import("~/routes/admin.returns"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/returns/:id", route: () => import("~/routes/admin.returns.$id"), kind: "loader", setup: async (db, a) => { const r = await returnOf(db, a.customerId); return { path: `/admin/returns/${r.id}`, params: { id: r.id } }; }, expect: ADMIN_PAGE },
  { path: "/admin/returns/:id", route: () => import("~/routes/admin.returns.$id"), kind: "action", setup: async (db, a) => { const r = await returnOf(db, a.customerId); return { path: `/admin/returns/${r.id}`, params: { id: r.id }, form: { intent: "approve", id: r.id, message: "" } }; }, expect: ADMIN_ACTION, note: "approve" },
  { path: "/admin/returns/:id", route: () => import("~/routes/admin.returns.$id"), kind: "action", setup: async (db, a) => { const r = await returnOf(db, a.customerId, "received"); return { path: `/admin/returns/${r.id}`, params: { id: r.id }, form: { intent: "refund", id: r.id, amount: "100.00", method: "eft", reference: "" } }; }, expect: ADMIN_ACTION, note: "refund" },

  // money path (cart, checkout, coupons, reviews)
  { path: "/cart", route: () => import("~/routes/cart"), kind: "loader", expect: { visitor: 200, customer: 200, admin: 200 } },
  { path: "/checkout", route: () => import("~/routes/checkout"), kind: "loader", expect: SIGNED_IN_PAGE },
  { path: "/checkout", route: () => import("~/routes/checkout"), kind: "action", setup: async (db) => ({ form: { name: "T N", telephone: "0821234567", street: "1 Main Rd", suburb: "Sea Point", city: "Cape Town", postalCode: "8005", province: "Western Cape", lines: JSON.stringify([{ productId: (await insertProduct(db)).id, quantity: 1 }]) } }), expect: { visitor: { status: 401, error: "Please sign in to continue" }, customer: "ok", admin: "ok" }, note: "place an order" },
  { path: "/checkout/delivery?postalCode=7700&suburb=Rondebosch&lines=%5B%5D", route: () => import("~/routes/checkout.delivery"), kind: "loader", expect: { visitor: 401, customer: 200, admin: 200 }, note: "delivery choices" },
  { path: "/admin/gift-cards", route: () => import("~/routes/admin.gift-cards"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/gift-cards", route: () => import("~/routes/admin.gift-cards"), kind: "action", form: { intent: "issue", amount: "500", recipientEmail: "", note: "Goodwill" }, expect: ADMIN_ACTION, note: "issue" },
  { path: "/admin/gift-cards", route: () => import("~/routes/admin.gift-cards"), kind: "action", setup: async (db) => ({ form: { intent: "cancel", id: await giftCardOf(db) } }), expect: ADMIN_ACTION, note: "cancel" },
  { path: "/admin/gift-cards/:id", route: () => import("~/routes/admin.gift-cards.$id"), kind: "loader", setup: async (db) => { const id = await giftCardOf(db); return { path: `/admin/gift-cards/${id}`, params: { id } }; }, expect: ADMIN_PAGE },
  { path: "/admin/gift-cards/:id", route: () => import("~/routes/admin.gift-cards.$id"), kind: "action", setup: async (db) => { const id = await giftCardOf(db); return { path: `/admin/gift-cards/${id}`, params: { id }, form: { intent: "cancel", id } }; }, expect: ADMIN_ACTION, note: "cancel" },
  { path: "/api/gift-cards/check", route: () => import("~/routes/api.gift-cards.check"), kind: "action", form: { code: "AAAA-BBBB-CCCC-DDDD" }, expect: { visitor: 401, customer: 404, admin: 404 } },
  { path: "/api/coupons/validate", route: () => import("~/routes/api.coupons.validate"), kind: "action", form: { code: "NOSUCHCODE", orderTotal: "10000" }, expect: { visitor: 200, customer: 200, admin: 200 } },
  { path: "/api/me", route: () => import("~/routes/api.me"), kind: "loader", expect: { visitor: 401, customer: 200, admin: 200 } },
  { path: "/api/reviews?productId=p1", route: () => import("~/routes/api.reviews"), kind: "loader", expect: { visitor: 200, customer: 200, admin: 200 } },
  { path: "/api/reviews", route: () => import("~/routes/api.reviews"), kind: "action", setup: async (db) => ({ form: { productId: (await insertProduct(db)).id, rating: "5", comment: "Not bought" } }), expect: { visitor: 302, customer: { status: 403, error: "Only customers who have bought this product can review it" }, admin: { status: 403 } }, note: "non-buyers" },

  // admin pages (the layout and every page guard themselves)
  { path: "/admin", route: () => import("~/routes/admin"), kind: "loader", expect: ADMIN_PAGE, note: "layout" },
  { path: "/admin", route: () => import("~/routes/admin._index"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin?from=2026-03-01&to=2026-03-31&grouping=week", route: () => import("~/routes/admin._index"), kind: "loader", expect: ADMIN_PAGE, note: "sales for a range" },
  { path: "/admin/sales.csv?dataset=revenue&from=2026-03-01&to=2026-03-31", route: () => import("~/routes/admin.sales[.]csv"), kind: "loader", expect: ADMIN_PAGE, note: "a chart's numbers as CSV" },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/orders/export.csv?from=2026-03-01&to=2026-03-31&lines=on", route: () => import("~/routes/admin.orders.export[.]csv"), kind: "loader", expect: ADMIN_PAGE, note: "the accountant's CSV" },
  { path: "/admin/products/export.csv", route: () => import("~/routes/admin.products.export[.]csv"), kind: "loader", expect: ADMIN_PAGE, note: "every product as CSV" },
  { path: "/admin/products/import/rows-with-errors.csv?id=x", route: () => import("~/routes/admin.products.import.rows-with-errors[.]csv"), kind: "loader", expect: { ...ADMIN_PAGE, admin: 404 }, note: "an import without rows with errors has none" },
  { path: "/admin/products/import", route: () => import("~/routes/admin.products.import"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/products/import", route: () => import("~/routes/admin.products.import"), kind: "action", form: { intent: "apply", id: "no-such-import" }, expect: { visitor: DENY_ACTION, customer: DENY_ACTION, admin: 404 }, note: "apply an unknown import" },
  { path: "/admin/products/import", route: () => import("~/routes/admin.products.import"), kind: "action", form: { intent: "refetch" }, expect: ADMIN_ACTION, note: "fetch the missing images again (none missing)" },
  { path: "/admin/orders?status=shipped&q=abc", route: () => import("~/routes/admin.orders"), kind: "loader", expect: ADMIN_PAGE, note: "tab and search" },
  { path: "/admin/orders/:id/label.pdf", route: () => import("~/routes/admin.orders.label[.]pdf"), kind: "loader", setup: async (db, a) => { const o = await insertAwaitingOrder(db, { userId: a.customerId }); return { path: `/admin/orders/${o.id}/label.pdf`, params: { id: o.id } }; }, expect: { visitor: "login", customer: DENY_PAGE, admin: 404 }, note: "an order without a booking" },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), kind: "action", setup: async (db, a) => ({ form: { intent: "book", id: await paidOrderOf(db, a.customerId) } }), expect: ADMIN_ACTION, note: "book a courier" },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), kind: "action", setup: async (db, a) => { const id = await paidOrderOf(db, a.customerId); await bookShipment(db, id); return { form: { intent: "cancelBooking", id } }; }, expect: ADMIN_ACTION, note: "cancel a booking" },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), kind: "action", form: { intent: "bookAll" }, expect: ADMIN_ACTION, note: "book all paid orders" },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), kind: "action", setup: async (db, a) => ({ form: { intent: "status", id: (await insertAwaitingOrder(db, { userId: a.customerId })).id, status: "shipped" } }), expect: ADMIN_ACTION, note: "status" },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), kind: "action", setup: async (db, a) => ({ form: { intent: "payment", id: (await insertAwaitingOrder(db, { userId: a.customerId })).id, paymentStatus: "completed" } }), expect: ADMIN_ACTION, note: "payment" },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), kind: "action", setup: async (db, a) => { const o = await insertAwaitingOrder(db, { userId: a.customerId }); return { form: { intent: "update", id: o.id, ...TEST_ADDRESS, "line.0.id": o.lines[0]!.id, "line.0.quantity": "2", "line.0.unitPrice": "100", notes: "matrix" } }; }, expect: ADMIN_ACTION, note: "edit" },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), kind: "action", setup: async (db, a) => ({ form: { intent: "email", id: (await insertAwaitingOrder(db, { userId: a.customerId })).id } }), expect: { visitor: DENY_ACTION, customer: DENY_ACTION, admin: 409 }, note: "send status e-mail (no SMTP in tests: 409 'Failed to send email')" },
  { path: "/admin/orders", route: () => import("~/routes/admin.orders"), kind: "action", setup: async (db, a) => ({ form: { intent: "delete", id: (await insertAwaitingOrder(db, { userId: a.customerId })).id } }), expect: ADMIN_ACTION, note: "delete" },
  { path: "/admin/products", route: () => import("~/routes/admin.products"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/products", route: () => import("~/routes/admin.products"), kind: "action", setup: async (db) => ({ form: { intent: "delete", id: (await insertProduct(db)).id } }), expect: ADMIN_ACTION, note: "delete" },
  { path: "/admin/products/add", route: () => import("~/routes/admin.products.add"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/products/edit", route: () => import("~/routes/admin.products.edit"), kind: "loader", setup: async (db) => { const p = await insertProduct(db); return { path: `/admin/products/edit/${p.id}`, params: { id: p.id } }; }, expect: ADMIN_PAGE },
  { path: "/admin/products/edit/gone", route: () => import("~/routes/admin.products.edit"), kind: "loader", params: { id: "gone" }, expect: { ...ADMIN_PAGE, admin: 404 }, note: "missing product" },
  { path: "/admin/products/add", route: () => import("~/routes/admin.products.add"), kind: "action", setup: async (db) => ({ form: { intent: "save", name: `Matrix Scent ${Math.random()}`, price: "199.00", slug: "", categoryId: (await insertCategory(db)).id, stock: "7", stockWas: "", inspiredHouse: "Dior", inspiredFragrance: "Sauvage" } }), expect: ADMIN_ACTION, note: "create" },
  { path: "/admin/products/edit", route: () => import("~/routes/admin.products.edit"), kind: "action", setup: async (db) => { const c = await insertCategory(db); const p = await insertProduct(db, { category_id: c.id }); return { path: `/admin/products/edit/${p.id}`, params: { id: p.id }, form: { intent: "save", id: p.id, name: "Renamed", price: "1.00", slug: p.slug, categoryId: c.id, images: "[]", stock: "0", stockWas: "", inspiredHouse: "Chanel", inspiredFragrance: "Bleu de Chanel" } }; }, expect: ADMIN_ACTION, note: "update" },
  { path: "/admin/products/add", route: () => import("~/routes/admin.products.add"), kind: "action", setup: async (db) => ({ form: { intent: "saveSizes", name: `Matrix Sizes ${Math.random()}`, slug: "", categoryId: (await insertCategory(db)).id, "size.0.label": "50 ml", "size.0.price": "450", "size.1.label": "100 ml", "size.1.price": "720" } }), expect: ADMIN_ACTION, note: "create with sizes" },
  { path: "/admin/products/edit", route: () => import("~/routes/admin.products.edit"), kind: "action", setup: async (db) => { const c = await insertCategory(db); const p = await insertProduct(db, { category_id: c.id }); return { path: `/admin/products/edit/${p.id}`, params: { id: p.id }, form: { intent: "saveSizes", id: p.id, name: p.name, slug: p.slug, categoryId: c.id, images: "[]", "size.0.id": p.id, "size.0.label": "50 ml", "size.0.price": "450", "size.1.label": "100 ml", "size.1.price": "720", moveSize: "1:up" } }; }, expect: ADMIN_ACTION, note: "sizes: add one, reorder" },
  { path: "/admin/products/edit", route: () => import("~/routes/admin.products.edit"), kind: "action", setup: async (db) => { const c = await insertCategory(db); const p = await insertProduct(db, { category_id: c.id }); const keep = await insertProduct(db, { category_id: c.id }); await db.updateTable("product_sizes").set({ product_id: p.id, code: "100ml", label: "100 ml", position: 1 }).where("id", "=", keep.id).execute(); return { path: `/admin/products/edit/${p.id}`, params: { id: p.id }, form: { intent: "saveSizes", id: p.id, name: p.name, slug: p.slug, categoryId: c.id, images: "[]", "size.0.id": p.id, "size.0.label": "50 ml", "size.0.price": "450", "size.1.id": keep.id, "size.1.label": "100 ml", "size.1.remove": "1" } }; }, expect: ADMIN_ACTION, note: "sizes: delete one never ordered" },
  { path: "/admin/products/edit/sizes", route: () => import("~/routes/admin.products.edit"), kind: "loader", setup: async (db) => { const p = await insertProduct(db); return { path: `/admin/products/edit/${p.id}?sizes=add`, params: { id: p.id } }; }, expect: ADMIN_PAGE, note: "the sizes table (no-JavaScript 'Add another size')" },
  { path: "/admin/products/images", route: () => import("~/routes/admin.products.images"), kind: "action", form: { image: "not a file" }, expect: { visitor: DENY_ACTION, customer: DENY_ACTION, admin: 400 }, note: "upload" },
  { path: "/admin/categories", route: () => import("~/routes/admin.categories"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/categories", route: () => import("~/routes/admin.categories"), kind: "action", form: { intent: "add", name: "Matrix Category" }, expect: ADMIN_ACTION, note: "add" },
  { path: "/admin/categories", route: () => import("~/routes/admin.categories"), kind: "action", setup: async (db) => ({ form: { intent: "delete", id: (await insertCategory(db)).id } }), expect: ADMIN_ACTION, note: "delete" },
  { path: "/admin/coupons", route: () => import("~/routes/admin.coupons"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/coupons", route: () => import("~/routes/admin.coupons"), kind: "action", form: { intent: "save", code: `MATRIX${Date.now() % 100000}`, discountType: "percentage", discountValue: "5", startDate: "2026-06-01", endDate: "2026-06-30" }, expect: ADMIN_ACTION, note: "create" },
  { path: "/admin/coupons", route: () => import("~/routes/admin.coupons"), kind: "action", setup: async (db) => ({ form: { intent: "toggle", id: (await insertCoupon(db)).id, isActive: "false" } }), expect: ADMIN_ACTION, note: "toggle" },
  { path: "/admin/coupons", route: () => import("~/routes/admin.coupons"), kind: "action", setup: async (db) => ({ form: { intent: "delete", id: (await insertCoupon(db)).id } }), expect: ADMIN_ACTION, note: "delete" },
  { path: "/admin/reviews", route: () => import("~/routes/admin.reviews"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/reviews", route: () => import("~/routes/admin.reviews"), kind: "action", setup: async (db) => ({ form: { intent: "update", id: (await insertReview(db, (await insertProduct(db)).id)).id, rating: "2", comment: "Edited" } }), expect: ADMIN_ACTION, note: "edit" },
  { path: "/admin/reviews", route: () => import("~/routes/admin.reviews"), kind: "action", setup: async (db) => ({ form: { intent: "delete", id: (await insertReview(db, (await insertProduct(db)).id)).id } }), expect: ADMIN_ACTION, note: "delete" },
  { path: "/admin/users", route: () => import("~/routes/admin.users"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/users", route: () => import("~/routes/admin.users"), kind: "action", setup: async (db) => ({ form: { intent: "update", id: (await createUser(db)).id, isAdmin: "on", emailNotifications: "on" } }), expect: ADMIN_ACTION, note: "promote" },
  { path: "/admin/users", route: () => import("~/routes/admin.users"), kind: "action", setup: async (db) => ({ form: { intent: "delete", id: (await createUser(db)).id } }), expect: ADMIN_ACTION, note: "delete" },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), kind: "action", setup: async () => ({ form: { intent: "saveZone", name: `Matrix Zone ${Math.random()}`, baseRate: "85.00" } }), expect: ADMIN_ACTION, note: "create zone" },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), kind: "action", setup: async (db) => ({ form: { intent: "deleteZone", id: (await insertZone(db)).id } }), expect: ADMIN_ACTION, note: "delete zone" },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), kind: "action", setup: async (db) => ({ form: { intent: "saveRule", zoneId: (await insertZone(db)).id, minTotal: "0", maxTotal: "", rate: "60.00" } }), expect: ADMIN_ACTION, note: "add rule" },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), kind: "action", setup: async (db) => ({ form: { intent: "deleteRule", id: (await insertZone(db, { rules: [{ minTotalCents: 0, rateCents: 100 }] })).rules[0]!.id } }), expect: ADMIN_ACTION, note: "delete rule" },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), kind: "action", form: { intent: "saveDelivery", collectionCompany: "Scentara", collectionStreet: "12 Main Road", collectionSuburb: "Rondebosch", collectionCity: "Cape Town", collectionProvince: "Western Cape", collectionCode: "7700", contactName: "Dispatch", contactMobile: "0821234567", contactEmail: "hello@scentara.co.za", boxLength: "25", boxWidth: "18", boxHeight: "12", bottleWeight: "350", packagingWeight: "250", doorMode: "quote", doorMargin: "0", doorFlat: "99", lockerMode: "flat", lockerMargin: "0", lockerFlat: "60", pointMode: "quote", pointMargin: "-10", pointFlat: "60" }, expect: ADMIN_ACTION, note: "delivery settings" },
  { path: "/admin/shipping", route: () => import("~/routes/admin.shipping"), kind: "action", form: { intent: "saveDelivery", collectionCompany: "Scentara", collectionStreet: "12 Main Road", collectionSuburb: "Rondebosch", collectionCity: "Cape Town", collectionProvince: "Western Cape", collectionCode: "7700", contactName: "Dispatch", contactMobile: "0821234567", contactEmail: "hello@scentara.co.za", boxLength: "25", boxWidth: "18", boxHeight: "12", bottleWeight: "350", packagingWeight: "250", doorMode: "zones", doorMargin: "", doorFlat: "", lockerMode: "quote", lockerMargin: "0", lockerFlat: "60", pointMode: "quote", pointMargin: "0", pointFlat: "60" }, expect: ADMIN_ACTION, note: "door delivery priced by the zones" },
  { path: "/admin/pricing", route: () => import("~/routes/admin.pricing"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/samples", route: () => import("~/routes/admin.samples"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/samples", route: () => import("~/routes/admin.samples"), kind: "action", form: { intent: "settings", enabled: "on", price: "35", setSize: "5", setPrice: "150", creditDays: "60" }, expect: ADMIN_ACTION, note: "sample settings" },
  { path: "/admin/pricing", route: () => import("~/routes/admin.pricing"), kind: "action", setup: async (db) => ({ form: { intent: "add", productId: (await insertProduct(db)).id, minQuantity: "2", maxQuantity: "", price: "100" } }), expect: ADMIN_ACTION, note: "add tier" },
  { path: "/admin/pricing", route: () => import("~/routes/admin.pricing"), kind: "action", setup: async (db) => { const p = await insertProduct(db); return { form: { intent: "add", productId: p.id, sizeId: p.id, minQuantity: "3", maxQuantity: "", price: "90" } }; }, expect: ADMIN_ACTION, note: "add tier to a chosen size" },
  { path: "/admin/pricing", route: () => import("~/routes/admin.pricing"), kind: "action", setup: async (db) => ({ form: { intent: "delete", id: (await insertTier(db, (await insertProduct(db)).id, { min_quantity: 2, max_quantity: null, price_cents: 100 })).id } }), expect: ADMIN_ACTION, note: "delete tier" },
  { path: "/admin/inbox", route: () => import("~/routes/admin.inbox"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/inbox?box=sent", route: () => import("~/routes/admin.inbox"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/inbox", route: () => import("~/routes/admin.inbox"), kind: "action", form: { intent: "readAll" }, expect: ADMIN_ACTION, note: "mark all read" },
  { path: "/admin/data", route: () => import("~/routes/admin.data"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/privacy", route: () => import("~/routes/admin.privacy"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/data", route: () => import("~/routes/admin.data"), kind: "action", form: { intent: "backup" }, setup: async (db) => (await import("~/modules/backups/backup-files.server")).takeBackupRun(db).then(() => ({}), () => ({})), expect: { visitor: DENY_ACTION, customer: DENY_ACTION, admin: 409 }, note: "back up now while a backup runs" },
  { path: "/admin/data/backups/..%2Fshop.db", route: () => import("~/routes/admin.data.backups.$name"), kind: "loader", params: { name: "../shop.db" }, expect: { ...ADMIN_PAGE, admin: 400 }, note: "a path is not an archive name" },
  // marketing and the consent log (docs/decisions/039); /unsubscribe is public: its signed token decides (app/modules/marketing/unsubscribe.int.test.ts)
  { path: "/admin/marketing", route: () => import("~/routes/admin.marketing"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/marketing", route: () => import("~/routes/admin.marketing"), kind: "action", setup: async (db, a) => ({ form: { intent: "delete", id: await (await import("~/modules/marketing/announcements.server")).saveAnnouncement(db, a.adminId, { id: "new", subject: "Matrix", body: "Hello", product1: "", product2: "" }) } }), expect: ADMIN_ACTION, note: "delete a draft" },
  { path: "/admin/marketing/new", route: () => import("~/routes/admin.marketing.$id"), kind: "loader", params: { id: "new" }, expect: ADMIN_PAGE },
  { path: "/admin/marketing/:id", route: () => import("~/routes/admin.marketing.$id"), kind: "loader", setup: async (db, a) => { const id = await (await import("~/modules/marketing/announcements.server")).saveAnnouncement(db, a.adminId, { id: "new", subject: "Matrix", body: "Hello", product1: "", product2: "" }); return { path: `/admin/marketing/${id}`, params: { id } }; }, expect: ADMIN_PAGE, note: "a draft and its preview" },
  { path: "/admin/marketing/new", route: () => import("~/routes/admin.marketing.$id"), kind: "action", params: { id: "new" }, form: { intent: "save", id: "new", subject: "Matrix", body: "Hello" }, expect: ADMIN_ACTION, note: "save a new draft" },
  { path: "/admin/marketing/:id", route: () => import("~/routes/admin.marketing.$id"), kind: "action", setup: async (db, a) => { const id = await (await import("~/modules/marketing/announcements.server")).saveAnnouncement(db, a.adminId, { id: "new", subject: "Matrix", body: "Hello", product1: "", product2: "" }); return { path: `/admin/marketing/${id}`, params: { id }, form: { intent: "test", id } }; }, expect: ADMIN_ACTION, note: "a test to oneself" },
  { path: "/admin/marketing/:id", route: () => import("~/routes/admin.marketing.$id"), kind: "action", setup: async (db, a) => { await createUser(db, { emailMarketing: true }); const id = await (await import("~/modules/marketing/announcements.server")).saveAnnouncement(db, a.adminId, { id: "new", subject: "Matrix", body: "Hello", product1: "", product2: "" }); return { path: `/admin/marketing/${id}`, params: { id }, form: { intent: "send", id } }; }, expect: ADMIN_ACTION, note: "send to those opted in" },
  // reminders (docs/decisions/056): the admin's figures; the cart kept for signed-in shoppers; a reminder's links
  { path: "/admin/marketing/reminders", route: () => import("~/routes/admin.marketing.reminders"), kind: "loader", expect: ADMIN_PAGE },
  { path: "/admin/marketing/reminders?from=2026-01-01&to=2026-01-31", route: () => import("~/routes/admin.marketing.reminders"), kind: "loader", expect: ADMIN_PAGE, note: "a range" },
  { path: "/api/cart", route: () => import("~/routes/api.cart"), kind: "action", form: { lines: "[]", baseVersion: "", owner: "" }, expect: { visitor: 401, customer: 200, admin: 200 }, note: "a visitor's cart stays in the browser" },
  { path: "/api/cart/restore", route: () => import("~/routes/api.cart.restore"), kind: "action", form: { token: "forged.token" }, expect: { visitor: 400, customer: 400, admin: 400 }, note: "public; its signed token decides (reminders.int.test.ts)" },
  { path: "/orders/:id/pay", route: () => import("~/routes/orders.pay"), kind: "loader", setup: async (db, a) => { const o = await (await import("../factories/orders")).insertOrder(db, { userId: a.customerId }); return { path: `/orders/${o.id}/pay`, params: { id: o.id } }; }, expect: { visitor: "login", customer: "ok", admin: 404 }, note: "the customer's unpaid order" },
  { path: "/admin/consents.csv", route: () => import("~/routes/admin.consents[.]csv"), kind: "loader", expect: ADMIN_PAGE, note: "the consent log as CSV" },
  { path: "/admin/users?consents=x", route: () => import("~/routes/admin.users"), kind: "loader", expect: ADMIN_PAGE, note: "a person's consent history" },
  { path: "/unsubscribe", route: () => import("~/routes/unsubscribe"), kind: "loader", expect: { visitor: 400, customer: 400, admin: 400 }, note: "public; a link without its token is refused" },
  // wishlists and back-in-stock alerts (docs/decisions/057): the page is anyone's, a list only the signed-in shopper's own;
  // the share, confirmation and off links are public (their signed tokens decide: the modules' integration tests)
  { path: "/wishlist", route: () => import("~/routes/wishlist"), kind: "loader", expect: { visitor: 200, customer: 200, admin: 200 } },
  { path: "/wishlist", route: () => import("~/routes/wishlist"), kind: "action", setup: async (db) => ({ form: { intent: "add", productId: (await insertProduct(db)).id } }), expect: SIGNED_IN_ACTION, note: "save a product" },
  { path: "/wishlist", route: () => import("~/routes/wishlist"), kind: "action", form: { intent: "alerts", alerts: "on" }, expect: { visitor: "login", customer: 200, admin: 200 }, note: "wishlist e-mails" },
  { path: "/api/wishlist", route: () => import("~/routes/api.wishlist"), kind: "loader", expect: { visitor: 401, customer: 200, admin: 200 }, note: "the own list" },
  { path: "/api/wishlist", route: () => import("~/routes/api.wishlist"), kind: "action", setup: async (db) => ({ form: { intent: "add", productId: (await insertProduct(db)).id } }), expect: SIGNED_IN_ACTION },
  { path: "/api/stock-alerts", route: () => import("~/routes/api.stock-alerts"), kind: "action", setup: async (db) => ({ form: { productId: (await insertProduct(db, { stock: 0 })).id } }), expect: { visitor: 400, customer: 200, admin: 200 }, note: "a visitor must give an address" },
  { path: "/stock-alerts", route: () => import("~/routes/stock-alerts"), kind: "action", setup: async (db) => ({ form: { productId: (await insertProduct(db, { stock: 0 })).id } }), expect: { visitor: 400, customer: 200, admin: 200 }, note: "without JavaScript" },
  { path: "/wishlist/alerts-off", route: () => import("~/routes/wishlist.alerts-off"), kind: "loader", expect: { visitor: 400, customer: 400, admin: 400 }, note: "no token" },
];

runAuthorizationMatrix(MATRIX);
