import { useEffect, useState } from "react";
import { useNavigation } from "react-router";
import { Field } from "~/components/ui/field";

/** The frame of the sign-in, sign-up and password pages: a quiet card under the fixed header. */
export function AuthShell({ eyebrow, title, intro, children, footer }: {
  eyebrow: string;
  title: string;
  intro?: React.ReactNode;
  children: React.ReactNode;
  footer?: React.ReactNode;
}) {
  return (
    <main id="main" className="container-page flex min-h-[80vh] items-start justify-center pt-28 pb-20 sm:pt-36">
      <div className="w-full max-w-md">
        <div className="border border-line bg-white/70 px-6 py-9 shadow-[0_1px_0_rgba(28,23,20,0.04)] sm:px-10 sm:py-12">
          <p className="eyebrow text-center">{eyebrow}</p>
          <h1 className="mt-3 text-center text-4xl leading-tight text-ink sm:text-[2.75rem]">{title}</h1>
          <div className="mx-auto mt-5 h-px w-12 bg-gold/60" aria-hidden="true" />
          {intro ? <div className="mt-5 text-center text-sm leading-relaxed text-ink-soft">{intro}</div> : null}
          <div className="mt-8">{children}</div>
        </div>
        {footer ? <div className="mt-6 text-center text-sm text-ink-soft">{footer}</div> : null}
      </div>
    </main>
  );
}

/**
 * A password field with a show/hide toggle. The toggle appears once JavaScript runs (without it the field is a plain
 * password input, which still works).
 */
export function PasswordField({
  label,
  name,
  autoComplete,
  error,
  hint,
  minLength,
  maxLength = 128,
  autoFocus,
}: {
  label: string;
  name: string;
  autoComplete: "current-password" | "new-password";
  error?: string;
  hint?: string;
  minLength?: number;
  maxLength?: number;
  autoFocus?: boolean;
}) {
  const [visible, setVisible] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <Field label={label} error={error} hint={hint}>
      {(props) => (
        <div className="relative">
          <input
            {...props}
            className={`${props.className} pr-20`}
            type={visible ? "text" : "password"}
            name={name}
            autoComplete={autoComplete}
            required
            minLength={minLength}
            maxLength={maxLength}
            spellCheck={false}
            autoCapitalize="none"
            autoFocus={autoFocus}
          />
          {hydrated ? (
            <button
              type="button"
              onClick={() => setVisible((v) => !v)}
              aria-label={`${visible ? "Hide" : "Show"} ${label.toLowerCase()}`}
              aria-controls={props.id}
              aria-pressed={visible}
              className="absolute inset-y-0 right-0 flex min-w-16 items-center justify-center px-3 text-[0.7rem] font-medium uppercase tracking-[0.14em] text-gold hover:text-ink focus-visible:outline-offset-[-2px]"
            >
              {visible ? "Hide" : "Show"}
            </button>
          ) : null}
        </div>
      )}
    </Field>
  );
}

export function EmailField({ error, defaultValue, autoFocus }: { error?: string; defaultValue?: string; autoFocus?: boolean }) {
  return (
    <Field label="Email" error={error}>
      {(props) => (
        <input
          {...props}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={254}
          defaultValue={defaultValue}
          autoFocus={autoFocus}
          spellCheck={false}
          autoCapitalize="none"
        />
      )}
    </Field>
  );
}

/**
 * What the sign-in and sign-up pages share: the busy state while their form posts, the server's field errors, and
 * the ?redirect= to carry over to the other page (so a shopper on the way to checkout gets there either way).
 */
export function useAuthForm(redirectTo: string, actionData: { ok: boolean; fieldErrors?: Record<string, string> } | undefined) {
  const navigation = useNavigation();
  return {
    busy: navigation.state !== "idle" && navigation.formMethod === "POST",
    errors: actionData && !actionData.ok ? (actionData.fieldErrors ?? {}) : {},
    query: redirectTo ? `?redirect=${encodeURIComponent(redirectTo)}` : "",
  };
}
