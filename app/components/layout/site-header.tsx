import { Suspense, useEffect, useId, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { countItems, useCart } from "~/modules/cart/cart.browser";
import type { RootUser } from "~/modules/settings/root-data";
import { lazyComponent } from "~/components/ui/lazy-component";
import { BagIcon, CloseIcon, MenuIcon } from "./icons";
import { isHeaderSolid, navEntries } from "./nav";

// Only signed-in shoppers have the account menu: whole in the server's HTML, downloaded by their browser alone
// (lazyComponent); a visitor's page, the cached one, never carries it.
const AccountMenu = import.meta.env.SSR
  ? (await import("./account-menu")).AccountMenu
  : lazyComponent(() => import("./account-menu").then((m) => m.AccountMenu));

/**
 * The fixed header (SPEC §2). Everything it shows comes from its props (the root loader's data), so the three
 * states — visitor, customer, admin — render from data alone. Transparent over the page until it is scrolled more
 * than 10 px; always solid on /admin and while the mobile menu is open.
 */
export function SiteHeader({ user, shopName, discoverySet = false }: { user: RootUser | null; shopName: string; discoverySet?: boolean }) {
  const { pathname, key } = useLocation();
  const [scrollY, setScrollY] = useState(0);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();

  useEffect(() => {
    const onScroll = () => setScrollY(window.scrollY);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  // Any navigation (including a section link on the same page) closes the mobile menu. Not on the first render: the
  // menu may already be open there (MobileMenu reads that on hydration, and this effect runs after its child's).
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current === key) return;
    shownKey.current = key;
    setMenuOpen(false);
  }, [key]);

  const solid = isHeaderSolid(pathname, scrollY, menuOpen);

  return (
    <header
      data-solid={solid ? "true" : "false"}
      className={`fixed inset-x-0 top-0 z-40 transition-[background-color,box-shadow,border-color] duration-300 motion-reduce:transition-none ${
        solid ? "border-b border-line bg-ivory/95 shadow-[0_1px_18px_-10px_rgba(28,23,20,0.35)] backdrop-blur-md" : "border-b border-transparent bg-transparent"
      }`}
    >
      <div className="container-page flex h-[72px] items-center justify-between gap-4">
        <Link to="/" className="group flex flex-col leading-none" aria-label={`${shopName}, home`}>
          <span className="font-display text-[1.65rem] uppercase tracking-[0.22em] text-ink">{shopName}</span>
          <span className="mt-1 hidden whitespace-nowrap text-[0.58rem] uppercase tracking-[0.42em] text-gold sm:block">Parfums · South Africa</span>
        </Link>

        {/* The bar from 1024 px: below that, a signed-in bar (logo, the four entries, Admin, cart, Account) is wider than
            the screen, so tablets get the menu as phones do. Each entry keeps to one line (nav-link). */}
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-7">
            {navEntries(discoverySet)
              .filter((entry) => !(user && entry.signedOutOnly))
              .map((entry) => (
                <li key={entry.to} className={entry.widestOnly ? "hidden xl:block" : undefined}>
                  {entry.section ? (
                    <Link to={entry.to} className="nav-link">
                      {entry.label}
                    </Link>
                  ) : (
                    <NavLink to={entry.to} className="nav-link" prefetch="intent">
                      {entry.label}
                    </NavLink>
                  )}
                </li>
              ))}
          </ul>
        </nav>

        <div className="flex items-center gap-1 sm:gap-3">
          {user ? (
            <>
              {user.isAdmin ? (
                <NavLink to="/admin" className="nav-link hidden lg:inline-flex">
                  Admin
                </NavLink>
              ) : null}
              <CartLink />
              <Suspense fallback={null}>
                <AccountMenu />
              </Suspense>
            </>
          ) : (
            <Link to="/auth/login" className="nav-link hidden lg:inline-flex">
              Sign In
            </Link>
          )}
          <MobileMenu id={menuId} open={menuOpen} user={user} discoverySet={discoverySet} onToggle={setMenuOpen} onNavigate={() => setMenuOpen(false)} />
        </div>
      </div>
    </header>
  );
}

