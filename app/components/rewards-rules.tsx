/** The rewards programme's rules, numbered (docs/decisions/062, 063): on /rewards and, while it runs, the terms page. */
export function RewardRulesList({ items, title = "How it works" }: { items: ReadonlyArray<{ title: string; text: string }>; title?: string }) {
  return (
    <section aria-labelledby="rules-title" className="mt-14">
      <h2 id="rules-title" className="text-3xl text-ink">
        {title}
      </h2>
      <span aria-hidden="true" className="mt-4 block h-px w-12 bg-gold-light" />
      <ol className="mt-6 divide-y divide-line border-y border-line">
        {items.map((item, i) => (
          <li key={item.title} className="grid grid-cols-[2rem_1fr] gap-x-3 py-5 sm:grid-cols-[3rem_1fr]">
            <span aria-hidden="true" className="font-display text-2xl leading-none text-gold">
              {i + 1}
            </span>
            <div>
              <h3 className="font-sans text-sm font-medium uppercase tracking-[0.14em] text-ink">{item.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-soft">{item.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
