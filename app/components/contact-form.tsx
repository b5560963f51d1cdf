import { useEffect, useRef } from "react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, Notice } from "~/components/ui/field";
import type { ErrorBody } from "~/utils/errors";
import { CONTACT_FORM_TEXT, HONEYPOT_FIELD } from "~/modules/contact/contact.text";

/** What the home action answers for the contact form. */
export type ContactActionData =
  | { ok: true }
  | (ErrorBody & { values?: { name?: string; email?: string; message?: string } });

/**
 * The contact form (SPEC §2, §4: idle → sending → success | error). Posts to the home route's action, so it works
 * without JavaScript (a normal POST, answered by the home page) and from the 404 page too. With JavaScript it is
 * sent in place; success clears it.
 */
export function ContactForm() {
  const fetcher = useFetcher<ContactActionData>({ key: "contact-form" });
  const documentResult = useActionData() as ContactActionData | undefined;
  const result = fetcher.data ?? documentResult;
  const sending = fetcher.state !== "idle";
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);

  const fieldErrors = result && !result.ok ? result.fieldErrors : {};
  const values = result && !result.ok ? (result.values ?? {}) : {};
  const status = sending ? "sending" : !result ? "idle" : result.ok ? "success" : "error";

  return (
    <fetcher.Form ref={formRef} method="post" action="/?index" noValidate className="space-y-5" data-state={status} aria-label="Contact form">
      <Field label="Name" error={fieldErrors.name}>
        {(p) => <input {...p} name="name" type="text" autoComplete="name" required maxLength={100} defaultValue={values.name} />}
      </Field>
      <Field label="Email" error={fieldErrors.email}>
        {(p) => <input {...p} name="email" type="email" autoComplete="email" required maxLength={254} defaultValue={values.email} />}
      </Field>
      <Field label="Message" error={fieldErrors.message}>
        {(p) => <textarea {...p} name="message" rows={5} required maxLength={5000} defaultValue={values.message} />}
      </Field>

      {/* People never see this field; bots that fill every input do, and their message is dropped. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label>
          Leave this field empty
          <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>

      <div aria-live="polite" className="min-h-0">
        {status === "success" ? (
          <Notice tone="success" title={CONTACT_FORM_TEXT.successTitle}>
            {CONTACT_FORM_TEXT.successBody}
          </Notice>
        ) : null}
        {status === "error" && result && !result.ok ? (
          Object.keys(fieldErrors).length > 0 ? (
            <Notice tone="error" title={result.error} />
          ) : (
            <Notice tone="error" title={CONTACT_FORM_TEXT.failureTitle}>
              {CONTACT_FORM_TEXT.failureBody}
            </Notice>
          )
        ) : null}
      </div>

      <Button type="submit" size="lg" disabled={sending} aria-busy={sending || undefined} className="w-full sm:w-auto">
        {sending ? "Sending…" : "Send Message"}
      </Button>
    </fetcher.Form>
  );
}
