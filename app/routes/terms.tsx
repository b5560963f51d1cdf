import { Link } from "react-router";
import type { Route } from "./+types/terms";
import { seoMeta } from "~/modules/seo/seo";
import { rootDataOf, useRootData } from "~/modules/settings/root-data";
import { formatPhone, whatsappUrl } from "~/modules/settings/shop";
import { FALLBACK_SHIPPING_CENTS } from "~/modules/shipping/shipping.logic";
import { COOLING_OFF } from "~/modules/legal/legal.logic";
import { TERMS_VERSION } from "~/modules/consent/legal-versions";
import { LegalPage, LegalSection } from "~/components/legal/legal-page";
import { formatRand } from "~/utils/money";
import { getDb } from "~/db/db.server";
import { loadRewardSettings } from "~/modules/rewards/rewards.server";
import { rewardRules } from "~/modules/rewards/rewards-profile.server";

/** Terms and conditions (SPEC §2, §9). The shop's name and contacts come from configuration. */
// Its version (the consent log records which terms a person accepted): app/modules/consent/legal-versions.ts.
export const TERMS_EFFECTIVE_DATE = TERMS_VERSION.label;

const SECTIONS = [
  { id: "company", title: "Company information" },
  { id: "products-pricing", title: "Products and pricing" },
  { id: "orders-payments", title: "Orders and payments" },
  { id: "shipping", title: "Shipping and delivery" },
  { id: "returns", title: "Returns and exchanges" },
  { id: "intellectual-property", title: "Intellectual property" },
  { id: "privacy", title: "Privacy" },
  { id: "contact-us", title: "Contact us" },
] as const;

export function meta({ matches }: Route.MetaArgs) {
  const { shop, baseUrl } = rootDataOf(matches);
  return seoMeta({
    title: `Terms & Conditions | ${shop.name}`,
    description: `The terms that apply when you shop with ${shop.name}: pricing in rand, orders and payments, delivery, exchanges, privacy under POPIA and how to reach us.`,
    path: "/terms",
    baseUrl,
    siteName: shop.name,
  });
}

