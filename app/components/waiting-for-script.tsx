import { useLocation } from "react-router";

/**
 * What a page that lives in the browser (cart, checkout) shows until its script has run (issue 13): "Loading…";
 * after a few seconds, still without the script, a plain "still loading" with a Try again link (CSS alone shows it,
 * so it appears even when the script failed to load); and with JavaScript turned off, that the page needs it and
 * what to do instead. Render it only while not hydrated.
 */
export function WaitingForScript({ loading, needsScript }: { loading: string; needsScript: string }) {
  const { pathname, search } = useLocation();
  const noScript = (
    <div className="border border-gold/30 bg-sand px-4 py-3 text-sm text-ink" data-testid="needs-javascript">
      <p className="font-semibold">This page needs JavaScript</p>
      <p className="mt-1 text-ink-soft">
        {needsScript} Please turn JavaScript on in your browser's settings and reload, or chat with us on WhatsApp and we'll help you order.
      </p>
    </div>
  );
  return (
    <div className="mt-10 max-w-xl">
      <p className="js-only text-sm text-muted" role="status">
        {loading}
      </p>
      <div className="js-only reveal-late mt-4 border border-line bg-white/70 px-4 py-3 text-sm text-ink" data-testid="still-loading">
        <p>Still loading — on a slow connection this can take a little longer.</p>
        <a href={`${pathname}${search}`} className="mt-2 inline-block font-medium text-ink underline decoration-gold underline-offset-4 hover:text-gold">
          Try again
        </a>
      </div>
      <noscript className="no-js-fallback">{noScript}</noscript>
      <div className="no-js-only">{noScript}</div>
    </div>
  );
}
