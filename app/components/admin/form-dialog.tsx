import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { useAdminFetcher } from "./admin-status";

/**
 * A form in a dialog (the coupon form): the same native <dialog> as ConfirmDelete. With JavaScript the trigger opens
 * it as a modal and a successful save closes it; without it the trigger is a link (?edit=<id>) that the server
 * renders with the dialog open, and the form is a plain post. A confirmation (the announcement's Send) is one too:
 * an eyebrow above the title, a narrower box, its own busy label, and `onDone` after its success.
 */
export function FormDialog({
  title,
  trigger,
  triggerClassName,
  openHref,
  closeHref,
  openOnLoad,
  submitLabel,
  busyLabel = "Saving…",
  eyebrow,
  narrow,
  onDone,
  children,
}: {
  title: string;
  trigger: React.ReactNode;
  triggerClassName?: string;
  openHref: string;
  closeHref: string;
  openOnLoad: boolean;
  submitLabel: string;
  busyLabel?: string;
  eyebrow?: string;
  narrow?: boolean;
  /** after a successful submission has closed the dialog */
  onDone?: () => void;
  children: React.ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useAdminFetcher();
  // The page's forms share one fetcher: this dialog answers only for its own submission.
  const [mine, setMine] = useState(false);
  const titleId = useId();
  const open = () => {
    const d = dialog.current;
    if (!d) return;
    if (d.open) d.close();
    setMine(false);
    d.showModal();
  };
  useEffect(() => {
    if (openOnLoad) open();
  }, [openOnLoad]);
  useEffect(() => {
    if (mine && fetcher.state === "idle" && fetcher.data?.ok && dialog.current?.open) {
      dialog.current.close();
      onDone?.();
    }
  }, [mine, fetcher.state, fetcher.data, onDone]);
  const heading = (
    <h2 id={titleId} className={eyebrow ? "mt-2 text-2xl text-ink" : "text-2xl text-ink"}>
      {title}
    </h2>
  );
  const error = mine && fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return (
    <>
      <Link
        to={openHref}
        preventScrollReset
        className={triggerClassName}
        onClick={(event) => {
          event.preventDefault();
          open();
        }}
      >
        {trigger}
      </Link>
      <dialog
        ref={dialog}
        open={openOnLoad || undefined}
        aria-labelledby={titleId}
        className={`fixed inset-0 z-50 m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] ${narrow ? "max-w-md" : "max-w-xl"} overflow-y-auto border border-line bg-ivory p-0 text-left text-ink shadow-2xl backdrop:bg-ink/50`}
      >
        <fetcher.Form method="post" action={closeHref} onSubmit={() => setMine(true)} noValidate className="space-y-5 p-6 sm:p-8">
          {eyebrow ? (
            <div>
              <p className="eyebrow">{eyebrow}</p>
              {heading}
            </div>
          ) : (
            heading
          )}
          {error ? (
            <p role="alert" className="border border-danger/30 bg-danger/5 px-4 py-3 text-sm text-danger">
              {error}
            </p>
          ) : null}
          {children}
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Link
              to={closeHref}
              preventScrollReset
              onClick={(event) => {
                event.preventDefault();
                dialog.current?.close();
              }}
              className={buttonClass("ghost", "md")}
            >
              Cancel
            </Link>
            <Button type="submit" disabled={fetcher.state !== "idle"}>
              {fetcher.state !== "idle" ? busyLabel : submitLabel}
            </Button>
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}
