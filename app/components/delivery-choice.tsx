/**
 * The checkout's delivery choice: to the door (the shop's zones serving the shopper's province, each a radio posted as
 * the form's zoneId, by default; or the courier's service levels, each with its window and price), or
 * collection from a PUDO locker or a Pargo pick-up point near the shopper (a searchable list with distances and hours,
 * and a small map of where they are). It reads the address from the form around it and asks /checkout/delivery for
 * the options; the server prices everything again when the order is placed. The chosen kind, service and point go
 * out as hidden fields.
 */
import { linesInput } from "~/modules/orders/cart-quote";
import { useEffect, useMemo, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { CartLine } from "~/modules/cart/cart.browser";
import type { DeliveryAnswer } from "~/modules/couriers/checkout-delivery.server";
import type { DeliveryKind } from "~/modules/couriers/courier";
import { KIND_LABELS, priceLabel } from "~/modules/couriers/delivery.logic";
import type { NearPoint } from "~/modules/couriers/points.logic";
import { Notice } from "~/components/ui/field";

export interface DeliverySelection {
  kind: DeliveryKind;
  serviceCode: string;
  pointCode: string | null;
  totals: { shippingCents: number; discountCents: number; totalCents: number; vatIncludedCents: number; deliveryFree: boolean; freeDeliveryRemainingCents: number };
}

type Address = { street: string; suburb: string; city: string; postalCode: string; province: string };

function readAddress(form: HTMLFormElement | null): Address | null {
  if (!form) return null;
  const f = new FormData(form);
  const get = (k: string) => String(f.get(k) ?? "").trim();
  const a = { street: get("street"), suburb: get("suburb"), city: get("city"), postalCode: get("postalCode"), province: get("province") };
  return /^\d{4}$/.test(a.postalCode) && a.suburb ? a : null;
}

export function DeliveryChoice({
  kinds,
  lines,
  couponCode,
  zoneId,
  onSelect,
  error,
  rewardPoints = 0,
}: {
  kinds: DeliveryKind[];
  lines: CartLine[];
  couponCode: string;
  zoneId: string | null;
  /** reward points the shopper chose to spend: each option's totals count them (docs/decisions/062) */
  rewardPoints?: number;
  onSelect: (selection: DeliverySelection | null) => void;
  error?: string;
}) {
  const root = useRef<HTMLFieldSetElement>(null);
  const fetcher = useFetcher<DeliveryAnswer>();
  const [address, setAddress] = useState<Address | null>(null);
  const [kind, setKind] = useState<DeliveryKind>(kinds[0]!);
  const [service, setService] = useState<Record<string, string>>({});
  const [points, setPoints] = useState<{ locker: string | null; point: string | null }>({ locker: null, point: null });
  const [near, setNear] = useState("");
  const [nearInput, setNearInput] = useState("");

  // Follow the address fields of the surrounding form (typed, pasted, or the last address offered as it is).
  useEffect(() => {
    const form = root.current?.form ?? null;
    if (!form) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const next = readAddress(form);
        setAddress((prev) => (JSON.stringify(prev) === JSON.stringify(next) ? prev : next));
      }, 350);
    };
    update();
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    // The last-address card swaps its fields in and out without an input event.
    const observer = new MutationObserver(update);
    observer.observe(form, { childList: true, subtree: true });
    return () => {
      clearTimeout(timer);
      form.removeEventListener("input", update);
      form.removeEventListener("change", update);
      observer.disconnect();
    };
  }, []);

  const posted = JSON.stringify(linesInput(lines));
  const url = useMemo(() => {
    if (!address) return null;
    const p = new URLSearchParams({ lines: posted, ...address });
    if (couponCode) p.set("coupon", couponCode);
    if (zoneId) p.set("zone", zoneId);
    if (points.locker) p.set("locker", points.locker);
    if (points.point) p.set("point", points.point);
    if (near) p.set("near", near);
    if (rewardPoints) p.set("points", String(rewardPoints));
    return `/checkout/delivery?${p}`;
  }, [address, posted, couponCode, zoneId, points.locker, points.point, near, rewardPoints]);
  useEffect(() => {
    if (url) fetcher.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  const choices = fetcher.data?.choices ?? null;
  const current = choices?.kinds.find((k) => k.kind === kind) ?? null;
  // The shopper's pick of the kind, else its first option (the cheapest service, or the province's own zone).
  const chosen = current ? (current.options.find((o) => optionKey(o) === service[kind]) ?? current.options[0] ?? null) : null;
  const chosenKey = chosen ? optionKey(chosen) : null;
  const pointCode = kind === "door" ? null : (current?.pointCode ?? null);

  useEffect(() => {
    onSelect(chosen && (kind === "door" || pointCode) ? { kind, serviceCode: chosen.serviceCode, pointCode, totals: chosen.totals } : null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, chosenKey, chosen?.totals.totalCents, pointCode]);
  const byZone = !!current?.options.some((o) => o.zoneId);

  const loading = fetcher.state !== "idle";
  return (
    <fieldset ref={root} className="space-y-4" aria-describedby={error ? "delivery-error" : undefined} data-testid="delivery-choice">
      <legend className="font-display text-2xl text-ink">Delivery</legend>
      {error ? (
        <p id="delivery-error" className="text-sm text-danger" role="alert">
          {error}
        </p>
      ) : null}
      <input type="hidden" name="deliveryKind" value={chosen ? kind : ""} />
      <input type="hidden" name="deliveryService" value={chosen?.serviceCode ?? ""} />
      <input type="hidden" name="deliveryPoint" value={pointCode ?? ""} />
      <div className="grid gap-2 sm:grid-cols-3" role="radiogroup" aria-label="How should we deliver?">
        {kinds.map((k) => {
          const checked = k === kind;
          return (
            <label key={k} className={`flex cursor-pointer gap-3 border px-4 py-3.5 transition-colors ${checked ? "border-ink bg-white" : "border-line bg-white/60 hover:border-gold"}`}>
              <input type="radio" name="deliveryKindChoice" value={k} checked={checked} onChange={() => setKind(k)} className="mt-1 h-4 w-4 shrink-0 accent-[var(--color-ink)]" />
              <span className="min-w-0">
                <span className="block text-sm font-medium text-ink">{KIND_LABELS[k].title}</span>
                <span className="mt-0.5 block text-xs leading-relaxed text-muted">{KIND_LABELS[k].hint}</span>
              </span>
            </label>
          );
        })}
      </div>

      {!address ? (
        <p className="text-sm text-muted">Enter your suburb and postal code above to see delivery prices and dates.</p>
      ) : fetcher.data?.error ? (
        <Notice tone="error">{fetcher.data.error}</Notice>
      ) : !current ? (
        <p className="text-sm text-muted" aria-live="polite">
          Finding delivery options…
        </p>
      ) : (
        <div className="space-y-4" aria-busy={loading}>
          {current.note ? <Notice tone="info">{current.note}</Notice> : null}
          {kind !== "door" ? (
            <PointPicker
              kind={kind}
              points={current.points}
              chosen={pointCode}
              onChoose={(code) => setPoints((p) => ({ ...p, [kind]: code }))}
              nearInput={nearInput}
              onNearInput={setNearInput}
              onSearch={() => setNear(nearInput)}
              placeholder={`${address.suburb} ${address.postalCode}`}
            />
          ) : null}
          {byZone ? <p className="text-sm text-ink-soft">Choose the delivery zone of your address.</p> : null}
          {current.options.length ? (
            <ul className="space-y-2" aria-label={byZone ? "Delivery zones" : "Delivery services"}>
              {current.options.map((o) => {
                const key = optionKey(o);
                const checked = key === chosenKey;
                return (
                  <li key={key}>
                    <label className={`flex cursor-pointer items-center gap-3 border px-4 py-3.5 transition-colors ${checked ? "border-ink bg-white" : "border-line bg-white/60 hover:border-gold"}`}>
                      {/* A zone's radio is the form's zoneId itself: the post carries the zone chosen, as the zone table's does. */}
                      <input
                        type="radio"
                        name={o.zoneId ? "zoneId" : `service-${kind}`}
                        value={key}
                        checked={checked}
                        onChange={() => setService((s) => ({ ...s, [kind]: key }))}
                        className="h-4 w-4 shrink-0 accent-[var(--color-ink)]"
                      />
                      <span className="min-w-0 flex-1">
                        <span className="block text-sm font-medium text-ink">{o.serviceName}</span>
                        {o.window ? <span className="block text-xs text-muted">{o.window}</span> : null}
                        {o.test ? <span className="mt-1 inline-block text-[0.65rem] font-medium uppercase tracking-[0.14em] text-gold">Test delivery — nothing is collected</span> : null}
                      </span>
                      <span className="shrink-0 text-sm tabular-nums text-ink" data-testid="delivery-price">
                        {/* Over the threshold: the cheapest is free and a faster one costs the difference; say both. */}
                        {o.freed ? (
                          <>
                            <span className="mr-1.5 text-xs text-muted line-through">{priceLabel(o.priceCents)}</span>
                            {priceLabel(o.payCents)}
                          </>
                        ) : (
                          priceLabel(o.payCents)
                        )}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          ) : null}
        </div>
      )}
    </fieldset>
  );
}

/** An option's identity within its kind: its zone when priced by zones (every zone is "table" to the courier), else its service. */
function optionKey(o: { serviceCode: string; zoneId?: string | null }): string {
  return o.zoneId ?? o.serviceCode;
}

function PointPicker({
  kind,
  points,
  chosen,
  onChoose,
  nearInput,
  onNearInput,
  onSearch,
  placeholder,
}: {
  kind: "locker" | "point";
  points: NearPoint[];
  chosen: string | null;
  onChoose: (code: string) => void;
  nearInput: string;
  onNearInput: (v: string) => void;
  onSearch: () => void;
  placeholder: string;
}) {
  const what = kind === "locker" ? "locker" : "pick-up point";
  return (
    <div className="space-y-3">
      <div className="flex gap-2">
        <label className="min-w-0 flex-1">
          <span className="sr-only">Find a {what} near</span>
          <input
            type="search"
            value={nearInput}
            placeholder={`Near ${placeholder}`}
            onChange={(e) => onNearInput(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                onSearch();
              }
            }}
            className="w-full border border-line bg-white px-3 py-2.5 text-sm"
            aria-label={`Find a ${what} near (suburb or postal code)`}
            maxLength={120}
          />
        </label>
        <button type="button" onClick={onSearch} className="min-h-11 border border-ink px-4 text-sm font-medium text-ink hover:bg-ink hover:text-white">
          Search
        </button>
      </div>
      {points.length === 0 ? (
        <p className="text-sm text-muted">No {what}s found there. Try a suburb or a postal code, e.g. "Rondebosch 7700".</p>
      ) : (
        <>
          <PointsMap points={points} chosen={chosen} />
          <ul className="max-h-96 space-y-2 overflow-y-auto" aria-label={`${kind === "locker" ? "Lockers" : "Pick-up points"} nearby`}>
            {points.map((p, i) => {
              const checked = p.code === chosen;
              return (
                <li key={p.code}>
                  <label className={`flex cursor-pointer gap-3 border px-4 py-3 transition-colors ${checked ? "border-ink bg-white" : "border-line bg-white/60 hover:border-gold"}`}>
                    <input type="radio" name={`point-${kind}`} value={p.code} checked={checked} onChange={() => onChoose(p.code)} className="mt-1 h-4 w-4 shrink-0 accent-[var(--color-ink)]" />
                    <span className="min-w-0 flex-1 text-sm">
                      <span className="flex items-baseline justify-between gap-3">
                        <span className="font-medium text-ink">
                          <span aria-hidden="true" className="mr-1.5 text-gold">
                            {i + 1}.
                          </span>
                          {p.name}
                        </span>
                        {p.distanceKm !== null ? <span className="shrink-0 text-xs tabular-nums text-muted">{p.distanceKm.toFixed(1)} km</span> : null}
                      </span>
                      <span className="block break-words text-xs text-ink-soft">
                        {p.streetAddress}, {p.suburb}, {p.city} {p.postalCode}
                      </span>
                      {p.hours.length ? <span className="mt-0.5 block text-xs text-muted">{p.hours.join(" · ")}</span> : null}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * Where the listed points are, relative to each other (numbered as in the list): drawn from their coordinates, no map
 * tiles to download on prepaid data. Decorative beside the list, which says everything it shows.
 */
function PointsMap({ points, chosen }: { points: NearPoint[]; chosen: string | null }) {
  const lats = points.map((p) => p.lat);
  const lngs = points.map((p) => p.lng);
  const [minLat, maxLat, minLng, maxLng] = [Math.min(...lats), Math.max(...lats), Math.min(...lngs), Math.max(...lngs)];
  const spanLat = Math.max(maxLat - minLat, 0.01);
  const spanLng = Math.max(maxLng - minLng, 0.01);
  const x = (lng: number) => 20 + ((lng - minLng) / spanLng) * 280;
  const y = (lat: number) => 20 + ((maxLat - lat) / spanLat) * 120;
  return (
    <svg viewBox="0 0 320 160" className="h-40 w-full border border-line bg-sand/50 sm:h-52" preserveAspectRatio="xMidYMid meet" aria-hidden="true" data-testid="points-map">
      {/* The chosen point is drawn last, so no neighbour covers it. */}
      {points
        .map((p, i) => [p, i] as const)
        .sort(([a], [b]) => Number(a.code === chosen) - Number(b.code === chosen))
        .map(([p, i]) => {
        const on = p.code === chosen;
        return (
          <g key={p.code} transform={`translate(${x(p.lng).toFixed(1)} ${y(p.lat).toFixed(1)})`}>
            <circle r={on ? 10 : 8} className={on ? "fill-[var(--color-ink)]" : "fill-white stroke-[var(--color-gold)]"} strokeWidth={1.5} />
            <text textAnchor="middle" dy="3.5" className={`text-[9px] ${on ? "fill-white" : "fill-[var(--color-ink)]"}`}>
              {i + 1}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
