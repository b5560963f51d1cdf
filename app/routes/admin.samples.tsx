import type { Route } from "./+types/admin.samples";
import { AdminPage } from "~/components/admin/admin-page";
import { AdminStatus, useAdminFetcher } from "~/components/admin/admin-status";
import { FilterBar } from "~/components/admin/filter-bar";
import { Pagination } from "~/components/pagination";
import { buttonClass } from "~/components/ui/button";
import { controlClass } from "~/components/ui/field";
import { getDb } from "~/db/db.server";
import { requirePermission } from "~/modules/accounts/session.server";
import { adminAction } from "~/modules/admin/admin-action.server";
import { listHref, parseListQuery } from "~/modules/admin/list-query";
import { SAMPLE_ADMIN_MESSAGES as M, sampleAdminIntent } from "~/modules/samples/samples-admin.schema";
import { listSampledProducts, setProductSampling } from "~/modules/samples/samples-admin.server";
import { SAMPLE_ML, SET_SIZE_MAX, SET_SIZE_MIN } from "~/modules/samples/samples.logic";
import { loadSampleSettings, saveSampleSettings } from "~/modules/samples/samples.server";
import { formatAmount, formatRand } from "~/utils/money";
import { readQuery } from "~/utils/request.server";

/**
 * Admin → Samples (issue 33 point 2, docs/decisions/054): 2 ml samples for the whole catalogue on or off, their price,
 * the discovery set's size and price, the credit window; and per product its own choice and the bulk samples are
 * decanted from. Every save changes what the storefront shows (the product page's offer, /discovery-set).
 */
const PATH = "/admin/samples";
const filters = { q: { kind: "text" } } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "products.edit");
  const query = parseListQuery(readQuery(request), filters);
  const db = getDb();
  const [settings, list] = await Promise.all([loadSampleSettings(db), listSampledProducts(db, { q: query.filters.q, page: query.page })]);
  return { query, settings, list };
}

export const action = adminAction(
  sampleAdminIntent,
  {
    settings: async (db, input) => {
      await saveSampleSettings(db, { enabled: input.enabled, priceCents: input.price, setSize: input.setSize, setPriceCents: input.setPrice, creditDays: input.creditDays });
      return M.saved;
    },
    product: async (db, input) => (await setProductSampling(db, input), M.productSaved),
  },
  { permission: "products.edit", record: { settings: { type: "settings", id: () => "samples" }, product: { type: "product", id: "productId" } }, failure: { settings: M.failed, product: M.failed }, storefront: ["settings", "product"] },
);

export function meta() {
  return [{ title: "Samples | Admin | Scentara" }];
}

const label = "block text-[0.68rem] font-medium uppercase tracking-[0.16em] text-ink-soft";

export default function Samples({ loaderData: d }: Route.ComponentProps) {
  const { query, settings, list } = d;
  const fetcher = useAdminFetcher();
  const here = listHref(PATH, query);
  return (
    <AdminPage
      title="Samples"
      description={`${SAMPLE_ML} ml samples and the discovery set. Each sample bought gives its buyer its price back on a full bottle of that scent within the credit window, applied at checkout.`}
      stats={[
        { label: "Samples", value: settings.enabled ? "On" : "Off", hint: "for the whole catalogue" },
        { label: "Sample", value: formatRand(settings.priceCents) },
        { label: "Discovery set", value: `${settings.setSize} for ${formatRand(settings.setPriceCents)}` },
        { label: "Credit", value: `${settings.creditDays} days` },
      ]}
      status={<AdminStatus />}
    >
      <fetcher.Form method="post" action={here} className="border border-line bg-white p-4 sm:p-6" aria-label="Sample settings">
        <input type="hidden" name="intent" value="settings" />
        <label className="flex items-center gap-3 text-sm text-ink">
          <input type="checkbox" name="enabled" defaultChecked={settings.enabled} className="h-4 w-4 accent-gold" />
          Offer {SAMPLE_ML} ml samples of every product (a product can say otherwise below)
        </label>
        <div className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
          <label className={label}>
            Sample price (R)
            <input name="price" inputMode="decimal" required defaultValue={formatAmount(settings.priceCents)} className={`${controlClass} mt-1.5`} />
          </label>
          <label className={label}>
            Samples in a set
            <input name="setSize" type="number" min={SET_SIZE_MIN} max={SET_SIZE_MAX} required defaultValue={settings.setSize} className={`${controlClass} mt-1.5`} />
          </label>
          <label className={label}>
            Set price (R)
            <input name="setPrice" inputMode="decimal" required defaultValue={formatAmount(settings.setPriceCents)} className={`${controlClass} mt-1.5`} />
          </label>
          <label className={label}>
            Credit window (days)
            <input name="creditDays" type="number" min={1} max={365} required defaultValue={settings.creditDays} className={`${controlClass} mt-1.5`} />
          </label>
        </div>
        <button type="submit" className={buttonClass("primary", "md", "mt-5")}>
          Save sample settings
        </button>
      </fetcher.Form>

      <FilterBar path={PATH} query={query} fields={[{ name: "q", label: "Search products", kind: "search", placeholder: "e.g. Oud" }]} />
      <table className="w-full border border-line bg-white text-sm">
        <caption className="sr-only">Each product's samples</caption>
        <thead>
          <tr className="text-left text-[0.68rem] uppercase tracking-[0.16em] text-ink-soft">
            <th scope="col" className="px-4 py-2 font-medium">Product</th>
            <th scope="col" className="px-4 py-2 font-medium">Samples, bulk (ml)</th>
          </tr>
        </thead>
        <tbody>
          {list.rows.map((p) => (
            <tr key={p.id} className="border-t border-line align-top">
              <th scope="row" className="px-4 py-3 text-left font-display text-lg font-normal text-ink">
                {p.name}
              </th>
              <td className="px-4 py-3">
                <fetcher.Form method="post" action={here} className="flex flex-wrap items-end gap-3" aria-label={`Samples of ${p.name}`}>
                  <input type="hidden" name="intent" value="product" />
                  <input type="hidden" name="productId" value={p.id} />
                  <label className={label}>
                    Samples
                    <select name="offered" defaultValue={p.offered} className={`${controlClass} mt-1.5`}>
                      <option value="catalogue">As the catalogue ({settings.enabled ? "on" : "off"})</option>
                      <option value="on">On</option>
                      <option value="off">Off</option>
                    </select>
                  </label>
                  <label className={label}>
                    Bulk ml
                    <input name="bulkMl" inputMode="numeric" placeholder="not tracked" defaultValue={p.bulkMl ?? ""} className={`${controlClass} mt-1.5 w-32`} />
                  </label>
                  <button type="submit" className={buttonClass("secondary", "md")}>
                    Save
                  </button>
                </fetcher.Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination page={list.page} pageCount={list.pageCount} hrefFor={(page) => listHref(PATH, query, { page })} className="mt-8" label="Pages" />
    </AdminPage>
  );
}
