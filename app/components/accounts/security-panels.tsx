import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { formatDateTimeZA } from "~/utils/dates";
import { PasskeyButton } from "./passkey-button";
import { CodeField } from "./two-step-forms";

/** What /profile/security's loader gives (kept structural so this file needs no server import). */
interface SecurityData {
  authenticator: { status: "none" | "pending" | "enabled"; backupCodesLeft: number };
  setup: { secretText: string; uri: string; qr: { size: number; path: string } } | null;
  passkeys: Array<{ id: string; name: string; createdAt: string; lastUsedAt: string | null; synced: boolean }>;
  devices: Array<{ id: string; label: string; ip: string | null; signedInAt: string; lastSeenAt: string; current: boolean }>;
  required: boolean;
  notice: string | null;
  recentlyConfirmed: boolean;
}
type Answer = { ok: true; intent: string; message: string; backupCodes?: string[] } | { ok: false; error: string; fieldErrors?: Record<string, string> } | undefined;

const sectionClass = "border-t border-line pt-10";

export function SecurityPage({ data, answer }: { data: SecurityData; answer: Answer }) {
  const success = answer?.ok ? answer : null;
  const failure = answer && !answer.ok ? answer : null;
  return (
    <div className="space-y-12">
      <div>
        <h2 id="profile-section-title" className="text-2xl text-ink">
          Sign-in &amp; Security
        </h2>
        <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">
          Protect your account with a second step at sign-in, and see where you&rsquo;re signed in.
        </p>
        <div className="mt-5 max-w-xl space-y-3" aria-live="polite">
          {data.required ? <Notice tone="info" title="Two-step sign-in required">The shop&rsquo;s owner requires two-step sign-in for staff. Add an authenticator app or a passkey below to open the admin.</Notice> : null}
          {data.notice && !answer ? <Notice tone="success">{data.notice}</Notice> : null}
          {success && !success.backupCodes ? <Notice tone="success">{success.message}</Notice> : null}
          {failure && !failure.fieldErrors?.code ? <Notice tone="error">{failure.error}</Notice> : null}
        </div>
      </div>
      {success?.backupCodes ? <BackupCodes codes={success.backupCodes} message={success.message} /> : null}
      <AuthenticatorSection data={data} codeError={failure?.fieldErrors?.code} />
      <PasskeysSection passkeys={data.passkeys} />
      <DevicesSection devices={data.devices} />
    </div>
  );
}

