import { Link } from "react-router";
import { ProductGrid } from "~/components/product-card";
import { ButtonLink } from "~/components/ui/button";
import type { ProductSummary } from "~/modules/catalog/catalog.types";
import { ContactForm } from "~/components/contact-form";
import { useRootData } from "~/modules/settings/root-data";
import { formatPhone, whatsappUrl } from "~/modules/settings/shop";
import { formatRand } from "~/utils/money";
import { MailIcon, WhatsAppIcon } from "~/components/layout/icons";
import { HeroIllustration, ProteaIllustration } from "./hero-illustration";

/**
 * The home page (SPEC §2): hero with Shop Now, the 12 newest products, Our Story, the contact form.
 * Also drawn for unknown paths (with a short note), so a mistyped link still lands somewhere useful.
 */
export function HomePage({ products, notFound = false }: { products: ProductSummary[]; notFound?: boolean }) {
  const { shop } = useRootData();
  const freeDelivery = shop.freeDeliveryThresholdCents > 0 ? formatRand(shop.freeDeliveryThresholdCents) : null;
  return (
    <main>
      <Hero freeDelivery={freeDelivery} notFound={notFound} />
      <Featured products={products} />
      <OurStory shopName={shop.name} freeDelivery={freeDelivery} />
      <Contact whatsappNumber={shop.whatsappNumber} contactEmail={shop.contactEmail} />
    </main>
  );
}

