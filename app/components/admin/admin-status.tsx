import { useEffect, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { Notice } from "~/components/ui/field";
import { isAdminResult, type AdminResult } from "~/modules/admin/admin-result";

/**
 * Every form on an admin page submits through one shared fetcher (same key), so the page has one "last result":
 * forms don't reload the page with JavaScript, and without it they are plain posts whose answer is the action data.
 */
export const ADMIN_FETCHER_KEY = "admin-action";

export function useAdminFetcher() {
  return useFetcher<AdminResult>({ key: ADMIN_FETCHER_KEY });
}

/** The latest answer of this page's admin actions (a fetcher's, or the no-JavaScript post's). */
export function useAdminResult(): AdminResult | undefined {
  const fetcher = useAdminFetcher();
  const actionData = useActionData();
  if (isAdminResult(fetcher.data)) return fetcher.data;
  return isAdminResult(actionData) ? actionData : undefined;
}

/** Shows a result; a success disappears after `ms` (SPEC §9: 3 s), an error stays until the next action. */
export function useTransientMessage(result: AdminResult | undefined, ms = 3000): AdminResult | undefined {
  const [shown, setShown] = useState(result);
  useEffect(() => {
    setShown(result);
    if (!result?.ok) return;
    const timer = setTimeout(() => setShown(undefined), ms);
    return () => clearTimeout(timer);
  }, [result, ms]);
  return shown;
}

/** The page's status line: the last action's success or failure message. */
export function AdminStatus() {
  const shown = useTransientMessage(useAdminResult());
  if (!shown) return null;
  if (shown.ok) return <Notice tone="success">{shown.message}</Notice>;
  return (
    <Notice tone="error">
      {shown.error}
      {/* a sensitive action refused for an old proof (step-up, docs/decisions/059): where to confirm, then do it again */}
      {"confirm" in shown && typeof shown.confirm === "string" ? (
        <>
          {" "}
          <a href={shown.confirm} className="font-medium underline underline-offset-4">
            Confirm it&rsquo;s you
          </a>
        </>
      ) : null}
    </Notice>
  );
}
