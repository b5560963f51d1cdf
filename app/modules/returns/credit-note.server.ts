/**
 * A refund's credit note for one viewer: the order's owner or an admin (anyone else, a missing return, a return not
 * refunded: "not found", the same answer), built from what the refund recorded (docs/decisions/041).
 */
import type { Queryable } from "~/db/db.server";
import type { Viewer } from "~/modules/orders/order-read.server";
import { KIND_LABELS } from "./returns.logic";
import { returnsWithOrder } from "./return-row.server";
import { env, type Env } from "~/utils/env.server";
import { shortOrderId } from "~/utils/ids";
import { buildCreditNoteDocument, type CreditNoteDocument } from "~/modules/invoices/credit-note.logic";
import { invoiceSupplier } from "~/modules/invoices/invoice.server";

export const CREDIT_NOTE_NOT_FOUND = "Credit note not found";

export async function getCreditNoteForViewer(db: Queryable, returnId: string, viewer: Viewer, config: Env = env()): Promise<CreditNoteDocument | null> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(returnId)) return null;
  const row = await returnsWithOrder(db)
    .select([
      "r.id",
      "r.kind",
      "r.status",
      "r.refund_cents",
      "r.credit_note_number",
      "r.credit_note_issued_at",
      "r.credit_goods_cents",
      "r.credit_discount_cents",
      "r.credit_delivery_cents",
      "o.id as order_id",
      "o.user_id",
      "o.invoice_number",
      "o.invoice_issued_at",
      "o.coupon_code",
      "o.shipping_address",
      "u.email",
    ])
    .where("r.id", "=", returnId)
    .executeTakeFirst();
  if (!row || (!viewer.isAdmin && row.user_id !== viewer.id)) return null;
  if (row.status !== "refunded" || row.credit_note_number === null || !row.credit_note_issued_at || row.invoice_number === null || !row.invoice_issued_at) return null;
  const lines = await db.selectFrom("return_lines").select(["name", "quantity", "unit_price_cents"]).where("return_id", "=", row.id).orderBy("id").execute();
  return buildCreditNoteDocument({
    supplier: invoiceSupplier(config),
    number: Number(row.credit_note_number),
    prefix: config.CREDIT_NOTE_PREFIX,
    issuedAt: row.credit_note_issued_at,
    invoice: { number: Number(row.invoice_number), prefix: config.INVOICE_PREFIX, issuedAt: row.invoice_issued_at },
    orderShortId: shortOrderId(row.order_id),
    reason: `goods returned, ${KIND_LABELS[row.kind].toLowerCase().replace("ecta", "ECTA").replace("cpa", "CPA")}`,
    lines: lines.map((l) => ({ name: l.name, quantity: Number(l.quantity), unitPriceCents: Number(l.unit_price_cents) })),
    goodsCents: Number(row.credit_goods_cents ?? 0),
    discountCents: Number(row.credit_discount_cents ?? 0),
    couponCode: row.coupon_code,
    deliveryCents: Number(row.credit_delivery_cents ?? 0),
    amountCents: Number(row.refund_cents ?? 0),
    recipient: row.shipping_address,
    customerEmail: row.email ?? null,
  });
}
