import type { ShippingAddress } from "~/db/schema";
import { shippingAddressSchema } from "./orders.schema";

/** +27821234567 → 082 123 4567 (how South Africans write and read a number); anything else as it is. */
export function localSaPhone(phone: string): string {
  const m = /^\+27(\d{2})(\d{3})(\d{4})$/.exec(phone);
  return m ? `0${m[1]} ${m[2]} ${m[3]}` : phone;
}

/**
 * The address an earlier order was shipped to, as the checkout offers it again: only when it still passes today's
 * address rules (an address the form would refuse is no help), with the telephone written the local way.
 */
export function offerableAddress(stored: unknown): ShippingAddress | null {
  const parsed = shippingAddressSchema.safeParse(stored);
  if (!parsed.success) return null;
  return { ...parsed.data, telephone: localSaPhone(parsed.data.telephone) };
}

/** One line for the "Deliver to" card: street, suburb, city, postal code, province. */
export function addressLine(address: ShippingAddress): string {
  return [address.street, address.suburb, `${address.city} ${address.postalCode}`, address.province].join(", ");
}
