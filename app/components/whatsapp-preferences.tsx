import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, Notice } from "~/components/ui/field";
import { normalizeSaPhone } from "~/modules/orders/orders.logic";
import { useRootData } from "~/modules/settings/root-data";
import { WHATSAPP_CONSENT, WHATSAPP_MARKETING_CONSENT } from "~/modules/whatsapp/templates";
import { formatDateZA } from "~/utils/dates";

type Answer = { ok: true; intent?: string; message?: string } | { ok: false; error: string; fieldErrors: Record<string, string> } | undefined;

/**
 * The profile's WhatsApp order updates (docs/decisions/055): on — the number and "Stop WhatsApp updates"; off — the
 * number (the last order's to start with) and the opt-in's own words (WHATSAPP_CONSENT, as the consent log records
 * them) above its button. While updates are on, reminders on WhatsApp (marketing, a consent of its own) with their own
 * words and button. Nothing is on until the person presses it.
 */
export function WhatsappPreferences({ whatsapp, actionData }: { whatsapp: { active: boolean; reminders: boolean; phone: string; since: string | null }; actionData: Answer }) {
  const { shop } = useRootData();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && String(navigation.formData?.get("intent") ?? "").startsWith("whatsapp");
  const [typed, setTyped] = useState(whatsapp.phone);
  const phone = normalizeSaPhone(typed);
  const done = actionData?.ok && actionData.intent === "whatsapp" ? actionData.message : null;
  const refused = actionData && !actionData.ok && actionData.fieldErrors.telephone ? actionData.fieldErrors.telephone : null;
  return (
    <section aria-labelledby="whatsapp-updates-title" className="mt-12 max-w-xl" data-testid="whatsapp-preferences">
      <h2 id="whatsapp-updates-title" className="text-2xl text-ink">
        WhatsApp Updates
      </h2>
      {done ? (
        <div className="mt-4">
          <Notice tone="success">{done}</Notice>
        </div>
      ) : null}
      {whatsapp.active ? (
        <Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="whatsapp-off" />
          <p className="text-sm leading-relaxed text-ink-soft">
            Order updates go to <span className="font-medium text-ink">{whatsapp.phone}</span> on WhatsApp
            {whatsapp.since ? ` (since ${formatDateZA(whatsapp.since)})` : ""}. You can also reply STOP to any of them.
          </p>
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? "Stopping…" : "Stop WhatsApp updates"}
          </Button>
        </Form>
      ) : null}
      {whatsapp.active ? (
        <Form method="post" className="mt-8 space-y-4 border-t border-line pt-6" data-testid="whatsapp-reminders">
          <h3 className="text-lg text-ink">Reminders on WhatsApp</h3>
          {whatsapp.reminders ? (
            <>
              <input type="hidden" name="intent" value="whatsapp-reminders-off" />
              <p className="text-sm leading-relaxed text-ink-soft">
                On: at most one reminder per cart you leave with items or order you have not paid yet, to {whatsapp.phone}.
              </p>
              <Button type="submit" variant="secondary" disabled={busy}>
                Stop WhatsApp reminders
              </Button>
            </>
          ) : (
            <>
              <input type="hidden" name="intent" value="whatsapp-reminders-on" />
              {/* the words the consent log records when this button is pressed (marketing: separate from order updates) */}
              <p className="text-sm font-medium text-ink">{WHATSAPP_MARKETING_CONSENT.label(normalizeSaPhone(whatsapp.phone) ?? whatsapp.phone)}</p>
              <p className="text-sm leading-relaxed text-ink-soft">{WHATSAPP_MARKETING_CONSENT.description(shop.name)}</p>
              <Button type="submit" variant="secondary" disabled={busy}>
                Turn on WhatsApp reminders
              </Button>
            </>
          )}
        </Form>
      ) : null}
      {whatsapp.active ? null : (
        <Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="whatsapp-on" />
          <Field label="WhatsApp number" error={refused ?? undefined} hint="South African mobile number, e.g. 082 123 4567">
            {(p) => <input {...p} name="telephone" type="tel" inputMode="tel" autoComplete="tel" maxLength={20} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} />}
          </Field>
          {/* the words the consent log records when this button is pressed */}
          <p className="text-sm font-medium text-ink">{phone ? WHATSAPP_CONSENT.label(phone) : "Order updates on WhatsApp to the number above"}</p>
          <p className="text-sm leading-relaxed text-ink-soft">{WHATSAPP_CONSENT.description(shop.name)}</p>
          <Button type="submit" disabled={busy}>
            {busy ? "Saving…" : "Turn on WhatsApp updates"}
          </Button>
        </Form>
      )}
    </section>
  );
}
