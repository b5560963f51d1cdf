import { useEffect, useState } from "react";
import { data, useLocation, useRevalidator } from "react-router";
import type { Route } from "./+types/payment-status";
import { StatusPanel } from "~/components/payment/status-panel";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { clearStoredCart } from "~/modules/cart/clear-cart.browser";
import { PAYMENT_RETURN_MESSAGES, TEST_ORDER_ID, resolvePaymentReturn, testOrderView, type PaymentReturnView } from "~/modules/flows/payment-return.server";
import { logger } from "~/utils/logger.server";
import { readQuery } from "~/utils/request.server";
import { formatRand } from "~/utils/money";

/** How the page re-checks while the payment is being confirmed: every 1.5 s, for about 20 s. */
const RECHECK_MS = 1500;
const RECHECK_ATTEMPTS = 13;

export async function loader({ request }: Route.LoaderArgs) {
  const query = readQuery(request);
  const orderId = query.get("orderId")?.trim() ?? "";
  const status = query.get("status");
  let result: PaymentReturnView;
  if (!orderId) result = { view: "error", message: PAYMENT_RETURN_MESSAGES.noOrder, httpStatus: 404 };
  else if (orderId === TEST_ORDER_ID) result = testOrderView(status);
  else {
    const user = await requireUser(request);
    try {
      result = await resolvePaymentReturn(getDb(), { orderId, status, userId: user.id });
    } catch (error) {
      logger.error({ err: error, orderId }, "payment-status: could not resolve the payment return");
      result = { view: "error", message: PAYMENT_RETURN_MESSAGES.failed, httpStatus: 500 };
    }
  }
  const httpStatus = result.view === "error" ? result.httpStatus : 200;
  return data(result, { status: httpStatus, headers: { "Cache-Control": "no-store" } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  const view = loaderData?.view;
  const title =
    view === "success" ? "Payment Successful" : view === "failed" ? "Payment Failed" : view === "confirming" ? "Confirming your payment" : "Payment status";
  return [{ title }, { name: "robots", content: "noindex" }];
}

export default function PaymentStatus({ loaderData }: Route.ComponentProps) {
  switch (loaderData.view) {
    case "success":
      return <SuccessView orderId={loaderData.orderId} shortId={loaderData.shortId} totalCents={loaderData.totalCents} test={loaderData.test} />;
    case "confirming":
      return <ConfirmingView shortId={loaderData.shortId} />;
    case "failed":
      return <FailedView />;
    default:
      return (
        <StatusPanel tone="neutral" eyebrow="Payment" title="Something is not right" actions={<HomeButton primary />}>
          <p role="alert">{loaderData.message}</p>
        </StatusPanel>
      );
  }
}

function HomeButton({ primary = false }: { primary?: boolean }) {
  return (
    <ButtonLink to="/" variant={primary ? "primary" : "secondary"} size="lg">
      Return Home
    </ButtonLink>
  );
}

function SuccessView({ orderId, shortId, totalCents, test }: { orderId: string; shortId: string; totalCents: number | null; test: boolean }) {
  useEffect(() => {
    // The payment is verified: the cart and its coupon have been bought.
    if (!test) clearStoredCart();
  }, [test]);
  return (
    <StatusPanel
      tone="success"
      eyebrow={test ? "Test payment" : "Payment verified"}
      title="Payment Successful!"
      actions={
        <>
          <ButtonLink to={`/order-confirmation?id=${encodeURIComponent(orderId)}`} size="lg">
            View Order Details
          </ButtonLink>
          <HomeButton />
        </>
      }
    >
      <p>Thank you for your purchase. Your order is now being processed.</p>
      <p className="mt-4" data-testid="paid-order">
        Order <span className="font-medium text-ink">#{shortId}</span>
        {totalCents !== null ? (
          <>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            paid <span className="font-medium text-ink">{formatRand(totalCents)}</span>
          </>
        ) : null}
      </p>
    </StatusPanel>
  );
}

function FailedView() {
  return (
    <StatusPanel
      tone="failed"
      eyebrow="Payment not completed"
      title="Payment Failed"
      actions={
        <>
          <ButtonLink to="/cart" size="lg">
            Try Again
          </ButtonLink>
          <HomeButton />
        </>
      }
    >
      <p>Your payment was not completed. Please try again.</p>
    </StatusPanel>
  );
}

/**
 * The provider sent the buyer back before its webhook arrived. The page asks the server again every 1.5 s for
 * about 20 s (the server may ask the provider); it never decides anything itself. Without JavaScript, 'Check again'
 * reloads the page.
 */
function ConfirmingView({ shortId }: { shortId: string }) {
  const revalidator = useRevalidator();
  const location = useLocation();
  const [attempts, setAttempts] = useState(0);
  const waiting = attempts < RECHECK_ATTEMPTS;
  useEffect(() => {
    if (!waiting || revalidator.state !== "idle") return;
    const timer = window.setTimeout(() => {
      setAttempts((n) => n + 1);
      void revalidator.revalidate();
    }, RECHECK_MS);
    return () => window.clearTimeout(timer);
  }, [waiting, revalidator, attempts]);

  return (
    <StatusPanel
      tone="pending"
      eyebrow={`Order ${shortId}`}
      title="Confirming your payment…"
      live
      actions={
        waiting ? null : (
          <>
            <ButtonLink to={`${location.pathname}${location.search}`} reloadDocument size="lg">
              Check again
            </ButtonLink>
            <HomeButton />
          </>
        )
      }
    >
      {waiting ? (
        <p>We are waiting for the payment provider to confirm your payment. This usually takes a few seconds — please keep this page open.</p>
      ) : (
        <p>
          Your payment has not been confirmed yet. If you completed it, the confirmation will follow shortly and we will
          e-mail you; you can also check your orders in your profile.
        </p>
      )}
      <noscript>
        <p className="mt-4">
          <a className="underline underline-offset-4" href={`${location.pathname}${location.search}`}>
            Check again
          </a>
        </p>
      </noscript>
    </StatusPanel>
  );
}
