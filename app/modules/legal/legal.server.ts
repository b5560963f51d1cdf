/**
 * The legal notices' settings from configuration (docs/decisions/037): what the privacy notice and the seller
 * disclosure state, what is missing, and the start-up warning that names it.
 */
import { SESSION_LIFETIME_SECONDS } from "~/modules/accounts/auth.server";
import { paymentMethodChoice } from "~/modules/payments/payment-methods";
import { retentionPolicy } from "~/modules/privacy/retention.server";
import { type Env, env, isRealDeployment } from "~/utils/env.server";
import {
  collected,
  describeMissing,
  INFORMATION_REGULATOR,
  type LegalSettings,
  missingLegalSettings,
  POPIA_RIGHTS,
  recipientsFor,
  sellerDisclosure,
} from "./legal.logic";

/** The notices' facts from a configuration (the process's own by default). */
export function legalSettings(config: Env = env()): LegalSettings {
  return {
    tradingName: config.SHOP_NAME,
    legalName: config.SHOP_LEGAL_NAME ?? null,
    legalStatus: config.SHOP_LEGAL_STATUS ?? null,
    registrationNumber: config.SHOP_REGISTRATION_NUMBER ?? null,
    registrationPlace: config.SHOP_REGISTRATION_PLACE ?? null,
    officeBearers: config.SHOP_OFFICE_BEARERS,
    physicalAddress: config.SHOP_ADDRESS,
    telephone: config.SHOP_TELEPHONE ?? null,
    email: config.CONTACT_EMAIL,
    website: config.PUBLIC_BASE_URL.replace(/\/+$/, ""),
    vatNumber: config.SHOP_VAT_NUMBER ?? null,
    legalServiceAddress: config.SHOP_LEGAL_SERVICE_ADDRESS,
    selfRegulatoryBodies: config.SHOP_SELF_REGULATORY_BODIES ?? null,
    codeOfConduct: config.SHOP_CODE_OF_CONDUCT ?? null,
    disputeResolution: config.SHOP_DISPUTE_RESOLUTION ?? null,
    informationOfficer: config.SHOP_INFORMATION_OFFICER ?? null,
    informationOfficerEmail: config.SHOP_INFORMATION_OFFICER_EMAIL ?? null,
    transfersAbroad: config.SHOP_TRANSFERS_ABROAD ?? null,
    retention: retentionPolicy(config),
    recipients: recipientsFor(config),
    paymentMethods: config.PAYMENT_METHODS.map((m) => paymentMethodChoice(m, config.PAYMENT_PROVIDER, config.EFT_HOLD_DAYS).label),
    freeDeliveryThresholdCents: config.FREE_DELIVERY_THRESHOLD_CENTS,
  };
}

/** The settings both notices still need, as lines naming the variable, what it is and the section asking for it. */
export function missingLegalSettingLines(config: Env = env()): string[] {
  return missingLegalSettings(legalSettings(config)).map(describeMissing);
}

/** /seller's loader data: every ECTA s43(1) item, and which settings are missing. */
export function sellerPageData(config: Env = env()) {
  const settings = legalSettings(config);
  return {
    items: sellerDisclosure(settings),
    missing: missingLegalSettings(settings)
      .filter((m) => m.page === "seller")
      .map((m) => m.key),
  };
}

/** /privacy's loader data: the responsible party, the Information Officer, what and why, recipients, rights, Regulator. */
export function privacyPageData(config: Env = env()) {
  const s = legalSettings(config);
  return {
    responsibleParty: {
      name: s.legalName,
      tradingName: s.tradingName,
      address: s.physicalAddress.length ? s.physicalAddress : null,
      email: s.email,
      telephone: s.telephone,
    },
    informationOfficer: { name: s.informationOfficer, email: s.informationOfficerEmail },
    collected: collected(s, Math.round(SESSION_LIFETIME_SECONDS / 86_400)),
    recipients: s.recipients,
    transfersAbroad: s.transfersAbroad,
    rights: POPIA_RIGHTS,
    regulator: INFORMATION_REGULATOR,
    missing: missingLegalSettings(s)
      .filter((m) => m.page === "privacy" || m.key === "SHOP_LEGAL_NAME" || m.key === "SHOP_ADDRESS")
      .map((m) => m.key),
  };
}

/** What the admin dashboard shows: the missing settings on a real (https://) shop; nothing on a local one. */
export function legalDashboardWarnings(config: Env = env()): string[] {
  return isRealDeployment(config) ? missingLegalSettingLines(config) : [];
}

interface WarnLogger {
  warn: (obj: object, message: string) => void;
}

/**
 * Said once at start (server/app.ts, beside decision 004's checks): the legal settings that are not set. A local shop
 * gets one line; a real deployment gets a line that says its pages are incomplete and the dashboard shows it too.
 */
export function warnMissingLegalSettings(logger: WarnLogger, config: Env = env()): string[] {
  const missing = missingLegalSettingLines(config);
  if (!missing.length) return missing;
  const keys = missingLegalSettings(legalSettings(config)).map((m) => m.key);
  if (isRealDeployment(config)) {
    logger.warn(
      { missing: keys },
      `Legal notices incomplete: /seller (ECTA s43(1)) and /privacy (POPIA s18) say "Not provided" for ${missing.length} setting${missing.length === 1 ? "" : "s"} ` +
        `a shop selling online must state. Set: ${missing.join("; ")}. The admin dashboard lists them until they are set (README, "Legal pages").`,
    );
  } else {
    logger.warn({ missing: keys }, `Legal notices: not set yet (fine for a local shop; set them before going live): ${keys.join(", ")}`);
  }
  return missing;
}
