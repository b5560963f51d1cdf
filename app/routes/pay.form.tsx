import { useEffect, useRef } from "react";
import { data } from "react-router";
import type { Route } from "./+types/pay.form";
import { buttonClass } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { checkoutFormForOrder } from "~/modules/payments/payments.server";
import { DomainError } from "~/utils/errors";
import { formatRand } from "~/utils/money";

/**
 * /pay/form/:orderId — PayFast and Ozow take the shopper by a form post, not a redirect: this page carries the
 * provider's signed form for the shopper's own pending order and posts it at once (with JavaScript) or on a tap.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  try {
    return data(await checkoutFormForOrder(getDb(), params.orderId, user), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof DomainError) throw new Response(error.message, { status: error.status });
    throw error;
  }
}

export function meta() {
  return [{ title: "Continue to payment" }, { name: "robots", content: "noindex" }];
}

export default function PayForm({ loaderData: d }: Route.ComponentProps) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.submit();
  }, []);
  return (
    <main className="flex-1">
      <section className="container-page max-w-md pt-28 pb-20 text-center sm:pt-32">
      <p className="eyebrow">Order #{d.shortId}</p>
      <h1 className="mt-2 text-3xl text-ink">Taking you to {d.provider}</h1>
      <p className="mt-3 text-sm text-ink-soft">
        You pay {formatRand(d.amountCents)} on {d.provider}'s secure page, then come straight back here.
      </p>
      <form ref={form} method="post" action={d.form.action} className="mt-8">
        {d.form.fields.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className={buttonClass("primary", "lg")}>
          Continue to {d.provider}
        </button>
      </form>
      </section>
    </main>
  );
}
