import { ratingText } from "~/modules/catalog/product.logic";

/** A five-pointed star (24 × 24), for the rating stars and the review form's rating buttons. */
export const STAR = "M12 2.8l2.76 5.6 6.18.9-4.47 4.36 1.05 6.15L12 16.9l-5.52 2.91 1.05-6.15L3.06 9.3l6.18-.9L12 2.8z";

/**
 * 1–5 stars with partial fill (4.5 shows four and a half), read out as 'Rated 4.5 out of 5'.
 * The drawing is decorative; the accessible text carries the rating.
 */
export function Stars({ rating, size = "md", className = "" }: { rating: number; size?: "sm" | "md" | "lg"; className?: string }) {
  const clamped = Math.max(0, Math.min(5, rating));
  const px = { sm: "h-3.5 w-3.5", md: "h-4 w-4", lg: "h-5 w-5" }[size];
  return (
    <span className={`inline-flex items-center ${className}`} role="img" aria-label={ratingText(Math.round(clamped * 10) / 10)}>
      <span aria-hidden="true" className="relative inline-flex">
        <span className="flex gap-0.5 text-line">
          {[0, 1, 2, 3, 4].map((i) => (
            <svg key={i} viewBox="0 0 24 24" className={px} fill="currentColor">
              <path d={STAR} />
            </svg>
          ))}
        </span>
        <span className="absolute inset-y-0 left-0 flex gap-0.5 overflow-hidden text-gold" style={{ width: `${(clamped / 5) * 100}%` }}>
          {[0, 1, 2, 3, 4].map((i) => (
            <svg key={i} viewBox="0 0 24 24" className={`${px} shrink-0`} fill="currentColor">
              <path d={STAR} />
            </svg>
          ))}
        </span>
      </span>
    </span>
  );
}
