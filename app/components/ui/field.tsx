import { useId } from "react";

const control =
  "block w-full rounded-none border border-line bg-white px-3 py-2.5 text-base text-ink placeholder:text-muted focus:border-gold focus:outline-none aria-[invalid=true]:border-danger";

/** A labelled form control with its error message wired up for screen readers (aria-describedby). */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: (props: { id: string; "aria-invalid": boolean | undefined; "aria-describedby": string | undefined; className: string }) => React.ReactNode;
}) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">
        {label}
      </label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, className: control })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const controlClass = control;

/** A status message region: success or error, announced politely to screen readers. */
export function Notice({ tone, title, children }: { tone: "success" | "error" | "info"; title?: string; children?: React.ReactNode }) {
  const styles = {
    success: "border-success/30 bg-success/5 text-success",
    error: "border-danger/30 bg-danger/5 text-danger",
    info: "border-gold/30 bg-sand text-ink",
  }[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`border px-4 py-3 text-sm ${styles}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-0.5" : ""}>{children}</div> : null}
    </div>
  );
}
