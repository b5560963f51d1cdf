import { useEffect, useState } from "react";

/**
 * A Copy button for a value the shopper types elsewhere (an account number, a payment reference). Shown only once the
 * page runs JavaScript and the browser can copy; the value itself is always on the page to select by hand.
 */
export function CopyValue({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const [canCopy, setCanCopy] = useState(false);
  useEffect(() => setCanCopy(!!navigator.clipboard), []);
  if (!canCopy) return null;
  return (
    <button
      type="button"
      onClick={() =>
        navigator.clipboard.writeText(value).then(
          () => setState("copied"),
          () => setState("failed"),
        )
      }
      className="shrink-0 text-[0.68rem] font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline"
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}</span>
      <span className="sr-only"> {label}</span>
    </button>
  );
}
