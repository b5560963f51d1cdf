/**
 * A South African address as the shop reads it: the nine provinces (in the order the checkout lists them) and phone
 * numbers as people write them. Pure and browser-safe; below every area (orders, shipping, couriers, WhatsApp use it).
 */
export const SA_PROVINCES = [
  "Eastern Cape",
  "Free State",
  "Gauteng",
  "KwaZulu-Natal",
  "Limpopo",
  "Mpumalanga",
  "Northern Cape",
  "North West",
  "Western Cape",
] as const;

/**
 * A South African phone number as people write it (082 123 4567, 0821234567, +27 82 123 4567, 27821234567,
 * (082) 123-4567) normalised to +27XXXXXXXXX; null when it is not one.
 */
export function normalizeSaPhone(input: string): string | null {
  const compact = input.replace(/[\s\-().]/g, "");
  let national: string | null = null;
  if (/^0\d{9}$/.test(compact)) national = compact.slice(1);
  else if (/^\+27\d{9}$/.test(compact)) national = compact.slice(3);
  else if (/^27\d{9}$/.test(compact)) national = compact.slice(2);
  else if (/^\+270\d{9}$/.test(compact)) national = compact.slice(4);
  if (!national || national.startsWith("0")) return null;
  return `+27${national}`;
}
