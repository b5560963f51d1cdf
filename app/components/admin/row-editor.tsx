import { useEffect, useState } from "react";
import { Link } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { useAdminFetcher } from "./admin-status";

/**
 * Inline editing of one row at a time (reviews, users, orders). With JavaScript, Edit opens the editor under the
 * row and a save closes it; without it, Edit is a link to ?edit=<id>, which the server renders open, and the form
 * is a plain post.
 */
export function useRowEditor(initial: string, intent = "update") {
  const [editing, setEditing] = useState(initial);
  const fetcher = useAdminFetcher();
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok && fetcher.data.intent === intent) setEditing("");
  }, [fetcher.state, fetcher.data, intent]);
  return { editing, start: setEditing, stop: () => setEditing("") };
}

export function EditLink({ href, onEdit, label }: { href: string; onEdit: () => void; label: string }) {
  return (
    <Link
      to={href}
      preventScrollReset
      onClick={(event) => {
        event.preventDefault();
        onEdit();
      }}
      className="text-xs font-medium uppercase tracking-[0.14em] text-gold underline-offset-4 hover:underline"
    >
      Edit<span className="sr-only"> {label}</span>
    </Link>
  );
}

/** The editor's form: the row's fields, then Save and Cancel. */
export function RowEditorForm({
  id,
  intent = "update",
  action,
  cancelHref,
  onCancel,
  label,
  children,
}: {
  id: string;
  intent?: string;
  action: string;
  cancelHref: string;
  onCancel: () => void;
  /** what is edited, for screen readers: 'review by lerato' */
  label: string;
  children: React.ReactNode;
}) {
  const fetcher = useAdminFetcher();
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("id") === id;
  return (
    <fetcher.Form method="post" action={action} aria-label={`Edit ${label}`} className="space-y-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {children}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? "Saving…" : "Save"}
        </Button>
        <Link
          to={cancelHref}
          preventScrollReset
          onClick={(event) => {
            event.preventDefault();
            onCancel();
          }}
          className={buttonClass("ghost", "sm")}
        >
          Cancel
        </Link>
      </div>
    </fetcher.Form>
  );
}