/** The cart link with its item count. The count comes from browser storage, so it appears after hydration. */
function CartLink() {
  const count = countItems(useCart());
  const label = count > 0 ? `Cart, ${count} ${count === 1 ? "item" : "items"}` : "Cart";
  return (
    <Link to="/cart" aria-label={label} className="relative inline-flex h-11 w-11 items-center justify-center text-ink hover:text-gold">
      <BagIcon className="h-[22px] w-[22px]" />
      {count > 0 ? (
        <span
          aria-hidden="true"
          data-testid="cart-count"
          className="absolute top-1 right-0.5 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-ink px-1 text-[0.65rem] font-semibold text-ivory tabular-nums"
        >
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </Link>
  );
}

/**
 * The mobile menu: a native <details> disclosure, so it opens without JavaScript (issue 13); with it, the header
 * keeps its state (solid while open) and closes it on navigation and on Escape. The list drops below the header.
 */
function MobileMenu({
  id,
  open,
  user,
  discoverySet,
  onToggle,
  onNavigate,
}: {
  id: string;
  open: boolean;
  user: RootUser | null;
  discoverySet: boolean;
  onToggle: (open: boolean) => void;
  onNavigate: () => void;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  // A shopper on a slow phone can open the menu before the scripts arrive (it is a native <details>): React hydrates
  // without looking at the attribute and its `toggle` event has already passed, so the header would think the menu
  // shut, and neither Escape nor a navigation would close it. Read what the page already shows, once, on hydration.
  useEffect(() => {
    if (details.current?.open) onToggle(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on hydration: later changes come through onToggle
  }, []);
  // Escape closes an open menu. Heard from hydration on and read from the page itself, not from the header's state:
  // that hears of an opening through a `toggle` event, a render and then an effect, and a key pressed in between (a
  // quick thumb on a slow phone; a CI run did it) was lost. Closing the <details> fires `toggle`, which tells the header.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && details.current?.open) details.current.open = false;
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <details ref={details} open={open} onToggle={(e) => onToggle(e.currentTarget.open)} className="group/menu lg:hidden">
      <summary
        aria-controls={id}
        aria-label="Menu"
        className="-mr-2 inline-flex h-11 w-11 cursor-pointer list-none items-center justify-center text-ink [&::-webkit-details-marker]:hidden"
      >
        <MenuIcon className="h-6 w-6 group-open/menu:hidden" />
        <CloseIcon className="hidden h-6 w-6 group-open/menu:block" />
      </summary>
      <MobileMenuList id={id} user={user} discoverySet={discoverySet} onNavigate={onNavigate} />
    </details>
  );
}

function MobileMenuList({ id, user, discoverySet, onNavigate }: { id: string; user: RootUser | null; discoverySet: boolean; onNavigate: () => void }) {
  return (
    <nav id={id} aria-label="Mobile" className="absolute inset-x-0 top-full max-h-[calc(100dvh-72px)] overflow-y-auto border-t border-b border-line bg-ivory shadow-[0_18px_30px_-20px_rgba(28,23,20,0.45)]">
      <ul className="container-page flex flex-col py-4">
        {navEntries(discoverySet).map((entry) => (
          <li key={entry.to}>
            <Link to={entry.to} onClick={onNavigate} className="mobile-link">
              {entry.label}
            </Link>
          </li>
        ))}
        {user?.isAdmin ? (
          <li>
            <Link to="/admin" onClick={onNavigate} className="mobile-link">
              Admin
            </Link>
          </li>
        ) : null}
        {user ? (
          <>
            <li>
              <Link to="/cart" onClick={onNavigate} className="mobile-link">
                Cart
              </Link>
            </li>
            <li>
              <Link to="/profile" onClick={onNavigate} className="mobile-link">
                Profile Settings
              </Link>
            </li>
            <li>
              <Form method="post" action="/auth/logout">
                <button type="submit" className="mobile-link w-full text-left">
                  Sign Out
                </button>
              </Form>
            </li>
          </>
        ) : (
          <li>
            <Link to="/auth/login" onClick={onNavigate} className="mobile-link">
              Sign In
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}
