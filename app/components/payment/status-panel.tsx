/**
 * The centred result panel of the money path's end pages (payment status, order confirmation states):
 * a seal with a line icon, an eyebrow, a display heading, a short text and the actions.
 */
export type PanelTone = "success" | "failed" | "pending" | "neutral";

export function StatusSeal({ tone }: { tone: PanelTone }) {
  const ring = {
    success: "border-success/40 text-success",
    failed: "border-danger/40 text-danger",
    pending: "border-gold/50 text-gold",
    neutral: "border-line text-ink-soft",
  }[tone];
  return (
    <span aria-hidden="true" className={`relative flex h-20 w-20 items-center justify-center rounded-full border bg-white/70 ${ring}`}>
      <span className="absolute inset-1.5 rounded-full border border-current opacity-20" />
      {tone === "success" ? (
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.4" className="h-8 w-8">
          <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      ) : tone === "failed" ? (
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.4" className="h-8 w-8">
          <path d="M7 7l10 10M17 7 7 17" strokeLinecap="round" />
        </svg>
      ) : tone === "pending" ? (
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.4" className="h-9 w-9 motion-safe:animate-spin [animation-duration:2.4s]">
          <path d="M12 3a9 9 0 1 1-9 9" strokeLinecap="round" />
        </svg>
      ) : (
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.4" className="h-8 w-8">
          <circle cx="11" cy="11" r="6" />
          <path d="M20 20l-4.5-4.5" strokeLinecap="round" />
        </svg>
      )}
    </span>
  );
}

export function StatusPanel({
  tone,
  eyebrow,
  title,
  children,
  actions,
  live,
}: {
  tone: PanelTone;
  eyebrow: string;
  title: string;
  children?: React.ReactNode;
  actions?: React.ReactNode;
  /** announce changes of this panel to screen readers (the confirming state) */
  live?: boolean;
}) {
  return (
    <main className="relative overflow-hidden">
      <div aria-hidden="true" className="hero-wash pointer-events-none absolute inset-0" />
      <div className="container-page relative flex min-h-[70vh] flex-col items-center justify-center pt-32 pb-20 text-center">
        <div className="flex w-full max-w-xl flex-col items-center" aria-live={live ? "polite" : undefined}>
          <StatusSeal tone={tone} />
          <p className="eyebrow mt-8">{eyebrow}</p>
          <h1 className="mt-3 text-4xl leading-tight sm:text-5xl">{title}</h1>
          <span aria-hidden="true" className="my-6 block h-px w-12 bg-gold-light" />
          <div className="max-w-md text-ink-soft">{children}</div>
          {actions ? <div className="mt-10 flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">{actions}</div> : null}
        </div>
      </div>
    </main>
  );
}
