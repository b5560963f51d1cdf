/**
 * "Download my data" (POPIA s23; docs/decisions/040) as pure functions: the shape of what the shop holds about one
 * person (the JSON file), and the readable summary of it (the HTML file) beside it in the archive. Every value shown
 * comes from the data; the page is self-contained (inline styles, no scripts, no links to load) so it opens offline.
 */
import type { ShippingAddress } from "~/db/schema";
import { formatRand } from "~/utils/money";

export const EXPORT_FORMAT = "scentara-personal-data/1";

/** A delivery address as the order keeps it. */
export type ExportAddress = ShippingAddress;

export interface ExportOrder {
  id: string;
  shortId: string;
  placedAt: string;
  status: string;
  paymentStatus: string;
  paymentMethod: string;
  lines: Array<{ name: string; quantity: number; unitPriceCents: number; totalPriceCents: number }>;
  subtotalCents: number;
  discountCents: number;
  couponCode: string | null;
  deliveryCents: number;
  totalCents: number;
  deliverTo: ExportAddress;
  delivery: { kind: string | null; service: string | null; point: string | null; trackingNumber: string | null };
  /** the tax invoice, when the order was paid: its number, date of issue and the PDF's path in the archive */
  invoice: { number: string; issuedAt: string; file: string } | null;
}

export interface ExportConsent {
  purpose: string;
  granted: boolean;
  version: string;
  wording: string;
  source: string;
  at: string;
}

export interface PersonalData {
  format: typeof EXPORT_FORMAT;
  generatedAt: string;
  shop: { name: string; legalName: string | null; website: string; contactEmail: string; informationOfficerEmail: string | null };
  account: { id: string; email: string; createdAt: string; emailVerified: boolean; admin: boolean };
  preferences: { orderAndAccountEmails: boolean; marketingEmails: boolean; marketingConsentAt: string | null };
  /** consent history (the consent log): each grant or withdrawal with the words shown */
  consents: ExportConsent[];
  /** the delivery addresses used on orders (the shop keeps no address book: they live on the orders) */
  addresses: Array<ExportAddress & { usedOnOrders: string[]; lastUsedAt: string }>;
  orders: ExportOrder[];
  reviews: Array<{ product: string; rating: number; comment: string; writtenAt: string }>;
  /** items sent back (ECTA s44, CPA s56; docs/decisions/041): the order, why, the refund */
  returns: Array<{ order: string; kind: string; status: string; reason: string; note: string; requestedAt: string; refundCents: number | null; refundedAt: string | null }>;
  contactMessages: Array<{ name: string; email: string; message: string; sentAt: string }>;
  emails: Array<{ to: string; subject: string; text: string; createdAt: string; sentAt: string | null }>;
  sessions: Array<{ signedInAt: string; expiresAt: string; ipAddress: string | null; browser: string | null }>;
  requests: Array<{ kind: "export" | "erasure"; by: "self" | "admin"; at: string }>;
  /** gift cards issued to the address or used on the person's orders: the last four only, never the code */
  giftCards: ExportGiftCard[];
  /** credits earned by samples bought, on a full bottle of the scent (docs/decisions/054) */
  sampleCredits: Array<{ fragrance: string; amountCents: number; state: string; grantedAt: string; expiresAt: string; usedAt: string | null; earnedOnOrder: string; order: string | null }>;
  /** WhatsApp order updates (docs/decisions/055): the number and whether updates are on, and each message */
  whatsapp: {
    subscription: { phone: string; on: boolean; optedInAt: string; optedOutAt: string | null } | null;
    messages: Array<{ order: string | null; update: string; status: string; phone: string; createdAt: string; sentAt: string | null; deliveredAt: string | null; readAt: string | null; failedAt: string | null }>;
  };
  /** the cart kept in the account (docs/decisions/056) */
  savedCart: { items: ExportCartItem[]; changedAt: string | null } | null;
  /** the cart and payment reminders sent (docs/decisions/056) */
  reminders: Array<{ kind: string; status: string; order: string | null; items: ExportCartItem[]; at: string; sentAt: string | null; restoredAt: string | null }>;
  /** the wishlist and whether its e-mails are on (docs/decisions/057) */
  wishlist: { items: Array<{ product: string; addedAt: string; lastToldPriceCents: number; lastToldInStock: boolean }>; alertsOnSince: string | null };
  /** back-in-stock requests under the account or its address (docs/decisions/057) */
  stockAlerts: Array<{ product: string; size: string | null; email: string; status: string; askedAt: string; confirmedAt: string | null }>;
  /** reward points (docs/decisions/062): membership, balances and every change; null: never joined */
  rewards: {
    member: boolean;
    joinedAt: string | null;
    availablePoints: number;
    pendingPoints: number;
    owedPoints: number;
    entries: Array<{ what: string; availablePoints: number; pendingPoints: number; owedPoints: number; order: string | null; note: string | null; at: string }>;
    /** how they came, if by a member's link ("a friend": the member's data is the member's) */
    referredBy: { status: string; reason: string | null; at: string } | null;
    /** the friends who came by their link, counted by how it went (none named) */
    friends: { waiting: number; pending: number; rewarded: number; refused: number };
  } | null;
}

