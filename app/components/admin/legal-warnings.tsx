import { Link } from "react-router";

/**
 * The legal settings a real (https://) shop has not set (docs/decisions/037): its seller information and privacy
 * notice say "Not provided" for each. Nothing when the list is empty (and always on a local shop).
 */
export function LegalWarnings({ missing }: { missing: string[] }) {
  if (!missing.length) return null;
  return (
    <section aria-labelledby="legal-warnings-heading" className="border border-danger/30 bg-danger/5 px-4 py-4 text-sm text-ink">
      <h2 id="legal-warnings-heading" className="font-semibold text-danger">
        Legal notices incomplete: {missing.length} {missing.length === 1 ? "setting" : "settings"} not set
      </h2>
      <p className="mt-1 text-ink-soft">
        Your <Link to="/seller" className="underline decoration-gold underline-offset-4">seller information</Link> (ECTA s43(1)) and{" "}
        <Link to="/privacy" className="underline decoration-gold underline-offset-4">privacy notice</Link> (POPIA s18) say “Not provided” for these. Set
        them in the shop's environment (README, “Legal pages”) and restart.
      </p>
      <ul className="mt-3 list-disc space-y-1 pl-5 break-words text-ink-soft">
        {missing.map((line) => (
          <li key={line}>
            <code className="text-ink">{line.split(" ")[0]}</code> {line.slice(line.indexOf(" ") + 1)}
          </li>
        ))}
      </ul>
    </section>
  );
}
