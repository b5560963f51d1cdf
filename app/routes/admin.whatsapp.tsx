/**
 * Admin → WhatsApp (docs/decisions/055): whether order updates go out (Meta's Cloud API, the shop's test sender, or
 * off), what to register with Meta — the webhook address and every template's name, language, category, body and when
 * a shopper gets it, read from the same templates the sender sends (order updates, then the reminders of decision
 * 056) — and how the last messages fared.
 */
import type { Route } from "./+types/admin.whatsapp";
import { AdminPage } from "~/components/admin/admin-page";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { allTemplates, MESSAGE_STATUS_LABELS } from "~/modules/whatsapp/templates";
import { whatsappMode } from "~/modules/whatsapp/whatsapp.server";
import { env } from "~/utils/env.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "marketing");
  const config = env();
  const since = new Date(Date.now() - 30 * 24 * 60 * 60_000).toISOString();
  const counts = await getDb()
    .selectFrom("whatsapp_messages")
    .select((eb) => ["status", eb.fn.countAll<number>().as("n")])
    .where("created_at", ">=", since)
    .groupBy("status")
    .execute();
  return {
    mode: whatsappMode(config),
    language: config.WHATSAPP_TEMPLATE_LANGUAGE,
    webhookUrl: `${config.PUBLIC_BASE_URL.replace(/\/+$/, "")}/webhooks/whatsapp`,
    counts: counts.map((c) => ({ status: c.status, label: MESSAGE_STATUS_LABELS[c.status] ?? c.status, n: Number(c.n) })),
    templates: allTemplates(),
  };
}

export function meta() {
  return [{ title: "WhatsApp | Admin | Scentara" }];
}

const MODE_WORDS = {
  live: "On: order updates go through Meta's WhatsApp Cloud API to shoppers who opted in.",
  test: "Test messages: no WhatsApp credentials are set, so updates go to the shop's test sender and reach no phone. Set WHATSAPP_ACCESS_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN to send real ones.",
  off: "Off: the checkout and profile offer no WhatsApp updates. (An https:// shop without WhatsApp credentials stays off unless ALLOW_TEST_WHATSAPP=true; WHATSAPP_UPDATES=false turns them off.)",
} as const;

const label = "text-[0.68rem] font-medium uppercase tracking-[0.16em] text-muted";

export default function AdminWhatsapp({ loaderData: d }: Route.ComponentProps) {
  return (
    <AdminPage
      title="WhatsApp"
      description="Order updates on WhatsApp, for shoppers who opted in at checkout or in their profile; reminders, for those who also agreed to reminders on WhatsApp in their profile."
    >
      <section aria-labelledby="wa-state" className="border border-line bg-white p-5 text-sm text-ink-soft">
        <h2 id="wa-state" className={label}>
          Sending
        </h2>
        <p className="mt-2 text-ink" data-testid="whatsapp-mode">
          {d.mode === "test" ? <span className="mr-2 bg-amber-50 px-1.5 py-0.5 text-amber-900 ring-1 ring-amber-200">Test messages</span> : null}
          {MODE_WORDS[d.mode]}
        </p>
        <p className="mt-3 break-words">
          Webhook address to enter at Meta (WhatsApp → Configuration, field <span className="font-mono">messages</span>): <span className="font-mono text-ink">{d.webhookUrl}</span>, with your
          WHATSAPP_VERIFY_TOKEN as the verify token.
        </p>
        {d.counts.length ? (
          <p className="mt-3">
            Last 30 days: {d.counts.map((c) => `${c.label} ${c.n}`).join(" · ")}
          </p>
        ) : null}
      </section>

      <section aria-labelledby="wa-templates" className="mt-8">
        <h2 id="wa-templates" className="font-display text-2xl text-ink">
          Templates to register with Meta
        </h2>
        <p className="mt-2 max-w-3xl text-sm text-ink-soft">
          Create each one in WhatsApp Manager → Message templates with exactly this name, category and body, in the language <span className="font-mono text-ink">{d.language}</span>{" "}
          (WHATSAPP_TEMPLATE_LANGUAGE). The examples are what Meta asks for when you submit one.
        </p>
        <ul className="mt-5 space-y-4">
          {d.templates.map((t) => (
            <li key={t.name} className="border border-line bg-white p-4 text-sm">
              <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <span className="font-medium text-ink">{t.label}</span>
                <span className="font-mono text-ink">{t.name}</span>
                <span className="text-xs text-muted">
                  {t.category} · {d.language}
                </span>
              </p>
              <p className="mt-2 text-ink-soft" data-testid="template-when">
                {t.when}
              </p>
              <p className="mt-3 whitespace-pre-line break-words border-l-2 border-gold bg-sand/50 px-3 py-2 text-ink-soft">{t.body}</p>
              <p className="mt-2 break-words text-xs text-muted">
                Examples: {t.example.map((e, i) => `{{${i + 1}}} ${e}`).join(" · ")}
              </p>
            </li>
          ))}
        </ul>
      </section>
    </AdminPage>
  );
}
