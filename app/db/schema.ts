import type { ColumnType, Generated } from "kysely";

/**
 * Table types for Kysely. Portable conventions (see app/db/db.server.ts):
 * - ids are text (UUIDs made by the app; better-auth makes its own for users and sessions);
 * - money is integer cents, in columns named *_cents;
 * - timestamps are ISO-8601 UTC strings on both databases (PostgreSQL timestamptz is read back as ISO text);
 * - booleans are booleans on both (SQLite's 0/1 is converted by the results plugin);
 * - JSON columns are written as JSON text and read back parsed.
 */
type Timestamp = ColumnType<string, string | undefined, string>;
type NullableTimestamp = ColumnType<string | null, string | null | undefined, string | null>;
type Bool = ColumnType<boolean, boolean | undefined, boolean>;
type Json<T> = ColumnType<T, string, string>;
/** A column with a database default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface UsersTable {
  id: string;
  email: string;
  name: Defaulted<string>;
  email_verified: Bool;
  image: string | null;
  is_admin: Bool;
  email_notifications: Bool;
  email_marketing: Bool;
  /** POPIA: when the user opted in to marketing; null while they have not. */
  marketing_consent_at: NullableTimestamp;
  /** a member of staff's role (staff_roles.id); null for a customer (and read as "owner" for an admin without one) */
  staff_role_id: Defaulted<string | null>;
  /** an authenticator app is confirmed: a password sign-in asks for a code (better-auth's two-factor plugin) */
  two_factor_enabled: Defaulted<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A user's authenticator app (migration 0050): secret and backup codes encrypted with the shop's secret by better-auth. */
export interface TwoFactorsTable {
  id: string;
  user_id: string;
  secret: string;
  backup_codes: string;
  /** false until the first code from the app confirms it */
  verified: Defaulted<boolean>;
  failed_verification_count: Defaulted<number>;
  locked_until: NullableTimestamp;
  /** RFC 6238 time step of the last code accepted (a code is used once) */
  last_totp_step: Defaulted<number | null>;
  created_at: Defaulted<string>;
}

/** A WebAuthn credential (migration 0050), the columns of better-auth's passkey plugin. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  name: string;
  /** base64url */
  credential_id: string;
  /** base64url COSE public key */
  public_key: string;
  counter: Defaulted<number>;
  device_type: string;
  backed_up: Defaulted<boolean>;
  /** comma-separated */
  transports: string | null;
  aaguid: string | null;
  created_at: Defaulted<string>;
  last_used_at: NullableTimestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** when the person last proved it was them: the sign-in, or the password or passkey asked again (step-up) */
  confirmed_at: NullableTimestamp;
  /** the last request seen on this session (written at most every few minutes), for Profile → Account's devices */
  last_seen_at: NullableTimestamp;
}

export interface AccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: NullableTimestamp;
  refresh_token_expires_at: NullableTimestamp;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RateLimitsTable {
  id: string;
  key: string;
  count: number;
  /** epoch milliseconds */
  last_request: number;
}

export interface CategoriesTable {
  id: string;
  name: string;
  slug: string;
  created_at: Timestamp;
}

export interface ProductsTable {
  id: string;
  name: string;
  slug: string;
  description: Defaulted<string>;
  price_cents: number;
  /** Image URLs, first is the main image. */
  images: ColumnType<string[], string | undefined, string>;
  category_id: string | null;
  meta_title: string | null;
  meta_desc: string | null;
  created_at: Timestamp;
  /** Bottles left to sell; null = not tracked (migration 0009, docs/decisions/020). Never below 0. */
  stock: Defaulted<number | null>;
  /** The designer fragrance it is inspired by: house ("Dior") and fragrance ("Sauvage"); null = none (migration 0010). */
  inspired_house: Defaulted<string | null>;
  inspired_fragrance: Defaulted<string | null>;
  /** Bottle size in millilitres; null = not stated (migration 0017). */
  size_ml: Defaulted<number | null>;
  /** What one bottle weighs packed, for courier quotes; null = the shop's default (migration 0019). */
  weight_grams: Defaulted<number | null>;
  /** The owner's stock-keeping unit, unique where set; null = none (migration 0020, docs/decisions/032). */
  sku: Defaulted<string | null>;
  /**
   * The scent profile (migration 0023, docs/decisions/035; values checked by app/modules/scent/scent.schema.ts): a
   * family from the fixed list, the notes pyramid as ", "-joined text, intensity, occasion, seasons and who it is for.
   * null / '' = not said.
   */
  scent_family: Defaulted<string | null>;
  scent_top: Defaulted<string>;
  scent_heart: Defaulted<string>;
  scent_base: Defaulted<string>;
  scent_intensity: Defaulted<string | null>;
  scent_occasion: Defaulted<string | null>;
  scent_seasons: Defaulted<string>;
  scent_for: Defaulted<string | null>;
  /** The price before a sale, shown struck through when higher than the price; null = none (migration 0033). */
  was_price_cents: Defaulted<number | null>;
  /**
   * The dearest visible size's price (migration 0034, docs/decisions/049). With sizes, price_cents, was_price_cents,
   * size_ml and weight_grams are the cheapest visible size's and stock is the visible sizes' total (null when one is
   * not tracked): a summary the sizes module rewrites whenever a size changes, so lists, sort and filters read one row.
   */
  max_price_cents: Defaulted<number | null>;
}