/** The rewards programme's terms, only while it runs (docs/decisions/062): a cached page, told when the owner saves. */
export async function loader() {
  const settings = await loadRewardSettings(getDb());
  return { rewards: settings.pointsOn ? rewardRules(settings).items : null };
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  const { shop } = useRootData();
  const rewards = loaderData?.rewards ?? null;
  const name = shop.name;
  return (
    <LegalPage
      title="Terms & Conditions"
      note={
        <>
          Effective date: <time dateTime={TERMS_VERSION.version}>{TERMS_EFFECTIVE_DATE}</time>
        </>
      }
      intro={
        <>
          Welcome to {name}. These terms apply to every purchase made on our website. By placing an order you agree to
          them, so please read them carefully. They do not limit any rights you have under the Consumer Protection Act.
        </>
      }
      sections={SECTIONS}
    >
      <LegalSection n={1} id="company" title="Company information">
        <p>
          {name} is an online retailer of designer-inspired fragrances, based in South Africa and selling to customers
          in South Africa. You can reach us by e-mail at <Email address={shop.contactEmail} /> or on WhatsApp at{" "}
          <WhatsApp number={shop.whatsappNumber} />.
        </p>
        <p>
          Our legal name, legal status, registration, physical address, address for legal service, office bearers and
          the other facts the Electronic Communications and Transactions Act (section 43(1)) asks for are on our{" "}
          <Link to="/seller">seller information</Link> page.
        </p>
      </LegalSection>

      <LegalSection n={2} id="products-pricing" title="Products and pricing">
        <p>
          Our fragrances are original blends inspired by well-known designer scents. Where a product says it is
          “inspired by” a designer fragrance (for example “Inspired by Dior Sauvage”), we name that fragrance only
          to describe the scent family our blend belongs to: our product is not that fragrance and is not made or
          sold by its house (see Intellectual property). Product descriptions and images are a guide; packaging may
          vary slightly.
        </p>
        <p>
          All prices are shown in South African rand (R). VAT at 15% is accounted for as displayed on the storefront
          (prices there are shown as including VAT); where a price is quoted excluding VAT, the VAT is stated
          separately. The total shown at checkout, including delivery, is the amount you pay.
        </p>
        <p>
          Prices and availability may change without notice. If a product is listed at an obviously incorrect price,
          we may cancel the order and refund you in full.
        </p>
      </LegalSection>

      <LegalSection n={3} id="orders-payments" title="Orders and payments">
        <p>
          You need an account to place an order. Payment is made by card through our secure payment provider; we never
          see or store your full card details. An order is confirmed once our payment provider confirms the payment,
          and we then send you an order-confirmation e-mail.
        </p>
        <p>
          We may decline or cancel an order, for example when a product is out of stock or payment cannot be
          verified. If you have already paid, we refund the full amount to the card you used.
        </p>
      </LegalSection>

      <LegalSection n={4} id="shipping" title="Shipping and delivery">
        <ul>
          <li>
            {shop.freeDeliveryThresholdCents > 0
              ? `Free courier delivery on orders of ${formatRand(shop.freeDeliveryThresholdCents)} or more (after any discount). Below that, the delivery fee depends on your delivery zone and is shown for every zone at checkout before you pay; where no zone applies it is ${formatRand(FALLBACK_SHIPPING_CENTS)}.`
              : "Free courier delivery on every order."}
          </li>
          <li>Orders are delivered within 2 to 7 working days anywhere in South Africa.</li>
          <li>
            Please check your parcel on arrival. Report any damage to us within 48 hours of delivery, with photos,
            so that we can make it right.
          </li>
        </ul>
      </LegalSection>

      <LegalSection n={5} id="returns" title="Returns and exchanges">
        <p>Your right to cancel under the Electronic Communications and Transactions Act (section 44):</p>
        <ul>
          {COOLING_OFF.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p>
          Unused items in their original, sealed packaging may be exchanged within 7 days of delivery. For hygiene
          reasons, fragrances that have been opened or used cannot be exchanged unless they are defective. Contact us
          before sending anything back and we will explain the next steps. Your rights under the Consumer Protection
          Act for defective goods are not affected.
        </p>
      </LegalSection>

      <LegalSection n={6} id="intellectual-property" title="Intellectual property">
        <p>
          Our products are designer-inspired. {name} is not affiliated with, endorsed by or sponsored by any of the
          designer brands or fragrance houses whose scents inspire ours, including those named as a product's
          inspiration (“Inspired by …”). Brand and fragrance names are mentioned only to describe a scent's
          character, and all trademarks belong to their owners.
        </p>
        <p>
          The text, images, logos and design of this website belong to {name} and may not be copied without our
          written permission.
        </p>
      </LegalSection>

      <LegalSection n={7} id="privacy" title="Privacy">
        <p>
          We process your personal information in line with the Protection of Personal Information Act (POPIA). We
          collect only what we need to run your account and deliver your orders — your name, e-mail address,
          telephone number and delivery address — and we never sell it.
        </p>
        <p>
          You can choose whether to receive notification and marketing e-mails in your profile's e-mail preferences.
          Order-confirmation e-mails and important account e-mails (such as password resets) are always sent,
          regardless of your preferences, because we need them to serve you.
        </p>
        <p>You may ask us at any time to see, correct or delete the personal information we hold about you.</p>
        <p>
          Our <Link to="/privacy">privacy notice</Link> says what we collect and why, who else receives it, how long we
          keep it, your rights and how to reach our Information Officer and the Information Regulator.
        </p>
      </LegalSection>

      {rewards ? (
        <LegalSection n={8} id="rewards" title="Rewards programme">
          <p>
            Joining is free and optional: on our <Link to="/rewards">rewards page</Link>, where you agree to these rules. They are part of these terms while you are a member.
          </p>
          <ol>
            {rewards.map((r) => (
              <li key={r.title}>
                <strong>{r.title}.</strong> {r.text}
              </li>
            ))}
          </ol>
        </LegalSection>
      ) : null}

      <LegalSection n={rewards ? 9 : 8} id="contact-us" title="Contact us">
        <p>Questions about these terms or an order? We are happy to help:</p>
        <ul>
          <li>
            E-mail: <Email address={shop.contactEmail} />
          </li>
          <li>
            WhatsApp: <WhatsApp number={shop.whatsappNumber} />
          </li>
          <li>
            The <Link to="/#contact">contact form</Link> on our home page — we reply within 24 hours.
          </li>
        </ul>
      </LegalSection>
    </LegalPage>
  );
}

function Email({ address }: { address: string }) {
  return <a href={`mailto:${address}`}>{address}</a>;
}

function WhatsApp({ number }: { number: string }) {
  return (
    <a href={whatsappUrl(number)} target="_blank" rel="noopener noreferrer">
      {formatPhone(number)}
    </a>
  );
}
