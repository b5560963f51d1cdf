import { ButtonLink } from "~/components/ui/button";

/** The pieces of "Delete my account" (app/routes/profile.delete-account.tsx): what goes, what stays, and after. */

/** What the deletion will do to this account, in the page's words (the loader's). */
export interface DeletionPreview {
  keptOrders: Array<{ shortId: string; invoiceNumber: string | null; date: string }>;
  openOrders: number;
  onTheirWay: number;
  reviews: number;
  invoiceYears: number;
  giftCards: Array<{ last4: string; balance: string; until: string }>;
  openSampleCredits: number;
}

/** What the deletion erases, and what it keeps and why (side by side from a tablet up). */
export function DeletionSummary({ d }: { d: DeletionPreview }) {
  return (
    <div className="mt-10 grid gap-6 md:grid-cols-2">
      <section aria-labelledby="erased-title" className="border border-line bg-white/60 px-6 py-6">
        <h2 id="erased-title" className="text-2xl text-ink">
          What we erase
        </h2>
        <ul className="mt-4 list-disc space-y-2 pl-5 text-sm leading-relaxed text-ink-soft">
          <li>Your sign-in and password: you are signed out on every device at once.</li>
          <li>Your e-mail preferences.</li>
          <li>{d.reviews > 0 ? `Your ${d.reviews === 1 ? "review" : `${d.reviews} reviews`}: removed from the shop.` : "Any reviews you wrote: removed from the shop."}</li>
          <li>The messages you sent us and the e-mails we sent you.</li>
          <li>The name, telephone and address on orders that were never paid.</li>
          <li>Your wishlist, your cart, your back-in-stock requests, and your WhatsApp number and messages.</li>
          <li>
            {d.openSampleCredits > 0
              ? `Your ${d.openSampleCredits === 1 ? "unused sample credit: it ends" : `${d.openSampleCredits} unused sample credits: they end`} with your account.`
              : "Your sample credits."}
          </li>
          {d.openOrders > 0 ? <li>Your unpaid {d.openOrders === 1 ? "order is" : "orders are"} cancelled.</li> : null}
        </ul>
      </section>
      <section aria-labelledby="kept-title" className="border border-line bg-white/60 px-6 py-6">
        <h2 id="kept-title" className="text-2xl text-ink">
          What we keep
        </h2>
        {d.keptOrders.length ? (
          <>
            <p className="mt-4 text-sm leading-relaxed text-ink-soft">
              The tax law (Tax Administration Act, section 29) makes us keep the record of what we sold for {d.invoiceYears} years. These orders and their
              invoices stay, with only what the invoice shows (name, delivery address, telephone, what was bought and the amounts), no longer linked to
              you:
            </p>
            <ul className="mt-3 divide-y divide-line border-y border-line text-sm">
              {d.keptOrders.map((o) => (
                <li key={o.shortId} className="flex flex-wrap justify-between gap-x-4 py-2">
                  <span className="font-mono text-ink">#{o.shortId}</span>
                  <span className="text-ink-soft">{o.invoiceNumber ? `${o.invoiceNumber}, ${o.date}` : o.date}</span>
                </li>
              ))}
            </ul>
            {d.onTheirWay > 0 ? (
              <p className="mt-3 text-sm leading-relaxed text-ink-soft">
                {d.onTheirWay === 1 ? "An order on its way is" : `${d.onTheirWay} orders on their way are`} still delivered, but we can no longer e-mail you
                about {d.onTheirWay === 1 ? "it" : "them"}.
              </p>
            ) : null}
          </>
        ) : (
          <p className="mt-4 text-sm leading-relaxed text-ink-soft">Nothing that names you: you have no paid orders.</p>
        )}
        {d.giftCards.length ? (
          <>
            <p className="mt-3 text-sm leading-relaxed text-ink-soft">
              Your gift cards keep their money: they are no longer linked to you, and still pay with their code at checkout until they expire. Keep the
              codes:
            </p>
            <ul className="mt-3 divide-y divide-line border-y border-line text-sm">
              {d.giftCards.map((c) => (
                <li key={c.last4 + c.until} className="flex flex-wrap justify-between gap-x-4 py-2">
                  <span className="text-ink">Ending {c.last4}</span>
                  <span className="text-ink-soft">
                    {c.balance}, until {c.until}
                  </span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <p className="mt-3 text-sm leading-relaxed text-ink-soft">
          The record of the consents you gave stays, without your e-mail address. We e-mail you once to confirm the deletion.
        </p>
      </section>
    </div>
  );
}

export function Deleted() {
  return (
    <main id="main" className="container-page flex min-h-[70vh] items-center justify-center pt-28 pb-20">
      <div className="w-full max-w-lg border border-line bg-white/70 px-6 py-12 text-center sm:px-10">
        <p className="eyebrow">Your account</p>
        <h1 className="mt-3 text-4xl text-ink">Your account has been deleted</h1>
        <div className="mx-auto mt-5 h-px w-12 bg-gold/60" aria-hidden="true" />
        <p className="mt-5 text-sm leading-relaxed text-ink-soft">
          You are signed out everywhere, and we have erased your personal information. Paid orders and their invoices stay on record for the tax law,
          no longer linked to an account; gift cards keep their money and still pay with their code. We have sent you an e-mail that says what was
          erased and what is kept.
        </p>
        <ButtonLink to="/" variant="secondary" className="mt-8">
          Return Home
        </ButtonLink>
      </div>
    </main>
  );
}
