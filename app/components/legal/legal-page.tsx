import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Fact } from "~/modules/legal/legal.logic";

/**
 * The frame of the legal pages (/terms, /privacy, /seller): a washed header (with an optional line under the title,
 * e.g. the terms' effective date), the sections listed on the left (on top on a phone), the text in `terms-prose`.
 */
export function LegalPage({
  eyebrow = "Legal",
  title,
  note,
  intro,
  sections,
  children,
}: {
  eyebrow?: string;
  title: string;
  note?: ReactNode;
  intro: ReactNode;
  sections: ReadonlyArray<{ id: string; title: string }>;
  children: ReactNode;
}) {
  return (
    <main>
      <header className="relative overflow-hidden border-b border-line">
        <div aria-hidden="true" className="hero-wash absolute inset-0" />
        <div className="container-page relative pt-32 pb-14 sm:pt-40 sm:pb-20">
          <p className="eyebrow">{eyebrow}</p>
          <h1 className="mt-4 text-5xl leading-tight text-ink sm:text-6xl">{title}</h1>
          <span aria-hidden="true" className="mt-6 block h-px w-12 bg-gold-light" />
          {note ? <p className="mt-6 text-sm text-ink-soft">{note}</p> : null}
        </div>
      </header>

      <div className="container-page grid gap-12 py-14 sm:py-20 lg:grid-cols-12">
        <nav aria-label="Sections" className="lg:col-span-3">
          <div className="lg:sticky lg:top-28">
            <p className="eyebrow">On this page</p>
            <ol className="mt-4 space-y-2 border-l border-line text-sm">
              {sections.map((s, i) => (
                <li key={s.id}>
                  <a href={`#${s.id}`} className="-ml-px block border-l border-transparent py-1 pl-4 text-ink-soft transition-colors hover:border-gold hover:text-ink">
                    <span className="mr-2 text-gold tabular-nums">{String(i + 1).padStart(2, "0")}</span>
                    {s.title}
                  </a>
                </li>
              ))}
            </ol>
          </div>
        </nav>

        <article className="terms-prose min-w-0 max-w-3xl lg:col-span-9">
          <p className="lead">{intro}</p>
          {children}
        </article>
      </div>
    </main>
  );
}

export function LegalSection({ n, id, title, law, children }: { n: number; id: string; title: string; law?: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <span aria-hidden="true" className="mr-3 font-sans text-sm tracking-[0.2em] text-gold tabular-nums">
          {String(n).padStart(2, "0")}
        </span>
        {title}
      </h2>
      {law ? <p className="-mt-3 mb-5 text-xs tracking-[0.06em] text-muted">{law}</p> : null}
      {children}
    </section>
  );
}

/** What the page says for a setting the owner has not given: no guess, no placeholder that looks like a fact. */
export function NotProvided() {
  return <span className="text-muted italic">Not provided</span>;
}

/** A fact of one or more lines, or "Not provided". */
export function FactText({ value }: { value: Fact }) {
  if (!value) return <NotProvided />;
  return (
    // paragraphs get a little air between them; address lines stay together
    <span className={`block ${value.some((l) => l.length > 60) ? "space-y-1.5" : ""}`}>
      {value.map((line, i) => (
        <span key={i} className="block break-words">
          {linkify(line)}
        </span>
      ))}
    </span>
  );
}

/** A label and its fact, as one row of a definition list (stacked on a phone, side by side from sm). */
export function FactRow({ label, law, children }: { label: string; law?: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-line py-4 sm:grid-cols-[14rem_minmax(0,1fr)] sm:gap-6">
      <dt className="text-sm font-medium text-ink">
        {label}
        {law ? <span className="mt-0.5 block text-xs font-normal tracking-[0.04em] text-muted">{law}</span> : null}
      </dt>
      <dd className="min-w-0 text-ink-soft">{children}</dd>
    </div>
  );
}

export function FactList({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <dl className="mt-2 border-t border-line" aria-label={label}>
      {children}
    </dl>
  );
}

/** An in-shop path as a router link; an e-mail address or web address in a fact as a link; anything else as text. */
export function linkify(text: string): ReactNode {
  const parts = text.split(/(https?:\/\/[^\s,;)]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)/g);
  return parts.map((part, i) => {
    if (i % 2 === 0) return part;
    if (part.includes("@") && !part.startsWith("http")) return <a key={i} href={`mailto:${part}`}>{part}</a>;
    return (
      <a key={i} href={part} rel="noopener noreferrer">
        {part}
      </a>
    );
  });
}

export function PageLink({ to, children }: { to: string; children: ReactNode }) {
  return <Link to={to}>{children}</Link>;
}
