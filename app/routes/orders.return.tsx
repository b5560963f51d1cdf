/**
 * /orders/:id/return — the shopper returns items of a delivered order (issue 21 point 8, docs/decisions/041): what is
 * left to return and until when (ECTA s44 cooling-off; CPA s56 faulty goods), the request form, and the course of the
 * order's returns with their credit notes. The order's owner only (an admin may look); anyone else: not found.
 */
import { data, isRouteErrorResponse, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/orders.return";
import { History, ReturnRequestForm, Rights } from "~/components/returns/return-request";
import { ButtonLink } from "~/components/ui/button";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requireUser, requireUserAction } from "~/modules/accounts/session.server";
import { staffViewer } from "~/modules/accounts/staff-viewer";
import { formatDay, reasonLabel, shopperStatusText } from "~/modules/returns/returns.logic";
import { gather, returnRequestSchema } from "~/modules/returns/returns.schema";
import { requestReturn, returnPageFor } from "~/modules/returns/returns.server";
import { fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { fieldsOf, readForm, readQuery } from "~/utils/request.server";

/** A page personal to the shopper: never kept by a cache. */
const NO_STORE = { "Cache-Control": "private, no-store" };

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = await returnPageFor(getDb(), params.id ?? "", staffViewer(user, "orders.view"));
  if (!page) throw data({ message: "Order not found" }, { status: 404, headers: NO_STORE });
  return data(
    {
      ...page,
      deliveredOn: page.order.deliveredAt ? formatDay(new Date(page.order.deliveredAt)) : null,
      // the note after the request's redirect, while that request still waits for the shop's answer
      requested: readQuery(request).get("requested") === "1" && page.returns[0]?.status === "requested",
      returns: page.returns.map((r) => ({ ...r, requestedOn: formatDay(new Date(r.requestedAt)), statusText: shopperStatusText(r), reasonText: reasonLabel(r.reason) })),
    },
    { headers: NO_STORE },
  );
}

export function headers() {
  return NO_STORE;
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const fields = gather(fieldsOf(await readForm(request)), "qty", "lines");
  const parsed = returnRequestSchema.safeParse(fields);
  if (!parsed.success) return formError(parsed.error.issues[0]?.message ?? "Please check the form", 400, fieldErrorsOf(parsed.error.issues));
  const orderId = params.id ?? "";
  return handleDomainErrors(async () => {
    await requestReturn(getDb(), user, {
      orderId,
      reason: parsed.data.reason,
      note: parsed.data.note,
      opened: parsed.data.opened,
      refundTo: parsed.data.refundTo,
      lines: Object.entries(parsed.data.lines).map(([lineId, quantity]) => ({ lineId, quantity })),
    });
    // Post/Redirect/Get: a reload doesn't ask twice, and the page shows the request with its status.
    return redirect(`/orders/${encodeURIComponent(orderId)}/return?requested=1`, { status: 303 });
  });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Return items of order ${loaderData.order.shortId} | Scentara` : "Return items | Scentara" }, { name: "robots", content: "noindex" }];
}

export default function ReturnItems({ loaderData: d, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const failed = actionData && "ok" in actionData && !actionData.ok ? actionData : null;
  return (
    <main id="main" className="container-page pt-28 pb-20 sm:pt-36">
      <div className="mx-auto max-w-3xl">
        <p className="eyebrow">Returns</p>
        <h1 className="mt-2 text-4xl text-ink sm:text-5xl">Return items</h1>
        <p className="mt-3 text-sm text-ink-soft">
          Order <span className="font-mono text-ink">#{d.order.shortId}</span>
          {d.deliveredOn ? <> · delivered {d.deliveredOn}</> : null}
        </p>

        <Rights policy={d.policy} windows={d.windows} />

        {d.requested ? (
          <div className="mt-8">
            <Notice tone="success">Your return request has been sent. We'll e-mail you our answer.</Notice>
          </div>
        ) : null}

        {d.blocked ? (
          <div className="mt-8">
            <Notice tone="info">{d.blocked}</Notice>
          </div>
        ) : (
          <ReturnRequestForm lines={d.lines} windows={d.windows} excludeOpened={d.policy.excludeOpened} failed={failed} busy={busy} />
        )}

        {d.returns.length ? <History returns={d.returns} /> : null}
      </div>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main id="main" className="container-page flex min-h-[60vh] items-center justify-center pt-28 pb-20">
      <div className="max-w-md text-center">
        <p className="eyebrow">Returns</p>
        <h1 className="mt-3 text-4xl text-ink">{notFound ? "Order Not Found" : "Something went wrong"}</h1>
        <p className="mt-4 text-sm text-ink-soft">{notFound ? "We couldn't find the order you're looking for." : "The page could not be loaded. Please try again."}</p>
        <ButtonLink to="/profile/orders" variant="secondary" className="mt-8">
          My orders
        </ButtonLink>
      </div>
    </main>
  );
}
