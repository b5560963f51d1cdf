import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { useAdminFetcher } from "./admin-status";

/**
 * Delete with a confirmation that names the record and its id and says 'This action cannot be undone' (SPEC §2).
 * With JavaScript the Delete link opens a modal <dialog> (the browser traps focus, Escape closes it) and the form
 * posts through the page's fetcher. Without it the link opens the same dialog server-rendered (?confirm=<id>), and
 * the form is a plain post. Either way the server decides: the action checks the role and deletes.
 */
export function ConfirmDelete({
  id,
  name,
  what,
  confirmHref,
  cancelHref,
  intent = "delete",
  fields = {},
  openOnLoad = false,
  label = "Delete",
  note,
}: {
  id: string;
  /** the record's name as the admin knows it */
  name: string;
  /** 'product', 'review', 'user' … */
  what: string;
  /** this page with ?confirm=<id> (the no-JavaScript way to the dialog) */
  confirmHref: string;
  /** this page without it */
  cancelHref: string;
  intent?: string;
  fields?: Record<string, string>;
  /** the URL asks for this confirmation (?confirm=<id>) */
  openOnLoad?: boolean;
  label?: string;
  /** what else happens (e.g. 'Its 3 products become uncategorised.') */
  note?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useAdminFetcher();
  const [submitted, setSubmitted] = useState(false);
  const titleId = `confirm-${intent}-${id}`;

  const open = () => {
    const d = dialog.current;
    if (!d) return;
    if (d.open) d.close(); // server-rendered open (non-modal): reopen as a modal
    d.showModal();
  };
  const close = () => dialog.current?.close();

  useEffect(() => {
    if (openOnLoad) open();
  }, [openOnLoad]);

  // Close once this dialog's submission has been answered.
  useEffect(() => {
    if (submitted && fetcher.state === "idle" && fetcher.data) {
      setSubmitted(false);
      close();
    }
  }, [submitted, fetcher.state, fetcher.data]);

  const busy = submitted && fetcher.state !== "idle";
  return (
    <>
      <Link
        to={confirmHref}
        preventScrollReset
        onClick={(event) => {
          event.preventDefault();
          open();
        }}
        className="text-xs font-medium uppercase tracking-[0.14em] text-danger underline-offset-4 hover:underline"
      >
        {label}
        <span className="sr-only"> {name}</span>
      </Link>
      <dialog
        ref={dialog}
        open={openOnLoad || undefined}
        aria-labelledby={titleId}
        className="fixed inset-0 z-50 m-auto w-[calc(100%-2rem)] max-w-md border border-line bg-ivory p-0 text-left text-ink shadow-2xl backdrop:bg-ink/50"
      >
        <fetcher.Form method="post" action={cancelHref} onSubmit={() => setSubmitted(true)} className="p-6 sm:p-8">
          <p className="eyebrow">Please confirm</p>
          <h2 id={titleId} className="mt-2 text-2xl text-ink">
            Delete this {what}?
          </h2>
          <dl className="mt-4 space-y-1 text-sm">
            <div className="flex gap-2">
              <dt className="text-muted">Name</dt>
              <dd className="min-w-0 break-words font-medium">{name}</dd>
            </div>
            <div className="flex gap-2">
              <dt className="text-muted">ID</dt>
              <dd className="min-w-0 break-all font-mono text-xs leading-5">{id}</dd>
            </div>
          </dl>
          {note ? <p className="mt-4 text-sm text-ink-soft">{note}</p> : null}
          <p className="mt-4 text-sm font-medium text-danger">This action cannot be undone.</p>
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="id" value={id} />
          {Object.entries(fields).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Link
              to={cancelHref}
              preventScrollReset
              onClick={(event) => {
                event.preventDefault();
                close();
              }}
              className={buttonClass("ghost", "md")}
            >
              Cancel
            </Link>
            <button type="submit" disabled={busy} className={buttonClass("danger", "md")}>
              {busy ? "Deleting…" : `Delete ${what}`}
            </button>
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}
