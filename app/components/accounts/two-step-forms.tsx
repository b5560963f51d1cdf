import { useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { WishlistSignInField } from "~/components/wishlist-sign-in-field";

type Answer = { ok: boolean; error?: string; fieldErrors?: Record<string, string> } | undefined;

/** A one-time code field: digits on phones, the code an SMS or app offers filled in (autocomplete one-time-code). */
export function CodeField({ error, label = "Authentication code", hint }: { error?: string; label?: string; hint?: React.ReactNode }) {
  return (
    <div>
      <label htmlFor="code" className="block text-xs font-medium uppercase tracking-[0.16em] text-ink-soft">
        {label}
      </label>
      <input
        id="code"
        name="code"
        type="text"
        inputMode="text"
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        autoFocus
        required
        maxLength={40}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "code-error code-hint" : "code-hint"}
        placeholder="123 456"
        className="mt-2 block h-14 w-full border border-line bg-white px-4 text-center font-mono text-2xl tracking-[0.3em] text-ink placeholder:text-line focus:border-gold focus:outline-none focus:ring-1 focus:ring-gold"
      />
      {error ? (
        <p id="code-error" className="mt-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
      <p id="code-hint" className="mt-2 text-xs leading-relaxed text-muted">
        {hint}
      </p>
    </div>
  );
}

/** The second step's fields: the code (or a backup code), where to go after, and the signed-out wishlist. */
export function SecondStepForm({ redirectTo, actionData }: { redirectTo: string; actionData: Answer }) {
  const busy = useNavigation().state === "submitting";
  const error = actionData && !actionData.ok ? (actionData.fieldErrors?.code ?? actionData.error) : undefined;
  return (
    <div className="space-y-6">
      <input type="hidden" name="redirect" value={redirectTo} />
      <WishlistSignInField />
      {actionData && !actionData.ok && !actionData.fieldErrors?.code ? <Notice tone="error">{actionData.error}</Notice> : null}
      <CodeField error={error} hint={<>Lost your phone? Enter one of your backup codes instead (each works once).</>} />
      <Button type="submit" size="lg" className="w-full" disabled={busy}>
        {busy ? "Checking…" : "Verify"}
      </Button>
    </div>
  );
}

/** A quiet "or" between two ways to do the same thing. */
export function Divider() {
  return (
    <div className="flex items-center gap-4 text-[0.7rem] uppercase tracking-[0.2em] text-muted" aria-hidden="true">
      <span className="h-px flex-1 bg-line" />
      or
      <span className="h-px flex-1 bg-line" />
    </div>
  );
}
