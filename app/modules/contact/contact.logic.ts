/**
 * Pure helpers of the contact module (browser-safe, no I/O).
 */

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** South Africa Standard Time: UTC+2 all year (no daylight saving). */
const SAST_OFFSET_MS = 2 * 60 * 60 * 1000;

/**
 * The submission date as en-ZA writes a long date with time, in South African time: '15 May 2025 at 14:05 SAST'.
 * Built by hand rather than with Intl, whose en-ZA output differs between Node and ICU versions.
 */
export function formatSubmissionDate(date: Date): string {
  const sast = new Date(date.getTime() + SAST_OFFSET_MS);
  const day = sast.getUTCDate();
  const month = MONTHS[sast.getUTCMonth()];
  const year = sast.getUTCFullYear();
  const hh = String(sast.getUTCHours()).padStart(2, "0");
  const mm = String(sast.getUTCMinutes()).padStart(2, "0");
  return `${day} ${month} ${year} at ${hh}:${mm} SAST`;
}

/** One line, no control characters: safe in an e-mail subject. */
export function oneLine(text: string, max = 80): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export interface ContactMail {
  subject: string;
  text: string;
  html: string;
}

/** The e-mail the shop receives for a contact message: from_name, from_email (reply-to), message, submission date. */
export function contactMail(input: { name: string; email: string; message: string }, submittedAt: Date, shopName: string): ContactMail {
  const date = formatSubmissionDate(submittedAt);
  const subject = `New contact message from ${oneLine(input.name, 60)}`;
  const text = [
    `New message from the ${shopName} contact form`,
    "",
    `From: ${input.name}`,
    `E-mail: ${input.email}`,
    `Submitted: ${date}`,
    "",
    input.message,
    "",
    "Reply to this e-mail to answer the customer directly.",
  ].join("\n");
  const html = [
    `<p>New message from the ${escapeHtml(shopName)} contact form</p>`,
    "<table>",
    `<tr><th align="left">From</th><td>${escapeHtml(input.name)}</td></tr>`,
    `<tr><th align="left">E-mail</th><td>${escapeHtml(input.email)}</td></tr>`,
    `<tr><th align="left">Submitted</th><td>${escapeHtml(date)}</td></tr>`,
    "</table>",
    `<p style="white-space:pre-wrap">${escapeHtml(input.message)}</p>`,
  ].join("\n");
  return { subject, text, html };
}
