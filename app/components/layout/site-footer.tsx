import { Link } from "react-router";
import { useRootData } from "~/modules/settings/root-data";
import type { ShopInfo } from "~/modules/settings/shop";
import { formatPhone, socialLinks, whatsappUrl } from "~/modules/settings/shop";
import { freeDeliveryText } from "~/modules/shipping/shipping.logic";
import { DISCOVERY_SET_ENTRY } from "./nav";
import { FacebookIcon, InstagramIcon, MailIcon, TikTokIcon, WhatsAppIcon } from "./icons";

const SOCIAL_ICONS = { Instagram: InstagramIcon, Facebook: FacebookIcon, TikTok: TikTokIcon } as const;

/**
 * Footer (SPEC §2): about text, quick links (incl. Terms & Conditions, the privacy notice and seller information), social links, WhatsApp, e-mail, ©, credit.
 * `rewards` (the link to /rewards while the programme is on) is the root loader's flag unless given.
 */
export function SiteFooter({ shop, year, discoverySet = false, rewards }: { shop: ShopInfo; year: number; discoverySet?: boolean; rewards?: boolean }) {
  const root = useRootData();
  const rewardsOn = rewards ?? root.rewards ?? false;
  const socials = socialLinks(shop.name);
  return (
    <footer className="relative mt-auto overflow-hidden bg-ink text-ivory/80">
      <div aria-hidden="true" className="footer-glow pointer-events-none absolute inset-0" />
      <div className="container-page relative grid gap-12 pt-16 pb-10 md:grid-cols-12">
        <div className="md:col-span-5">
          <p className="font-display text-3xl uppercase tracking-[0.22em] text-ivory">{shop.name}</p>
          <span aria-hidden="true" className="mt-4 mb-5 block h-px w-12 bg-gold-light" />
          <p className="max-w-sm text-sm leading-relaxed">
            Designer-inspired fragrances, blended with care and priced fairly for South Africa. Long-lasting scents for
            every occasion, delivered to your door.
          </p>
          {socials.length ? (
            <ul className="mt-6 flex gap-2" aria-label="Social media">
              {socials.map((s) => {
                const Icon = SOCIAL_ICONS[s.label];
                return (
                  <li key={s.label}>
                    <a
                      href={s.href}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={`${shop.name} on ${s.label} (opens in a new tab)`}
                      className="inline-flex h-11 w-11 items-center justify-center border border-ivory/20 text-ivory/85 transition-colors hover:border-gold-light hover:text-gold-light"
                    >
                      <Icon />
                    </a>
                  </li>
                );
              })}
            </ul>
          ) : null}
        </div>

        <nav aria-label="Quick links" className="md:col-span-3">
          <h2 className="footer-heading">Quick Links</h2>
          <ul className="mt-5 space-y-2.5 text-sm">
            <li><Link to="/#home" className="footer-link">Home</Link></li>
            <li><Link to="/shop" className="footer-link">Shop</Link></li>
            <li><Link to="/gift-cards" className="footer-link">Gift Cards</Link></li>
            {rewardsOn ? <li><Link to="/rewards" className="footer-link">Rewards</Link></li> : null}
            {discoverySet ? <li><Link to={DISCOVERY_SET_ENTRY.to} className="footer-link">{DISCOVERY_SET_ENTRY.label}</Link></li> : null}
            <li><Link to="/#our-story" className="footer-link">Our Story</Link></li>
            <li><Link to="/#contact" className="footer-link">Contact</Link></li>
            <li><Link to="/terms" className="footer-link">Terms &amp; Conditions</Link></li>
            <li><Link to="/privacy" className="footer-link">Privacy Notice</Link></li>
            <li><Link to="/seller" className="footer-link">Seller Information</Link></li>
          </ul>
        </nav>

        <div className="md:col-span-4">
          <h2 className="footer-heading">Get in Touch</h2>
          <ul className="mt-5 space-y-3 text-sm">
            {shop.whatsappNumber ? (
              <li>
                <a href={whatsappUrl(shop.whatsappNumber)} target="_blank" rel="noopener noreferrer" className="footer-link inline-flex items-center gap-2.5">
                  <WhatsAppIcon className="h-4 w-4 text-gold-light" />
                  <span>
                    <span className="sr-only">WhatsApp: </span>
                    {formatPhone(shop.whatsappNumber)}
                  </span>
                </a>
              </li>
            ) : null}
            {shop.contactEmail ? (
              <li>
                <a href={`mailto:${shop.contactEmail}`} className="footer-link inline-flex items-center gap-2.5">
                  <MailIcon className="h-4 w-4 text-gold-light" />
                  <span>
                    <span className="sr-only">E-mail: </span>
                    {shop.contactEmail}
                  </span>
                </a>
              </li>
            ) : null}
            <li className="pt-2 text-ivory/65">
              {shop.freeDeliveryThresholdCents > 0 ? `${freeDeliveryText(shop.freeDeliveryThresholdCents)} · ` : ""}
              Delivered nationwide in 2–7 working days
            </li>
          </ul>
        </div>
      </div>
      <div className="relative border-t border-ivory/10">
        <div className="container-page flex flex-col gap-2 py-6 text-xs text-ivory/65 sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {year} {shop.name}. All rights reserved.
          </p>
          <p>
            Website crafted by <span className="text-ivory/85">Fynbos Digital Studio</span>
          </p>
        </div>
      </div>
    </footer>
  );
}
