/**
 * /privacy — the privacy notice POPIA s18 asks for when personal information is collected, from the shop's settings
 * and its actual configuration (payment provider, couriers, mail server): docs/decisions/037. A setting not given
 * reads "Not provided". The same for every visitor (page-cached).
 */
import { Link } from "react-router";
import type { Route } from "./+types/privacy";
import { FactList, FactRow, FactText, LegalPage, LegalSection, NotProvided, linkify } from "~/components/legal/legal-page";
import { isNone } from "~/modules/legal/legal.logic";
import { privacyPageData } from "~/modules/legal/legal.server";
import { PRIVACY_NOTICE_VERSION } from "~/modules/consent/legal-versions";
import { seoMeta } from "~/modules/seo/seo";
import { rootDataOf } from "~/modules/settings/root-data";

export function loader() {
  return privacyPageData();
}

export function meta({ matches }: Route.MetaArgs) {
  const { shop, baseUrl } = rootDataOf(matches);
  return seoMeta({
    title: `Privacy notice | ${shop.name}`,
    description: `What personal information ${shop.name} collects and why, who receives it, how long it is kept, your rights under POPIA and how to reach the Information Regulator.`,
    path: "/privacy",
    baseUrl,
    siteName: shop.name,
  });
}

const SECTIONS = [
  { id: "responsible-party", title: "Who is responsible" },
  { id: "what-and-why", title: "What we collect and why" },
  { id: "recipients", title: "Who else receives it" },
  { id: "abroad", title: "Outside South Africa" },
  { id: "your-rights", title: "Your rights" },
  { id: "regulator", title: "The Information Regulator" },
] as const;

