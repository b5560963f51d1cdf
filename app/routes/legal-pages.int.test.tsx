/**
 * /privacy and /seller (docs/decisions/037), on SQLite and PostgreSQL: their loaders with nothing configured (every
 * owner fact "Not provided" and named) and fully configured (every fact on the page), rendered as the server sends
 * them; the footer, register and mail links to the privacy notice; the admin dashboard's loader data.
 */
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { LEGAL_SETTINGS } from "~/modules/legal/legal.logic";
import { sendMail } from "~/modules/mail/mailer.server";
import { resetEnvForTests } from "~/utils/env.server";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import { callLoader, dataOf } from "../../tests/setup/route";
import { FULL_LEGAL_ENV } from "~/modules/legal/legal.fixtures";
import Privacy, { loader as privacyLoader } from "./privacy";
import Seller, { loader as sellerLoader } from "./seller";

const ALL_SET = { ...FULL_LEGAL_ENV, SHOP_VAT_NUMBER: "4123456789" };

function withEnv(vars: Record<string, string>) {
  for (const [k, v] of Object.entries(vars)) process.env[k] = v;
  resetEnvForTests();
}

afterEach(() => {
  for (const k of [...Object.keys(ALL_SET), "SMTP_URL", "PAYMENT_PROVIDER", "YOCO_SECRET_KEY", "YOCO_WEBHOOK_SECRET"]) delete process.env[k];
  resetEnvForTests();
});

/** The page as the server renders it, from its loader's data. */
function render(Component: React.ComponentType<any>, path: string, loaderData: unknown) {
  const Stub = createRoutesStub([{ id: "page", path, Component: Component as any, loader: () => loaderData }]);
  return renderToString(<Stub initialEntries={[path]} hydrationData={{ loaderData: { page: loaderData } }} />);
}

const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/\s+/g, " ");

describe("/seller (ECTA s43(1))", () => {
  it("with nothing configured: every owner fact reads 'Not provided' and the loader names each missing setting", async () => {
    const data = await dataOf<Awaited<ReturnType<typeof sellerLoader>>>(await callLoader(sellerLoader, "/seller"));
    expect(data.missing).toEqual(LEGAL_SETTINGS.filter((s) => s.page === "seller").map((s) => s.key));
    const html = text(render(Seller, "/seller", data));
    expect(html.match(/Not provided/g)?.length).toBe(11);
    expect(html).toContain("Trading as ECTA s43(1)(a) Scentara");
    expect(html).toContain("hello@scentara.co.za");
  });

  it("fully configured: every item s43(1) lists is on the page, (a) to (r), with the owner's facts, s43(2) and s44", async () => {
    withEnv(ALL_SET);
    const data = await dataOf<Awaited<ReturnType<typeof sellerLoader>>>(await callLoader(sellerLoader, "/seller"));
    expect(data.missing).toEqual([]);
    const raw = render(Seller, "/seller", data);
    const html = text(raw);
    expect(html).not.toContain("Not provided");
    for (const letter of "abcdefghijklmnopqr") expect(html, `s43(1)(${letter})`).toContain(`ECTA s43(1)(${letter})`);
    for (const fact of [
      "Scentara (Pty) Ltd",
      "Private company",
      "2021/123456/07",
      "South Africa (CIPC)",
      "Thandi Nkosi (director)",
      "Sipho Dlamini (director)",
      "12 Long Street",
      "+27 21 555 0123",
      "http://localhost:3000",
      "hello@scentara.co.za",
      "4123456789",
      "Consumer Goods and Services Ombud",
      "include VAT at 15%",
      "2 to 7 working days",
      "Card (test payments, no money is taken)",
      "within 7 days after the date you receive the goods",
      "direct cost of returning the goods",
      "full refund within 30 days",
      "ECTA s43(2)",
    ]) {
      expect(html, fact).toContain(fact);
    }
    for (const href of ["/terms", "/terms#returns", "/privacy", "/cart", "/shop", "https://cgso.org.za"]) expect(raw).toContain(`href="${href}"`);
  });
});

