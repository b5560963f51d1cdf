/**
 * The header's and footer's link to /discovery-set (docs/decisions/054 addendum), on SQLite and PostgreSQL: off while
 * samples are off; on once the owner turns them on (or offers a set's worth of scents one by one), from the change
 * that flushes the cached pages — the answer is kept until then, so a page render costs no query.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { insertProduct } from "../../../tests/factories/catalog";
import { DEFAULT_SAMPLE_SETTINGS } from "./samples.logic";
import { saveProductSampling, saveSampleSettings } from "./samples.server";
import { discoverySetOffered } from "./discovery-set-offered.server";

const db = () => getDb();

afterAll(async () => {
  await saveSampleSettings(db(), DEFAULT_SAMPLE_SETTINGS);
  await db().updateTable("product_samples").set({ offered: null }).execute();
  storefrontChanged("test: samples back off");
});

describe("the discovery set's link", () => {
  it("follows the sample settings, as of the last storefront change", async () => {
    await saveSampleSettings(db(), { ...DEFAULT_SAMPLE_SETTINGS, enabled: false, setSize: 2 });
    await db().updateTable("product_samples").set({ offered: null }).execute();
    storefrontChanged("test: samples off");
    expect(await discoverySetOffered(db())).toBe(false);

    await saveSampleSettings(db(), { ...DEFAULT_SAMPLE_SETTINGS, enabled: true, setSize: 2 });
    expect(await discoverySetOffered(db())).toBe(false); // kept until the change is announced (the admin's save does)
    storefrontChanged("test: samples on");
    expect(await discoverySetOffered(db())).toBe(true);

    // off across the catalogue, but two scents offered one by one: a set of two can be built
    await saveSampleSettings(db(), { ...DEFAULT_SAMPLE_SETTINGS, enabled: false, setSize: 2 });
    const [a, b] = await Promise.all([insertProduct(db()), insertProduct(db())]);
    await saveProductSampling(db(), a.id, { offered: true, bulkMl: null });
    storefrontChanged("test: one scent");
    expect(await discoverySetOffered(db())).toBe(false);
    await saveProductSampling(db(), b.id, { offered: true, bulkMl: null });
    storefrontChanged("test: two scents");
    expect(await discoverySetOffered(db())).toBe(true);
  });
});
