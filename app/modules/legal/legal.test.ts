import { describe, expect, it } from "vitest";
import { parseEnv } from "~/utils/env.server";
import { collected, COOLING_OFF, INFORMATION_REGULATOR, isNone, LEGAL_SETTINGS, missingLegalSettings, POPIA_RIGHTS, recipientsFor, sellerDisclosure, smtpHost } from "./legal.logic";
import { FULL_LEGAL_ENV } from "./legal.fixtures";
import { DEFAULT_RETENTION } from "~/modules/privacy/retention.logic";
import { legalDashboardWarnings, legalSettings, missingLegalSettingLines, privacyPageData, sellerPageData, warnMissingLegalSettings } from "./legal.server";


describe("settings", () => {
  it("with nothing set, every owner fact is named as missing, with the section that asks for it", () => {
    const lines = missingLegalSettingLines(parseEnv({}));
    expect(lines).toHaveLength(LEGAL_SETTINGS.length);
    expect(lines).toContain("SHOP_TELEPHONE (telephone number, ECTA s43(1)(b))");
    expect(lines).toContain("SHOP_INFORMATION_OFFICER (Information Officer's name, POPIA s18(1)(b), s55)");
    expect(lines).toContain("SHOP_TRANSFERS_ABROAD (transfers of personal information outside South Africa (or none), POPIA s18(1)(g), s72)");
  });

  it("with every fact set nothing is missing; lists split on '|' and '\\n'", () => {
    const config = parseEnv(FULL_LEGAL_ENV);
    expect(missingLegalSettingLines(config)).toEqual([]);
    const s = legalSettings(config);
    expect(s.officeBearers).toEqual(["Thandi Nkosi (director)", "Sipho Dlamini (director)"]);
    expect(s.legalServiceAddress).toEqual(["12 Long Street", "Cape Town", "8001"]);
    expect(s.physicalAddress).toEqual(["12 Long Street", "Cape Town", "8001"]);
  });

  it("names only what is missing", () => {
    const { SHOP_TELEPHONE: _t, SHOP_OFFICE_BEARERS: _o, ...rest } = FULL_LEGAL_ENV;
    expect(missingLegalSettings(legalSettings(parseEnv(rest))).map((m) => m.key)).toEqual(["SHOP_TELEPHONE", "SHOP_OFFICE_BEARERS"]);
  });

  it("refuses a telephone or Information Officer e-mail that isn't one", () => {
    expect(() => parseEnv({ SHOP_TELEPHONE: "call us" })).toThrow(/SHOP_TELEPHONE: a telephone number/);
    expect(() => parseEnv({ SHOP_INFORMATION_OFFICER_EMAIL: "privacy" })).toThrow(/SHOP_INFORMATION_OFFICER_EMAIL/);
  });

  it('"none" reads as None', () => {
    expect(isNone("none")).toBe(true);
    expect(isNone("None.")).toBe(true);
    expect(isNone("none of your business")).toBe(false);
    expect(isNone(null)).toBe(false);
  });
});

describe("seller disclosure (ECTA s43(1))", () => {
  it("has every paragraph (a) to (r) of s43(1), in order", () => {
    const laws = sellerDisclosure(legalSettings(parseEnv({}))).map((i) => i.law);
    const paragraphs = [...new Set(laws.flatMap((l) => [...l.matchAll(/s43\(1\)\(([a-r])\)/g)].map((m) => m[1])))];
    expect(paragraphs).toEqual("abcdefghijklmnopqr".split(""));
  });

  it("says nothing it doesn't know: unset facts are null (Not provided)", () => {
    const items = Object.fromEntries(sellerDisclosure(legalSettings(parseEnv({}))).map((i) => [i.id, i.value]));
    for (const id of ["name", "legal-status", "physical-address", "telephone", "registration-number", "office-bearers", "registration-place", "legal-service", "self-regulatory", "code-of-conduct", "dispute-resolution"]) {
      expect(items[id], id).toBeNull();
    }
    expect(items["trading-name"]).toEqual(["Scentara"]);
    expect(items.email).toEqual(["hello@scentara.co.za"]);
    expect(items.website).toEqual(["http://localhost:3000"]);
  });

  it("states the owner's facts when set, 'none' as None, and the VAT number when registered", () => {
    const items = Object.fromEntries(sellerDisclosure(legalSettings(parseEnv({ ...FULL_LEGAL_ENV, SHOP_VAT_NUMBER: "4123456789" }))).map((i) => [i.id, i.value]));
    expect(items.name).toEqual(["Scentara (Pty) Ltd"]);
    expect(items["office-bearers"]).toEqual(["Thandi Nkosi (director)", "Sipho Dlamini (director)"]);
    expect(items["self-regulatory"]).toEqual(["None"]);
    expect(items["code-of-conduct"]).toEqual(["None"]);
    expect(items["dispute-resolution"]).toEqual(["Consumer Goods and Services Ombud, https://cgso.org.za"]);
    expect(items["vat-number"]).toEqual(["4123456789"]);
  });

  it("the price, payment methods, delivery time and cooling-off right come from the shop's configuration and ECTA s44", () => {
    const items = Object.fromEntries(sellerDisclosure(legalSettings(parseEnv({ PAYMENT_METHODS: "card,eft", EFT_BANK_NAME: "FNB", EFT_ACCOUNT_NAME: "Scentara", EFT_ACCOUNT_NUMBER: "62000000000", EFT_BRANCH_CODE: "250655", FREE_DELIVERY_THRESHOLD_CENTS: "59900" }))).map((i) => [i.id, i.value]));
    expect(items.price!.join(" ")).toContain("include VAT at 15%");
    expect(items.price!.join(" ")).toContain("R599.00");
    expect(items.payment).toEqual(["Card (test payments, no money is taken)", "Bank transfer (EFT)"]);
    expect(items["delivery-time"]).toEqual(["Orders are delivered within 2 to 7 working days anywhere in South Africa."]);
    expect(items["cooling-off"]).toEqual(COOLING_OFF);
    expect(COOLING_OFF.join(" ")).toMatch(/7 days after the date you receive the goods.*direct cost of returning.*within 30 days/);
  });
});

