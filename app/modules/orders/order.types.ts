import type { OrderStatus, PaymentStatus, ShippingAddress } from "~/db/schema";

/**
 * The one shape of an order (browser-safe types): what placing it returns, what the confirmation page and the
 * e-mails read, what tests insert. Money is integer cents; the total is lines − discount + shipping.
 */
export interface OrderLine {
  productId: string | null;
  /** the size bought (docs/decisions/049); null once deleted, absent on lines read without it */
  sizeId?: string | null;
  /** its label when bought ("50 ml"); null = the product's one unstated size */
  sizeLabel?: string | null;
  /** as every surface shows it: the product's name with the size (lineName) */
  name: string;
  quantity: number;
  unitPriceCents: number;
  totalPriceCents: number;
  /** a gift card sold (docs/decisions/053): no VAT on it; absent = false */
  isGiftCard?: boolean;
}

export interface OrderMoney {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalAmountCents: number;
  /** the total before the coupon, only when one was used */
  originalTotalCents: number | null;
  couponCode: string | null;
}

export interface Order extends OrderMoney {
  id: string;
  userId: string | null;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  createdAt: string;
  shippingAddress: ShippingAddress;
  lines: OrderLine[];
}
