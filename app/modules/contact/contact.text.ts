/** The contact form's words (browser-safe, no zod: the form component imports this without the schema library). */
export const CONTACT_FORM_TEXT = {
  nameRequired: "Please enter your name.",
  nameTooLong: "Please keep your name under 100 characters.",
  emailRequired: "Please enter your email address.",
  emailInvalid: "Please enter a valid email address, like name@example.co.za.",
  messageRequired: "Please enter a message.",
  messageTooLong: "Please keep your message under 5 000 characters.",
  fixFields: "Please check the highlighted fields and try again.",
  successTitle: "Message sent successfully!",
  successBody: "We'll get back to you within 24 hours.",
  failureTitle: "Failed to send message.",
  failureBody: "Please try again or contact us directly on WhatsApp.",
} as const;

/** The hidden field people never see and bots fill in: a filled one is dropped silently. */
export const HONEYPOT_FIELD = "website";
