import { z } from "zod";
import { databaseUrlProblem } from "./database-url.server";

/**
 * The shop's configuration: environment variables, checked once at start.
 * With nothing set the shop runs: SQLite, simulated payments, outbox mail, images on local disk (MEDIA_STORAGE).
 * Every variable is documented in .env.example.
 */
const emailList = z
  .string()
  .default("")
  .transform((s) =>
    s
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email()));

/** Lines of a setting: real newlines, or "\\n" or "|" between them (a .env value stays on one line); blanks dropped. */
const splitLines = (s: string) =>
  s
    .split(/\r?\n|\\n|\|/)
    .map((l) => l.trim())
    .filter(Boolean);

const optionalString = z
  .string()
  .optional()
  .transform((s) => (s && s.trim() ? s.trim() : undefined));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /**
   * The address to listen on; unset: every interface. Behind a proxy on the same machine set 127.0.0.1, so nobody can
   * reach the shop around the proxy and forge the X-Forwarded-For it trusts (TRUST_PROXY), e.g. to dodge sign-in throttling.
   */
  HOST: optionalString,
  /** A SQLite file (a path, file:path, file:///path), :memory:, or postgres://…: the forms of database-url.server.ts, read there. */
  DATABASE_URL: z
    .string()
    .default("data/shop.db")
    .superRefine((value, ctx) => {
      const problem = databaseUrlProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  /**
   * PostgreSQL connections each app process (each worker) may open: the shop's queries and sign-in's, together.
   * Every process and every server counts against the database's max_connections (checked at start).
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2, "at least 2 (one for the shop's queries, one for sign-in)").max(200).default(14),
  PUBLIC_BASE_URL: z.url().default("http://localhost:3000"),
  SHOP_NAME: z.string().min(1).default("Scentara"),
  /** International format without '+', as wa.me expects: 27… */
  WHATSAPP_NUMBER: z
    .string()
    .regex(/^\d{9,15}$/, "digits only, international format, e.g. 27821234567")
    .default("27821234567"),
  CONTACT_EMAIL: z.email().default("hello@scentara.co.za"),
  MAIL_FROM: z.string().default("Scentara <no-reply@scentara.co.za>"),
  SMTP_URL: optionalString,
  ADMIN_EMAILS: emailList,
  AUTH_SECRET: optionalString,
  /** The card provider (PAYMENT_METHODS `card`). */
  PAYMENT_PROVIDER: z.enum(["simulated", "yoco", "payfast"]).default("simulated"),
  /**
   * The ways a shopper may pay, in the order the checkout offers them: `card` (PAYMENT_PROVIDER), `instant_eft`
   * (Ozow), `eft` (a bank transfer the owner confirms by hand). Default: card only.
   */
  PAYMENT_METHODS: z
    .string()
    .default("card")
    .transform((s) => [...new Set(s.split(",").map((m) => m.trim()).filter(Boolean))])
    .pipe(z.array(z.enum(["card", "instant_eft", "eft"], { error: "each method is card, instant_eft or eft" })).min(1, "name at least one method")),
  /** A staging shop on https may keep the simulated provider only with this explicit opt-in. */
  ALLOW_TEST_PAYMENTS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  YOCO_SECRET_KEY: optionalString,
  YOCO_WEBHOOK_SECRET: optionalString,
  YOCO_API_BASE: z.url().default("https://payments.yoco.com"),
  SIMULATED_WEBHOOK_SECRET: optionalString,
  /** PayFast (PAYMENT_PROVIDER=payfast): the merchant's id, key and passphrase; sandbox or live. */
  PAYFAST_MERCHANT_ID: optionalString,
  PAYFAST_MERCHANT_KEY: optionalString,
  PAYFAST_PASSPHRASE: optionalString,
  PAYFAST_SANDBOX: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /** Overrides the PayFast host (tests run the adapter against a local fake); default from PAYFAST_SANDBOX. */
  PAYFAST_BASE_URL: z.url().optional(),
  /** PayFast's API (refunds, docs/decisions/041; live accounts only); tests point it at a local fake. */
  PAYFAST_API_BASE: z.url().default("https://api.payfast.co.za"),
  /** Ozow (PAYMENT_METHODS instant_eft): site code, private key (hashes), API key (status look-ups). */
  OZOW_SITE_CODE: optionalString,
  OZOW_PRIVATE_KEY: optionalString,
  OZOW_API_KEY: optionalString,
  OZOW_IS_TEST: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /** Overrides Ozow's payment page and API hosts (tests use a local fake). */
  OZOW_PAY_URL: z.url().default("https://pay.ozow.com"),
  OZOW_API_BASE: z.url().default("https://api.ozow.com"),
  /** Manual EFT (PAYMENT_METHODS eft): the shop's bank account as shoppers see it, and how long an order is held. */
  EFT_BANK_NAME: optionalString,
  EFT_ACCOUNT_NAME: optionalString,
  EFT_ACCOUNT_NUMBER: optionalString,
  EFT_BRANCH_CODE: optionalString,
  EFT_ACCOUNT_TYPE: z.string().trim().default("Cheque"),
  EFT_HOLD_DAYS: z.coerce.number().int().min(1).max(30).default(3),
  /**
   * How long a gift card is valid, in months (docs/decisions/053). The Consumer Protection Act (s63(3)) and its
   * regulations allow no less than three years, so nothing shorter is accepted.
   */
  GIFT_CARD_EXPIRY_MONTHS: z.coerce.number().int().min(36).max(240).default(36),
  FREE_DELIVERY_THRESHOLD_CENTS: z.coerce.number().int().min(0).default(59900),
  /** Signed-out visitors' storefront pages are cached this many seconds (0: off). See server/page-cache.ts. */
  PAGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  /** How many proxies in front may set X-Forwarded-For / X-Forwarded-Proto (0: none; the socket's address is the client). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Unpaid card orders (pending / payment pending) are closed this many minutes after placement and their coupon
   * reservation released (app/modules/orders/order-expiry.server.ts). 0 turns the expiry off; otherwise 5 minutes
   * to 30 days, and longer than the provider's payment page stays usable.
   */
  UNPAID_ORDER_TTL_MINUTES: z.coerce
    .number()
    .int()
    .refine((m) => m === 0 || (m >= 5 && m <= 43_200), "0 (off), or 5 to 43200 minutes")
    .default(60),
  /**
   * The shop's VAT registration number (SARS: 10 digits starting with 4). Set, the invoices are tax invoices (VAT Act
   * s20(4)) naming it; unset, they are ordinary invoices that claim no VAT registration. Spaces are ignored.
   */
  SHOP_VAT_NUMBER: optionalString.pipe(
    z
      .string()
      .transform((s) => s.replace(/\s+/g, ""))
      .pipe(z.string().regex(/^4\d{9}$/, "a South African VAT number: 10 digits starting with 4, e.g. 4123456789"))
      .optional(),
  ),
  /**
   * The supplier's address on invoices, one line per line: real newlines, or "\n" or "|" between lines (a .env
   * value stays on one line). Empty by default: the invoice then shows no address (a tax invoice needs one, see below).
   */
  SHOP_ADDRESS: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(/\r?\n|\\n|\|/)
        .map((l) => l.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(120, "each address line at most 120 characters")).max(8, "at most 8 address lines")),
  /** The supplier's registered name on invoices (e.g. "Scentara (Pty) Ltd"); SHOP_NAME when unset. */
  SHOP_LEGAL_NAME: optionalString,
  /**
   * The seller disclosure (/seller, ECTA s43(1)) and the privacy notice (/privacy, POPIA s18): the owner's facts,
   * docs/decisions/037. Each is optional; an unset one reads "Not provided" on the page and is named at start (on an
   * https:// shop also on the admin dashboard). Write "none" where the shop has none (bodies, codes, transfers).
   * Lists (office bearers, the legal-service address) take one entry per line, or "|" between entries.
   */
  SHOP_LEGAL_STATUS: optionalString,
  SHOP_REGISTRATION_NUMBER: optionalString,
  SHOP_REGISTRATION_PLACE: optionalString,
  SHOP_OFFICE_BEARERS: z.string().default("").transform(splitLines).pipe(z.array(z.string().max(120, "each entry at most 120 characters")).max(20, "at most 20 entries")),
  SHOP_TELEPHONE: optionalString.pipe(z.string().regex(/^\+?[\d ()-]{9,20}$/, "a telephone number, e.g. +27 21 555 0123").optional()),
  SHOP_LEGAL_SERVICE_ADDRESS: z.string().default("").transform(splitLines).pipe(z.array(z.string().max(120, "each address line at most 120 characters")).max(8, "at most 8 address lines")),
  SHOP_SELF_REGULATORY_BODIES: optionalString,
  SHOP_CODE_OF_CONDUCT: optionalString,
  SHOP_DISPUTE_RESOLUTION: optionalString,
  SHOP_INFORMATION_OFFICER: optionalString,
  SHOP_INFORMATION_OFFICER_EMAIL: optionalString.pipe(z.email("an e-mail address").optional()),
  SHOP_TRANSFERS_ABROAD: optionalString,
  /**
   * How long personal information is kept (POPIA s14; docs/decisions/040): the daily retention job erases what is past
   * its time, and the privacy notice states these same numbers. Contact messages and the record of each sent e-mail
   * (months); a sent e-mail's text (days); a never-paid order's name, telephone and address (months); paid orders'
   * tax invoices (years: at least 5, Tax Administration Act s29); a signed-in shopper's cart kept on the server, after
   * this many days unchanged (days; the browser keeps its own copy).
   */
  RETENTION_CONTACT_MONTHS: z.coerce.number().int().min(1).max(120).default(12),
  RETENTION_MAIL_BODY_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  RETENTION_UNPAID_ORDER_MONTHS: z.coerce.number().int().min(1).max(120).default(12),
  RETENTION_INVOICE_YEARS: z.coerce.number().int().min(5, "at least 5: the Tax Administration Act (s29) keeps invoices 5 years").max(30).default(5),
  RETENTION_SAVED_CART_DAYS: z.coerce.number().int().min(7).max(3650).default(90),
  /** Invoice numbers are this prefix and six digits or more: INV-000123. */
  INVOICE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9-]{0,12}$/, "up to 12 letters, digits or '-'")
    .default("INV-"),
  /**
   * Where product images are kept: `local` (MEDIA_DIR on this server's disk, the default) or `s3` (an S3-compatible
   * bucket, so that every app server serves every image: docs/decisions/028). With `s3`, S3_BUCKET, S3_REGION,
   * S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required; S3_ENDPOINT defaults to AWS's endpoint for the region.
   */
  MEDIA_STORAGE: z.enum(["local", "s3"], { error: "local or s3" }).default("local"),
  S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/, error: "an http:// or https:// URL, e.g. https://s3.af-south-1.amazonaws.com" }).optional()),
  S3_REGION: optionalString,
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** Set when the bucket (or a CDN in front of it) is public: image URLs then point there instead of /media. */
  S3_PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/, error: "an http:// or https:// URL, e.g. https://images.example.co.za" }).optional()),
  /** `true`: https://endpoint/bucket/key (MinIO and most self-hosted stores); `false`: https://bucket.endpoint/key. */
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /**
   * Couriers (docs/decisions/031). Each service is real once its credentials are set; without them the shop uses its
   * local fake of that service (test deliveries: nothing is collected), which an https:// shop refuses unless
   * ALLOW_TEST_DELIVERIES=true. DELIVERY_KINDS: what the checkout offers, in order (door, locker, point).
   */
  DELIVERY_KINDS: z
    .string()
    .default("door,locker,point")
    .transform((s) => [...new Set(s.split(",").map((m) => m.trim()).filter(Boolean))])
    .pipe(z.array(z.enum(["door", "locker", "point"], { error: "each kind is door, locker or point" }))),
  SHIPLOGIC_API_KEY: optionalString,
  SHIPLOGIC_API_BASE: z.url().default("https://api.shiplogic.com"),
  /**
   * The secret of the shop's Shiplogic tracking webhook: register https://<shop>/webhooks/couriers/shiplogic?token=<it>
   * (Shiplogic signs nothing; a relay may instead sign the body, see shiplogic.server.ts). Every push is confirmed with
   * Shiplogic's tracking API before it changes anything.
   */
  SHIPLOGIC_WEBHOOK_SECRET: optionalString,
  PUDO_API_KEY: optionalString,
  PUDO_API_BASE: z.url().default("https://api-pudo.co.za"),
  PARGO_USERNAME: optionalString,
  PARGO_PASSWORD: optionalString,
  PARGO_API_BASE: z.url().default("https://api.live.pargo.co.za"),
  ALLOW_TEST_DELIVERIES: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /**
   * WhatsApp order updates (docs/decisions/055), to shoppers who opted in. Real once WHATSAPP_ACCESS_TOKEN is set (with
   * WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN); without it the shop uses its local fake of
   * the Cloud API (test messages: nothing reaches a phone), which an https:// shop uses only with ALLOW_TEST_WHATSAPP=true
   * (otherwise WhatsApp updates are off there). WHATSAPP_UPDATES=false turns them off everywhere.
   */
  WHATSAPP_UPDATES: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  WHATSAPP_ACCESS_TOKEN: optionalString,
  WHATSAPP_PHONE_NUMBER_ID: optionalString,
  WHATSAPP_API_BASE: z.url().default("https://graph.facebook.com"),
  WHATSAPP_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, "a Graph API version, e.g. v21.0")
    .default("v21.0"),
  /** What Meta's webhook set-up sends as hub.verify_token (any string the owner chooses and enters in both places). */
  WHATSAPP_VERIFY_TOKEN: optionalString,
  /** The Meta app's secret: the webhooks' X-Hub-Signature-256 is an HMAC of the body with it. */
  WHATSAPP_APP_SECRET: optionalString,
  /** The language code the templates are registered under at Meta (Admin → WhatsApp lists them). */
  WHATSAPP_TEMPLATE_LANGUAGE: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, "a WhatsApp template language code, e.g. en or en_GB")
    .default("en"),
  ALLOW_TEST_WHATSAPP: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** How long the checkout waits for a live courier quote before it offers the zone's table rate instead. */
  COURIER_QUOTE_TIMEOUT_MS: z.coerce.number().int().min(200).max(10_000).default(2000),
  /** Tests and demos: every background job looks for work this often (seconds) instead of its own interval. */
  JOBS_EVERY_SECONDS: z.coerce.number().int().min(1).max(3600).optional(),
  /** Days after delivery that the shopper is asked to review what they bought (0: never). */
  REVIEW_REQUEST_AFTER_DAYS: z.coerce.number().int().min(0).max(60).default(5),
  /**
   * Reminders (docs/decisions/056), only to shoppers who agreed to marketing e-mails: a signed-in shopper's cart left
   * with items this many minutes (0: none), and a placed, unpaid card order this many minutes after it was placed (0:
   * none) — always while its hold (UNPAID_ORDER_TTL_MINUTES) has time left to pay: at most half the hold.
   */
  CART_REMINDER_AFTER_MINUTES: z.coerce
    .number()
    .int()
    .refine((m) => m === 0 || (m >= 30 && m <= 10_080), "0 (off), or 30 to 10080 minutes (a week)")
    .default(24 * 60),
  ORDER_REMINDER_AFTER_MINUTES: z.coerce
    .number()
    .int()
    .refine((m) => m === 0 || (m >= 1 && m <= 43_200), "0 (off), or 1 to 43200 minutes")
    .default(30),
  /**
   * Announcements (Admin → Marketing, docs/decisions/039) go out at most this many e-mails a minute, so the mail
   * server (and its sending limits and reputation) is not flooded.
   */
  MARKETING_EMAILS_PER_MINUTE: z.coerce.number().int().min(1).max(6000).default(60),
  /**
   * Returns (docs/decisions/041): the cooling-off period in days after delivery (ECTA s44(1)(a) gives 7; a shop may
   * give more, never less), and what the owner excludes from cooling-off returns — opened bottles, and/or products of
   * some categories (their slugs) — with the reasoning every refusal shows. Faulty goods (CPA s56) are never excluded.
   */
  RETURN_WINDOW_DAYS: z.coerce.number().int().min(7, "at least 7: ECTA s44(1)(a) gives 7 days after delivery").max(365).default(7),
  RETURN_EXCLUDE_OPENED: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  RETURN_EXCLUDED_CATEGORIES: z
    .string()
    .default("")
    .transform((s) => [...new Set(s.split(",").map((c) => c.trim().toLowerCase()).filter(Boolean))])
    .pipe(z.array(z.string().regex(/^[a-z0-9-]{1,80}$/, "category slugs, comma-separated (e.g. testers,gift-sets)")).max(50)),
  RETURN_EXCLUSION_REASON: optionalString.pipe(z.string().max(400, "at most 400 characters").optional()),
  /** Credit note numbers are this prefix and six digits or more: CN-000123 (a series of their own). */
  CREDIT_NOTE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9-]{0,12}$/, "up to 12 letters, digits or '-'")
    .default("CN-"),
  /**
   * Backups (docs/decisions/033): where archives are written (npm run backup, the nightly backup, Admin → Data);
   * unset: `backups` beside the SQLite file (data/backups), or data/backups with PostgreSQL.
   */
  BACKUP_DIR: optionalString,
  /** The nightly backup keeps this many newest archives in BACKUP_DIR; 0 turns the nightly backup off. */
  BACKUP_KEEP: z.coerce.number().int().min(0).max(365).default(7),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Seed the demo catalogue on first start when the database has no products. */
  SEED_DEMO: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const missing = [...missingPaymentSettings(env), ...missingMediaSettings(env)];
  if (missing.length) throw new Error(`Invalid configuration:\n${missing.map((m) => `  ${m}`).join("\n")}`);
  if (env.SHOP_VAT_NUMBER && env.SHOP_ADDRESS.length === 0) {
    // A tax invoice must show the supplier's address (VAT Act s20(4)); refuse rather than issue defective ones.
    throw new Error("Invalid configuration:\n  SHOP_VAT_NUMBER is set, so invoices are tax invoices, which must show the supplier's address: set SHOP_ADDRESS");
  }
  if ((env.RETURN_EXCLUDE_OPENED || env.RETURN_EXCLUDED_CATEGORIES.length > 0) && !env.RETURN_EXCLUSION_REASON) {
    // An exclusion from the cooling-off right must come with its reasoning on record: shoppers read it with each refusal.
    throw new Error("Invalid configuration:\n  RETURN_EXCLUDE_OPENED or RETURN_EXCLUDED_CATEGORIES is set: set RETURN_EXCLUSION_REASON, the reasoning shoppers read when a return is refused for it");
  }
  if (env.CREDIT_NOTE_PREFIX === env.INVOICE_PREFIX) {
    throw new Error("Invalid configuration:\n  CREDIT_NOTE_PREFIX must differ from INVOICE_PREFIX: credit notes are a number series of their own");
  }
  if (isRealDeployment(env) && env.MEDIA_STORAGE === "s3" && env.S3_PUBLIC_URL?.startsWith("http://")) {
    // Browsers block (or silently upgrade) http:// images on an https:// page.
    throw new Error("Invalid configuration:\n  S3_PUBLIC_URL must be an https:// address on an https:// shop (browsers block http:// images on it)");
  }
  if (isRealDeployment(env)) {
    // A real deployment (docs/decisions/004): its own secret, and no test payments unless the owner says so.
    if (!env.AUTH_SECRET || env.AUTH_SECRET.length < 32) {
      throw new Error(
        `Invalid configuration:\n  AUTH_SECRET ${env.AUTH_SECRET ? "must be at least 32 characters" : "is required"} when PUBLIC_BASE_URL is https:// (a real deployment).\n` +
          `  Make one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`,
      );
    }
    if (env.PAYMENT_METHODS.includes("card") && env.PAYMENT_PROVIDER === "simulated" && !env.ALLOW_TEST_PAYMENTS) {
      throw new Error(
        "Invalid configuration:\n  PAYMENT_PROVIDER=simulated takes no real money: on an https:// shop set PAYMENT_PROVIDER=yoco or payfast " +
          "(with YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET), or ALLOW_TEST_PAYMENTS=true for a staging shop.",
      );
    }
    if (env.PAYMENT_METHODS.includes("card") && env.PAYMENT_PROVIDER === "payfast" && usesPayfastSandbox(env) && !env.ALLOW_TEST_PAYMENTS) {
      throw new Error(
        "Invalid configuration:\n  PAYMENT_PROVIDER=payfast on PayFast's sandbox takes no real money, yet its payments mark orders paid: on an " +
          "https:// shop set PAYFAST_SANDBOX=false (with the shop's own PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY and PAYFAST_PASSPHRASE), " +
          "or ALLOW_TEST_PAYMENTS=true for a staging shop.",
      );
    }
    if (env.PAYMENT_METHODS.includes("instant_eft") && env.OZOW_IS_TEST && !env.ALLOW_TEST_PAYMENTS) {
      // Ozow's test mode skips the bank, yet its notifications and status answers say Complete.
      throw new Error(
        "Invalid configuration:\n  OZOW_IS_TEST=true (the default) takes no real money: on an https:// shop set OZOW_IS_TEST=false, " +
          "or ALLOW_TEST_PAYMENTS=true for a staging shop.",
      );
    }
    const fakeCouriers = fakeCourierKinds(env);
    if (fakeCouriers.length && !env.ALLOW_TEST_DELIVERIES) {
      // A fake courier books nothing: the shopper would wait for a parcel nobody collects.
      throw new Error(
        `Invalid configuration:\n  ${fakeCouriers.join(", ")} delivery has no courier credentials, so it would use the shop's test courier (nothing is collected): ` +
          "on an https:// shop set SHIPLOGIC_API_KEY (door), PUDO_API_KEY (locker), PARGO_USERNAME and PARGO_PASSWORD (point), " +
          "remove the kind from DELIVERY_KINDS, or set ALLOW_TEST_DELIVERIES=true for a staging shop.",
      );
    }
  }
  return env;
}

