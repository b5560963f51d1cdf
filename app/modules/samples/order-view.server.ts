/**
 * An order as its owner (or an admin) reads it — the confirmation and payment-status pages, the invoice, the e-mails —
 * with the words of its bill for the sample credits it used (docs/decisions/054): orders' view (orders/order-read)
 * given samples' credits. Orders knows no sample credits; samples sits above it and composes the two.
 */
import type { Queryable } from "~/db/db.server";
import { getOrderForViewerWith, readOrderWith, type OrderView, type SampleCreditWords, type Viewer } from "~/modules/orders/order-read.server";
import { creditsOnOrder } from "./sample-orders.server";
import { creditLabel } from "./samples.logic";

export type { OrderView, Viewer };

const CREDIT_WORDS: SampleCreditWords = { creditsOnOrder, creditLabel };

/** The order in its one shape, whoever owns it (server-side use: the e-mails, the pages after their check). */
export function readOrder(db: Queryable, id: string) {
  return readOrderWith(db, id, CREDIT_WORDS);
}

/** The order if this viewer may read it: its owner or an admin; anyone else gets null, as for no such order. */
export function getOrderForViewer(db: Queryable, id: string, viewer: Viewer): Promise<OrderView | null> {
  return getOrderForViewerWith(db, id, viewer, CREDIT_WORDS);
}
