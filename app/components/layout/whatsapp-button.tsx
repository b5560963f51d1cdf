import { whatsappUrl } from "~/modules/settings/shop";
import { WhatsAppIcon } from "./icons";

/** The floating WhatsApp chat button on every page (opens wa.me with the shop's configured number). */
export function WhatsAppButton({ number, shopName }: { number: string; shopName: string }) {
  if (!number) return null;
  // Inside a labelled landmark, so screen-reader users find it among the page's regions (axe "region").
  return (
    <aside aria-label="WhatsApp chat">
      <a
        href={whatsappUrl(number)}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Chat with ${shopName || "us"} on WhatsApp (opens in a new tab)`}
        className="group fixed right-4 bottom-4 z-30 inline-flex h-14 w-14 items-center justify-center rounded-full bg-whatsapp text-white shadow-[0_10px_30px_-8px_rgba(31,143,78,0.65)] transition-transform hover:scale-105 focus-visible:outline-offset-4 motion-reduce:transition-none sm:right-6 sm:bottom-6"
      >
        <WhatsAppIcon className="h-7 w-7" />
      </a>
    </aside>
  );
}
