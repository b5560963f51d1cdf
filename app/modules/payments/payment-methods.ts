/**
 * The ways to pay as the shopper reads them at checkout (issue 11): plain words, no logos. Browser-safe.
 */
import type { PaymentMethod, ProviderName } from "./provider";

export interface PaymentMethodChoice {
  method: PaymentMethod;
  label: string;
  hint: string;
}

const CARD_PROVIDER_WORDS: Record<ProviderName, string> = { simulated: "the shop's test payment page", yoco: "Yoco", payfast: "PayFast", ozow: "Ozow" };

export function paymentMethodChoice(method: PaymentMethod, cardProvider: ProviderName, eftHoldDays: number): PaymentMethodChoice {
  if (method === "card") {
    return {
      method,
      label: cardProvider === "simulated" ? "Card (test payments, no money is taken)" : `Card (Visa, Mastercard) via ${CARD_PROVIDER_WORDS[cardProvider]}`,
      hint: "You pay on the provider's secure page and come straight back.",
    };
  }
  if (method === "instant_eft") return { method, label: "Instant EFT via Ozow", hint: "Pay from your bank's app or online banking; confirmed at once." };
  return {
    method,
    label: "Bank transfer (EFT)",
    hint: `We show you our bank details and your reference. We hold your order ${eftHoldDays} ${eftHoldDays === 1 ? "day" : "days"} and ship once the money arrives.`,
  };
}

/** The order's payment as the owner reads it in the admin. */
export function paymentMethodShort(method: string): string {
  if (method === "instant_eft") return "Instant EFT";
  if (method === "eft") return "Bank transfer (EFT)";
  return "Card";
}
