import { Form, data, redirect, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/pay.simulated";
import { Button } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requireUser, requireUserAction } from "~/modules/accounts/session.server";
import { cancelSimulatedCheckout, getSimulatedCheckout, paySimulatedCheckout } from "~/modules/flows/simulated-checkout.server";
import { useRootData } from "~/modules/settings/root-data";
import { DomainError, formError } from "~/utils/errors";
import { formatRand } from "~/utils/money";
import { readFields } from "~/utils/request.server";

/**
 * /pay/simulated/:checkoutId — the simulated provider's checkout page (PAYMENT_PROVIDER=simulated only).
 * A TEST page, not a card form: Pay sends a signed webhook through the same verification as a real provider.
 */
function notFound(error: unknown): never {
  if (error instanceof DomainError && error.status === 404) throw new Response(error.message, { status: 404, statusText: "Not Found" });
  throw error;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const checkout = await getSimulatedCheckout(getDb(), params.checkoutId, user.id).catch(notFound);
  return data(checkout, { headers: { "Cache-Control": "private, no-store" } });
}

const intentSchema = z.object({ intent: z.enum(["pay", "cancel"]) });

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const parsed = intentSchema.safeParse(await readFields(request));
  if (!parsed.success) return formError("Choose Pay or Cancel.");
  try {
    const to =
      parsed.data.intent === "pay"
        ? await paySimulatedCheckout(getDb(), params.checkoutId, user.id)
        : await cancelSimulatedCheckout(getDb(), params.checkoutId, user.id);
    return redirect(to);
  } catch (error) {
    if (error instanceof DomainError && error.status !== 404) return formError(error.message, error.status);
    return notFound(error);
  }
}

export function meta() {
  return [{ title: "Test payment" }, { name: "robots", content: "noindex" }];
}

export default function SimulatedPayment({ loaderData, actionData }: Route.ComponentProps) {
  const { shop } = useRootData();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const checkout = loaderData;
  return (
    <main className="relative flex-1 bg-sand/60">
      <div className="container-page flex justify-center pt-28 pb-20 sm:pt-32">
        <section aria-labelledby="pay-heading" className="w-full max-w-md border border-line bg-white shadow-[0_24px_60px_-30px_rgb(28_23_20/0.35)]">
          <div role="note" className="flex items-center gap-3 border-b border-dashed border-gold bg-[repeating-linear-gradient(-45deg,#f1ebe1_0_10px,#faf7f2_10px_20px)] px-5 py-3">
            <span className="shrink-0 whitespace-nowrap bg-ink px-2 py-1 text-[0.65rem] font-semibold uppercase tracking-[0.2em] text-ivory">Test mode</span>
            <p className="text-xs leading-snug text-ink-soft">
              This is a simulated payment page for testing. No card is needed and no money is charged.
            </p>
          </div>

          <div className="px-6 py-8 sm:px-8">
            <p className="eyebrow">{shop.name || "Checkout"}</p>
            <h1 id="pay-heading" className="mt-2 text-3xl">
              Test payment
            </h1>
            <dl className="mt-6 divide-y divide-line border-y border-line text-sm">
              <div className="flex justify-between gap-4 py-3">
                <dt className="text-ink-soft">Order</dt>
                <dd className="font-medium">#{checkout.shortId}</dd>
              </div>
              <div className="flex items-baseline justify-between gap-4 py-3">
                <dt className="text-ink-soft">Amount due</dt>
                <dd className="font-display text-3xl tabular-nums">{formatRand(checkout.amountCents)}</dd>
              </div>
            </dl>

            <div className="mt-6 space-y-4">
              {actionData?.error ? <Notice tone="error">{actionData.error}</Notice> : null}
              {checkout.state === "paid" ? <Notice tone="success">This order has already been paid.</Notice> : null}
              {checkout.state === "closed" ? <Notice tone="info">This checkout is closed. Please start again from your cart.</Notice> : null}
            </div>

            {checkout.state === "open" ? (
              <Form method="post" className="mt-6 flex flex-col gap-3">
                <Button type="submit" name="intent" value="pay" size="lg" disabled={busy}>
                  {busy && navigation.formData?.get("intent") === "pay" ? "Processing…" : `Pay ${formatRand(checkout.amountCents)}`}
                </Button>
                <Button type="submit" name="intent" value="cancel" variant="secondary" size="lg" disabled={busy}>
                  Cancel
                </Button>
              </Form>
            ) : (
              <div className="mt-6 flex flex-col gap-3">
                <a href={checkout.state === "paid" ? checkout.successUrl : "/cart"} className="text-center text-sm underline underline-offset-4">
                  {checkout.state === "paid" ? "See the payment status" : "Back to your cart"}
                </a>
              </div>
            )}
          </div>
        </section>
      </div>
    </main>
  );
}
