/**
 * /seller — the seller disclosure ECTA s43(1) asks of every online seller, from the shop's settings
 * (docs/decisions/037). A setting not given reads "Not provided"; the same for every visitor (page-cached).
 */
import { Link } from "react-router";
import type { Route } from "./+types/seller";
import { FactList, FactRow, FactText, LegalPage, LegalSection } from "~/components/legal/legal-page";
import type { DisclosureItem } from "~/modules/legal/legal.logic";
import { sellerPageData } from "~/modules/legal/legal.server";
import { seoMeta } from "~/modules/seo/seo";
import { rootDataOf } from "~/modules/settings/root-data";

export function loader() {
  return sellerPageData();
}

export function meta({ matches }: Route.MetaArgs) {
  const { shop, baseUrl } = rootDataOf(matches);
  return seoMeta({
    title: `Seller information | ${shop.name}`,
    description: `Who sells to you at ${shop.name}: legal name, registration, addresses, contacts, delivery, returns, payment security and your right to cancel (ECTA s43).`,
    path: "/seller",
    baseUrl,
    siteName: shop.name,
  });
}

const SECTIONS = [
  { id: "who-we-are", title: "Who we are", items: ["name", "trading-name", "legal-status", "registration-number", "registration-place", "office-bearers", "vat-number"] },
  { id: "where-to-reach-us", title: "Where to reach us", items: ["physical-address", "legal-service", "telephone", "email", "website"] },
  { id: "codes", title: "Codes and dispute resolution", items: ["self-regulatory", "code-of-conduct", "dispute-resolution"] },
  { id: "buying", title: "Buying from us", items: ["goods", "price", "payment", "delivery-time", "terms", "records", "returns", "security", "duration"] },
  { id: "cooling-off", title: "Your right to cancel", items: ["cooling-off"] },
] as const;

export default function Seller({ loaderData }: Route.ComponentProps) {
  const byId = new Map(loaderData.items.map((i) => [i.id, i]));
  return (
    <LegalPage
      title="Seller information"
      intro={
        <>
          The facts the Electronic Communications and Transactions Act (section 43(1)) asks every online seller to give you
          before you buy.
        </>
      }
      sections={[...SECTIONS.map((s) => ({ id: s.id, title: s.title })), { id: "before-you-pay", title: "Before you pay" }]}
    >
      {SECTIONS.map((section, n) => (
        <LegalSection key={section.id} n={n + 1} id={section.id} title={section.title}>
          <FactList label={section.title}>
            {section.items.map((id) => {
              const item = byId.get(id);
              return item ? <Item key={id} item={item} /> : null;
            })}
          </FactList>
        </LegalSection>
      ))}
      <LegalSection n={SECTIONS.length + 1} id="before-you-pay" title="Before you pay" law="ECTA s43(2)">
        <p>
          Before you pay, checkout shows your whole order: every product and quantity, the delivery fee, the VAT included and
          the total. You can go back to your <Link to="/cart">cart</Link> to correct it, or leave without placing the order.
        </p>
      </LegalSection>
    </LegalPage>
  );
}

function Item({ item }: { item: DisclosureItem }) {
  return (
    <FactRow label={item.label} law={item.law.startsWith("s") ? `ECTA ${item.law}` : item.law}>
      <div data-testid={`seller-${item.id}`}>
        <FactText value={item.value} />
        {item.link ? (
          <span className="mt-1 block">
            <Link to={item.link.to}>{item.link.text}</Link>
          </span>
        ) : null}
      </div>
    </FactRow>
  );
}
