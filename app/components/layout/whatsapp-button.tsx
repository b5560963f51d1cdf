import { whatsappUrl } from "~/modules/settings/shop";
import { WhatsAppIcon } from "./icons";

/**
 * The WhatsApp chat button (SPEC §2), which never covers a control (issue 13).
 *
 * From 1280 px it floats at the bottom right, in the margin beside the page's column (max-w-6xl, so at least 88 px
 * of margin and padding against the button's 80), where no link, button or field ever is. Narrower than that — phones,
 * tablets — any floating spot lies over the product grid or a form, so it sits in the page instead: a concierge line
 * just above the footer. One link either way, with one name: 'Chat with us on WhatsApp (opens in a new tab)'.
 */
export function WhatsAppButton({ number, shopName }: { number: string; shopName: string }) {
  if (!number) return null;
  // Inside a labelled landmark, so screen-reader users find it among the page's regions (axe "region").
  return (
    <aside aria-label="WhatsApp chat" className="border-t border-line bg-ivory xl:border-0">
      <div className="container-page flex flex-col items-center gap-4 py-10 text-center sm:flex-row sm:justify-between sm:text-left xl:py-0">
        <div className="xl:hidden">
          <p className="eyebrow">{shopName ? `The ${shopName} concierge` : "Fragrance concierge"}</p>
          <p className="mt-2 font-display text-2xl leading-snug text-ink">Not sure which scent is yours? Ask us on WhatsApp.</p>
        </div>
        <a
          href={whatsappUrl(number)}
          target="_blank"
          rel="noopener noreferrer"
          className="group inline-flex h-12 shrink-0 items-center justify-center gap-2.5 bg-ink px-6 text-xs font-medium uppercase tracking-[0.16em] text-ivory transition-colors hover:bg-ink/90 focus-visible:outline-offset-4 motion-reduce:transition-none xl:fixed xl:rounded-full xl:bg-whatsapp xl:text-white xl:right-6 xl:bottom-6 xl:z-30 xl:h-14 xl:w-14 xl:gap-0 xl:px-0 xl:shadow-[0_10px_30px_-8px_rgba(31,143,78,0.65)] xl:transition-transform xl:hover:scale-105 xl:hover:bg-whatsapp"
        >
          <WhatsAppIcon className="h-5 w-5 text-[#25d366] xl:h-7 xl:w-7 xl:text-white" />
          {/* the visible words are the name (voice control), kept for screen readers when only the icon shows */}
          <span className="xl:sr-only">Chat with us on WhatsApp</span>
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
    </aside>
  );
}
