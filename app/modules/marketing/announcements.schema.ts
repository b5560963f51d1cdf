import { z } from "zod";

/** The announcement editor's limits and words (Admin → Marketing; docs/decisions/039). Browser-safe. */
export const ANNOUNCEMENT_LIMITS = { subject: 150, body: 5000, products: 2, productRef: 300 } as const;

export const ANNOUNCEMENT_MESSAGES = {
  saved: "Draft saved",
  deleted: "Draft deleted",
  retried: "The failed e-mails are queued again",
  failedSave: "Failed to save the announcement",
  failedDelete: "Failed to delete the announcement",
  failedTest: "Failed to send the test",
  failedSend: "Failed to start sending",
  failedRetry: "Failed to queue the failed e-mails again",
  subjectRequired: "Subject is required",
  subjectTooLong: `The subject can be at most ${ANNOUNCEMENT_LIMITS.subject} characters`,
  bodyRequired: "Write the announcement's text",
  bodyTooLong: `The text can be at most ${ANNOUNCEMENT_LIMITS.body} characters`,
  productTooLong: "That is not a product link, slug or SKU",
  sameProductTwice: "The same product is chosen twice",
  notFound: "That announcement no longer exists",
  notDraft: "This announcement has already been sent: it can no longer be changed or sent again",
  notSending: "Nothing failed in this announcement's sending",
  nobodyOptedIn: "Nobody has opted in to news and offers yet, so there is no one to send it to",
  productNotFound: (ref: string) => `No product matches “${ref}”: paste its link from the shop, its slug or its SKU`,
  testSent: (email: string) => `Test sent to ${email}`,
  testInOutbox: (email: string) => `Test for ${email} written to the outbox: no mail server is configured (SMTP_URL). Read it under Inbox → Sent.`,
  testRefused: (reason: string) => `The mail server refused the test: ${reason}`,
  queued: (n: number) => `Sending to ${n} ${n === 1 ? "customer" : "customers"}: progress shows below`,
} as const;

const id = z.string().trim().min(1).max(100);
const productRef = z.string().trim().max(ANNOUNCEMENT_LIMITS.productRef, ANNOUNCEMENT_MESSAGES.productTooLong).optional().default("");

export const announcementIntent = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("save"),
    /** "new" for a new draft */
    id,
    subject: z
      .string({ error: ANNOUNCEMENT_MESSAGES.subjectRequired })
      .trim()
      .min(1, ANNOUNCEMENT_MESSAGES.subjectRequired)
      .max(ANNOUNCEMENT_LIMITS.subject, ANNOUNCEMENT_MESSAGES.subjectTooLong)
      // one line: a subject with a line break would be a header injection anywhere else
      .transform((s) => s.replace(/\s+/g, " ")),
    body: z
      .string({ error: ANNOUNCEMENT_MESSAGES.bodyRequired })
      .transform((s) => s.replace(/\r\n?/g, "\n").trim())
      .pipe(z.string().min(1, ANNOUNCEMENT_MESSAGES.bodyRequired).max(ANNOUNCEMENT_LIMITS.body, ANNOUNCEMENT_MESSAGES.bodyTooLong)),
    product1: productRef,
    product2: productRef,
  }),
  z.object({ intent: z.literal("test"), id }),
  z.object({ intent: z.literal("send"), id }),
  z.object({ intent: z.literal("retry"), id }),
]);

/** The list's own action: a draft deleted (what was sent stays on record). */
export const announcementListIntent = z.discriminatedUnion("intent", [z.object({ intent: z.literal("delete"), id })]);

export type AnnouncementIntent = z.infer<typeof announcementIntent>;

export const ANNOUNCEMENT_STATUS_LABELS = { draft: "Draft", sending: "Sending", sent: "Sent" } as const;
