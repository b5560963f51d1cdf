import { useEffect, useRef, useState } from "react";
import { normalizeSaPhone } from "~/modules/orders/orders.logic";
import { useRootData } from "~/modules/settings/root-data";
import { WHATSAPP_CONSENT } from "~/modules/whatsapp/templates";

/**
 * The checkout's WhatsApp opt-in (docs/decisions/055): one box, never ticked in advance, naming the number the updates
 * would go to — the telephone typed above (or the last address's), read from the form as it changes. Its label and
 * description are WHATSAPP_CONSENT's, the words the consent log records when the order is placed with it ticked.
 * Posts `whatsappUpdates=on`; unticked posts nothing.
 */
export function WhatsappOptIn() {
  const { shop } = useRootData();
  const box = useRef<HTMLDivElement>(null);
  const [phone, setPhone] = useState<string | null>(null);
  useEffect(() => {
    const form = box.current?.closest("form");
    if (!form) return;
    const read = () => {
      const field = form.elements.namedItem("telephone");
      setPhone(field instanceof HTMLInputElement ? normalizeSaPhone(field.value) : null);
    };
    read();
    // typing, and the address card swapped for fields (or back): the telephone field is replaced, not edited
    const observer = new MutationObserver(read);
    observer.observe(form, { childList: true, subtree: true });
    form.addEventListener("input", read);
    return () => {
      observer.disconnect();
      form.removeEventListener("input", read);
    };
  }, []);
  return (
    <div ref={box} className="border border-line bg-white p-5 sm:p-6" data-testid="whatsapp-opt-in">
      <label className="flex cursor-pointer items-start gap-3">
        <input type="checkbox" name="whatsappUpdates" value="on" defaultChecked={false} aria-describedby="whatsapp-opt-in-desc" className="mt-1 h-5 w-5 shrink-0 accent-[var(--color-ink)]" />
        <span className="text-sm font-medium text-ink">{phone ? WHATSAPP_CONSENT.label(phone) : "Order updates on WhatsApp to the mobile number above"}</span>
      </label>
      <p id="whatsapp-opt-in-desc" className="mt-2 pl-8 text-xs leading-relaxed text-ink-soft">
        {WHATSAPP_CONSENT.description(shop.name)}
      </p>
    </div>
  );
}