/** A size a product is sold in (migration 0034, docs/decisions/049): what the cart, orders and stock count. */
export interface ProductSizesTable {
  id: string;
  product_id: string;
  /** as shown: "50 ml"; '' for a product's only size of unstated size */
  label: Defaulted<string>;
  /** what `?size=` carries: "50ml" (unique per product) */
  code: string;
  size_ml: Defaulted<number | null>;
  price_cents: number;
  was_price_cents: Defaulted<number | null>;
  /** unique among sizes where set */
  sku: Defaulted<string | null>;
  /** bottles left; null = not tracked. Never below 0. */
  stock: Defaulted<number | null>;
  weight_grams: Defaulted<number | null>;
  position: Defaulted<number>;
  /** 1: not offered any more (a size with orders is hidden, never deleted) */
  hidden: Defaulted<number>;
  created_at: Timestamp;
}

/**
 * A code a product's size had before the owner renamed it (migration 0045, docs/decisions/050 addendum): `?size=` with
 * it redirects to the size's current code. Kept by triggers on product_sizes; a current size's code always wins.
 */
export interface ProductSizeFormerCodesTable {
  product_id: string;
  /** the former `?size=` code: "50ml" (one row per product and code) */
  code: string;
  size_id: string;
}

/**
 * A slug a product had before the owner changed it (migration 0048): /products/{slug} with it redirects to the
 * product's current address. Kept by triggers on products; a current product's slug always wins.
 */
export interface ProductFormerSlugsTable {
  /** the former slug: "velvet-rose" (one row per slug) */
  slug: string;
  product_id: string;
}

export interface ProductTiersTable {
  id: string;
  product_id: string;
  /** the size the tier prices (migration 0034); null only on rows written before it */
  size_id: Defaulted<string | null>;
  min_quantity: number;
  /** null: open-ended */
  max_quantity: number | null;
  price_cents: number;
}

export interface ReviewsTable {
  id: string;
  product_id: string;
  user_id: string;
  rating: number;
  comment: Defaulted<string>;
  created_at: Timestamp;
}

export type OrderStatus = "pending" | "processing" | "shipped" | "delivered" | "cancelled";
export type PaymentStatus = "pending" | "completed" | "failed" | "cancelled";

export interface ShippingAddress {
  name: string;
  telephone: string;
  street: string;
  suburb: string;
  city: string;
  postalCode: string;
  province: string;
}

export interface OrdersTable {
  id: string;
  user_id: string | null;
  status: ColumnType<OrderStatus, OrderStatus | undefined, OrderStatus>;
  payment_status: ColumnType<PaymentStatus, PaymentStatus | undefined, PaymentStatus>;
  /** Sum of the lines at the prices charged. */
  subtotal_cents: number;
  discount_amount_cents: ColumnType<number, number | undefined, number>;
  shipping_cents: number;
  /** What the customer pays: subtotal - discount + shipping, never below 0. */
  total_amount_cents: number;
  /** Only when a coupon applied: the total before the discount. */
  original_total_cents: number | null;
  coupon_code: string | null;
  shipping_zone_id: string | null;
  shipping_address: Json<ShippingAddress>;
  payment_provider: string | null;
  /** card, instant_eft or eft (migration 0007) */
  payment_method: Defaulted<"card" | "instant_eft" | "eft">;
  /** The provider's checkout id. */
  payment_id: string | null;
  /** The provider's payment page for this order (a repeated checkout submission is sent there again). */
  checkout_url: Defaulted<string | null>;
  /** The checkout form's token: one order per token and user (migration 0003). */
  checkout_token: Defaulted<string | null>;
  notes: string | null;
  tracking_number: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  processing_started_at: NullableTimestamp;
  shipped_at: NullableTimestamp;
  actual_delivery_date: NullableTimestamp;
  /** The order's invoice number, allocated once when its payment is confirmed (migration 0008, docs/decisions/019). */
  invoice_number: Defaulted<number | null>;
  /** The invoice's date of issue: when that number was allocated. */
  invoice_issued_at: NullableTimestamp;
  /** How the shopper chose delivery (migration 0019); null on orders placed before couriers (zone table). */
  delivery_kind: Defaulted<"door" | "locker" | "point" | null>;
  delivery_courier: Defaulted<string | null>;
  delivery_service_code: Defaulted<string | null>;
  delivery_service_name: Defaulted<string | null>;
  /** the locker's / pick-up point's code, and a copy of what the shopper was shown of it */
  delivery_point_code: Defaulted<string | null>;
  delivery_point: ColumnType<DeliveryPointCopy | null, string | null | undefined, string | null>;
  delivery_window_from: Defaulted<string | null>;
  delivery_window_to: Defaulted<string | null>;
  /** where the delivery price came from: courier (live quote), table (zone rate fallback), flat (the owner's price), zone (door delivery priced by the zones, docs/decisions/045) */
  delivery_price_source: Defaulted<"courier" | "table" | "flat" | "zone" | null>;
  /**
   * When the order's personal details (name, telephone, address; notes) were erased: by the retention job or an account
   * deletion (migration 0025, docs/decisions/040). null: they are as the shopper gave them.
   */
  personal_data_erased_at: NullableTimestamp;
  /** the part of discount_amount_cents that is sample credit (migration 0036, docs/decisions/054) */
  sample_credit_cents: Defaulted<number>;
  /** that row's words ("Sample credit (Velvet Rose)") once its credits went with the shopper's account (migration 0047); null while they exist */
  sample_credit_label: Defaulted<string | null>;
  /** What gift cards pay of this order (migration 0035, docs/decisions/053); the provider is asked for the rest. */
  gift_card_cents: Defaulted<number>;
  /** reward points it spends, and their worth: a part of discount_amount_cents (migration 0057, docs/decisions/062) */
  points_used: Defaulted<number>;
  points_cents: Defaulted<number>;
  /** the goods paid for after every discount (no delivery, no gift cards sold): what points are earned on */
  reward_base_cents: Defaulted<number>;
  /** a friend's reward on their first order (migration 0058): a part of discount_amount_cents */
  referral_cents: Defaulted<number>;
}