describe("/privacy (POPIA s18)", () => {
  it("with nothing configured: the responsible party's missing facts are 'Not provided' and named; no recipients", async () => {
    const data = await dataOf<Awaited<ReturnType<typeof privacyLoader>>>(await callLoader(privacyLoader, "/privacy"));
    expect(data.missing).toEqual(["SHOP_LEGAL_NAME", "SHOP_ADDRESS", "SHOP_INFORMATION_OFFICER", "SHOP_INFORMATION_OFFICER_EMAIL", "SHOP_TRANSFERS_ABROAD"]);
    expect(data.recipients).toEqual([]);
    const html = text(render(Privacy, "/privacy", data));
    // legal name, address, officer, officer's e-mail, telephone, transfers abroad, the rights' e-mail (retention is
    // never missing: the RETENTION_* settings have defaults and the notice states them, decision 040)
    expect(html.match(/Not provided/g)?.length).toBe(7);
    expect(html).toContain("Contact messages: 12 months.");
    expect(html).toContain("No payment provider, courier or e-mail service receives your personal information");
  });

  it("fully configured, with a real provider and mail server: every item s18 asks for is on the page", async () => {
    withEnv({ ...ALL_SET, PAYMENT_PROVIDER: "yoco", YOCO_SECRET_KEY: "sk_test_x", YOCO_WEBHOOK_SECRET: "whsec_eA==", SMTP_URL: "smtp://mailer:secret@smtp.example.net:587" });
    const data = await dataOf<Awaited<ReturnType<typeof privacyLoader>>>(await callLoader(privacyLoader, "/privacy"));
    expect(data.missing).toEqual([]);
    const raw = render(Privacy, "/privacy", data);
    const html = text(raw);
    expect(html).not.toContain("Not provided");
    expect(raw).not.toContain("secret@");
    for (const fact of [
      // the responsible party and the Information Officer (s18(1)(b))
      "Scentara (Pty) Ltd",
      "12 Long Street",
      "Thandi Nkosi",
      "privacy@scentara.co.za",
      // what and why, voluntary or not, the law requiring it, how long (s18(1)(a), (c)–(f); s14)
      "Your account",
      "Your orders",
      "Sign-in and security",
      "Messages",
      "Must you give it?",
      "Tax Administration Act (s29)",
      "14 days",
      "Contact messages: 12 months.",
      "5 years from the invoice",
      // recipients (s18(1)(h)(i)) from the configuration
      "Yoco",
      "The e-mail service at smtp.example.net",
      // abroad (s18(1)(g); s72)
      "We don't transfer personal information to anyone outside South Africa.",
      "POPIA s18(1)(g); s72",
      // rights
      "(POPIA s23)",
      "(POPIA s24)",
      "(POPIA s11(3))",
      "(POPIA s69)",
      // the Regulator
      "Information Regulator (South Africa)",
      "JD House, 27 Stiemens Street",
      "Braamfontein",
      "Johannesburg",
      "2001",
      "enquiries@inforegulator.org.za",
      "https://inforegulator.org.za",
    ]) {
      expect(html, fact).toContain(fact);
    }
    expect(raw).toContain('href="mailto:privacy@scentara.co.za"');
    expect(raw).toContain('href="/seller"');
  });
});

describe("links to the privacy notice", () => {
  it("every e-mail ends with it", async () => {
    const result = await sendMail({ to: "legal.footer@example.co.za", subject: "Hello", text: "Body", html: "<p>Body</p>" });
    const row = await getDb().selectFrom("mail_outbox").select(["text_body", "html_body"]).where("id", "=", result.id).executeTakeFirstOrThrow();
    expect(row.text_body).toMatch(/^Body\n\n-- \n.*http:\/\/localhost:3000\/privacy$/);
    expect(row.html_body).toContain('<a href="http://localhost:3000/privacy">our privacy notice</a>');
  });
});

describe("admin dashboard", () => {
  it("a local shop shows no legal warnings (only an https:// shop does: legal.test.ts)", async () => {
    const { loader } = await import("./admin._index");
    const admin = await createUser(getDb(), { isAdmin: true });
    const cookie = await sessionCookieFor(getDb(), admin.id);
    const data = await dataOf<{ legalWarnings: string[] }>(await callLoader(loader, "/admin", { headers: { cookie } }));
    expect(data.legalWarnings).toEqual([]);
  });
});
