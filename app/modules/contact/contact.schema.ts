import { z } from "zod";

import { CONTACT_FORM_TEXT as CONTACT_MESSAGES } from "./contact.text";

export { CONTACT_MESSAGES };
export { HONEYPOT_FIELD } from "./contact.text";

/** The contact form (SPEC §5: name, email and message required; email in a valid format). */
export const contactSchema = z.object({
  name: z
    .string({ error: CONTACT_MESSAGES.nameRequired })
    .transform((s) => s.replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1, CONTACT_MESSAGES.nameRequired).max(100, CONTACT_MESSAGES.nameTooLong)),
  email: z
    .string({ error: CONTACT_MESSAGES.emailRequired })
    .trim()
    .min(1, CONTACT_MESSAGES.emailRequired)
    .max(254, CONTACT_MESSAGES.emailInvalid)
    .pipe(z.email({ error: CONTACT_MESSAGES.emailInvalid })),
  message: z
    .string({ error: CONTACT_MESSAGES.messageRequired })
    .transform((s) => s.replace(/\r\n?/g, "\n").trim())
    .pipe(z.string().min(1, CONTACT_MESSAGES.messageRequired).max(5000, CONTACT_MESSAGES.messageTooLong)),
});

export type ContactInput = z.infer<typeof contactSchema>;