/** What the chosen payment methods still need (an empty list: all set). */
function missingPaymentSettings(env: Env): string[] {
  const needs = (what: string, keys: Array<keyof Env>) => {
    const absent = keys.filter((k) => !env[k]);
    return absent.length ? [`${what} needs ${absent.join(", ")}`] : [];
  };
  const cardOn = env.PAYMENT_METHODS.includes("card");
  return [
    ...(cardOn && env.PAYMENT_PROVIDER === "yoco" ? needs("PAYMENT_PROVIDER=yoco", ["YOCO_SECRET_KEY", "YOCO_WEBHOOK_SECRET"]) : []),
    ...(cardOn && env.PAYMENT_PROVIDER === "payfast" ? needs("PAYMENT_PROVIDER=payfast", ["PAYFAST_MERCHANT_ID", "PAYFAST_MERCHANT_KEY"]) : []),
    ...(env.PAYMENT_METHODS.includes("instant_eft") ? needs("PAYMENT_METHODS=instant_eft (Ozow)", ["OZOW_SITE_CODE", "OZOW_PRIVATE_KEY", "OZOW_API_KEY"]) : []),
    ...(env.PAYMENT_METHODS.includes("eft") ? needs("PAYMENT_METHODS=eft (bank transfer)", ["EFT_BANK_NAME", "EFT_ACCOUNT_NAME", "EFT_ACCOUNT_NUMBER", "EFT_BRANCH_CODE"]) : []),
    // a half-configured WhatsApp account would send messages whose statuses nobody can verify
    ...(env.WHATSAPP_UPDATES && env.WHATSAPP_ACCESS_TOKEN ? needs("WHATSAPP_ACCESS_TOKEN (WhatsApp Cloud API)", ["WHATSAPP_PHONE_NUMBER_ID", "WHATSAPP_APP_SECRET", "WHATSAPP_VERIFY_TOKEN"]) : []),
  ];
}

