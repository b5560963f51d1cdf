/** Every owner fact set, as an owner would write them in .env. */
export const FULL_LEGAL_ENV = {
  SHOP_LEGAL_NAME: "Scentara (Pty) Ltd",
  SHOP_LEGAL_STATUS: "Private company",
  SHOP_REGISTRATION_NUMBER: "2021/123456/07",
  SHOP_REGISTRATION_PLACE: "South Africa (CIPC)",
  SHOP_OFFICE_BEARERS: "Thandi Nkosi (director)|Sipho Dlamini (director)",
  SHOP_ADDRESS: "12 Long Street|Cape Town|8001",
  SHOP_TELEPHONE: "+27 21 555 0123",
  SHOP_LEGAL_SERVICE_ADDRESS: "12 Long Street\\nCape Town\\n8001",
  SHOP_SELF_REGULATORY_BODIES: "none",
  SHOP_CODE_OF_CONDUCT: "None",
  SHOP_DISPUTE_RESOLUTION: "Consumer Goods and Services Ombud, https://cgso.org.za",
  SHOP_INFORMATION_OFFICER: "Thandi Nkosi",
  SHOP_INFORMATION_OFFICER_EMAIL: "privacy@scentara.co.za",
  SHOP_TRANSFERS_ABROAD: "none",
};
