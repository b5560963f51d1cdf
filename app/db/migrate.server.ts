import { Migrator, type Migration, type MigrationProvider } from "kysely";
import type { DB } from "./db.server";
import * as initial from "./migrations/0001_initial";
import * as inboxReadAt from "./migrations/0002_inbox_read_at";
import * as checkoutToken from "./migrations/0003_checkout_token";
import * as shippingZoneProvinces from "./migrations/0004_shipping_zone_provinces";
import * as unpaidOrdersIndex from "./migrations/0005_unpaid_orders_index";
import * as ordersStatusPageIndex from "./migrations/0006_orders_status_page_index";
import * as orderPaymentMethod from "./migrations/0007_order_payment_method";
import * as invoiceNumbers from "./migrations/0008_invoice_numbers";
import * as productStock from "./migrations/0009_product_stock";
import * as productInspiredBy from "./migrations/0010_product_inspired_by";
import * as productsHouseFacetIndex from "./migrations/0011_products_house_facet_index";
import * as changeFeedAndJobLeases from "./migrations/0012_change_feed_and_job_leases";
import * as productsNameSortIndex from "./migrations/0013_products_name_sort_index";
import * as productSize from "./migrations/0017_product_size";
import * as productsSearchTrigramIndex from "./migrations/0018_products_search_trigram_index";
import * as couriers from "./migrations/0019_couriers";
import * as productSku from "./migrations/0020_product_sku";
import * as ordersCreatedIndex from "./migrations/0021_orders_created_index";
import * as scentProfiles from "./migrations/0023_scent_profiles";
import * as consentsAndAnnouncements from "./migrations/0024_consents_and_announcements";
import * as privacyRequestsAndRetention from "./migrations/0025_privacy_requests_and_retention";
import * as returnsAndCreditNotes from "./migrations/0026_returns_and_credit_notes";
import * as orderDayTotals from "./migrations/0027_order_day_totals";
import * as adminListIndexes from "./migrations/0028_admin_list_indexes";
import * as reviewRequestOutcomes from "./migrations/0029_review_request_outcomes";
import * as dataChanges from "./migrations/0030_data_changes";
import * as orderHourChanges from "./migrations/0031_order_hour_changes";
import * as orderMarksOnSummedColumns from "./migrations/0032_order_marks_on_summed_columns";
import * as wasPriceAndMissingImages from "./migrations/0033_was_price_and_missing_images";
import * as productSizes from "./migrations/0034_product_sizes";
import * as giftCards from "./migrations/0035_gift_cards";
import * as samples from "./migrations/0036_samples";
import * as whatsapp from "./migrations/0038_whatsapp";
import * as reminders from "./migrations/0039_reminders";
import * as wishlistsAndStockAlerts from "./migrations/0040_wishlists_and_stock_alerts";
import * as giftCardSales from "./migrations/0041_gift_card_sales";
import * as whatsappReminders from "./migrations/0043_whatsapp_reminders";
import * as giftCardRecipientChanges from "./migrations/0044_gift_card_recipient_changes";
import * as sizeFormerCodes from "./migrations/0045_size_former_codes";
import * as whatsappMessagesCreatedIndex from "./migrations/0046_whatsapp_messages_created_index";
import * as orderSampleCreditLabel from "./migrations/0047_order_sample_credit_label";
import * as productFormerSlugs from "./migrations/0048_product_former_slugs";
import * as staffRolesAndActivity from "./migrations/0049_staff_roles_and_activity";
import * as twoFactorAndPasskeys from "./migrations/0050_two_factor_and_passkeys";
import * as laterOrdersMarkedInConstantTime from "./migrations/0052_later_orders_marked_in_constant_time";
import * as activityLogByRecordType from "./migrations/0054_activity_log_by_record_type";
import * as mailRetries from "./migrations/0055_mail_retries";
import * as reactions from "./migrations/0056_reactions";
import * as rewardPoints from "./migrations/0057_reward_points";
import * as referrals from "./migrations/0058_referrals";
import * as rewardAccountTotals from "./migrations/0059_reward_account_totals";

