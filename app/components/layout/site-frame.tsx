import { useLocation } from "react-router";
import { useRootData } from "~/modules/settings/root-data";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";
import { WhatsAppButton } from "./whatsapp-button";

/**
 * The frame around every page — skip link, fixed header, the page, WhatsApp chat, footer — drawn from
 * the root loader's data. Pages render their own <main> (one per page) inside #main-content.
 */
export function SiteFrame({ children }: { children: React.ReactNode }) {
  const { user, shop, discoverySet } = useRootData();
  const chat = showsFloatingChat(useLocation().pathname);
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main-content" className="skip-link">
        Skip to content
      </a>
      <SiteHeader user={user} shopName={shop.name} discoverySet={discoverySet} />
      <div id="main-content" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        {children}
      </div>
      {/* Before the footer: below 1280 px the chat is a line at the end of the page (it floats only beside the column). */}
      <div className="mt-auto">
        {chat ? <WhatsAppButton number={shop.whatsappNumber} shopName={shop.name} /> : null}
        <SiteFooter shop={shop} year={new Date().getFullYear()} discoverySet={discoverySet} />
      </div>
    </div>
  );
}

/**
 * The floating chat button would cover controls where a shopper acts near the bottom of a phone screen — Add to
 * Cart on a product page, the cart's and checkout's buttons — and the owner's tables and forms (issue 13). The
 * footer's WhatsApp link stays on every page.
 */
export function showsFloatingChat(pathname: string): boolean {
  return !/^\/(admin|products|cart|checkout)(\/|$)/.test(pathname);
}
