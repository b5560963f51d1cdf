import type { OrderStatus, PaymentStatus, ShippingAddress } from "~/db/schema";

/**
 * The one shape of an order (browser-safe types): what placing it returns, what the confirmation page and the
 * e-mails read, what tests insert. Money is integer cents; the total is lines − discount + shipping.
 */
export interface OrderLine {
  productId: string | null;
  name: string;
  quantity: number;
  unitPriceCents: number;
  totalPriceCents: number;
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