/** A locker or pick-up point as the shopper chose it (kept on the order: the courier's list may change later). */
export interface DeliveryPointCopy {
  name: string;
  streetAddress: string;
  suburb: string;
  city: string;
  province: string;
  postalCode: string;
  hours: string[];
}

/** A booking with a courier (migration 0019); at most one not cancelled per order. */
export interface ShipmentsTable {
  id: string;
  order_id: string;
  courier: string;
  service_code: string;
  /** booking (the courier is being asked), then the latest TrackingStatus (booked … delivered, cancelled, failed) */
  status: string;
  courier_shipment_id: string | null;
  tracking_reference: string | null;
  tracking_url: string | null;
  price_cents: number | null;
  collection_date: string | null;
  collection_pin: string | null;
  /** booked with a local fake courier (demo, tests): nothing is collected */
  is_test: Bool;
  booked_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
  last_polled_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ShipmentEventsTable {
  id: string;
  shipment_id: string;
  /** the courier's event id (or a hash of status and time): unique per shipment */
  event_key: string;
  status: string;
  occurred_at: Timestamp;
  message: string;
  location: string | null;
  /** webhook or poll */
  source: string;
  received_at: Timestamp;
}

export interface CourierPointsTable {
  courier: string;
  code: string;
  kind: "locker" | "point";
  name: string;
  street_address: string;
  suburb: string;
  city: string;
  province: string;
  postal_code: string;
  lat: number;
  lng: number;
  hours: Json<string[]>;
  refreshed_at: Timestamp;
}

export interface CourierQuoteCacheTable {
  key: string;
  rates: Json<unknown>;
  /** epoch ms */
  expires_at: number;
}

/** A request to send back items of a delivered order, and its course (migration 0026, docs/decisions/041). */
export type ReturnStatus = "requested" | "approved" | "declined" | "received" | "refunded";
/** cooling_off: ECTA s44 (within the return window, no reason needed); faulty: CPA s56 (a defective item). */
export type ReturnKind = "cooling_off" | "faulty";

export interface ReturnsTable {
  id: string;
  order_id: string;
  user_id: string | null;
  status: ReturnStatus;
  kind: ReturnKind;
  /** the reason the shopper picked (returns.logic RETURN_REASONS) */
  reason: string;
  note: Defaulted<string>;
  /** the shopper said the items are opened */
  opened: Bool;
  /** what the owner told the shopper when approving or declining */
  owner_message: string | null;
  requested_at: Timestamp;
  /** 30 days after the request (ECTA s44(3)) */
  refund_due_at: Timestamp;
  decided_at: NullableTimestamp;
  received_at: NullableTimestamp;
  refunded_at: NullableTimestamp;
  refund_cents: number | null;
  /** provider: through the order's payment provider; eft: the owner paid it out by bank transfer */
  /** null on a refund made wholly to gift cards (migration 0041: returns.refund_gift_card_cents says how much) */
  refund_method: "provider" | "eft" | null;
  refund_provider: string | null;
  /** the provider's refund id, or the owner's EFT reference */
  refund_reference: string | null;
  /** pending: the provider accepted it and has not confirmed it yet; paid; failed: the provider could not pay it */
  payout_status: "pending" | "paid" | "failed" | null;
  /** the refund's credit note: its number (own series) and date of issue, and the amounts it states */
  credit_note_number: number | null;
  credit_note_issued_at: NullableTimestamp;
  credit_goods_cents: number | null;
  credit_discount_cents: number | null;
  credit_delivery_cents: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** the shopper's choice at the request (migration 0041): the original payment (default) or a new gift card */
  refund_to: Defaulted<"original" | "gift_card">;
  /** the part of the refund that went to gift cards (the cards that paid, or the new card) */
  refund_gift_card_cents: Defaulted<number>;
  refund_gift_card_id: Defaulted<string | null>;
}

export interface ReturnLinesTable {
  id: string;
  return_id: string;
  order_line_id: string;
  name: string;
  quantity: number;
  unit_price_cents: number;
  /** units put back into the product's stock when the parcel arrived */
  restocked: Defaulted<number>;
}

/** One row (id 1): the next credit note number (migration 0026). */
export interface CreditNoteCounterTable {
  id: number;
  next_number: number;
}

export interface ReviewRequestsTable {
  order_id: string;
  user_id: string;
  sent_at: Timestamp;
  /** 1 once the customer reviewed a product of the order after this request (kept by triggers, migration 0029) */
  reviewed: Generated<number>;
}

/** One row (id 1): the next invoice number (migration 0008). */
/** One row (id 1): the number of the last change event (migration 0012). */
export interface ChangeFeedHeadTable {
  id: number;
  last_event_id: number;
}

/** What one app process tells the others: kind "storefront" (subject: the reason) or "sessions" (subject: a user id, null: all). */
export interface ChangeEventsTable {
  id: number;
  kind: string;
  subject: string | null;
  created_at: Generated<string>;
}

/** Who runs a scheduled job, until when (epoch ms). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}

export interface InvoiceCounterTable {
  id: number;
  next_number: number;
}

export interface OrderLinesTable {
  id: string;
  order_id: string;
  /** null once the product is deleted; the line keeps its name and prices. */
  product_id: string | null;
  name: string;
  quantity: number;
  unit_price_cents: number;
  total_price_cents: number;
  position: Defaulted<number>;
  /** Units the order's payment took from the product's stock; given back when the paid order is cancelled (0009). */
  stock_taken: Defaulted<number>;
  /** Units the payment could not take: the product had run out when the money arrived (the owner's flag, 0009). */
  stock_short: Defaulted<number>;
  /** the size bought (migration 0034); null once that size is deleted */
  size_id: Defaulted<string | null>;
  /** the size's label when bought ("50 ml"); null / '' = the product's one unstated size */
  size_label: Defaulted<string | null>;
  /** 'sample' (a 2 ml sample) or 'set' (a discovery set), its scents in order_line_samples; null = a bottle (0036) */
  sample_kind: Defaulted<"sample" | "set" | null>;
  /** 1: the line sells gift cards (migration 0041), its details in gift_card_sales; 0 otherwise */
  gift_card: Defaulted<number>;
}

