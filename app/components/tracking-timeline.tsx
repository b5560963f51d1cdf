/**
 * Where a parcel is, for its shopper: each tracking event in order with its time, the waybill and the courier's own
 * tracking page, and the collection PIN while it waits in a locker or at a pick-up point.
 */
import { formatDateTimeZA } from "~/utils/dates";
import type { TrackingView } from "~/modules/couriers/delivery.logic";

export type { TrackingView };


export function TrackingTimeline({ tracking }: { tracking: TrackingView }) {
  return (
    <section aria-labelledby="tracking-heading" className="border border-line bg-white/80 p-5 sm:p-6" data-testid="tracking">
      <h2 id="tracking-heading" className="eyebrow font-sans text-ink">
        Tracking
      </h2>
      <p className="mt-2 text-sm text-ink-soft">
        {tracking.courier}
        {tracking.trackingReference ? (
          <>
            {" "}
            · waybill <span className="font-mono text-ink">{tracking.trackingReference}</span>
          </>
        ) : null}
        {tracking.test ? <span className="ml-2 bg-amber-50 px-1.5 py-0.5 text-xs text-amber-900 ring-1 ring-amber-200">Test delivery</span> : null}
      </p>
      {tracking.status === "ready_for_collection" && tracking.point ? (
        <p className="mt-3 border border-gold/40 bg-sand px-3 py-2 text-sm text-ink">
          Waiting for you at <strong>{tracking.point.name}</strong>, {tracking.point.streetAddress}, {tracking.point.suburb}.
          {tracking.collectionPin ? (
            <>
              {" "}
              Your PIN: <strong className="font-mono tracking-widest">{tracking.collectionPin}</strong>
            </>
          ) : null}
        </p>
      ) : null}
      <ol className="mt-4 space-y-3 border-l border-gold/50 pl-4">
        {[...tracking.events].reverse().map((e, i) => (
          <li key={`${e.at}-${i}`} className="relative text-sm">
            <span aria-hidden="true" className={`absolute -left-[1.32rem] top-1.5 h-2.5 w-2.5 rounded-full ${i === 0 ? "bg-gold" : "bg-line"}`} />
            <p className={i === 0 ? "font-medium text-ink" : "text-ink-soft"}>{e.label}</p>
            <p className="text-xs text-muted">
              <time dateTime={e.at}>{formatDateTimeZA(e.at)}</time>
              {e.location ? ` · ${e.location}` : ""}
            </p>
          </li>
        ))}
      </ol>
      {tracking.trackingUrl && !tracking.test ? (
        <a href={tracking.trackingUrl} target="_blank" rel="noreferrer" className="mt-4 inline-block text-sm text-gold underline decoration-gold/40 underline-offset-4 hover:text-ink">
          Follow it on the courier's site
        </a>
      ) : null}
    </section>
  );
}
