import { useEffect, useRef } from "react";
import { Form, Link, useFetcher, useLocation } from "react-router";
import type { Me } from "~/modules/settings/root-data";
import { ChevronDownIcon, UserIcon } from "./icons";

/**
 * Profile Settings and Sign Out. A native <details> disclosure: it opens without JavaScript; with it, it closes on
 * navigation, on Escape and on a click outside.
 */
export function AccountMenu() {
  const ref = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();
  // The e-mail is personal, and this header is part of pages shared by every customer (docs/decisions/023): asked
  // for when the menu first opens.
  const me = useFetcher<Me>();
  const email = me.data?.email ?? null;
  const loadEmail = () => {
    if (ref.current?.open && me.state === "idle" && !me.data) me.load("/api/me");
  };
  // Opened before the page's script ran (a native <details> opens without it): ask once it has.
  useEffect(loadEmail, []); // eslint-disable-line react-hooks/exhaustive-deps

  // Closed on navigation — not when the script first runs, or a menu opened before it would shut in the shopper's face.
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current === key) return;
    shownKey.current = key;
    if (ref.current) ref.current.open = false;
  }, [key]);

  useEffect(() => {
    const onPointer = (e: PointerEvent) => {
      const el = ref.current;
      if (el?.open && !el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, []);

  return (
    <details
      ref={ref}
      className="group/account relative hidden md:block"
      onToggle={loadEmail}
      onKeyDown={(e) => {
        if (e.key === "Escape" && ref.current?.open) {
          ref.current.open = false;
          ref.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary className="nav-link flex h-11 cursor-pointer list-none items-center gap-1.5 [&::-webkit-details-marker]:hidden">
        <UserIcon className="h-[20px] w-[20px]" />
        <span>Account</span>
        <ChevronDownIcon className="h-3 w-3 transition-transform group-open/account:rotate-180 motion-reduce:transition-none" />
      </summary>
      <div className="absolute right-0 mt-2 w-64 border border-line bg-ivory p-2 shadow-[0_18px_40px_-20px_rgba(28,23,20,0.45)]">
        <p className="truncate px-3 pt-2 pb-3 text-xs text-muted" title={email ?? undefined} aria-live="polite">
          {email ? (
            <>
              Signed in as <span className="text-ink-soft">{email}</span>
            </>
          ) : (
            "Signed in"
          )}
        </p>
        <div className="border-t border-line pt-1">
          <Link to="/profile" className="menu-item">
            Profile Settings
          </Link>
          <Form method="post" action="/auth/logout">
            <button type="submit" className="menu-item w-full text-left">
              Sign Out
            </button>
          </Form>
        </div>
      </div>
    </details>
  );
}