describe("privacy notice (POPIA s18)", () => {
  it("recipients come from the configuration: none for the test provider, the test couriers and the outbox", () => {
    expect(recipientsFor(parseEnv({}))).toEqual([]);
  });

  it("names the payment provider, Ozow, each real courier and the mail server's host (never its credentials)", () => {
    const recipients = recipientsFor(
      parseEnv({
        PAYMENT_PROVIDER: "payfast",
        PAYFAST_MERCHANT_ID: "10000100",
        PAYFAST_MERCHANT_KEY: "46f0cd694581a",
        PAYMENT_METHODS: "card,instant_eft,eft",
        OZOW_SITE_CODE: "TSTSTE0001",
        OZOW_PRIVATE_KEY: "k",
        OZOW_API_KEY: "a",
        EFT_BANK_NAME: "FNB",
        EFT_ACCOUNT_NAME: "Scentara",
        EFT_ACCOUNT_NUMBER: "62000000000",
        EFT_BRANCH_CODE: "250655",
        DELIVERY_KINDS: "door,locker,point",
        SHIPLOGIC_API_KEY: "key",
        PARGO_USERNAME: "shop@example.co.za",
        PARGO_PASSWORD: "secret",
        SMTP_URL: "smtps://user:p4ss@smtp.mailer.example:465",
      }),
    );
    expect(recipients.map((r) => r.name)).toEqual(["PayFast", "Ozow", "The Courier Guy (through Shiplogic)", "Pargo", "The e-mail service at smtp.mailer.example"]);
    expect(JSON.stringify(recipients)).not.toContain("p4ss");
    expect(recipients.find((r) => r.name === "PayFast")!.receives).toContain("e-mail address");
    expect(recipientsFor(parseEnv({ PAYMENT_PROVIDER: "yoco", YOCO_SECRET_KEY: "sk", YOCO_WEBHOOK_SECRET: "whsec_x", DELIVERY_KINDS: "locker", PUDO_API_KEY: "p" })).map((r) => r.name)).toEqual([
      "Yoco",
      "PUDO lockers (The Courier Guy)",
    ]);
  });

  it("reads the mail host safely", () => {
    expect(smtpHost("smtp://127.0.0.1:2525")).toBe("127.0.0.1");
    expect(smtpHost("not a url")).toBeNull();
    expect(smtpHost(undefined)).toBeNull();
  });

  it("says what is collected, why, whether it is required and how long it is kept: the periods the retention job enforces", () => {
    const list = collected({ retention: DEFAULT_RETENTION }, 14);
    expect(list.map((c) => c.id)).toEqual(["account", "orders", "sign-in", "messages", "activity", "reviews", "stock-alerts", "wishlist", "gift-cards", "sample-credits", "whatsapp", "cart", "browser"]);
    // what the retention job and the deletion do with them (docs/decisions/040, addendum)
    expect(list.find((c) => c.id === "gift-cards")!.kept).toContain("its balance stays and it still pays with its code");
    expect(list.find((c) => c.id === "gift-cards")!.items).toContain("never keep the code itself");
    expect(list.find((c) => c.id === "whatsapp")!.kept).toContain("Each message's number and words: 90 days, then erased");
    expect(list.find((c) => c.id === "cart")!.kept).toContain("deleted once it has not changed for 90 days");
    // a back-in-stock address goes once its e-mail is sent, or after 6 months (POPIA s14, docs/decisions/057)
    expect(list.find((c) => c.id === "stock-alerts")!.kept).toContain("as soon as that e-mail is sent, or 6 months after you asked");
    for (const c of list) for (const field of [c.what, c.items, c.why, c.required, c.kept]) expect(field.length).toBeGreaterThan(3);
    expect(list.find((c) => c.id === "orders")!.kept).toContain("5 years from the invoice, as the Tax Administration Act (s29) requires");
    expect(list.find((c) => c.id === "orders")!.kept).toContain("erased after 12 months");
    expect(list.find((c) => c.id === "sign-in")!.kept).toContain("14 days");
    // the admin's activity log: 5 years, fixed (its triggers keep it; docs/decisions/060)
    expect(list.find((c) => c.id === "activity")!.kept).toContain("5 years, as the Tax Administration Act (s29) requires");
    expect(list.find((c) => c.id === "messages")!.kept).toContain("Contact messages: 12 months. The text of each e-mail we send you: 90 days");
    // The owner's RETENTION_* settings, not a free text: the notice says what the job does (docs/decisions/040).
    const owner = collected({ retention: legalSettings(parseEnv({ RETENTION_CONTACT_MONTHS: "6", RETENTION_MAIL_BODY_DAYS: "30", RETENTION_UNPAID_ORDER_MONTHS: "3", RETENTION_INVOICE_YEARS: "7" })).retention }, 14);
    expect(owner.find((c) => c.id === "messages")!.kept).toContain("Contact messages: 6 months. The text of each e-mail we send you: 30 days");
    expect(owner.find((c) => c.id === "orders")!.kept).toContain("7 years from the invoice");
    expect(owner.find((c) => c.id === "orders")!.kept).toContain("erased after 3 months");
    const carts = collected({ retention: legalSettings(parseEnv({ RETENTION_SAVED_CART_DAYS: "30", RETENTION_MAIL_BODY_DAYS: "30" })).retention }, 14);
    expect(carts.find((c) => c.id === "cart")!.kept).toContain("deleted once it has not changed for 30 days");
    expect(carts.find((c) => c.id === "whatsapp")!.kept).toContain("Each message's number and words: 30 days");
  });

  it("lists the rights with their sections, and the Regulator's published contacts", () => {
    expect(POPIA_RIGHTS.map((r) => r.law)).toEqual(["s23", "s24", "s11(3)", "s69", "s74"]);
    expect(INFORMATION_REGULATOR.address.join(", ")).toBe("JD House, 27 Stiemens Street, Braamfontein, Johannesburg, 2001");
    expect(INFORMATION_REGULATOR.enquiriesEmail).toBe("enquiries@inforegulator.org.za");
    expect(INFORMATION_REGULATOR.website).toBe("https://inforegulator.org.za");
  });

  it("page data: the responsible party and Information Officer from settings; missing ones named", () => {
    const empty = privacyPageData(parseEnv({}));
    expect(empty.responsibleParty).toMatchObject({ name: null, tradingName: "Scentara", address: null });
    expect(empty.informationOfficer).toEqual({ name: null, email: null });
    expect(empty.missing).toEqual(["SHOP_LEGAL_NAME", "SHOP_ADDRESS", "SHOP_INFORMATION_OFFICER", "SHOP_INFORMATION_OFFICER_EMAIL", "SHOP_TRANSFERS_ABROAD"]);
    const full = privacyPageData(parseEnv(FULL_LEGAL_ENV));
    expect(full.missing).toEqual([]);
    expect(full.informationOfficer).toEqual({ name: "Thandi Nkosi", email: "privacy@scentara.co.za" });
    expect(sellerPageData(parseEnv(FULL_LEGAL_ENV)).missing).toEqual([]);
    expect(sellerPageData(parseEnv({})).missing).toContain("SHOP_LEGAL_SERVICE_ADDRESS");
  });
});

