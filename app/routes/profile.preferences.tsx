/** /profile/preferences: which e-mails the person gets (the marketing switch is recorded in the consent log). */
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/profile.preferences";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { useTransient } from "~/components/ui/use-transient";
import { getDb } from "~/db/db.server";
import { MESSAGES, preferencesSchema } from "~/modules/accounts/accounts.schema";
import { getEmailPreferences, updateEmailPreferences } from "~/modules/accounts/accounts.server";
import { requireUser, requireUserAction } from "~/modules/accounts/session.server";
import { MARKETING_CONSENT } from "~/modules/consent/consent.logic";
import { useRootData } from "~/modules/settings/root-data";
import { formError } from "~/utils/errors";
import { formatDateZA } from "~/utils/dates";
import { readFields } from "~/utils/request.server";
import { WhatsappPreferences } from "~/components/whatsapp-preferences";
import { changeProfileWhatsapp, PROFILE_WHATSAPP_INTENTS, profileWhatsapp } from "~/modules/whatsapp/profile.server";
import { DomainError } from "~/utils/errors";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { preferences: await getEmailPreferences(getDb(), user.id), whatsapp: await profileWhatsapp(getDb(), user.id) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const fields = await readFields(request);
  if (PROFILE_WHATSAPP_INTENTS.includes(fields.intent as never)) {
    try {
      return { ok: true as const, intent: "whatsapp" as const, message: await changeProfileWhatsapp(getDb(), user.id, fields) };
    } catch (error) {
      if (error instanceof DomainError) return error.toFormError();
      throw error;
    }
  }
  if (fields.intent !== "preferences") return formError("Unknown action", 400);
  const parsed = preferencesSchema.safeParse(fields);
  if (!parsed.success) return formError(MESSAGES.preferencesFailed, 400);
  try {
    await updateEmailPreferences(getDb(), user.id, parsed.data);
  } catch {
    return formError(MESSAGES.preferencesFailed, 500);
  }
  return { ok: true as const, intent: "preferences" as const, message: MESSAGES.preferencesUpdated };
}

export default function ProfilePreferences({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PreferencesTab preferences={loaderData.preferences} actionData={actionData} />
      {loaderData.whatsapp.offered || loaderData.whatsapp.active ? <WhatsappPreferences whatsapp={loaderData.whatsapp} actionData={actionData} /> : null}
    </>
  );
}

type ActionData = Route.ComponentProps["actionData"];

function PreferencesTab({
  preferences,
  actionData,
}: {
  preferences: { emailNotifications: boolean; emailMarketing: boolean; marketingConsentAt: string | null };
  actionData: ActionData;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "preferences";
  const success = actionData?.ok && "intent" in actionData && actionData.intent === "preferences" ? actionData.message : null;
  const shown = useTransient(success ? actionData : null) ? success : null;
  const { shop } = useRootData();
  return (
    <div>
      <h2 id="profile-section-title" className="text-2xl text-ink">Email Preferences</h2>
      <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">
        Order confirmations and important account e-mails are always sent, whatever you choose here.
      </p>
      <Form method="post" className="mt-8 max-w-xl space-y-6" key={preferences.marketingConsentAt ?? "none"}>
        {shown ? <Notice tone="success">{shown}</Notice> : null}
        {actionData && !actionData.ok && !actionData.fieldErrors.telephone ? <Notice tone="error">{actionData.error}</Notice> : null}
        <input type="hidden" name="intent" value="preferences" />
        <Toggle
          name="emailNotifications"
          label="Order and account notifications"
          description="Updates about your orders, deliveries and your account."
          defaultChecked={preferences.emailNotifications}
        />
        {/* The words the consent log records when this switch changes (consent.logic MARKETING_CONSENT). */}
        <Toggle name="emailMarketing" label={MARKETING_CONSENT.label} description={MARKETING_CONSENT.description(shop.name)} defaultChecked={preferences.emailMarketing} />
        {preferences.emailMarketing && preferences.marketingConsentAt ? (
          <p className="text-xs text-muted">You opted in on {formatDateZA(preferences.marketingConsentAt)}.</p>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save Preferences"}
        </Button>
      </Form>
    </div>
  );
}

function Toggle({ name, label, description, defaultChecked }: { name: string; label: string; description: string; defaultChecked: boolean }) {
  const id = `pref-${name}`;
  return (
    <div className="flex items-start justify-between gap-6 border-b border-line pb-6">
      <div>
        <label htmlFor={id} className="text-sm font-medium text-ink">
          {label}
        </label>
        <p id={`${id}-desc`} className="mt-1 text-sm text-ink-soft">
          {description}
        </p>
      </div>
      <span className="relative inline-flex shrink-0 items-center">
        <input
          id={id}
          type="checkbox"
          role="switch"
          name={name}
          defaultChecked={defaultChecked}
          aria-describedby={`${id}-desc`}
          className="peer h-7 w-12 cursor-pointer appearance-none rounded-full border border-line bg-sand transition-colors checked:border-ink checked:bg-ink focus-visible:outline-2 focus-visible:outline-gold"
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute left-1 h-5 w-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5"
        />
      </span>
    </div>
  );
}