export default function Privacy({ loaderData: d }: Route.ComponentProps) {
  const party = d.responsibleParty;
  const officer = d.informationOfficer;
  return (
    <LegalPage
      title="Privacy notice"
      note={
        <>
          Effective date: <time dateTime={PRIVACY_NOTICE_VERSION.version}>{PRIVACY_NOTICE_VERSION.label}</time>
        </>
      }
      intro={<>What personal information we collect, why, who else receives it and for how long we keep it, as the Protection of Personal Information Act (POPIA, section 18) requires us to tell you.</>}
      sections={SECTIONS}
    >
      <LegalSection n={1} id="responsible-party" title="Who is responsible" law="POPIA s18(1)(b)">
        <FactList label="Responsible party">
          <FactRow label="Responsible party">
            <FactText value={party.name ? [party.name] : null} />
            <span className="block text-sm text-muted">Trading as {party.tradingName}</span>
          </FactRow>
          <FactRow label="Address">
            <FactText value={party.address} />
          </FactRow>
          <FactRow label="Information Officer" law="POPIA s55">
            <FactText value={officer.name ? [officer.name] : null} />
          </FactRow>
          <FactRow label="Information Officer's e-mail">
            <FactText value={officer.email ? [officer.email] : null} />
          </FactRow>
          <FactRow label="The shop's e-mail">
            <FactText value={[party.email]} />
          </FactRow>
          <FactRow label="Telephone">
            <FactText value={party.telephone ? [party.telephone] : null} />
          </FactRow>
        </FactList>
        <p className="mt-5">
          More about us, including our registration, is in our <Link to="/seller">seller information</Link>.
        </p>
      </LegalSection>

      <LegalSection n={2} id="what-and-why" title="What we collect and why" law="POPIA s18(1)(a), (c)–(f); s13; s14">
        <p>We collect personal information from you directly, when you use the shop. For each kind: what it is, why we need it, whether you must give it, and how long we keep it.</p>
        {d.collected.map((c) => (
          <div key={c.id} className="mt-8" data-testid={`collected-${c.id}`}>
            <h3 className="font-display text-xl text-ink">{c.what}</h3>
            <FactList label={c.what}>
              <FactRow label="What">{c.items}</FactRow>
              <FactRow label="Why">{c.why}</FactRow>
              <FactRow label="Must you give it?">{c.required}</FactRow>
              {c.law ? <FactRow label="Law that requires it">{c.law}</FactRow> : null}
              <FactRow label="How long we keep it">{c.kept === "Not provided." ? <NotProvided /> : c.kept}</FactRow>
            </FactList>
          </div>
        ))}
        <p className="mt-8">We don't sell personal information, and we use it only for the purposes above.</p>
      </LegalSection>

      <LegalSection n={3} id="recipients" title="Who else receives it" law="POPIA s18(1)(h)(i)">
        {d.recipients.length ? (
          <>
            <p>These services receive personal information from us, only for what they do for your order:</p>
            <FactList label="Recipients">
              {d.recipients.map((r) => (
                <FactRow key={r.name} label={r.name}>
                  <span className="block">{r.receives}.</span>
                  <span className="mt-1 block text-sm text-muted">Why: {r.why}.</span>
                </FactRow>
              ))}
            </FactList>
          </>
        ) : (
          <p>No payment provider, courier or e-mail service receives your personal information from this shop as it is set up now.</p>
        )}
      </LegalSection>

      <LegalSection n={4} id="abroad" title="Outside South Africa" law="POPIA s18(1)(g); s72">
        {d.transfersAbroad === null ? (
          <p data-testid="transfers-abroad">
            <NotProvided />
          </p>
        ) : isNone(d.transfersAbroad) ? (
          <p data-testid="transfers-abroad">We don't transfer personal information to anyone outside South Africa.</p>
        ) : (
          <p data-testid="transfers-abroad">{linkify(d.transfersAbroad)}</p>
        )}
        <p>
          POPIA (section 72) allows a transfer to a third party in another country only under its conditions, for example where
          that party is bound by law, rules or an agreement that give adequate protection, or where you consent.
        </p>
      </LegalSection>

      <LegalSection n={5} id="your-rights" title="Your rights" law="POPIA s5; s11(3); s23; s24; s69; s74">
        <p>Under POPIA you may:</p>
        <ul>
          {d.rights.map((r) => (
            <li key={r.id}>
              {r.text} <span className="text-xs text-muted">(POPIA {r.law})</span>
            </li>
          ))}
        </ul>
        <p className="mt-4">
          To use these rights, write to our Information Officer
          {officer.email ? (
            <>
              {" "}
              at <a href={`mailto:${officer.email}`}>{officer.email}</a>
            </>
          ) : (
            <>
              {" "}
              (e-mail address <NotProvided />) or to <a href={`mailto:${party.email}`}>{party.email}</a>
            </>
          )}
          . Signed in, you can do it yourself in your <Link to="/profile">profile</Link>: correct your e-mail preferences, download
          everything we hold about you (“Download my data”, section 23) and delete your account (“Delete my account”, section 24).
        </p>
      </LegalSection>

      <LegalSection n={6} id="regulator" title="The Information Regulator" law="POPIA s18(1)(h)(iii); s74">
        <p>You may complain to the Information Regulator about how we process your personal information.</p>
        <FactList label="Information Regulator">
          <FactRow label="Name">{d.regulator.name}</FactRow>
          <FactRow label="Address">
            <FactText value={[...d.regulator.address]} />
          </FactRow>
          <FactRow label="Post">
            <FactText value={[...d.regulator.postalAddress]} />
          </FactRow>
          <FactRow label="Enquiries">{linkify(d.regulator.enquiriesEmail)}</FactRow>
          <FactRow label="Complaints">
            <span className="block">{linkify(d.regulator.complaintsPortal)}</span>
            <span className="block">{linkify(d.regulator.complaintsEmail)}</span>
          </FactRow>
          <FactRow label="Website">{linkify(d.regulator.website)}</FactRow>
        </FactList>
      </LegalSection>
    </LegalPage>
  );
}