export interface OrderMetricsTable {
  order_id: string;
  /** seconds from processing_started_at to shipped_at */
  processing_time: number | null;
  /** seconds from shipped_at to actual_delivery_date */
  delivery_time: number | null;
}

export interface PaymentEventsTable {
  id: string;
  provider: string;
  /** Unique per provider: a replayed event is refused by this key. */
  provider_event_id: string;
  order_id: string | null;
  type: string;
  amount_cents: number | null;
  currency: string | null;
  outcome: string;
  received_at: Timestamp;
}

export interface ShippingZonesTable {
  id: string;
  name: string;
  base_rate_cents: number;
  created_at: Timestamp;
}

export interface ShippingRulesTable {
  id: string;
  zone_id: string;
  min_total_cents: number;
  /** null: unbounded */
  max_total_cents: number | null;
  rate_cents: number;
}

/** A province a zone serves; the province is the key: it belongs to at most one zone (migration 0004). */
export interface ShippingZoneProvincesTable {
  province: string;
  zone_id: string;
}

/** The coupon kinds (SPEC §3), as the column's CHECK constraint allows them. */
export const DISCOUNT_TYPES = ["percentage", "fixed_amount", "free_delivery"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export interface CouponsTable {
  id: string;
  code: string;
  discount_type: DiscountType;
  /** percentage: whole percent 0–100; fixed_amount: cents off; free_delivery: minimum spend in cents to qualify. */
  discount_value: number;
  minimum_spend_cents: Defaulted<number>;
  max_redemptions: number | null;
  times_redeemed: ColumnType<number, number | undefined, number>;
  start_date: Timestamp;
  /** stored as the end of its day */
  end_date: Timestamp;
  is_active: Bool;
  description: string | null;
  created_by: string | null;
  created_at: Timestamp;
}

export interface CouponUsageTable {
  id: string;
  coupon_id: string;
  order_id: string;
  user_id: string | null;
  discount_amount_cents: number;
  created_at: Timestamp;
}

export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  message: string;
  created_at: Timestamp;
  /** when an admin first opened it in the inbox; null: unread */
  read_at: NullableTimestamp;
}

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Timestamp;
  /** set when SMTP accepted it; null while it only sits in the outbox */
  sent_at: NullableTimestamp;
  error: string | null;
  /** a marketing e-mail's one-click unsubscribe address (its List-Unsubscribe header, RFC 8058; migration 0024) */
  list_unsubscribe: Defaulted<string | null>;
  /** sends tried (migration 0055, mail/mail-retries.server.ts) */
  attempts: Defaulted<number>;
  /** when the next try is due; null when sent, given up, never failed, or not retryable */
  retry_at: NullableTimestamp;
  /** the Reply-To header it was sent with */
  reply_to: Defaulted<string | null>;
}

/** A member of the rewards programme and their balances (migration 0057, app/modules/rewards). */
export interface RewardAccountsTable {
  user_id: string;
  available_points: Defaulted<number>;
  pending_points: Defaulted<number>;
  owed_points: Defaulted<number>;
  entry_count: Defaulted<number>;
  joined_at: NullableTimestamp;
  /** their referral link's code (migration 0058), made when first asked for */
  referral_code: Defaulted<string | null>;
  created_at: Timestamp;
  /** what their points did since they joined, each ledger entry's share added as it is written (migration 0059) */
  earned_total: Defaulted<number>;
  made_available_total: Defaulted<number>;
  spent_total: Defaulted<number>;
  given_back_total: Defaulted<number>;
  reversed_total: Defaulted<number>;
  expired_total: Defaulted<number>;
  added_by_hand_total: Defaulted<number>;
  removed_by_hand_total: Defaulted<number>;
}

export type ReferralStatus = "attributed" | "reserved" | "paid" | "rewarded" | "refused" | "cancelled";

