import { data, useNavigation } from "react-router";
import type { Route } from "./+types/order-confirmation";
import { FoundView, LoadingView, TestOrderView, type Invoice, type SoldCardView } from "~/components/payment/order-confirmation";
import { StatusPanel } from "~/components/payment/status-panel";
import { ButtonLink } from "~/components/ui/button";
import { getDb } from "~/db/db.server";
import { requireUser } from "~/modules/accounts/session.server";
import { staffViewer } from "~/modules/accounts/staff-viewer";
import { formatInvoiceNumber, invoicePath } from "~/modules/invoices/invoice.logic";
import { getOrderForViewer, type OrderView } from "~/modules/samples/order-view.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { TEST_ORDER_ID } from "~/modules/flows/payment-return.server";
import { readQuery } from "~/utils/request.server";
import type { TrackingView } from "~/components/tracking-timeline";
import { deliveryViewForOrder, type ChosenDeliveryView } from "~/modules/couriers/shipments.server";
import { giftCardPaymentsOf } from "~/modules/gift-cards/gift-card-orders.server";
import { giftCardPdfPath, soldGiftCardsOfOrder } from "~/modules/gift-cards/gift-card-sales.server";

type ConfirmationData =
  | { state: "found"; order: OrderView; invoice: Invoice | null; tracking: TrackingView | null; delivery: ChosenDeliveryView | null; giftCardPayments: Array<{ last4: string; amountCents: number }>; soldCards: SoldCardView[] }
  | { state: "test" }
  | { state: "not_found" }
  | { state: "error"; message: string };

/** /order-confirmation?id= — the owner (or an admin) reads the order; anyone else gets Not Found. */
export async function loader({ request }: Route.LoaderArgs) {
  const id = readQuery(request).get("id")?.trim() ?? "";
  const headers = { "Cache-Control": "private, no-store" };
  if (!id) return data<ConfirmationData>({ state: "error", message: "No order ID provided" }, { status: 400, headers });
  // SPEC §4: the test order (orderId=test, as on the payment-status page) reads as paid; nothing is looked up.
  if (id === TEST_ORDER_ID) return data<ConfirmationData>({ state: "test" }, { headers });
  // A visitor signs in and comes back here (requireUser redirects to /auth/login?redirect=<this URL>).
  const user = await requireUser(request);
  try {
    const order = await getOrderForViewer(getDb(), id, staffViewer(user, "orders.view"));
    if (!order) return data<ConfirmationData>({ state: "not_found" }, { status: 404, headers });
    const invoice = order.paymentStatus === "completed" && order.invoiceNumber !== null ? { number: formatInvoiceNumber(order.invoiceNumber, env().INVOICE_PREFIX), href: invoicePath(order.id) } : null;
    const { tracking, delivery } = await deliveryViewForOrder(getDb(), order.id);
    const giftCardPayments = (await giftCardPaymentsOf(getDb(), order.id)).map(({ last4, amountCents }) => ({ last4, amountCents }));
    // the gift cards it bought (docs/decisions/053), each with its printable card while it is active
    const soldCards = (await soldGiftCardsOfOrder(getDb(), order.id)).map((c) => ({
      last4: c.last4,
      amountCents: c.amountCents,
      to: c.recipientName ?? null,
      sendOn: c.sendOn,
      emailed: c.emailedAt !== null,
      pdf: c.status === "active" ? giftCardPdfPath(order.id, c.id) : null,
    }));
    return data<ConfirmationData>({ state: "found", order, invoice, tracking, delivery, giftCardPayments, soldCards }, { headers });
  } catch (error) {
    logger.error({ err: error, orderId: id }, "order-confirmation: could not read the order");
    return data<ConfirmationData>({ state: "error", message: "Failed to fetch order details" }, { status: 500, headers });
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  const title = loaderData?.state === "found" ? `Order ${loaderData.order.shortId}` : loaderData?.state === "test" ? "Order test" : "Order confirmation";
  return [{ title }, { name: "robots", content: "noindex" }];
}

export default function OrderConfirmation({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  // Moving between orders on the client: show the loading state rather than the previous order.
  if (navigation.state === "loading" && navigation.location?.pathname === "/order-confirmation") return <LoadingView />;
  if (loaderData.state === "found")
    return <FoundView order={loaderData.order} invoice={loaderData.invoice} tracking={loaderData.tracking} delivery={loaderData.delivery} giftCardPayments={loaderData.giftCardPayments} soldCards={loaderData.soldCards} />;
  if (loaderData.state === "test") return <TestOrderView />;
  if (loaderData.state === "not_found") {
    return (
      <StatusPanel tone="neutral" eyebrow="Order confirmation" title="Order Not Found" actions={<ButtonLink to="/" size="lg">Return Home</ButtonLink>}>
        <p>We couldn't find the order you're looking for.</p>
      </StatusPanel>
    );
  }
  return (
    <StatusPanel tone="failed" eyebrow="Order confirmation" title="Error Loading Order" actions={<ButtonLink to="/" size="lg">Return Home</ButtonLink>}>
      <p role="alert">{loaderData.message}</p>
    </StatusPanel>
  );
}
