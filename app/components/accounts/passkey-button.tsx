import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";

/**
 * A passkey ceremony from a button: asks /auth/passkey for options, lets the browser's authenticator answer, sends the
 * answer back, and goes where the server says. The WebAuthn helper (@simplewebauthn/browser) is imported on the click,
 * so it is a chunk of its own that only the login, confirm and profile pages ever load (never a storefront bundle).
 * Passkeys need JavaScript: without it the button stays hidden and the page's other way in (password, code) remains.
 */
export function PasskeyButton({
  purpose,
  redirectTo = "/",
  label,
  busyLabel = "Waiting for your passkey…",
  variant = "secondary",
  name,
}: {
  purpose: "sign-in" | "register" | "confirm";
  redirectTo?: string;
  label: string;
  busyLabel?: string;
  variant?: "primary" | "secondary";
  /** register: the name the person typed for it */
  name?: string;
}) {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; confirm?: string } | null>(null);
  useEffect(() => setSupported(typeof window !== "undefined" && "PublicKeyCredential" in window), []);
  if (!supported) return null;

  async function post(fields: Record<string, string>) {
    const response = await fetch("/auth/passkey", { method: "POST", body: new URLSearchParams({ purpose, redirect: redirectTo, ...fields }) });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) throw Object.assign(new Error(String(body.error ?? "That passkey couldn't be used. Please try again.")), { confirm: body.confirm });
    return body;
  }

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const webauthn = await import("@simplewebauthn/browser");
      const { options, challengeId } = (await post({ step: "options" })) as { options: never; challengeId: string };
      const answer = purpose === "register" ? await webauthn.startRegistration({ optionsJSON: options }) : await webauthn.startAuthentication({ optionsJSON: options });
      const done = await post({ step: "verify", challengeId, response: JSON.stringify(answer), ...(name ? { name } : {}) });
      window.location.assign(String(done.redirect ?? redirectTo));
    } catch (caught) {
      const e = caught as Error & { name?: string; confirm?: unknown };
      const cancelled = e.name === "NotAllowedError" || e.name === "AbortError";
      setError({
        message: cancelled ? "The passkey request was cancelled or timed out." : e.message,
        confirm: typeof e.confirm === "string" ? e.confirm : undefined,
      });
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3">
      <Button type="button" variant={variant} size="lg" className="w-full" onClick={run} disabled={busy}>
        <KeyIcon />
        <span>{busy ? busyLabel : label}</span>
      </Button>
      {error ? (
        <Notice tone="error">
          {error.message}
          {error.confirm ? (
            <>
              {" "}
              <a href={error.confirm} className="font-medium underline underline-offset-4">
                Confirm it&rsquo;s you
              </a>
            </>
          ) : null}
        </Notice>
      ) : null}
    </div>
  );
}

function KeyIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.5">
      <circle cx="8" cy="15" r="4" />
      <path d="M10.85 12.15 19 4m-3 3 2.5 2.5M15 8l2 2" strokeLinecap="round" />
    </svg>
  );
}
