import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { Notice } from "~/components/ui/field";
import { lineKeyOf, readCart, writeCart, type CartLine } from "~/modules/cart/cart.browser";

/**
 * The cart page opened from a reminder (docs/decisions/056): `?restore=<token>` (a cart reminder's link) puts that
 * cart's items back into this browser's cart — beside what is in it already, a product in a size in both at the larger
 * quantity — and `?order=closed` (an unpaid-order reminder's order that can no longer be paid) says so. After
 * hydration only; the token goes to the server, which answers the items (or why not: a tampered or expired link adds
 * nothing). The address is then tidied, so a reload restores nothing twice.
 */
const RESTORE_PATH = "/api/cart/restore";
export const ORDER_CLOSED_NOTICE = "That order can no longer be paid: it was closed when its payment time ran out. Add the scents to your cart again to order them.";

/** Tokens already handled in this page's life (the heading may mount again as the page hydrates). */
const handled = new Set<string>();

function withRestored(current: readonly CartLine[], restored: readonly CartLine[]): CartLine[] {
  const byKey = new Map(current.map((l) => [lineKeyOf(l), l]));
  for (const line of restored) {
    const had = byKey.get(lineKeyOf(line));
    byKey.set(lineKeyOf(line), had ? { ...had, quantity: Math.max(had.quantity, line.quantity) } : line);
  }
  return [...byKey.values()];
}

export function CartRestoreNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<{ tone: "success" | "error" | "info"; text: string } | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const token = params.get("restore");
    if (params.get("order") === "closed") setNotice({ tone: "info", text: ORDER_CLOSED_NOTICE });
    if (!token || handled.has(token)) return;
    handled.add(token);
    const body = new FormData();
    body.set("token", token);
    void fetch(RESTORE_PATH, { method: "POST", body, credentials: "same-origin" })
      .then(async (response) => {
        const answer = (await response.json()) as { lines?: CartLine[]; error?: string };
        if (response.ok && answer.lines) {
          writeCart(withRestored(readCart(), answer.lines));
          const items = answer.lines.reduce((n, l) => n + l.quantity, 0);
          setNotice({ tone: "success", text: `Welcome back: ${items} ${items === 1 ? "item is" : "items are"} in your cart again.` });
        } else setNotice({ tone: "error", text: answer.error ?? "This link could not restore your cart." });
      })
      .catch(() => setNotice({ tone: "error", text: "Your cart could not be restored just now. Please open the link again in a moment." }))
      .finally(() => navigate("/cart", { replace: true, preventScrollReset: true }));
  }, [location.search, navigate]);

  return notice ? (
    <div className="mt-6 max-w-xl">
      <Notice tone={notice.tone}>{notice.text}</Notice>
    </div>
  ) : null;
}
