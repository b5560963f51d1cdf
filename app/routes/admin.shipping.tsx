import { inTransaction } from "~/db/in-transaction.server";
import { z } from "zod";
import type { Route } from "./+types/admin.shipping";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus } from "~/components/admin/admin-status";
import { DeliverySettingsSection, type DeliveryKindView } from "~/components/admin/delivery-settings";
import { ZoneCard, ZoneDialog, type ZoneView } from "~/components/admin/shipping-zones";
import { Notice } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import type { DeliveryKind } from "~/modules/couriers/courier";
import { COURIER_OF_KIND, courierClient } from "~/modules/couriers/couriers.server";
import { DELIVERY_KIND_ORDER, DELIVERY_SETTINGS_MESSAGES as D, deliverySettingsFormValues, deliverySettingsOf, deliverySettingsSchema } from "~/modules/couriers/delivery-settings.schema";
import { loadDeliverySettings, saveDeliverySettings } from "~/modules/couriers/delivery.server";
import { SA_PROVINCES } from "~/modules/orders/orders.logic";
import { deleteRule, deleteZone, listAdminZones, saveRule, saveZone } from "~/modules/shipping/shipping-admin.server";
import { SHIPPING_ADMIN_MESSAGES as M, shippingAdminIntent } from "~/modules/shipping/shipping-admin.schema";
import { freeDeliveryText, ruleRangeLabel } from "~/modules/shipping/shipping.logic";
import { freeDeliveryThresholdCents } from "~/modules/shipping/shipping.server";
import { env } from "~/utils/env.server";
import { formatAmount, formatRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";

const PATH = "/admin/shipping";

/** The real services' names, as the owner knows them (a kind without credentials shows the test courier instead). */
const SERVICE_NAMES: Record<DeliveryKind, string> = { door: "The Courier Guy (Shiplogic)", locker: "PUDO", point: "Pargo" };

/** The zone and rule forms, and the delivery settings form below them. */
const shippingPageIntent = z.discriminatedUnion("intent", [...shippingAdminIntent.options, deliverySettingsSchema]);

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "settings");
  const query = parseListQuery(readQuery(request), {});
  const db = getDb();
  const [zones, deliverySettings] = await Promise.all([listAdminZones(db), loadDeliverySettings(db)]);
  const offered = env().DELIVERY_KINDS;
  const servedBy: Record<string, string> = {};
  for (const z of zones) for (const p of z.provinces) servedBy[p] = z.name;
  const threshold = freeDeliveryThresholdCents();
  return {
    query,
    servedBy,
    unserved: SA_PROVINCES.filter((p) => !servedBy[p]),
    freeDelivery: { text: freeDeliveryText(threshold), amount: threshold > 0 ? formatRand(threshold) : "Always" },
    zones: zones.map(
      (z): ZoneView => ({
        id: z.id,
        name: z.name,
        provinces: z.provinces,
        baseRate: formatRand(z.baseRateCents),
        baseRateInput: formatAmount(z.baseRateCents),
        rules: z.rules.map((r) => ({
          id: r.id,
          range: ruleRangeLabel(r),
          rate: r.rateCents === 0 ? "Free" : formatRand(r.rateCents),
          minInput: formatAmount(r.minTotalCents),
          maxInput: r.maxTotalCents === null ? "" : formatAmount(r.maxTotalCents),
          rateInput: formatAmount(r.rateCents),
        })),
      }),
    ),
    delivery: {
      values: deliverySettingsFormValues(deliverySettings),
      kinds: DELIVERY_KIND_ORDER.map((kind): DeliveryKindView => ({
        kind,
        courier: courierClient(COURIER_OF_KIND[kind]).test ? null : SERVICE_NAMES[kind],
        offered: offered.includes(kind),
      })),
    },
  };
}