/** A friend referred, and how it went (migration 0058, docs/decisions/063). */
export interface ReferralsTable {
  id: string;
  referrer_user_id: string | null;
  friend_user_id: string | null;
  code: string;
  status: ReferralStatus;
  /** why it was refused or cancelled, as a code (referrals.logic REFERRAL_REASONS words it) */
  reason: Defaulted<string | null>;
  friend_order_id: Defaulted<string | null>;
  friend_reward_cents: Defaulted<number>;
  referrer_reward_points: Defaulted<number>;
  ip_key: Defaulted<string | null>;
  created_at: Timestamp;
  paid_at: NullableTimestamp;
  rewarded_at: NullableTimestamp;
}

export type RewardEntryKind = "earned" | "available" | "redeemed" | "released" | "reversed" | "given_back" | "expired" | "adjusted";

export interface RewardLedgerTable {
  id: string;
  user_id: string;
  position: number;
  kind: RewardEntryKind;
  available_delta: number;
  pending_delta: number;
  owed_delta: number;
  available_after: number;
  pending_after: number;
  owed_after: number;
  order_id: string | null;
  actor_kind: "user" | "admin" | "system";
  actor_id: string | null;
  note: string | null;
  created_at: Timestamp;
}

export interface RewardEarningsTable {
  id: string;
  user_id: string;
  order_id: string;
  /** order: what the order earned; referral: a referrer's reward for a friend's first order */
  kind: Defaulted<"order" | "referral">;
  points: number;
  base_cents: number;
  earn_cents_per_point: number;
  status: Defaulted<"pending" | "available" | "cancelled">;
  reversed_points: Defaulted<number>;
  remaining_points: Defaulted<number>;
  available_at: NullableTimestamp;
  expires_at: NullableTimestamp;
  expiry_noticed_at: NullableTimestamp;
  created_at: Timestamp;
}

/** A lot the points of a redemption came from, and how many. */
export interface RedeemedLot {
  earningId: string;
  points: number;
}

export interface RewardRedemptionsTable {
  order_id: string;
  user_id: string;
  points: number;
  cents: number;
  status: Defaulted<"reserved" | "confirmed" | "released">;
  given_back_points: Defaulted<number>;
  lots: Json<RedeemedLot[]>;
  created_at: Timestamp;
}

