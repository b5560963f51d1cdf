import { useEffect, useRef, useState } from "react";

/** Share links for when the browser has no native share sheet (SPEC §2: Facebook, Twitter and WhatsApp). */
export function shareLinks(url: string, title: string) {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { name: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { name: "X (Twitter)", href: `https://twitter.com/intent/tweet?url=${u}&text=${t}` },
    { name: "WhatsApp", href: `https://wa.me/?text=${encodeURIComponent(`${title} ${url}`)}` },
  ];
}

function ShareIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M12 3v12M7.5 7.5 12 3l4.5 4.5" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M6 11H5v9h14v-9h-1" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * Share: the phone's own share sheet where the browser has one (navigator.share), otherwise a small menu of
 * share links. Without JavaScript the menu (a native <details>) still works.
 */
export function ShareMenu({ url, title, text }: { url: string; title: string; text?: string }) {
  const [native, setNative] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    setNative(typeof navigator !== "undefined" && typeof navigator.share === "function");
  }, []);

  // Escape or a click outside closes the menu.
  useEffect(() => {
    const el = details.current;
    if (!el) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && el.open) {
        el.open = false;
        el.querySelector("summary")?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (el.open && !el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, [native]);

  const trigger =
    "inline-flex h-10 cursor-pointer list-none items-center gap-2 text-xs font-medium uppercase tracking-[0.16em] text-ink-soft transition-colors hover:text-gold [&::-webkit-details-marker]:hidden";

  if (native) {
    return (
      <button
        type="button"
        className={trigger}
        onClick={() => {
          navigator.share({ title, text: text ?? title, url }).catch(() => {
            // cancelled by the user, or refused: nothing to do
          });
        }}
      >
        <ShareIcon /> Share
      </button>
    );
  }

  return (
    <details ref={details} className="relative">
      <summary className={trigger}>
        <ShareIcon /> Share
      </summary>
      <ul className="absolute left-0 z-20 mt-1 w-52 border border-line bg-ivory py-1 shadow-[0_12px_32px_-16px_rgba(28,23,20,0.45)]">
        {shareLinks(url, title).map((link) => (
          <li key={link.name}>
            <a href={link.href} target="_blank" rel="noopener noreferrer" className="menu-item">
              Share on {link.name}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