/** Migrations are imported, not read from disk, so they ship inside the server build. Add new ones in order. */
const migrations: Record<string, Migration> = {
  "0001_initial": initial,
  "0002_inbox_read_at": inboxReadAt,
  "0003_checkout_token": checkoutToken,
  "0004_shipping_zone_provinces": shippingZoneProvinces,
  "0005_unpaid_orders_index": unpaidOrdersIndex,
  "0006_orders_status_page_index": ordersStatusPageIndex,
  "0007_order_payment_method": orderPaymentMethod,
  "0008_invoice_numbers": invoiceNumbers,
  "0009_product_stock": productStock,
  "0010_product_inspired_by": productInspiredBy,
  "0011_products_house_facet_index": productsHouseFacetIndex,
  "0012_change_feed_and_job_leases": changeFeedAndJobLeases,
  "0013_products_name_sort_index": productsNameSortIndex,
  // 0014–0016 were reserved by branches that needed none
  "0017_product_size": productSize,
  "0018_products_search_trigram_index": productsSearchTrigramIndex,
  "0019_couriers": couriers,
  "0020_product_sku": productSku,
  "0021_orders_created_index": ordersCreatedIndex,
  // 0022: none (the order day totals were written as 0022 but landed as 0027, after 0023 had run on shops)
  "0023_scent_profiles": scentProfiles,
  "0024_consents_and_announcements": consentsAndAnnouncements,
  "0025_privacy_requests_and_retention": privacyRequestsAndRetention,
  "0026_returns_and_credit_notes": returnsAndCreditNotes,
  "0027_order_day_totals": orderDayTotals,
  "0028_admin_list_indexes": adminListIndexes,
  "0029_review_request_outcomes": reviewRequestOutcomes,
  "0030_data_changes": dataChanges,
  "0031_order_hour_changes": orderHourChanges,
  "0032_order_marks_on_summed_columns": orderMarksOnSummedColumns,
  "0033_was_price_and_missing_images": wasPriceAndMissingImages,
  "0034_product_sizes": productSizes,
  "0035_gift_cards": giftCards,
  "0036_samples": samples,
  "0038_whatsapp": whatsapp,
  "0039_reminders": reminders,
  "0040_wishlists_and_stock_alerts": wishlistsAndStockAlerts,
  "0041_gift_card_sales": giftCardSales,
  "0043_whatsapp_reminders": whatsappReminders,
  "0044_gift_card_recipient_changes": giftCardRecipientChanges,
  "0045_size_former_codes": sizeFormerCodes,
  "0046_whatsapp_messages_created_index": whatsappMessagesCreatedIndex,
  "0047_order_sample_credit_label": orderSampleCreditLabel,
  "0048_product_former_slugs": productFormerSlugs,
  "0049_staff_roles_and_activity": staffRolesAndActivity,
  "0050_two_factor_and_passkeys": twoFactorAndPasskeys,
  // 0051 and 0053 were reserved by work that needed none
  "0052_later_orders_marked_in_constant_time": laterOrdersMarkedInConstantTime,
  "0054_activity_log_by_record_type": activityLogByRecordType,
  "0055_mail_retries": mailRetries,
  "0056_reactions": reactions,
  "0057_reward_points": rewardPoints,
  "0058_referrals": referrals,
  "0059_reward_account_totals": rewardAccountTotals,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

function migrator(db: DB) {
  return new Migrator({ db, provider, migrationTableName: "schema_migrations", migrationLockTableName: "schema_migrations_lock" });
}

/** The migrations this version of the shop knows, in the order they run (a backup's schema is checked against them). */
export function migrationNames(): string[] {
  return Object.keys(migrations).sort((a, b) => a.localeCompare(b));
}

export async function migrateToLatest(db: DB) {
  return reportMigration(await migrator(db).migrateToLatest());
}

/** Migrates up to and including `name`: a restore brings an empty database to its backup's schema first (docs/decisions/033). */
export async function migrateTo(db: DB, name: string) {
  return reportMigration(await migrator(db).migrateTo(name));
}

function reportMigration({ error, results }: Awaited<ReturnType<Migrator["migrateToLatest"]>>) {
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${(error as Error).message ?? error}`);
  }
  return results ?? [];
}