/** The flows' after-commit work, queued in their transactions (migration 0056, app/modules/reactions). */
export interface ReactionsTable {
  id: string;
  /** what to do (the flows' handlers: flows/reactions.server.ts) */
  kind: string;
  /** the order or return it follows */
  subject_id: string;
  /** what the handler needs beyond the subject (a status before the change, an amount) */
  details: Json<Record<string, unknown>>;
  created_at: Timestamp;
  /** when the job may take it (the lease of a try in progress, or the next try); null once done or given up */
  due_at: NullableTimestamp;
  attempts: Defaulted<number>;
  done_at: NullableTimestamp;
  /** the last try's failure */
  error: Defaulted<string | null>;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

/** An uploaded product CSV between its preview and its apply (migration 0020, docs/decisions/032). */
export interface ProductImportsTable {
  id: string;
  status: "previewed" | "applying" | "applied" | "failed";
  file_name: string;
  format: string;
  csv: string | null;
  /** JSON text: the preview's report */
  report: string;
  phase: string | null;
  progress_done: Defaulted<number>;
  progress_total: Defaulted<number>;
  message: string | null;
  claim: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Which stored image an imported image URL became (migration 0020). */
export interface ImportedImagesTable {
  source_url: string;
  url: string;
  created_at: Timestamp;
}

/** An image a product import could not fetch, to fetch again later (migration 0033, docs/decisions/044). */
export interface ImportMissingImagesTable {
  product_id: string;
  source_url: string;
  position: number;
  reason: string;
  import_id: string | null;
  row_number: number | null;
  tried_at: Timestamp;
}

/** A person's request about their data (migration 0025, docs/decisions/040): a download (POPIA s23) or an erasure (s24). */
export interface PrivacyRequestsTable {
  id: string;
  kind: "export" | "erasure";
  /** the person themself, or an admin on their behalf */
  requested_by: "self" | "admin";
  /** an export's subject (null once their account is deleted); an erasure names nobody */
  user_id: string | null;
  /** the admin who did it (requested_by admin) */
  actor_user_id: string | null;
  /** what was given or done, as counts (privacy.logic's RequestSummary) */
  summary: Json<Record<string, number>>;
  created_at: Timestamp;
}

/** One run of the daily retention job (migration 0025): what it erased, or why it failed. */
export interface RetentionRunsTable {
  id: string;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  /** the process that ran it (server/jobs.ts leaseHolder) */
  holder: string;
  outcome: "running" | "done" | "failed";
  /** rows erased per rule (retention.logic's RetentionCounts) */
  summary: ColumnType<Record<string, number> | null, string | null | undefined, string | null>;
  error: string | null;
}

/** Every consent given or withdrawn, one row each, never updated (migration 0024, docs/decisions/039). */
export type ConsentPurpose = "marketing_email" | "terms" | "privacy_notice" | "stock_alert" | "wishlist_alerts" | "whatsapp_updates" | "whatsapp_marketing" | "rewards_programme";
/** whatsapp_reply: a "STOP" sent to the shop's WhatsApp number (docs/decisions/055) */
export type ConsentSource = "register" | "profile" | "checkout" | "unsubscribe" | "admin" | "product_page" | "wishlist" | "whatsapp_reply" | "rewards_page";

export interface ConsentsTable {
  id: string;
  /** null once the person's account is deleted */
  user_id: string | null;
  /** the address at the time (null or anonymised once the person is deleted) */
  email: string | null;
  purpose: ConsentPurpose;
  /** the version of the wording, or of the terms / privacy notice */
  version: string;
  /** the exact text shown */
  wording: string;
  /** true: given; false: withdrawn */
  granted: Bool;
  source: ConsentSource;
  /** the admin who made the change (source admin) */
  actor_user_id: string | null;
  created_at: Timestamp;
}

/** An announcement the owner writes and sends to the customers who opted in (migration 0024). */
export type AnnouncementStatus = "draft" | "sending" | "sent";

export interface AnnouncementsTable {
  id: string;
  subject: string;
  body: string;
  /** up to two products shown under the text, in order */
  product_ids: ColumnType<string[], string | undefined, string>;
  status: AnnouncementStatus;
  created_by: string | null;
  queued_by: Defaulted<string | null>;
  /** the people listed when Send was pressed */
  recipients_total: Defaulted<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  queued_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

/** pending → sending (claimed) → sent | failed | skipped (no longer opted in when their turn came). */
export type RecipientStatus = "pending" | "sending" | "sent" | "failed" | "skipped";

export interface AnnouncementRecipientsTable {
  announcement_id: string;
  user_id: string;
  status: RecipientStatus;
  /** the mail_outbox row this person's e-mail is (or was to be) written as; chosen when claimed */
  outbox_id: Defaulted<string | null>;
  error: Defaulted<string | null>;
  claimed_at: NullableTimestamp;
  sent_at: NullableTimestamp;
}

/** A gift card (migration 0035, docs/decisions/053): its code is never stored, only its hash and last four. */
export interface GiftCardsTable {
  id: string;
  code_hash: string;
  last4: string;
  initial_cents: number;
  /** the sum of its ledger, kept in the same transaction as each ledger row */
  balance_cents: number;
  /** the number of its ledger entries (the next one's position) */
  entry_count: Defaulted<number>;
  status: Defaulted<"active" | "cancelled">;
  recipient_email: string | null;
  note: string | null;
  expires_at: Timestamp;
  issued_by_kind: "admin" | "system";
  issued_by: string | null;
  created_at: Timestamp;
  /** the sale (and its unit, 1…n) that issued a sold card (migration 0041); null for a card issued by hand */
  sale_id: Defaulted<string | null>;
  sale_unit: Defaulted<number | null>;
  /** a sold card's code, sealed with the shop's secret (gift-card-seal.server.ts); null for a hand-issued card */
  code_sealed: Defaulted<string | null>;
  /** the South African day its e-mail goes (YYYY-MM-DD); null: not e-mailed by the shop */
  send_on: Defaulted<string | null>;
  /** set while its e-mail is being sent (cleared when it leaves); a claim older than 15 minutes has lapsed */
  email_claimed_at: Defaulted<string | null>;
  /** when its e-mail last left */
  emailed_at: Defaulted<string | null>;
  /** a sold card's recipient (migration 0044); null: for the buyer themself, or issued by hand */
  recipient_name: Defaulted<string | null>;
  /** how many times its e-mail left (migration 0044): a resend claims the card only at the count the owner saw */
  email_count: Defaulted<number>;
}

/** The owner's changes to a sold card's e-mail (migration 0044): who, when, and what it was before and after. */
export interface GiftCardChangesTable {
  id: string;
  gift_card_id: string;
  kind: GiftCardChangeKind;
  before_name: string | null;
  before_email: string | null;
  before_send_on: string | null;
  after_name: string | null;
  after_email: string | null;
  after_send_on: string | null;
  actor_kind: "user" | "admin" | "system";
  actor_id: string | null;
  created_at: Timestamp;
}

export type GiftCardChangeKind = "recipient" | "sent_now" | "resent";

/** A cart line that sold gift cards (migration 0041): what the buyer asked for. */
export interface GiftCardSalesTable {
  id: string;
  order_id: string;
  order_line_id: string;
  amount_cents: number;
  quantity: number;
  recipient_name: string | null;
  /** null: the cards are for the buyer themself */
  recipient_email: string | null;
  sender_name: string | null;
  message: string | null;
  send_on: string;
  created_at: Defaulted<Timestamp>;
}

export type GiftCardEntryKind = "issue" | "redemption" | "release" | "refund" | "expiry" | "cancel";

/** One change to a gift card's balance, with who and when (signed amount). */
export interface GiftCardLedgerTable {
  id: string;
  gift_card_id: string;
  /** 1, 2, 3… per card, in the order written */
  position: number;
  kind: GiftCardEntryKind;
  amount_cents: number;
  balance_after_cents: number;
  order_id: string | null;
  actor_kind: "user" | "admin" | "system";
  actor_id: string | null;
  note: string | null;
  created_at: Timestamp;
}

/** The owner's sample choice for one product (migration 0036, docs/decisions/054). */
export interface ProductSamplesTable {
  product_id: string;
  /** null: as the catalogue's setting; 1 offered; 0 not offered */
  offered: Defaulted<number | null>;
  /** millilitres of bulk left to decant samples from; null = not tracked. Never below 0. */
  bulk_ml: Defaulted<number | null>;
  updated_at: Timestamp;
}

/** A scent inside a sample or discovery-set order line (migration 0036). */
export interface OrderLineSamplesTable {
  id: string;
  order_line_id: string;
  product_id: string | null;
  name: string;
  /** millilitres per unit of the line */
  ml: number;
  /** the credit each unit of this sample earns on payment */
  credit_cents: number;
  ml_taken: Defaulted<number>;
  ml_short: Defaulted<number>;
  position: Defaulted<number>;
}

/** A credit a paid sample earned on a full bottle of its scent (migration 0036). */
export interface SampleCreditsTable {
  id: string;
  user_id: string;
  product_id: string;
  name: string;
  amount_cents: number;
  source_order_id: string;
  source_sample_id: string;
  unit: Defaulted<number>;
  granted_at: Timestamp;
  expires_at: Timestamp;
  reserved_order_id: Defaulted<string | null>;
  used_at: NullableTimestamp;
  /** used by this order, given back when the owner cancelled it paid (migration 0043): reopening it takes it again */
  returned_by_order_id: Defaulted<string | null>;
  /** granted by an order the owner cancelled paid, taken back unused (migration 0043); reopening restores it */
  revoked_at: NullableTimestamp;
}

/** One line of a cart kept on the server (migration 0039): what and how many, never a price. */
export interface SavedCartLine {
  productId: string;
  /** the size's id; absent: the product's first visible size (a browser line saved before sizes) */
  sizeId?: string;
  quantity: number;
}

/** A signed-in shopper's cart, kept on the server so it follows them to another device (docs/decisions/056). */
export interface SavedCartsTable {
  user_id: string;
  lines: Json<SavedCartLine[]>;
  /** raised by every change: a device that saw an older version merges instead of overwriting */
  version: Defaulted<number>;
  /** the cart from its first item until it is emptied: one reminder per cart */
  cart_id: string | null;
  /** the last change of its contents */
  changed_at: NullableTimestamp;
  updated_at: Timestamp;
}

export type ReminderKind = "cart" | "order";
export type ReminderStatus = "sending" | "sent" | "failed" | "skipped";

/** One reminder e-mail, claimed before it is written (migration 0039; unique per kind and cart or order). */
export interface RemindersTable {
  id: string;
  kind: ReminderKind;
  /** the cart's cart_id, or the order's id */
  subject_id: string;
  user_id: string | null;
  order_id: Defaulted<string | null>;
  /** the cart as reminded (what the restore link puts back) */
  lines: Json<SavedCartLine[]>;
  status: ReminderStatus;
  outbox_id: Defaulted<string | null>;
  error: Defaulted<string | null>;
  claimed_at: string;
  sent_at: NullableTimestamp;
  /** when its restore link was first used */
  restored_at: NullableTimestamp;
}

/** A person's WhatsApp order updates (migration 0038, docs/decisions/055): on while opted_out_at is null. */
export interface WhatsappSubscriptionsTable {
  user_id: string;
  /** international digits without "+", e.g. 27821234567 (the Cloud API's `to`, the webhooks' `wa_id`) */
  phone: string;
  opted_in_at: Timestamp;
  opted_out_at: NullableTimestamp;
  /** reminders on WhatsApp agreed to (marketing, a purpose of its own; migration 0043); null: not agreed. Ends with the subscription. */
  marketing_opted_in_at: NullableTimestamp;
  updated_at: Timestamp;
}

/** queued → sending (claimed) → sent → delivered → read; or failed, or skipped (no consent when its turn came). */
export type WhatsappMessageStatus = "queued" | "sending" | "sent" | "delivered" | "read" | "failed" | "skipped";

/** The WhatsApp outbox: one template message per order and event (migration 0038). */
export interface WhatsappMessagesTable {
  id: string;
  /** `<event>:<order id>` (a refund adds its return): unique, so the same news is never queued twice */
  dedupe_key: string;
  /** null: a cart's reminder (migration 0043) */
  order_id: string | null;
  /** the reminder this message carries (migration 0043) */
  reminder_id: Defaulted<string | null>;
  user_id: string | null;
  event: string;
  to_phone: string;
  template: string;
  language: string;
  /** the template body's parameters, in order */
  params: ColumnType<string[], string | undefined, string>;
  status: WhatsappMessageStatus;
  /** sent through the shop's local fake of the Cloud API: nothing reached a phone */
  is_test: Bool;
  attempts: Defaulted<number>;
  next_attempt_at: Timestamp;
  claim_token: Defaulted<string | null>;
  lease_until: NullableTimestamp;
  wamid: Defaulted<string | null>;
  error: Defaulted<string | null>;
  /** the mail_outbox row of the e-mail sent for the same event */
  email_id: Defaulted<string | null>;
  /** when a failed message was recorded as covered by that e-mail */
  email_covered_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  sent_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  read_at: NullableTimestamp;
  failed_at: NullableTimestamp;
}

/** A named set of staff permissions (app/modules/staff/permissions.ts); the presets have fixed ids. */
export interface StaffRolesTable {
  id: string;
  name: string;
  permissions: Json<string[]>;
  preset: Defaulted<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An invitation to join the staff: its link's token is stored as a SHA-256 hash only; used once, until it expires. */
export interface StaffInvitationsTable {
  id: string;
  email: string;
  role_id: string;
  token_hash: string;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: string;
  accepted_at: NullableTimestamp;
  accepted_user_id: string | null;
  revoked_at: NullableTimestamp;
}

/** Who changed what in the admin (append-only: triggers refuse updates, and deletes younger than 5 years). */
export interface ActivityLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor_id: string | null;
  actor_email: string | null;
  ip: string | null;
  /** what was done, e.g. "product.save", "order.refund", "staff.invite", "backup.download", "sign-in" */
  kind: string;
  /** the record it changed, e.g. "product" and its id; links the entry to its page */
  record_type: string | null;
  record_id: string | null;
  /** a readable line, e.g. "Saved product Amber Lantern" */
  summary: string;
  before: Json<unknown> | null;
  after: Json<unknown> | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  staff_roles: StaffRolesTable;
  staff_invitations: StaffInvitationsTable;
  activity_log: ActivityLogTable;
  two_factors: TwoFactorsTable;
  passkeys: PasskeysTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  rate_limits: RateLimitsTable;
  categories: CategoriesTable;
  products: ProductsTable;
  product_sizes: ProductSizesTable;
  product_size_former_codes: ProductSizeFormerCodesTable;
  product_former_slugs: ProductFormerSlugsTable;
  product_tiers: ProductTiersTable;
  product_imports: ProductImportsTable;
  imported_images: ImportedImagesTable;
  import_missing_images: ImportMissingImagesTable;
  reviews: ReviewsTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  order_metrics: OrderMetricsTable;
  payment_events: PaymentEventsTable;
  shipping_zones: ShippingZonesTable;
  shipping_rules: ShippingRulesTable;
  shipping_zone_provinces: ShippingZoneProvincesTable;
  coupons: CouponsTable;
  coupon_usage: CouponUsageTable;
  gift_cards: GiftCardsTable;
  gift_card_ledger: GiftCardLedgerTable;
  gift_card_sales: GiftCardSalesTable;
  gift_card_changes: GiftCardChangesTable;
  contact_messages: ContactMessagesTable;
  mail_outbox: MailOutboxTable;
  reactions: ReactionsTable;
  reward_accounts: RewardAccountsTable;
  reward_ledger: RewardLedgerTable;
  reward_earnings: RewardEarningsTable;
  reward_redemptions: RewardRedemptionsTable;
  referrals: ReferralsTable;
  settings: SettingsTable;
  invoice_counter: InvoiceCounterTable;
  change_feed_head: ChangeFeedHeadTable;
  change_events: ChangeEventsTable;
  job_leases: JobLeasesTable;
  shipments: ShipmentsTable;
  shipment_events: ShipmentEventsTable;
  courier_points: CourierPointsTable;
  courier_quote_cache: CourierQuoteCacheTable;
  review_requests: ReviewRequestsTable;
  consents: ConsentsTable;
  announcements: AnnouncementsTable;
  announcement_recipients: AnnouncementRecipientsTable;
  privacy_requests: PrivacyRequestsTable;
  retention_runs: RetentionRunsTable;
  returns: ReturnsTable;
  return_lines: ReturnLinesTable;
  credit_note_counter: CreditNoteCounterTable;
  product_samples: ProductSamplesTable;
  order_line_samples: OrderLineSamplesTable;
  sample_credits: SampleCreditsTable;
  saved_carts: SavedCartsTable;
  reminders: RemindersTable;
  stock_alerts: StockAlertsTable;
  wishlist_items: WishlistItemsTable;
  wishlist_alerts: WishlistAlertsTable;
  whatsapp_subscriptions: WhatsappSubscriptionsTable;
  whatsapp_messages: WhatsappMessagesTable;
}

/**
 * One person waiting for a sold-out product or size (migration 0040, docs/decisions/057): pending until a visitor
 * confirms by the e-mailed link (double opt-in), then waiting; deleted once its e-mail is written, or 6 months on.
 */
export type StockAlertStatus = "pending" | "waiting";

export interface StockAlertsTable {
  id: string;
  product_id: string;
  /** the size waited for; null: any size of the product */
  size_id: string | null;
  /** the signed-in shopper who asked; null for a visitor */
  user_id: string | null;
  email: string;
  status: StockAlertStatus;
  created_at: Timestamp;
  confirmed_at: NullableTimestamp;
}

/** A signed-in shopper's saved product (migration 0040); a visitor's wishlist stays in their browser. */
export interface WishlistItemsTable {
  user_id: string;
  product_id: string;
  created_at: Timestamp;
  /** the price the shopper last knew (when added, or their last wishlist alert) */
  alert_price_cents: number;
  /** 1 when the product was in stock then */
  alert_in_stock: number;
}

/** A shopper who opted in to wishlist e-mails (migration 0040); the consent log keeps the history. */
export interface WishlistAlertsTable {
  user_id: string;
  opted_in_at: Timestamp;
}

/** Columns stored as 0/1 by SQLite and returned as booleans. */
export const BOOLEAN_COLUMNS = ["email_verified", "is_admin", "email_notifications", "email_marketing", "is_active", "is_test", "opened", "granted", "preset", "two_factor_enabled", "verified", "backed_up"];
/** Columns stored as JSON text by SQLite and returned parsed. */
export const JSON_COLUMNS = ["images", "shipping_address", "delivery_point", "hours", "rates", "summary", "product_ids", "lines", "params", "permissions", "before", "after", "details", "lots"];
