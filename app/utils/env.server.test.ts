import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

/** A real (https) shop offering instant EFT through Ozow, with its card payments on Yoco. */
const REAL_OZOW = {
  PUBLIC_BASE_URL: "https://shop.example.co.za",
  AUTH_SECRET: "x".repeat(40),
  PAYMENT_PROVIDER: "yoco",
  YOCO_SECRET_KEY: "sk_x",
  YOCO_WEBHOOK_SECRET: "whsec_x",
  PAYMENT_METHODS: "card,instant_eft",
  OZOW_SITE_CODE: "SITE-001",
  OZOW_PRIVATE_KEY: "private",
  OZOW_API_KEY: "api",
  // delivery by the zone table only: the courier settings have tests of their own below
  DELIVERY_KINDS: "",
};

describe("configuration", () => {
  it("runs with nothing set: SQLite, port 3000, simulated payments, R599 free delivery", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe("data/shop.db");
    expect(env.PAYMENT_PROVIDER).toBe("simulated");
    expect(env.FREE_DELIVERY_THRESHOLD_CENTS).toBe(59900);
    expect(env.ADMIN_EMAILS).toEqual([]);
    expect(env.UNPAID_ORDER_TTL_MINUTES).toBe(60);
  });

  it("reads the unpaid-order hold: 0 turns the expiry off, 5 minutes to 30 days otherwise", () => {
    expect(parseEnv({ UNPAID_ORDER_TTL_MINUTES: "0" }).UNPAID_ORDER_TTL_MINUTES).toBe(0);
    expect(parseEnv({ UNPAID_ORDER_TTL_MINUTES: "5" }).UNPAID_ORDER_TTL_MINUTES).toBe(5);
    expect(parseEnv({ UNPAID_ORDER_TTL_MINUTES: "43200" }).UNPAID_ORDER_TTL_MINUTES).toBe(43200);
  });

  it("reads admin e-mails as a trimmed, lower-cased list", () => {
    expect(parseEnv({ ADMIN_EMAILS: " Owner@Shop.co.za, staff@shop.co.za ,," }).ADMIN_EMAILS).toEqual(["owner@shop.co.za", "staff@shop.co.za"]);
  });

  it.each([
    [{ PORT: "70000" }, /PORT/],
    [{ PUBLIC_BASE_URL: "not a url" }, /PUBLIC_BASE_URL/],
    [{ ADMIN_EMAILS: "not-an-email" }, /ADMIN_EMAILS/],
    [{ WHATSAPP_NUMBER: "+27 82 123" }, /WHATSAPP_NUMBER/],
    [{ PAYMENT_PROVIDER: "yoco" }, /YOCO_SECRET_KEY/],
    [{ PUBLIC_BASE_URL: "https://shop.example.co.za" }, /AUTH_SECRET is required when PUBLIC_BASE_URL is https:\/\/.*randomBytes\(32\)/s],
    [{ PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: "too-short" }, /AUTH_SECRET must be at least 32 characters/],
    [{ PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: "x".repeat(31) }, /AUTH_SECRET must be at least 32 characters/],
    [{ PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: "x".repeat(40) }, /PAYMENT_PROVIDER=simulated takes no real money.*PAYMENT_PROVIDER=yoco.*ALLOW_TEST_PAYMENTS=true/s],
    [{ PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: "x".repeat(40), ALLOW_TEST_PAYMENTS: "false" }, /PAYMENT_PROVIDER=simulated/],
    [{ ALLOW_TEST_PAYMENTS: "yes" }, /ALLOW_TEST_PAYMENTS/],
    [{ PAYMENT_METHODS: "card,instant_eft", OZOW_SITE_CODE: "S", OZOW_PRIVATE_KEY: "K" }, /instant_eft \(Ozow\) needs OZOW_API_KEY/],
    [{ ...REAL_OZOW }, /OZOW_IS_TEST=true \(the default\) takes no real money.*OZOW_IS_TEST=false.*ALLOW_TEST_PAYMENTS=true/s],
    [{ ...REAL_OZOW, OZOW_IS_TEST: "true" }, /OZOW_IS_TEST=true/],
    [{ DATABASE_POOL_SIZE: "1" }, /DATABASE_POOL_SIZE: at least 2/],
    [{ DATABASE_POOL_SIZE: "many" }, /DATABASE_POOL_SIZE/],
    [{ DATABASE_POOL_SIZE: "201" }, /DATABASE_POOL_SIZE/],
    [{ TRUST_PROXY: "-1" }, /TRUST_PROXY/],
    [{ TRUST_PROXY: "11" }, /TRUST_PROXY/],
    [{ TRUST_PROXY: "1.5" }, /TRUST_PROXY/],
    [{ TRUST_PROXY: "true" }, /TRUST_PROXY/],
    [{ UNPAID_ORDER_TTL_MINUTES: "1" }, /UNPAID_ORDER_TTL_MINUTES/],
    [{ UNPAID_ORDER_TTL_MINUTES: "43201" }, /UNPAID_ORDER_TTL_MINUTES/],
    [{ UNPAID_ORDER_TTL_MINUTES: "-5" }, /UNPAID_ORDER_TTL_MINUTES/],
    [{ UNPAID_ORDER_TTL_MINUTES: "an hour" }, /UNPAID_ORDER_TTL_MINUTES/],
    [{ SHOP_VAT_NUMBER: "5123456789", SHOP_ADDRESS: "1 Long St" }, /SHOP_VAT_NUMBER/],
    [{ SHOP_VAT_NUMBER: "412345678", SHOP_ADDRESS: "1 Long St" }, /SHOP_VAT_NUMBER/],
    [{ SHOP_VAT_NUMBER: "4123456789" }, /SHOP_VAT_NUMBER is set.*SHOP_ADDRESS/s],
    [{ INVOICE_PREFIX: "INV/2026/" }, /INVOICE_PREFIX/],
  ])("refuses to start with %j, naming the variable", (source, message) => {
    expect(() => parseEnv(source)).toThrow(message);
  });

  it("starts locally with nothing set, in production mode too: no secret needed, test payments allowed, no proxy trusted", () => {
    const local = parseEnv({ NODE_ENV: "production" });
    expect(local.AUTH_SECRET).toBeUndefined();
    expect(local.PAYMENT_PROVIDER).toBe("simulated");
    expect(local.TRUST_PROXY).toBe(0);
    expect(local.ALLOW_TEST_PAYMENTS).toBe(false);
    // the https rules are about the public address, not NODE_ENV: a local shop may keep any secret it is given
    expect(parseEnv({ NODE_ENV: "production", AUTH_SECRET: "short" }).AUTH_SECRET).toBe("short");
  });

  it("accepts a real deployment with its own secret and a real provider, or test payments by explicit opt-in", () => {
    const secret = "s".repeat(43);
    expect(parseEnv({ PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: secret, PAYMENT_PROVIDER: "yoco", YOCO_SECRET_KEY: "sk_x", YOCO_WEBHOOK_SECRET: "whsec_x", DELIVERY_KINDS: "" }).PAYMENT_PROVIDER).toBe("yoco");
    expect(parseEnv({ PUBLIC_BASE_URL: "https://staging.example.co.za", AUTH_SECRET: secret, ALLOW_TEST_PAYMENTS: "true", ALLOW_TEST_DELIVERIES: "true" }).ALLOW_TEST_PAYMENTS).toBe(true);
    expect(parseEnv({ PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: "x".repeat(32), ALLOW_TEST_PAYMENTS: "true", DELIVERY_KINDS: "" }).AUTH_SECRET).toHaveLength(32);
    expect(parseEnv({ ...REAL_OZOW, OZOW_IS_TEST: "false" }).OZOW_IS_TEST).toBe(false);
    expect(parseEnv({ ...REAL_OZOW, ALLOW_TEST_PAYMENTS: "true" }).OZOW_IS_TEST).toBe(true);
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "10" }).TRUST_PROXY).toBe(10);
  });

  it("reads the payment methods, and refuses to start when a chosen method lacks its settings, naming them", () => {
    expect(parseEnv({}).PAYMENT_METHODS).toEqual(["card"]);
    expect(parseEnv({ PAYMENT_METHODS: " eft , card,eft" , EFT_BANK_NAME: "FNB", EFT_ACCOUNT_NAME: "Scentara", EFT_ACCOUNT_NUMBER: "6281", EFT_BRANCH_CODE: "250655" }).PAYMENT_METHODS).toEqual(["eft", "card"]);
    expect(() => parseEnv({ PAYMENT_METHODS: "card,cheque" })).toThrow(/PAYMENT_METHODS/);
    expect(() => parseEnv({ PAYMENT_METHODS: "card,eft", EFT_BANK_NAME: "FNB" })).toThrow(/PAYMENT_METHODS=eft \(bank transfer\) needs EFT_ACCOUNT_NAME, EFT_ACCOUNT_NUMBER, EFT_BRANCH_CODE/);
    expect(() => parseEnv({ PAYMENT_METHODS: "instant_eft" })).toThrow(/needs OZOW_SITE_CODE, OZOW_PRIVATE_KEY, OZOW_API_KEY/);
    expect(() => parseEnv({ PAYMENT_PROVIDER: "payfast" })).toThrow(/PAYMENT_PROVIDER=payfast needs PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY/);
    // the card provider's settings only matter when card payments are offered
    expect(parseEnv({ PAYMENT_PROVIDER: "payfast", PAYMENT_METHODS: "eft", EFT_BANK_NAME: "FNB", EFT_ACCOUNT_NAME: "S", EFT_ACCOUNT_NUMBER: "1", EFT_BRANCH_CODE: "2" }).PAYMENT_METHODS).toEqual(["eft"]);
  });

  it("an https:// shop takes PayFast's sandbox (the default) only as a staging shop; live PayFast is fine", () => {
    const real = { PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: "s".repeat(43), PAYMENT_PROVIDER: "payfast", PAYFAST_MERCHANT_ID: "10000100", PAYFAST_MERCHANT_KEY: "46f0cd694581a", DELIVERY_KINDS: "" };
    expect(() => parseEnv(real)).toThrow(/PayFast's sandbox takes no real money.*PAYFAST_SANDBOX=false.*ALLOW_TEST_PAYMENTS=true/s);
    expect(() => parseEnv({ ...real, PAYFAST_SANDBOX: "false", PAYFAST_BASE_URL: "https://sandbox.payfast.co.za" })).toThrow(/PayFast's sandbox/);
    expect(parseEnv({ ...real, PAYFAST_SANDBOX: "false" }).PAYFAST_SANDBOX).toBe(false);
    expect(parseEnv({ ...real, ALLOW_TEST_PAYMENTS: "true" }).PAYFAST_SANDBOX).toBe(true);
    // Locally (http://), the sandbox is the point.
    expect(parseEnv({ PAYMENT_PROVIDER: "payfast", PAYFAST_MERCHANT_ID: "10000100", PAYFAST_MERCHANT_KEY: "46f0cd694581a" }).PAYFAST_SANDBOX).toBe(true);
  });

  it("couriers: locally the test courier serves every kind; an https:// shop needs each offered kind's credentials or the opt-in", () => {
    expect(parseEnv({}).DELIVERY_KINDS).toEqual(["door", "locker", "point"]);
    expect(parseEnv({ DELIVERY_KINDS: " point, door ,point" }).DELIVERY_KINDS).toEqual(["point", "door"]);
    expect(parseEnv({ DELIVERY_KINDS: "" }).DELIVERY_KINDS).toEqual([]);
    expect(() => parseEnv({ DELIVERY_KINDS: "door,drone" })).toThrow(/DELIVERY_KINDS/);
    expect(() => parseEnv({ COURIER_QUOTE_TIMEOUT_MS: "50" })).toThrow(/COURIER_QUOTE_TIMEOUT_MS/);
    const real = { PUBLIC_BASE_URL: "https://shop.example.co.za", AUTH_SECRET: "s".repeat(43), ALLOW_TEST_PAYMENTS: "true" };
    expect(() => parseEnv(real)).toThrow(/door, locker, point delivery has no courier credentials.*SHIPLOGIC_API_KEY.*ALLOW_TEST_DELIVERIES=true/s);
    expect(() => parseEnv({ ...real, SHIPLOGIC_API_KEY: "k", PUDO_API_KEY: "p", PARGO_USERNAME: "u" })).toThrow(/^Invalid configuration:\n  point delivery has no courier credentials/);
    expect(parseEnv({ ...real, SHIPLOGIC_API_KEY: "k", PUDO_API_KEY: "p", PARGO_USERNAME: "u", PARGO_PASSWORD: "pw" }).DELIVERY_KINDS).toHaveLength(3);
    expect(parseEnv({ ...real, SHIPLOGIC_API_KEY: "k", DELIVERY_KINDS: "door" }).DELIVERY_KINDS).toEqual(["door"]);
    expect(parseEnv({ ...real, ALLOW_TEST_DELIVERIES: "true" }).ALLOW_TEST_DELIVERIES).toBe(true);
  });

  it("invoices: no VAT number and no address by default (an ordinary invoice); a VAT number with the address makes tax invoices", () => {
    const plain = parseEnv({});
    expect(plain.SHOP_VAT_NUMBER).toBeUndefined();
    expect(plain.SHOP_ADDRESS).toEqual([]);
    expect(plain.SHOP_LEGAL_NAME).toBeUndefined();
    expect(plain.INVOICE_PREFIX).toBe("INV-");
    const vat = parseEnv({ SHOP_VAT_NUMBER: " 4123 456 789 ", SHOP_ADDRESS: "Unit 4, The Old Biscuit Mill\\n373 Albert Road | Woodstock, Cape Town\n7925", SHOP_LEGAL_NAME: "Scentara (Pty) Ltd" });
    expect(vat.SHOP_VAT_NUMBER).toBe("4123456789");
    expect(vat.SHOP_ADDRESS).toEqual(["Unit 4, The Old Biscuit Mill", "373 Albert Road", "Woodstock, Cape Town", "7925"]);
    expect(vat.SHOP_LEGAL_NAME).toBe("Scentara (Pty) Ltd");
    expect(parseEnv({ SHOP_VAT_NUMBER: "" }).SHOP_VAT_NUMBER).toBeUndefined();
  });
});