export interface ExportCartItem {
  name: string;
  size: string | null;
  quantity: number;
}

export interface ExportGiftCard {
  /** the last four characters of the code, as printed on the invoice ("ending 7KQ2") */
  last4: string;
  issuedToYou: boolean;
  amountCents: number;
  balanceCents: number;
  status: string;
  issuedAt: string;
  expiresAt: string;
  /** each change to the balance, oldest first (for a card issued to someone else: only those on your orders) */
  entries: Array<{ kind: string; amountCents: number; balanceAfterCents: number; order: string | null; at: string }>;
}

/** The archive's name: scentara-my-data-2026-11-26.zip */
export function archiveName(shopName: string, at: Date): string {
  const slug = shopName.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() || "shop";
  return `${slug}-my-data-${at.toISOString().slice(0, 10)}.zip`;
}

/** What the summary counts (also the privacy_requests record of the download). */
export function exportCounts(data: PersonalData): Record<string, number> {
  return {
    orders: data.orders.length,
    invoices: data.orders.filter((o) => o.invoice).length,
    addresses: data.addresses.length,
    consents: data.consents.length,
    reviews: data.reviews.length,
    returns: data.returns.length,
    contactMessages: data.contactMessages.length,
    emails: data.emails.length,
    sessions: data.sessions.length,
    giftCards: data.giftCards.length,
    sampleCredits: data.sampleCredits.length,
    whatsappMessages: data.whatsapp.messages.length,
    savedCartItems: data.savedCart?.items.length ?? 0,
    reminders: data.reminders.length,
    wishlistItems: data.wishlist.items.length,
    stockAlerts: data.stockAlerts.length,
    rewardEntries: data.rewards?.entries.length ?? 0,
  };
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "26 Nov 2026, 08:21" in South African time (UTC+2, no daylight saving), the same on every server. */
export function saDateTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const d = new Date(t + 2 * 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

const e = escapeHtml;
const yesNo = (v: boolean) => (v ? "Yes" : "No");
const addressLines = (a: ExportAddress) =>
  [a.name, a.street, [a.suburb, a.city].filter(Boolean).join(", "), [a.province, a.postalCode].filter(Boolean).join(" "), a.telephone].filter((l) => l && l.trim());

function table(caption: string, head: string[], rows: string[][]): string {
  if (rows.length === 0) return `<p class="none">None.</p>`;
  return (
    `<table><caption>${e(caption)}</caption><thead><tr>${head.map((h) => `<th scope="col">${e(h)}</th>`).join("")}</tr></thead><tbody>` +
    rows.map((r) => `<tr>${r.map((c, i) => `<td data-label="${e(head[i] ?? "")}"><span>${c}</span></td>`).join("")}</tr>`).join("") +
    `</tbody></table>`
  );
}

function dl(rows: Array<[string, string]>): string {
  return `<dl>${rows.map(([k, v]) => `<div><dt>${e(k)}</dt><dd>${v}</dd></div>`).join("")}</dl>`;
}

/** The readable summary (my-data.html): every section of the JSON, as a page in the shop's own look. */
export function renderSummaryHtml(data: PersonalData): string {
  const title = `Your data at ${data.shop.name}`;
  const sections: string[] = [];

  sections.push(
    `<section><h2>Your account</h2>${dl([
      ["E-mail address", e(data.account.email)],
      ["Account opened", e(saDateTime(data.account.createdAt))],
      ["Shop admin", yesNo(data.account.admin)],
      ["Order and account e-mails", data.preferences.orderAndAccountEmails ? "On" : "Off"],
      ["News and offers by e-mail", data.preferences.marketingEmails ? `On${data.preferences.marketingConsentAt ? ` (you agreed on ${e(saDateTime(data.preferences.marketingConsentAt))})` : ""}` : "Off"],
    ])}</section>`,
  );

  sections.push(
    `<section><h2>Your consent history</h2>${table(
      "Each time you gave or withdrew consent, with the words you were shown",
      ["When", "For", "Given", "Where", "Words shown"],
      data.consents.map((c) => [e(saDateTime(c.at)), e(c.purpose), c.granted ? "Given" : "Withdrawn", e(c.source), `${e(c.wording)}<span class="muted"> (version ${e(c.version)})</span>`]),
    )}</section>`,
  );

  sections.push(
    `<section><h2>Your delivery addresses</h2>${
      data.addresses.length
        ? `<ul class="cards">${data.addresses
            .map((a) => `<li>${addressLines(a).map(e).join("<br>")}<p class="muted">Used on ${a.usedOnOrders.length} ${a.usedOnOrders.length === 1 ? "order" : "orders"}, last on ${e(saDateTime(a.lastUsedAt))}</p></li>`)
            .join("")}</ul>`
        : `<p class="none">None.</p>`
    }</section>`,
  );

  const orders = data.orders
    .map((o) => {
      const lines = o.lines.map((l) => `<li>${e(l.name)}: ${l.quantity} × ${e(formatRand(l.unitPriceCents))} = ${e(formatRand(l.totalPriceCents))}</li>`).join("");
      const money = [
        ["Subtotal", formatRand(o.subtotalCents)],
        ...(o.discountCents ? [[`Discount${o.couponCode ? ` (${o.couponCode})` : ""}`, formatRand(-o.discountCents)]] : []),
        ["Delivery", o.deliveryCents === 0 ? "Free" : formatRand(o.deliveryCents)],
        ["Total", formatRand(o.totalCents)],
      ] as Array<[string, string]>;
      return (
        `<article><h3>Order #${e(o.shortId)} <span class="muted">${e(saDateTime(o.placedAt))}</span></h3>` +
        dl([
          ["Status", `${e(o.status)} (payment ${e(o.paymentStatus)}, ${e(o.paymentMethod)})`],
          ["Delivered to", addressLines(o.deliverTo).map(e).join("<br>") || `<span class="muted">erased</span>`],
          ...(o.delivery.service || o.delivery.point ? [["Delivery", e([o.delivery.service, o.delivery.point].filter(Boolean).join(", "))] as [string, string]] : []),
          ...(o.delivery.trackingNumber ? [["Tracking number", e(o.delivery.trackingNumber)] as [string, string]] : []),
          ["Invoice", o.invoice ? `${e(o.invoice.number)}, ${e(saDateTime(o.invoice.issuedAt))}: <span class="muted">${e(o.invoice.file)} in this download</span>` : "None (not paid)"],
        ]) +
        `<ul class="lines">${lines}</ul>` +
        dl(money.map(([k, v]) => [k, e(v)])) +
        `</article>`
      );
    })
    .join("");
  sections.push(`<section><h2>Your orders</h2>${orders || `<p class="none">None.</p>`}</section>`);

  sections.push(
    `<section><h2>Your reviews</h2>${table(
      "Reviews you wrote",
      ["When", "Fragrance", "Rating", "Review"],
      data.reviews.map((r) => [e(saDateTime(r.writtenAt)), e(r.product), `${r.rating} of 5`, e(r.comment)]),
    )}</section>`,
  );
  sections.push(
    `<section><h2>Your returns</h2>${table(
      "Items you sent back, and the refunds",
      ["Asked", "Order", "Why", "Status", "Refund"],
      data.returns.map((r) => [
        e(saDateTime(r.requestedAt)),
        `#${e(r.order)}`,
        `${e(r.reason)}${r.note ? `<br><span class="muted">${e(r.note)}</span>` : ""}`,
        e(r.status),
        r.refundCents !== null ? `${e(formatRand(r.refundCents))}${r.refundedAt ? `, ${e(saDateTime(r.refundedAt))}` : ""}` : "–",
      ]),
    )}</section>`,
  );
  sections.push(
    `<section><h2>Messages you sent us</h2>${table(
      "Contact form messages",
      ["When", "Name", "E-mail", "Message"],
      data.contactMessages.map((m) => [e(saDateTime(m.sentAt)), e(m.name), e(m.email), e(m.message)]),
    )}</section>`,
  );
  sections.push(
    `<section><h2>E-mails we sent you</h2>${
      data.emails.length
        ? data.emails
            .map(
              (m) =>
                `<details><summary>${e(saDateTime(m.createdAt))}: ${e(m.subject)}${m.sentAt ? "" : ' <span class="muted">(not delivered)</span>'}</summary><pre>${m.text ? e(m.text) : '<span class="muted">The text has been erased (we keep it for a limited time).</span>'}</pre></details>`,
            )
            .join("")
        : `<p class="none">None.</p>`
    }</section>`,
  );
  sections.push(
    `<section><h2>Your gift cards</h2>${
      data.giftCards.length
        ? data.giftCards
            .map(
              (c) =>
                `<article><h3>Gift card ending ${e(c.last4)} <span class="muted">${c.issuedToYou ? "issued to you" : "used on your orders"}</span></h3>` +
                dl([
                  ["Amount", e(formatRand(c.amountCents))],
                  ["Balance", `${e(formatRand(c.balanceCents))}${c.status === "cancelled" ? " (cancelled)" : ""}`],
                  ["Issued", e(saDateTime(c.issuedAt))],
                  ["Expires", e(saDateTime(c.expiresAt))],
                ]) +
                table(
                  "Each change to its balance",
                  ["When", "What", "Amount", "Balance after", "Order"],
                  c.entries.map((x) => [e(saDateTime(x.at)), e(x.kind), e(formatRand(x.amountCents)), e(formatRand(x.balanceAfterCents)), x.order ? `#${e(x.order)}` : "–"]),
                ) +
                `</article>`,
            )
            .join("")
        : `<p class="none">None.</p>`
    }<p class="muted">We never keep a gift card's code, only its last four characters.</p></section>`,
  );
  sections.push(
    `<section><h2>Your sample credits</h2>${table(
      "What each sample you bought gives back on a full bottle of its scent",
      ["Granted", "Fragrance", "Credit", "State", "Expires"],
      data.sampleCredits.map((c) => [
        e(saDateTime(c.grantedAt)),
        `${e(c.fragrance)}<br><span class="muted">from order #${e(c.earnedOnOrder)}</span>`,
        e(formatRand(c.amountCents)),
        `${e(c.state)}${c.order ? ` <span class="muted">(order #${e(c.order)})</span>` : ""}`,
        e(saDateTime(c.expiresAt)),
      ]),
    )}</section>`,
  );
  const wa = data.whatsapp.subscription;
  sections.push(
    `<section><h2>WhatsApp order updates</h2>${
      wa
        ? dl([
            ["Number", e(wa.phone)],
            ["Updates", wa.on ? "On" : "Off"],
            ["Turned on", e(saDateTime(wa.optedInAt))],
            ...(wa.optedOutAt ? [["Turned off", e(saDateTime(wa.optedOutAt))] as [string, string]] : []),
          ])
        : `<p class="none">You have not asked for WhatsApp updates.</p>`
    }${table(
      "Messages we sent you on WhatsApp",
      ["When", "Order", "Update", "Status", "Number"],
      data.whatsapp.messages.map((m) => [
        e(saDateTime(m.createdAt)),
        m.order ? `#${e(m.order)}` : `<span class="muted">a cart</span>`,
        e(m.update),
        e(m.status),
        m.phone ? e(m.phone) : `<span class="muted">erased</span>`,
      ]),
    )}</section>`,
  );
  const items = (list: ExportCartItem[]) => list.map((i) => `${e(i.name)}${i.size ? ` (${e(i.size)})` : ""} × ${i.quantity}`).join("<br>") || `<span class="muted">erased</span>`;
  sections.push(
    `<section><h2>Your cart and reminders</h2>${
      data.savedCart
        ? dl([
            ["Your cart", data.savedCart.items.length ? items(data.savedCart.items) : "Empty"],
            ["Last changed", data.savedCart.changedAt ? e(saDateTime(data.savedCart.changedAt)) : "–"],
          ])
        : `<p class="none">No cart is kept in your account.</p>`
    }${table(
      "Reminders we sent you",
      ["When", "About", "Items", "Status", "Link used"],
      data.reminders.map((r) => [
        e(saDateTime(r.at)),
        r.order ? `Order #${e(r.order)}` : "Your cart",
        items(r.items),
        e(r.status),
        r.restoredAt ? e(saDateTime(r.restoredAt)) : "–",
      ]),
    )}</section>`,
  );
  sections.push(
    `<section><h2>Your wishlist</h2>${dl([["Wishlist e-mails", data.wishlist.alertsOnSince ? `On (since ${e(saDateTime(data.wishlist.alertsOnSince))})` : "Off"]])}${table(
      "Fragrances you saved",
      ["Saved", "Fragrance", "Price last told"],
      data.wishlist.items.map((i) => [e(saDateTime(i.addedAt)), e(i.product), `${e(formatRand(i.lastToldPriceCents))}${i.lastToldInStock ? "" : " (sold out)"}`]),
    )}</section>`,
  );
  sections.push(
    `<section><h2>Back-in-stock requests</h2>${table(
      "Fragrances you asked us to tell you about",
      ["Asked", "Fragrance", "E-mail", "State"],
      data.stockAlerts.map((a) => [
        e(saDateTime(a.askedAt)),
        `${e(a.product)}${a.size ? ` (${e(a.size)})` : ""}`,
        e(a.email),
        a.status === "waiting" ? `Waiting${a.confirmedAt ? `, confirmed ${e(saDateTime(a.confirmedAt))}` : ""}` : "Not confirmed",
      ]),
    )}</section>`,
  );
  const rewards = data.rewards;
  sections.push(
    `<section><h2>Your reward points</h2>${
      rewards
        ? dl([
            ["Member", rewards.member ? `Yes, since ${e(saDateTime(rewards.joinedAt!))}` : "No"],
            ["Yours to spend", e(String(rewards.availablePoints))],
            ["Pending", e(String(rewards.pendingPoints))],
            ["Owed", e(String(rewards.owedPoints))],
            ["Came by a friend's link", rewards.referredBy ? `Yes, ${e(saDateTime(rewards.referredBy.at))} (${e(rewards.referredBy.status)}${rewards.referredBy.reason ? `: ${e(rewards.referredBy.reason)}` : ""})` : "No"],
            ["Friends who came by your link", e(`${rewards.friends.waiting} still to order, ${rewards.friends.pending} pending, ${rewards.friends.rewarded} rewarded, ${rewards.friends.refused} not rewarded`)],
          ]) +
          table(
            "Each change to your points",
            ["When", "What", "To spend", "Pending", "Owed", "Order"],
            rewards.entries.map((x) => [e(saDateTime(x.at)), `${e(x.what)}${x.note ? ` <span class="muted">(${e(x.note)})</span>` : ""}`, e(String(x.availablePoints)), e(String(x.pendingPoints)), e(String(x.owedPoints)), x.order ? `#${e(x.order)}` : "–"]),
          )
        : `<p class="none">You haven't joined the rewards programme.</p>`
    }</section>`,
  );
  sections.push(
    `<section><h2>Where you are signed in</h2>${table(
      "Open sessions: the internet address and browser of each",
      ["Signed in", "Ends", "Internet address", "Browser"],
      data.sessions.map((s) => [e(saDateTime(s.signedInAt)), e(saDateTime(s.expiresAt)), e(s.ipAddress ?? "–"), e(s.browser ?? "–")]),
    )}</section>`,
  );
  sections.push(
    `<section><h2>Your requests about your data</h2>${table(
      "Downloads of your data",
      ["When", "Request", "By"],
      data.requests.map((r) => [e(saDateTime(r.at)), r.kind === "export" ? "Download of your data" : "Deletion", r.by === "self" ? "You" : "The shop, at your request"]),
    )}</section>`,
  );

  const officer = data.shop.informationOfficerEmail ?? data.shop.contactEmail;
  return `<!doctype html>
