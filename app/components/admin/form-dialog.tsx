import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { useAdminFetcher } from "./admin-status";

/**
 * A form in a dialog (the coupon form): the same native <dialog> as ConfirmDelete. With JavaScript the trigger opens
 * it as a modal and a successful save closes it; without it the trigger is a link (?edit=<id>) that the server
 * renders with the dialog open, and the form is a plain post.
 */
export function FormDialog({
  title,
  trigger,
  triggerClassName,
  openHref,
  closeHref,
  openOnLoad,
  submitLabel,
  children,
}: {
  title: string;
  trigger: React.ReactNode;
  triggerClassName?: string;
  openHref: string;
  closeHref: string;
  openOnLoad: boolean;
  submitLabel: string;
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
    if (mine && fetcher.state === "idle" && fetcher.data?.ok) dialog.current?.close();
  }, [mine, fetcher.state, fetcher.data]);
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
        className="fixed inset-0 z-50 m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-xl overflow-y-auto border border-line bg-ivory p-0 text-left text-ink shadow-2xl backdrop:bg-ink/50"
      >
        <fetcher.Form method="post" action={closeHref} onSubmit={() => setMine(true)} noValidate className="space-y-5 p-6 sm:p-8">
          <h2 id={titleId} className="text-2xl text-ink">
            {title}
          </h2>
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
              {fetcher.state !== "idle" ? "Saving…" : submitLabel}
            </Button>
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}