/** The delivery kinds offered without their courier's credentials (they would use the local fake courier). */
export function fakeCourierKinds(env: Pick<Env, "DELIVERY_KINDS" | "SHIPLOGIC_API_KEY" | "PUDO_API_KEY" | "PARGO_USERNAME" | "PARGO_PASSWORD">): string[] {
  return env.DELIVERY_KINDS.filter((k) => (k === "door" ? !env.SHIPLOGIC_API_KEY : k === "locker" ? !env.PUDO_API_KEY : !(env.PARGO_USERNAME && env.PARGO_PASSWORD)));
}

/** What MEDIA_STORAGE=s3 still needs (an empty list: all set). */
function missingMediaSettings(env: Env): string[] {
  if (env.MEDIA_STORAGE !== "s3") return [];
  const absent = (["S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter((k) => !env[k]);
  return absent.length ? [`MEDIA_STORAGE=s3 needs ${absent.join(", ")}`] : [];
}

/** PayFast's sandbox (the default, PAYFAST_SANDBOX=true), unless PAYFAST_BASE_URL names another host. */
function usesPayfastSandbox(env: Pick<Env, "PAYFAST_SANDBOX" | "PAYFAST_BASE_URL">): boolean {
  return env.PAYFAST_BASE_URL ? new URL(env.PAYFAST_BASE_URL).hostname === "sandbox.payfast.co.za" : env.PAYFAST_SANDBOX;
}

/** An https:// public address means a real shop on the internet; http://localhost and the like are local. */
export function isRealDeployment(config: Pick<Env, "PUBLIC_BASE_URL">): boolean {
  return config.PUBLIC_BASE_URL.startsWith("https://");
}

let cached: Env | undefined;

/** The configuration of this process (read lazily so tests can set variables first). */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests change process.env between suites; this drops the cached copy. */
export function resetEnvForTests() {
  cached = undefined;
}