<html lang="en-ZA">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:#f8f4ee;color:#1c1714;font:16px/1.6 Georgia,'Times New Roman',serif}
main{max-width:46rem;margin:0 auto;padding:3rem 1.25rem 4rem}
.eyebrow{font:600 .7rem/1 Arial,sans-serif;letter-spacing:.18em;text-transform:uppercase;color:#7d5c2c;margin:0}
h1{font-weight:400;font-size:2.4rem;line-height:1.15;margin:.6rem 0 1rem}
h2{font-weight:400;font-size:1.6rem;margin:2.8rem 0 1rem;padding-top:1.4rem;border-top:1px solid #d9cfbf}
h3{font-weight:400;font-size:1.2rem;margin:1.6rem 0 .6rem}
p,li,td,dd,summary{font-family:Arial,sans-serif;font-size:.92rem}
.muted,.none{color:#6e645b}
dl{margin:.4rem 0;font-family:Arial,sans-serif;font-size:.92rem}
dl div{display:grid;grid-template-columns:minmax(7rem,12rem) 1fr;gap:1rem;padding:.35rem 0;border-bottom:1px solid #ebe3d7}
dt{color:#4a413a}dd{margin:0;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse;font-family:Arial,sans-serif;font-size:.88rem}
caption{text-align:left;color:#6e645b;padding-bottom:.4rem}
th{text-align:left;font-weight:600;font-size:.7rem;letter-spacing:.12em;text-transform:uppercase;color:#4a413a;border-bottom:1px solid #1c1714;padding:.4rem .5rem .4rem 0}
td{vertical-align:top;border-bottom:1px solid #ebe3d7;padding:.45rem .5rem .45rem 0;overflow-wrap:break-word}
p,dd,pre{overflow-wrap:break-word;word-break:break-word}
article{border:1px solid #d9cfbf;background:#fffdf9;padding:.2rem 1.1rem 1rem;margin:1rem 0}
ul.cards{list-style:none;padding:0;display:grid;gap:.8rem}ul.cards li{border:1px solid #d9cfbf;background:#fffdf9;padding:.8rem 1rem}
ul.lines{padding-left:1.1rem}
details{border-bottom:1px solid #ebe3d7;padding:.5rem 0}summary{cursor:pointer}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:.85rem/1.5 Arial,sans-serif;background:#fffdf9;border:1px solid #ebe3d7;padding:.8rem}
@media (max-width:40rem){
table,tbody,tr,td{display:block;width:100%}thead{display:none}caption{display:block}
tr{border:1px solid #d9cfbf;background:#fffdf9;padding:.4rem .8rem;margin:.6rem 0}
td{display:grid;grid-template-columns:7rem 1fr;gap:.8rem;border-bottom:1px solid #ebe3d7;padding:.35rem 0}td:last-child{border-bottom:0}
td::before{content:attr(data-label);font-size:.68rem;letter-spacing:.12em;text-transform:uppercase;color:#6e645b;padding-top:.15rem}
}
@media (max-width:30rem){dl div{grid-template-columns:1fr;gap:0}h1{font-size:1.9rem}}
</style>
</head>
<body>
<main>
<p class="eyebrow">${e(data.shop.name)}</p>
<h1>${e(title)}</h1>
<p>Everything ${e(data.shop.legalName ?? data.shop.name)} holds about the account <strong>${e(data.account.email)}</strong>, as on ${e(saDateTime(data.generatedAt))} (South African time). The same information, complete and for computers, is in <strong>my-data.json</strong> beside this page; each paid order's invoice is in the <strong>invoices</strong> folder.</p>
<p class="muted">You asked for this under section 23 of the Protection of Personal Information Act. If something is wrong, correct it in your profile or write to ${e(officer)} (section 24).</p>
${sections.join("\n")}
</main>
</body>
</html>
`;
}
