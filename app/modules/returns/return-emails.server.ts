/**
 * The e-mails of a return (issue 21 point 8): each step tells the shopper where their return stands; a new request
 * also tells the shop, and so does a refund the payment provider could not pay. Sent after the step's commit; a failed
 * e-mail is logged and never undoes the step (the admin page and the shopper's page show the same state).
 */
import type { RefundSplit, RefundTo } from "./returns.logic";
import type { Queryable } from "~/db/db.server";
import { sendMail } from "~/modules/mail/mailer.server";
import { creditNotePath, formatCreditNoteNumber } from "~/modules/invoices/credit-note.logic";
import { env } from "~/utils/env.server";
import { shortOrderId } from "~/utils/ids";
import { logger } from "~/utils/logger.server";
import { formatRand } from "~/utils/money";
import { formatDay, KIND_LABELS, reasonLabel, REFUND_DUE_DAYS } from "./returns.logic";
import { returnsWithOrder } from "./return-row.server";

export type ReturnEmailStep = "requested" | "approved" | "declined" | "received" | "refunded" | "payout_failed";

const PROVIDER_NAMES: Record<string, string> = { simulated: "the shop's test payments", yoco: "Yoco", payfast: "PayFast", ozow: "Ozow" };

/** How the refund reaches the shopper, in their words. */
export function refundRoute(method: string | null, provider: string | null): string {
  if (method === "provider") return `to the card or account you paid with, through ${PROVIDER_NAMES[provider ?? ""] ?? provider ?? "the payment provider"}`;
  return "by bank transfer (EFT)";
}

/**
 * A refund's route in the shopper's words, with its gift card part (docs/decisions/053): "R300.00 to the card … and
 * R200.00 back to the gift card you paid with", "as a new gift card, e-mailed to you".
 */
export function refundSplitWords(split: RefundSplit, method: string | null, provider: string | null): string {
  if (split.newCardCents > 0) return "as a new gift card, e-mailed to you";
  if (split.cardsCents === 0) return refundRoute(method, provider);
  if (split.providerCents === 0) return "back to the gift card you paid with";
  return `${formatRand(split.providerCents)} ${refundRoute(method, provider)} and ${formatRand(split.cardsCents)} back to the gift card you paid with`;
}

/** The split as a refunded return's row records it. */
export function recordedSplit(r: { refund_cents: number | null; refund_gift_card_cents: number; refund_to: RefundTo }): RefundSplit {
  const all = Number(r.refund_cents ?? 0);
  const cards = Number(r.refund_gift_card_cents);
  return r.refund_to === "gift_card" ? { providerCents: 0, cardsCents: 0, newCardCents: all } : { providerCents: all - cards, cardsCents: cards, newCardCents: 0 };
}

/** Answers the outbox id of the customer's e-mail (when one was written), which covers the same news on WhatsApp. */
export async function sendReturnEmails(db: Queryable, returnId: string, step: ReturnEmailStep): Promise<string | undefined> {
  try {
    return await compose(db, returnId, step);
  } catch (error) {
    logger.error({ err: error, returnId, step }, "returns: e-mail failed");
  }
}