function usePending(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

function AuthenticatorSection({ data, codeError }: { data: SecurityData; codeError?: string }) {
  const starting = usePending("totp-start");
  const confirming = usePending("totp-confirm");
  const { status, backupCodesLeft } = data.authenticator;
  return (
    <section aria-labelledby="authenticator-heading" className={sectionClass}>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h3 id="authenticator-heading" className="text-xl text-ink">
          Authenticator app
        </h3>
        <StatusBadge on={status === "enabled"} />
      </div>
      <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">
        An app such as Google Authenticator, Microsoft Authenticator or 1Password shows a new 6-digit code every 30 seconds. With it on, signing in
        with your password also asks for that code.
      </p>

      {status === "none" ? (
        <Form method="post" className="mt-6">
          <input type="hidden" name="intent" value="totp-start" />
          <Button type="submit" disabled={starting}>
            {starting ? "Preparing…" : "Set up authenticator app"}
          </Button>
        </Form>
      ) : null}

      {status === "pending" && data.setup ? (
        <div className="mt-8 grid gap-8 border border-line bg-white/70 p-5 sm:grid-cols-[auto_1fr] sm:p-8">
          <figure className="mx-auto w-full max-w-[220px]">
            <svg
              role="img"
              aria-label="QR code for your authenticator app"
              viewBox={`-4 -4 ${data.setup.qr.size + 8} ${data.setup.qr.size + 8}`}
              className="block aspect-square w-full border border-line bg-white"
              shapeRendering="crispEdges"
            >
              <rect x={-4} y={-4} width={data.setup.qr.size + 8} height={data.setup.qr.size + 8} fill="#fff" />
              <path d={data.setup.qr.path} fill="#1c1714" />
            </svg>
            <figcaption className="mt-2 text-center text-xs text-muted">Scan with your app</figcaption>
          </figure>
          <div className="min-w-0 space-y-5">
            <ol className="list-decimal space-y-2 pl-5 text-sm leading-relaxed text-ink-soft">
              <li>Open your authenticator app and add an account.</li>
              <li>Scan the QR code, or enter this setup key by hand:</li>
            </ol>
            <p className="break-all border border-dashed border-gold/60 bg-sand px-4 py-3 font-mono text-base tracking-wider text-ink" data-testid="totp-secret">
              {data.setup.secretText}
            </p>
            <p className="text-xs text-muted">
              On this phone?{" "}
              <a href={data.setup.uri} className="underline decoration-gold underline-offset-4 hover:text-gold">
                Open it in your authenticator app
              </a>
              .
            </p>
            <Form method="post" className="space-y-4" noValidate>
              <input type="hidden" name="intent" value="totp-confirm" />
              <CodeField label="Code from the app" error={codeError} hint="Enter the 6-digit code the app shows now." />
              <div className="flex flex-wrap gap-3">
                <Button type="submit" disabled={confirming}>
                  {confirming ? "Checking…" : "Turn on"}
                </Button>
              </div>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="totp-remove" />
              <button type="submit" className="text-xs uppercase tracking-[0.14em] text-muted underline underline-offset-4 hover:text-ink">
                Cancel setup
              </button>
            </Form>
          </div>
        </div>
      ) : null}

      {status === "enabled" ? (
        <div className="mt-6 space-y-5">
          <p className="text-sm text-ink">
            <span className="font-medium">Backup codes:</span> {backupCodesLeft} of 10 left. Each works once, if you lose your phone.
          </p>
          <div className="flex flex-wrap gap-3">
            <Form method="post">
              <input type="hidden" name="intent" value="codes-regenerate" />
              <Button type="submit" variant="secondary">
                New backup codes
              </Button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="totp-remove" />
              <Button type="submit" variant="ghost" className="text-danger">
                Remove app
              </Button>
            </Form>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function BackupCodes({ codes, message }: { codes: string[]; message: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <section aria-labelledby="backup-codes-heading" className="border border-gold/50 bg-sand p-5 sm:p-8">
      <p className="eyebrow">Shown once</p>
      <h3 id="backup-codes-heading" className="mt-2 text-xl text-ink">
        Your backup codes
      </h3>
      <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">
        {message} If you lose your phone, each of these codes signs you in once. Save them in a password manager or print them; you won&rsquo;t see
        them again.
      </p>
      <ol className="mt-5 grid max-w-md grid-cols-2 gap-x-6 gap-y-2 font-mono text-base text-ink" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code} className="tabular-nums">
            {code}
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="mt-5 text-xs font-medium uppercase tracking-[0.14em] text-ink underline decoration-gold underline-offset-4 hover:text-gold"
        onClick={() => {
          void navigator.clipboard?.writeText(codes.join("\n")).then(() => setCopied(true));
        }}
      >
        {copied ? "Copied" : "Copy codes"}
      </button>
    </section>
  );
}

function PasskeysSection({ passkeys }: { passkeys: SecurityData["passkeys"] }) {
  const [name, setName] = useState("");
  return (
    <section aria-labelledby="passkeys-heading" className={sectionClass}>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h3 id="passkeys-heading" className="text-xl text-ink">
          Passkeys
        </h3>
        <StatusBadge on={passkeys.length > 0} />
      </div>
      <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">
        Sign in with your fingerprint, face or screen lock instead of a password. A passkey is made for this shop only and can&rsquo;t be phished.
      </p>
      {passkeys.length > 0 ? (
        <ul className="mt-6 divide-y divide-line border-y border-line" data-testid="passkeys">
          {passkeys.map((p) => (
            <li key={p.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="truncate text-ink">{p.name}</p>
                <p className="text-xs text-muted">
                  Added {formatDateTimeZA(p.createdAt)}
                  {p.lastUsedAt ? ` · last used ${formatDateTimeZA(p.lastUsedAt)}` : ""}
                  {p.synced ? " · synced" : ""}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Form method="post" className="flex items-center gap-2">
                  <input type="hidden" name="intent" value="passkey-rename" />
                  <input type="hidden" name="id" value={p.id} />
                  <label htmlFor={`passkey-name-${p.id}`} className="sr-only">
                    New name for {p.name}
                  </label>
                  <input
                    id={`passkey-name-${p.id}`}
                    name="name"
                    defaultValue={p.name}
                    maxLength={60}
                    className="h-9 w-40 min-w-0 border border-line bg-white px-2 text-sm text-ink focus:border-gold focus:outline-none"
                  />
                  <Button type="submit" size="sm" variant="ghost">
                    Rename
                  </Button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="intent" value="passkey-remove" />
                  <input type="hidden" name="id" value={p.id} />
                  <Button type="submit" size="sm" variant="ghost" className="text-danger" aria-label={`Remove ${p.name}`}>
                    Remove
                  </Button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-6 max-w-md space-y-4">
        <div>
          <label htmlFor="new-passkey-name" className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
            Name (optional)
          </label>
          <input
            id="new-passkey-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={60}
            placeholder="e.g. My phone"
            className="mt-2 block h-11 w-full border border-line bg-white px-3 text-base text-ink focus:border-gold focus:outline-none"
          />
        </div>
        <PasskeyButton purpose="register" label="Add a passkey" name={name} busyLabel="Follow your device's prompt…" />
        <noscript>
          <p className="text-sm text-ink-soft">Adding a passkey needs JavaScript.</p>
        </noscript>
      </div>
    </section>
  );
}

function DevicesSection({ devices }: { devices: SecurityData["devices"] }) {
  const others = devices.filter((d) => !d.current).length;
  return (
    <section aria-labelledby="devices-heading" className={sectionClass}>
      <h3 id="devices-heading" className="text-xl text-ink">
        Where you&rsquo;re signed in
      </h3>
      <p className="mt-3 max-w-xl text-sm leading-relaxed text-ink-soft">
        Don&rsquo;t recognise one? Sign it out and change your password. Places aren&rsquo;t looked up: we show the network address instead.
      </p>
      <ul className="mt-6 divide-y divide-line border-y border-line" data-testid="devices">
        {devices.map((d) => (
          <li key={d.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0">
              <p className="text-ink">
                {d.label}
                {d.current ? <span className="ml-2 border border-gold/60 px-2 py-0.5 text-[0.65rem] uppercase tracking-[0.16em] text-ink-soft">This device</span> : null}
              </p>
              <p className="break-words text-xs text-muted">
                {d.ip ? `Address ${d.ip}` : "Address unknown"} · signed in {formatDateTimeZA(d.signedInAt)} · last seen {formatDateTimeZA(d.lastSeenAt)}
              </p>
            </div>
            {d.current ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="device-end" />
                <input type="hidden" name="id" value={d.id} />
                <Button type="submit" size="sm" variant="secondary" aria-label={`Sign out ${d.label}, last seen ${formatDateTimeZA(d.lastSeenAt)}`}>
                  Sign out
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Form method="post" className="mt-6">
          <input type="hidden" name="intent" value="devices-end-others" />
          <Button type="submit" variant="secondary">
            Sign out all other devices
          </Button>
        </Form>
      ) : null}
      <p className="mt-6 text-xs text-muted">To sign out of this device, use Sign Out in the menu.</p>
    </section>
  );
}

function StatusBadge({ on }: { on: boolean }) {
  return (
    <span
      className={`border px-2.5 py-0.5 text-[0.65rem] font-medium uppercase tracking-[0.16em] ${on ? "border-success/40 bg-success/5 text-success" : "border-line text-muted"}`}
    >
      {on ? "On" : "Off"}
    </span>
  );
}
