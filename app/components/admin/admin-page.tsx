import { StatCards, type StatCard } from "./stat-cards";

/**
 * The shape every admin page shares: eyebrow, title, a line of what the page is for, actions on the right, stat
 * cards, a status line for the last action, then the page's own content.
 */
export function AdminPage({
  title,
  description,
  actions,
  stats,
  status,
  children,
}: {
  title: string;
  description?: string;
  actions?: React.ReactNode;
  stats?: StatCard[];
  /** the last action's message (see useTransientMessage) */
  status?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <div className="min-w-0">
      {/* The actions sit to the right of the title while both fit on one line; when they don't (Marketing's four),
          they go below it as one row, rather than squeezing into a column and wrapping into three. */}
      <header className="flex flex-wrap items-end justify-between gap-x-6 gap-y-4 border-b border-line pb-6">
        <div className="min-w-0 flex-[1_1_28rem]">
          <p className="eyebrow">Admin</p>
          <h1 className="mt-1 text-3xl text-ink sm:text-4xl">{title}</h1>
          {description ? <p className="mt-2 max-w-2xl text-sm text-ink-soft">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </header>
      {stats && stats.length > 0 ? <StatCards cards={stats} className="mt-6" /> : null}
      <div aria-live="polite" className="empty:hidden mt-6">
        {status}
      </div>
      <div className="mt-6 space-y-6">{children}</div>
    </div>
  );
}
