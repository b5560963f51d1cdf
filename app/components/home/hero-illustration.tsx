/**
 * The hero's still life: a faceted flacon with a gold collar in front of an arch, with a sprig of fynbos —
 * drawn in fine lines (inline SVG: no image request, crisp at any size). Decorative.
 */
export function HeroIllustration({ className = "" }: { className?: string }) {
  return (
    <svg viewBox="0 0 420 520" fill="none" aria-hidden="true" focusable="false" className={className}>
      <defs>
        <linearGradient id="hero-glass" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#fffdf8" stopOpacity="0.95" />
          <stop offset="0.55" stopColor="#f3e6d4" stopOpacity="0.85" />
          <stop offset="1" stopColor="#e2cba6" stopOpacity="0.9" />
        </linearGradient>
        <linearGradient id="hero-juice" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#e9c98f" stopOpacity="0.55" />
          <stop offset="1" stopColor="#b8874a" stopOpacity="0.85" />
        </linearGradient>
        <linearGradient id="hero-gold" x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#9a7440" />
          <stop offset="0.45" stopColor="#e3c58b" />
          <stop offset="1" stopColor="#9a7440" />
        </linearGradient>
        <radialGradient id="hero-halo" cx="0.5" cy="0.45" r="0.55">
          <stop offset="0" stopColor="#ffffff" stopOpacity="0.9" />
          <stop offset="1" stopColor="#efe1d8" stopOpacity="0" />
        </radialGradient>
      </defs>

      {/* arch and halo */}
      <path d="M70 500V210a140 140 0 0 1 280 0v290" stroke="#c9a86a" strokeOpacity="0.55" strokeWidth="1" />
      <path d="M88 500V214a122 122 0 0 1 244 0v286" stroke="#c9a86a" strokeOpacity="0.3" strokeWidth="0.75" />
      <ellipse cx="210" cy="300" rx="170" ry="190" fill="url(#hero-halo)" />

      {/* fynbos sprig */}
      <g stroke="#9a7440" strokeOpacity="0.7" strokeWidth="1" strokeLinecap="round">
        <path d="M330 500c-6-60-2-120 24-180" />
        <path d="M336 440c14-10 26-12 38-10M340 400c-16-6-26-16-30-30M346 362c12-12 24-16 36-14M352 336c-8-12-10-24-6-36" />
        <path d="M354 320c-6-10-4-22 4-30 8 8 10 20 4 30" fill="#efe1d8" fillOpacity="0.8" />
      </g>

      {/* shadow */}
      <ellipse cx="210" cy="470" rx="98" ry="9" fill="#1c1714" fillOpacity="0.08" />

      {/* cap */}
      <rect x="178" y="118" width="64" height="66" rx="3" fill="url(#hero-gold)" />
      <path d="M186 124v54M196 124v54M206 124v54M216 124v54M226 124v54M236 124v54" stroke="#fff6e3" strokeOpacity="0.35" strokeWidth="1" />
      {/* collar */}
      <rect x="190" y="184" width="40" height="18" fill="#9a7440" />
      <rect x="184" y="200" width="52" height="8" fill="url(#hero-gold)" />

      {/* flacon */}
      <path d="M128 226a18 18 0 0 1 18-18h128a18 18 0 0 1 18 18v222a18 18 0 0 1-18 18H146a18 18 0 0 1-18-18V226Z" fill="url(#hero-glass)" stroke="#9a7440" strokeWidth="1.25" />
      <path d="M142 300h136v140a12 12 0 0 1-12 12H154a12 12 0 0 1-12-12V300Z" fill="url(#hero-juice)" />
      <path d="M142 300c30 6 62 6 90 0s40-4 46 0" stroke="#fff6e3" strokeOpacity="0.7" strokeWidth="1" />
      {/* facets and light */}
      <path d="M146 222l-4 226M274 222l4 226" stroke="#ffffff" strokeOpacity="0.55" strokeWidth="1" />
      <path d="M160 232c-6 60-6 140 0 200" stroke="#ffffff" strokeOpacity="0.85" strokeWidth="5" strokeLinecap="round" />
      {/* label */}
      <rect x="168" y="330" width="84" height="64" fill="#faf7f2" fillOpacity="0.92" stroke="#9a7440" strokeWidth="0.75" />
      <path d="M180 350h60" stroke="#9a7440" strokeWidth="0.75" />
      <path d="M192 372h36M198 382h24" stroke="#9a7440" strokeOpacity="0.6" strokeWidth="0.75" />
      <circle cx="210" cy="341" r="2" fill="#9a7440" />
    </svg>
  );
}

/** A protea in fine gold lines, for the Our Story arch. Decorative. */
export function ProteaIllustration({ className = "" }: { className?: string }) {
  return (
    <svg viewBox="0 0 200 240" fill="none" aria-hidden="true" focusable="false" className={className}>
      <g stroke="#9a7440" strokeWidth="1" strokeLinecap="round" strokeLinejoin="round">
        {/* stem and leaves */}
        <path d="M100 236c0-40 2-72 0-104" />
        <path d="M100 200c-18-4-34-16-40-34 18 2 34 14 40 34Z" fill="#efe1d8" fillOpacity="0.6" />
        <path d="M101 176c16-6 30-20 34-38-16 4-30 18-34 38Z" fill="#efe1d8" fillOpacity="0.6" />
        {/* outer bracts */}
        <path d="M100 132c-30-4-52-26-56-60 14 10 26 22 32 38" />
        <path d="M100 132c30-4 52-26 56-60-14 10-26 22-32 38" />
        <path d="M100 132c-20-10-34-34-32-66 10 12 18 26 22 42" />
        <path d="M100 132c20-10 34-34 32-66-10 12-18 26-22 42" />
        <path d="M100 132c-8-18-10-44 0-70 10 26 8 52 0 70Z" fill="#f1ebe1" fillOpacity="0.7" />
        {/* inner crown */}
        <path d="M86 96c4-14 8-22 14-28 6 6 10 14 14 28" />
        <path d="M80 106c6-12 12-18 20-22 8 4 14 10 20 22" />
        <path d="M90 88c2-8 6-14 10-18 4 4 8 10 10 18" />
      </g>
      <g fill="#c9a86a">
        <circle cx="100" cy="60" r="1.6" />
        <circle cx="92" cy="64" r="1.2" />
        <circle cx="108" cy="64" r="1.2" />
      </g>
    </svg>
  );
}