export const action = adminAction(
  shippingPageIntent,
  {
    saveZone: async (db, input) => ((await saveZone(db, input)).created ? M.zoneCreated : M.zoneUpdated),
    deleteZone: async (db, { id }) => (await deleteZone(db, id), M.zoneDeleted),
    saveRule: async (db, input) => ((await saveRule(db, input)).created ? M.ruleAdded : M.ruleUpdated),
    deleteRule: async (db, { id }) => (await deleteRule(db, id), M.ruleDeleted),
    // Read and written together: an amount left empty keeps what is stored (see deliverySettingsOf).
    saveDelivery: (db, input) =>
      inTransaction(db, async (trx) => {
        await saveDeliverySettings(trx, deliverySettingsOf(input, await loadDeliverySettings(trx)));
        return D.saved;
      }),
  },
  {
    permission: "settings",
    // delivery settings (the courier accounts and their keys): step-up
    sensitive: ["saveDelivery"],
    record: { saveZone: { type: "zone", find: "name" }, deleteZone: "zone", saveRule: { type: "zone", id: "zoneId" }, deleteRule: { type: "zone", partOf: "rule" }, saveDelivery: { type: "settings", id: () => "delivery" } },
    failure: { saveZone: M.failedSaveZone, deleteZone: M.failedDeleteZone, saveRule: M.failedSaveRule, deleteRule: M.failedDeleteRule, saveDelivery: D.failedSave },
    // The terms and the checkout read zones and rates: every change reaches visitors at once. Delivery settings are
    // read by checkout and booking only, which no cached page shows: nothing to tell.
    storefront: ["saveZone", "deleteZone", "saveRule", "deleteRule"],
    // Province checkboxes repeat the field: the schema reads them as one JSON list.
    prepare: (fields, form) => ({ ...fields, provinces: JSON.stringify(form.getAll("provinces").filter((v) => typeof v === "string")) }),
  },
);

export function meta() {
  return [{ title: "Shipping | Admin | Scentara" }];
}

export default function Shipping({ loaderData: d }: Route.ComponentProps) {
  const { query, zones, servedBy, unserved, freeDelivery, delivery } = d;
  const here = listHref(PATH, query);
  const ruleCount = zones.reduce((n, z) => n + z.rules.length, 0);
  return (
    <AdminPage
      title="Shipping"
      description="Delivery zones, the provinces they serve and their rates by order total. At checkout the zone serving the shopper's province is preselected; the rule whose range holds the total sets the rate, otherwise the zone's base rate. Below them, the couriers: where they collect, the parcel, and what each way of delivery costs."
      actions={<ZoneDialog zone={null} query={query} path={PATH} servedBy={servedBy} />}
      stats={[
        { label: "Zones", value: zones.length },
        { label: "Rules", value: ruleCount },
        { label: "Provinces served", value: `${SA_PROVINCES.length - unserved.length} / ${SA_PROVINCES.length}` },
        { label: "Free delivery from", value: freeDelivery.amount, hint: "set in the shop's configuration" },
      ]}
      status={<AdminStatus />}
    >
      {zones.length > 0 && unserved.length > 0 ? (
        <Notice tone="info">
          No zone serves {unserved.join(", ")}. Shoppers there get the first zone, {zones[0]!.name}, preselected (they can choose another).
        </Notice>
      ) : null}
      {zones.length === 0 ? (
        <div className="border border-dashed border-line bg-white/60 px-6 py-12 text-center">
          <p className="font-display text-2xl text-ink">{M.none}</p>
          <p className="mt-2 text-sm text-ink-soft">Until there is one, every order below the free-delivery threshold pays the fixed R70.00.</p>
        </div>
      ) : (
        <ul className="space-y-4">
          {zones.map((zone) => (
            <ZoneCard key={zone.id} zone={zone} query={query} path={PATH} here={here} servedBy={servedBy} />
          ))}
        </ul>
      )}
      <p className="text-xs text-muted">{freeDelivery.text} after any discount, whatever the zone: the home page, the terms and the checkout say the same.</p>
      <DeliverySettingsSection values={delivery.values} kinds={delivery.kinds} action={here} />
    </AdminPage>
  );
}
