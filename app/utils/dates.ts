/**
 * Dates as South Africans read them (SPEC §9: en-ZA), in South African time, made on the server so the browser shows
 * the same text after hydration.
 */
const ZA_DATE: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", timeZone: "Africa/Johannesburg" };
const ZA_DATE_TIME: Intl.DateTimeFormatOptions = { ...ZA_DATE, hour: "2-digit", minute: "2-digit", hour12: false };

export function formatDateZA(iso: string): string {
  return new Date(iso).toLocaleDateString("en-ZA", ZA_DATE);
}

export function formatDateTimeZA(iso: string): string {
  return new Date(iso).toLocaleString("en-ZA", ZA_DATE_TIME);
}