function Hero({ freeDelivery, notFound }: { freeDelivery: string | null; notFound: boolean }) {
  return (
    <section id="home" aria-labelledby="hero-title" className="relative overflow-hidden">
      <div aria-hidden="true" className="hero-wash absolute inset-0" />
      <div aria-hidden="true" className="hero-lines absolute inset-0" />
      <div className="container-page relative grid items-center gap-6 pt-28 pb-14 sm:pt-32 lg:min-h-[min(88vh,820px)] lg:grid-cols-12 lg:gap-10 lg:pt-24 lg:pb-16">
        <div className="lg:col-span-7">
          {notFound ? (
            <p role="status" className="mb-8 inline-flex items-center gap-3 border border-gold/30 bg-ivory/80 px-4 py-2.5 text-sm text-ink-soft">
              <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-gold" />
              We couldn't find that page, so here is our home page instead.
            </p>
          ) : null}
          <p className="eyebrow hero-rise">
            Designer-inspired fragrances<span className="hidden sm:inline"> · South Africa</span>
          </p>
          <h1 id="hero-title" className="hero-rise mt-5 text-[2.9rem] leading-[1.02] text-ink sm:text-6xl lg:text-[5.25rem]">
            The scent of luxury,{" "}
            <em className="font-display text-gold italic">fairly&nbsp;priced.</em>
          </h1>
          <p className="hero-rise mt-6 max-w-xl text-base leading-relaxed text-ink-soft sm:text-lg">
            Long-lasting perfumes inspired by the world's most loved fragrance houses, blended with care and delivered to
            your door, anywhere in South Africa.
          </p>
          <div className="hero-rise mt-9 flex flex-wrap items-center gap-x-8 gap-y-4">
            <ButtonLink to="/shop" size="lg" prefetch="intent">
              Shop Now
            </ButtonLink>
            {/* issue 22: not sure where to start? five questions, three picks */}
            <ButtonLink to="/scent-finder" size="lg" variant="secondary" prefetch="intent">
              Find Your Scent
            </ButtonLink>
            <Link to="/#our-story" className="group inline-flex items-center gap-3 text-xs font-medium uppercase tracking-[0.2em] text-ink">
              <span className="h-px w-8 bg-gold transition-all group-hover:w-12" aria-hidden="true" />
              Discover our story
            </Link>
          </div>
          <dl className="mt-12 grid max-w-xl grid-cols-3 gap-4 border-t border-line pt-6">
            {[
              freeDelivery ? ["Free delivery from", freeDelivery] : ["Delivery", "Nationwide"],
              ["Delivered in", "2–7 days"],
              ["Exchanges within", "7 days"],
            ].map(([label, value]) => (
              <div key={label}>
                <dt className="text-[0.65rem] uppercase tracking-[0.16em] text-ink-soft sm:text-xs">{label}</dt>
                <dd className="mt-1 font-display text-xl text-ink sm:text-2xl">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="relative mx-auto w-full max-w-[250px] sm:max-w-[340px] lg:col-span-5 lg:max-w-none">
          <HeroIllustration className="hero-float h-auto w-full" />
        </div>
      </div>
    </section>
  );
}

function SectionHeading({ id, eyebrow, title, align = "left" }: { id: string; eyebrow: string; title: string; align?: "left" | "center" }) {
  return (
    <div className={align === "center" ? "text-center" : ""}>
      <p className="eyebrow">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-4xl leading-tight text-ink sm:text-5xl">
        {title}
      </h2>
      <span aria-hidden="true" className={`mt-5 block h-px w-12 bg-gold-light ${align === "center" ? "mx-auto" : ""}`} />
    </div>
  );
}

function Featured({ products }: { products: ProductSummary[] }) {
  return (
    <section id="featured" aria-labelledby="featured-title" className="bg-ivory py-20 sm:py-28">
      <div className="container-page">
        <div className="mb-12 flex flex-col items-center gap-6 text-center sm:mb-16">
          <SectionHeading id="featured-title" eyebrow="New arrivals" title="Featured Fragrances" align="center" />
          <p className="max-w-xl text-ink-soft">Our newest blends, from fresh citrus to deep, smoky oud.</p>
        </div>
        {products.length > 0 ? (
          <>
            <ProductGrid products={products} eagerCount={0} />
            <div className="mt-16 text-center">
              <ButtonLink to="/shop" variant="secondary" size="lg" prefetch="intent">
                View all fragrances
              </ButtonLink>
            </div>
          </>
        ) : (
          <div className="mx-auto max-w-md border border-line bg-white/60 px-6 py-12 text-center">
            <p className="font-display text-2xl text-ink">New fragrances are on their way</p>
            <p className="mt-2 text-sm text-ink-soft">Our collection is being restocked. Please check back soon.</p>
          </div>
        )}
      </div>
    </section>
  );
}

function OurStory({ shopName, freeDelivery }: { shopName: string; freeDelivery: string | null }) {
  return (
    <section id="our-story" aria-labelledby="story-title" className="relative overflow-hidden bg-sand py-20 sm:py-28">
      <div className="container-page grid items-center gap-14 lg:grid-cols-12 lg:gap-16">
        <div className="relative lg:col-span-5">
          <div className="story-arch relative mx-auto aspect-[4/5] w-full max-w-sm">
            <div className="absolute inset-0 flex flex-col items-center justify-end p-10 text-center">
              <ProteaIllustration className="mb-4 h-auto w-1/2 max-w-[170px]" />
              <p className="font-display text-7xl leading-none text-gold sm:text-8xl">2021</p>
              <p className="eyebrow mt-3">Founded in Cape Town</p>
            </div>
          </div>
        </div>
        <div className="lg:col-span-7">
          <SectionHeading id="story-title" eyebrow="Our Story" title="Luxury should never be out of reach." />
          <div className="mt-8 space-y-5 text-base leading-relaxed text-ink-soft sm:text-lg">
            <p>
              {shopName} began around a kitchen table in Cape Town, with two friends, a shelf of treasured designer bottles
              and one question: why should a beautiful fragrance cost a week's wages?
            </p>
            <p>
              We work with experienced perfumers to create scents inspired by the world's most celebrated designer
              fragrances — the same moods, the same lasting trail — at prices that feel fair. Every blend is tested through
              a South African summer before it earns a place in our collection.
            </p>
            <p>
              From Sea Point to Soweto, we deliver to your door{freeDelivery ? `, free on every order of ${freeDelivery} or more` : ""}.
            </p>
          </div>
          <ul className="mt-12 grid gap-8 border-t border-line pt-10 sm:grid-cols-3">
            <li>
              <h3 className="text-2xl text-ink">Inspired by icons</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-soft">Scents that echo the designer classics you love.</p>
            </li>
            <li>
              <h3 className="text-2xl text-ink">Made to last</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-soft">Rich concentrations that stay with you all day.</p>
            </li>
            <li>
              <h3 className="text-2xl text-ink">Fair by design</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-soft">Honest prices in rand, with no mark-up for a logo.</p>
            </li>
          </ul>
        </div>
      </div>
    </section>
  );
}

function Contact({ whatsappNumber, contactEmail }: { whatsappNumber: string; contactEmail: string }) {
  return (
    <section id="contact" aria-labelledby="contact-title" className="bg-ivory py-20 sm:py-28">
      <div className="container-page grid gap-14 lg:grid-cols-12 lg:gap-16">
        <div className="lg:col-span-5">
          <SectionHeading id="contact-title" eyebrow="Contact" title="We'd love to hear from you." />
          <p className="mt-8 text-base leading-relaxed text-ink-soft sm:text-lg">
            A question about a scent, an order or the perfect gift? Send us a message and we'll get back to you within 24
            hours.
          </p>
          <ul className="mt-10 space-y-4 text-sm">
            {whatsappNumber ? (
              <li>
                <a href={whatsappUrl(whatsappNumber)} target="_blank" rel="noopener noreferrer" className="contact-channel">
                  <WhatsAppIcon className="h-5 w-5 text-whatsapp" />
                  <span>
                    <span className="block text-xs uppercase tracking-[0.16em] text-muted">WhatsApp</span>
                    <span className="text-base text-ink">{formatPhone(whatsappNumber)}</span>
                  </span>
                </a>
              </li>
            ) : null}
            {contactEmail ? (
              <li>
                <a href={`mailto:${contactEmail}`} className="contact-channel">
                  <MailIcon className="h-5 w-5 text-gold" />
                  <span>
                    <span className="block text-xs uppercase tracking-[0.16em] text-muted">E-mail</span>
                    <span className="text-base text-ink">{contactEmail}</span>
                  </span>
                </a>
              </li>
            ) : null}
          </ul>
        </div>
        <div className="lg:col-span-7">
          <div className="relative border border-line bg-white px-5 py-8 sm:px-10 sm:py-10">
            <ContactForm />
          </div>
        </div>
      </div>
    </section>
  );
}