async function compose(db: Queryable, returnId: string, step: ReturnEmailStep) {
  const r = await returnsWithOrder(db)
    .select([
      "r.id",
      "r.order_id",
      "r.kind",
      "r.reason",
      "r.note",
      "r.owner_message",
      "r.refund_due_at",
      "r.refund_cents",
      "r.refund_method",
      "r.refund_provider",
      "r.refund_gift_card_cents",
      "r.refund_to",
      "r.credit_note_number",
      "o.shipping_address",
      "u.email",
    ])
    .where("r.id", "=", returnId)
    .executeTakeFirst();
  if (!r) return;
  const lines = await db.selectFrom("return_lines").select(["name", "quantity", "restocked"]).where("return_id", "=", returnId).orderBy("id").execute();
  const config = env();
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const short = shortOrderId(r.order_id);
  const page = `${base}/orders/${r.order_id}/return`;
  const items = lines.map((l) => `- ${l.quantity} x ${l.name}`);
  const due = formatDay(new Date(r.refund_due_at));
  const hello = `Hi ${r.shipping_address.name || "there"},`;
  const sign = ["", config.SHOP_NAME];

  if (step === "requested" || step === "payout_failed") {
    const shopText =
      step === "requested"
        ? [
            `A return has been requested for order ${short} (${KIND_LABELS[r.kind]}).`,
            `Reason: ${reasonLabel(r.reason)}`,
            ...(r.note ? [`Note: ${r.note}`] : []),
            "",
            ...items,
            "",
            `The refund is due by ${due} (ECTA s44(3): within ${REFUND_DUE_DAYS} days of the request).`,
            `Answer it in ${base}/admin/returns/${r.id}`,
          ]
        : [`The refund of ${formatRand(Number(r.refund_cents ?? 0))} for order ${short} failed at ${PROVIDER_NAMES[r.refund_provider ?? ""] ?? r.refund_provider}.`, `Pay it out by EFT and record it: ${base}/admin/returns/${r.id}`];
    await sendMail(
      {
        to: config.CONTACT_EMAIL,
        subject: step === "requested" ? `Return requested for order ${short}` : `Refund failed for order ${short}`,
        text: shopText.join("\n"),
        ...(r.email ? { replyTo: r.email } : {}),
      },
      db,
    );
    if (step === "payout_failed") return;
  }
  if (!r.email) {
    logger.warn({ returnId, step }, "returns: the customer has no e-mail address on record; not told");
    return;
  }

  const address = config.SHOP_ADDRESS;
  const words: Record<Exclude<ReturnEmailStep, "payout_failed">, { subject: string; body: string[] }> = {
    requested: {
      subject: `we have your return request for order ${short}`,
      body: [
        `We have your request to return these items of order ${short}:`,
        ...items,
        "",
        `Reason: ${reasonLabel(r.reason)}`,
        "We will answer you by e-mail. Please keep the items until we tell you where to send them.",
        `If we accept the return, your refund is due by ${due}.`,
      ],
    },
    approved: {
      subject: `your return for order ${short} is approved`,
      body: [
        `Your return for order ${short} is approved.`,
        ...(r.owner_message ? ["", r.owner_message] : []),
        "",
        ...(address.length ? ["Please send the items to:", ...address.map((l) => `  ${l}`)] : ["Reply to this e-mail and we will tell you how to send the items back."]),
        "",
        r.kind === "cooling_off"
          ? "The only charge you may be asked to pay is the direct cost of returning the goods (ECTA s44(2))."
          : "Faulty goods are returned at our risk and expense (CPA s56(2)).",
        `Your refund is due by ${due}.`,
      ],
    },
    declined: {
      subject: `your return for order ${short} was declined`,
      body: [`We have declined your return for order ${short}.`, ...(r.owner_message ? ["", r.owner_message] : []), "", "Reply to this e-mail if you have questions."],
    },
    received: {
      subject: `we have received your return for order ${short}`,
      body: [`The items you returned from order ${short} have reached us:`, ...items, "", `Your refund follows, by ${due} at the latest.`],
    },
    refunded: {
      subject: `your refund for order ${short}`,
      body: [
        `We have refunded ${formatRand(Number(r.refund_cents ?? 0))} for your return from order ${short}, ${refundSplitWords(recordedSplit(r), r.refund_method, r.refund_provider)}.`,
        "Depending on your bank it can take a few working days to show in your account.",
        ...(r.credit_note_number !== null
          ? ["", `Your credit note ${formatCreditNoteNumber(Number(r.credit_note_number), config.CREDIT_NOTE_PREFIX)}: ${base}${creditNotePath(r.id)}`]
          : []),
      ],
    },
  };
  const w = words[step];
  const sent = await sendMail(
    {
      to: r.email,
      subject: `${config.SHOP_NAME}: ${w.subject}`,
      text: [hello, "", ...w.body, "", `Your return: ${page}`, ...sign].join("\n"),
      replyTo: config.CONTACT_EMAIL,
    },
    db,
  );
  return sent.id;
}
