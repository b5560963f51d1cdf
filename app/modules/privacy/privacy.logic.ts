/**
 * The records of Admin → Privacy in words (docs/decisions/040): what a retention run erased, what a person's request
 * gave them or erased. Pure and browser-safe.
 */
import type { RetentionCounts } from "./retention.logic";

const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "3 contact messages, 12 e-mail texts, 1 unpaid order's details": only what was erased; "Nothing was due". */
export function describeRunCounts(counts: RetentionCounts | null): string {
  if (!counts) return "–";
  const parts = [
    counts.contactMessages ? n(counts.contactMessages, "contact message") : "",
    counts.mailBodies ? n(counts.mailBodies, "e-mail text") : "",
    counts.mailRecords ? n(counts.mailRecords, "e-mail record") : "",
    counts.unpaidOrders ? `${n(counts.unpaidOrders, "unpaid order")}' details` : "",
    counts.invoicedOrders ? `${n(counts.invoicedOrders, "invoiced order")}' details` : "",
    counts.sessions ? n(counts.sessions, "ended session") : "",
    counts.verifications ? n(counts.verifications, "expired reset link") : "",
    counts.rateLimits ? n(counts.rateLimits, "sign-in counter") : "",
    counts.whatsappTexts ? n(counts.whatsappTexts, "WhatsApp message text") : "",
    counts.whatsappRecords ? n(counts.whatsappRecords, "WhatsApp message record") : "",
    counts.reminderContents ? `${n(counts.reminderContents, "reminder")}' items` : "",
    counts.reminderLinks ? `${n(counts.reminderLinks, "reminder")}' account links` : "",
    counts.savedCarts ? n(counts.savedCarts, "abandoned cart") : "",
    counts.stockAlerts ? n(counts.stockAlerts, "back-in-stock request") : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "Nothing was due";
}

/** A request's record in words: what the download held, or what the deletion erased and kept. */
export function describeRequest(kind: "export" | "erasure", summary: Record<string, number>): string {
  const s = (key: string) => Number(summary[key] ?? 0);
  if (kind === "export") {
    return `Downloaded: ${n(s("orders"), "order")}, ${n(s("invoices"), "invoice")}, ${n(s("reviews"), "review")}, ${n(s("emails"), "e-mail")}, ${n(s("consents"), "consent record")}`;
  }
  const erased = [
    s("reviewsRemoved") ? n(s("reviewsRemoved"), "review") : "",
    s("contactMessagesDeleted") ? n(s("contactMessagesDeleted"), "contact message") : "",
    s("emailsDeleted") ? n(s("emailsDeleted"), "e-mail") : "",
    s("ordersErased") ? `${n(s("ordersErased"), "unpaid order")}' details` : "",
    s("openOrdersCancelled") ? `${n(s("openOrdersCancelled"), "open order")} cancelled` : "",
    s("whatsappMessagesDeleted") ? n(s("whatsappMessagesDeleted"), "WhatsApp message") : "",
    s("stockAlertsDeleted") ? n(s("stockAlertsDeleted"), "back-in-stock request") : "",
    s("wishlistItemsDeleted") ? n(s("wishlistItemsDeleted"), "wishlist item") : "",
    s("sampleCreditsDeleted") ? n(s("sampleCreditsDeleted"), "sample credit") : "",
    s("giftCardsUnlinked") ? `${n(s("giftCardsUnlinked"), "gift card")} unlinked` : "",
  ].filter(Boolean);
  return `Account erased${erased.length ? ` (also erased: ${erased.join(", ")})` : ""}; ${n(s("ordersKept"), "paid order")} kept for the tax record`;
}