describe("start-up warning (decision 004's checks)", () => {
  const capture = () => {
    const lines: Array<{ obj: object; message: string }> = [];
    return { lines, logger: { warn: (obj: object, message: string) => lines.push({ obj, message }) } };
  };
  const realShop = { PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: "x".repeat(32), ALLOW_TEST_PAYMENTS: "true", ALLOW_TEST_DELIVERIES: "true" };

  it("locally: one quiet line naming the missing settings; nothing for the dashboard", () => {
    const { lines, logger } = capture();
    warnMissingLegalSettings(logger, parseEnv({}));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.message).toMatch(/^Legal notices: not set yet .*SHOP_LEGAL_NAME, SHOP_LEGAL_STATUS/);
    expect(legalDashboardWarnings(parseEnv({}))).toEqual([]);
  });

  it("on an https:// shop: a clear warning naming each setting and its section, and the dashboard's list", () => {
    const { lines, logger } = capture();
    const config = parseEnv({ ...realShop, SHOP_LEGAL_NAME: "Scentara (Pty) Ltd" });
    warnMissingLegalSettings(logger, config);
    expect(lines[0]!.message).toMatch(/^Legal notices incomplete: .*Set: SHOP_LEGAL_STATUS \(legal status, ECTA s43\(1\)\(a\)\); /);
    expect(lines[0]!.message).not.toContain("SHOP_LEGAL_NAME");
    expect(legalDashboardWarnings(config)).toHaveLength(LEGAL_SETTINGS.length - 1);
  });

  it("says nothing when every setting is given", () => {
    const { lines, logger } = capture();
    warnMissingLegalSettings(logger, parseEnv({ ...realShop, ...FULL_LEGAL_ENV }));
    expect(lines).toEqual([]);
    expect(legalDashboardWarnings(parseEnv({ ...realShop, ...FULL_LEGAL_ENV }))).toEqual([]);
  });
});
