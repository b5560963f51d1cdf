/**
 * A signed-in shopper's cart, kept on the server too (issue 34 point 2; docs/decisions/056), so it follows them to
 * another device and a reminder can name what was left. The browser's cart (cart.browser.ts) stays the one the shop
 * works from: it is sent here when it changes (cart-sync.browser.ts) and answered with the server's copy.
 *
 * - Only what and how many is stored (product, size, quantity); names and prices are read from the database whenever
 *   lines are answered, so a price a browser sends is never kept or believed.
 * - A browser that saw the server's latest version replaces it (its removals count). One that saw an older version
 *   (another device changed the cart meanwhile) sends the lines of the version it saw, and its changes since are
 *   applied over the other device's (rebaseCartLines: a removal on either side sticks; a line both changed keeps the
 *   larger quantity). Only a browser that never synced for this shopper (the sign-in on this device) or kept no such
 *   lines merges: every line of both, a product in a size in both at the larger quantity (mergeCartLines). Two devices
 *   saving at once: the update is conditional on the version read, and the loser reads again and rebases.
 * - Sample and discovery-set lines (reserved size tokens, app/modules/samples) are kept while they are on offer.
 * - `cart_id` is new when the cart gets its first item and cleared when it is emptied: a reminder is per cart_id.
 */
import { createHmac } from "node:crypto";
import type { DB, Queryable } from "~/db/db.server";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import type { SavedCartLine } from "~/db/schema";
import type { CartLine } from "~/modules/cart/cart.browser";
import { cartLineKey } from "~/modules/orders/cart-quote";
import { newId } from "~/utils/ids";
import { giftCardLineLabel, giftCardLineName, isGiftCardLine, parseGiftCardToken } from "~/modules/gift-cards/gift-card-sales.logic";
import { isSampleLine, quoteSampleLines } from "~/modules/samples/samples.server";
import { mergeCartLines, rebaseCartLines, sameCartLines, type CartSyncRequest } from "./saved-cart.logic";

export interface SyncedCart {
  /** whose cart this is, as an opaque tag the browser keeps (cartOwnerTag) */
  owner: string;
  version: number;
  /** the cart as the browser keeps it, named and priced from the database (prices for display only) */
  lines: CartLine[];
}

/**
 * The browser keeps this beside the version it saw, so a sync can tell "this browser's last sync was for this shopper"
 * from a sign-in (of this shopper or another one) on it. Names nobody outside the shop: a keyed hash of the user id.
 */
export function cartOwnerTag(userId: string): string {
  return createHmac("sha256", authSecret()).update(`scentara/cart-owner/v1\n${userId}`).digest("base64url").slice(0, 22);
}

/** Lines of products that exist, in a size of that product when one is named; anything else is dropped. */
async function knownLines(db: Queryable, lines: readonly SavedCartLine[]): Promise<SavedCartLine[]> {
  if (lines.length === 0) return [];
  const onOffer = await sampleLinesOnOffer(db, lines);
  const products = new Set(
    (await db.selectFrom("products").select("id").where("id", "in", [...new Set(lines.map((l) => l.productId))]).execute()).map((p) => p.id),
  );
  const sizeIds = [...new Set(lines.flatMap((l) => (l.sizeId ? [l.sizeId] : [])))];
  const sizes = new Map(
    sizeIds.length ? (await db.selectFrom("product_sizes").select(["id", "product_id"]).where("id", "in", sizeIds).execute()).map((s) => [s.id, s.product_id]) : [],
  );
  return lines
    // a gift card line is no product: it is kept while its token reads (the quote checks the rest, docs/decisions/053);
    // a sample or set line while it is on offer
    .filter((l) =>
      isGiftCardLine(l)
        ? parseGiftCardToken(l.sizeId) !== null
        : isSampleLine(l)
          ? onOffer.has(cartLineKey(l))
          : products.has(l.productId) && (!l.sizeId || sizes.get(l.sizeId) === l.productId),
    )
    .map((l) => (l.sizeId ? { productId: l.productId, sizeId: l.sizeId, quantity: l.quantity } : { productId: l.productId, quantity: l.quantity }));
}

/** The cart's sample and set lines still on offer, by key, named and priced as the cart quotes them. */
async function sampleLinesOnOffer(db: Queryable, lines: readonly SavedCartLine[]) {
  const quoted = await quoteSampleLines(db, lines.filter(isSampleLine));
  return new Map(quoted.lines.map((l) => [l.key, l]));
}

/**
 * Stored lines as the browser keeps them: the product's name, the size's label, the price of that size (or of the
 * product's first size for a line without one). Lines whose product has gone are left out.
 */
export async function cartLinesForBrowser(db: Queryable, lines: readonly SavedCartLine[]): Promise<CartLine[]> {
  if (lines.length === 0) return [];
  const products = new Map(
    (
      await db
        .selectFrom("products")
        .select(["id", "name", "price_cents"])
        .where("id", "in", [...new Set(lines.map((l) => l.productId))])
        .execute()
    ).map((p) => [p.id, p]),
  );
  const sizeIds = [...new Set(lines.flatMap((l) => (l.sizeId ? [l.sizeId] : [])))];
  const sizes = new Map(
    sizeIds.length ? (await db.selectFrom("product_sizes").select(["id", "label", "price_cents"]).where("id", "in", sizeIds).execute()).map((s) => [s.id, s]) : [],
  );
  const samples = await sampleLinesOnOffer(db, lines);
  const out: CartLine[] = [];
  for (const l of lines) {
    const gift = isGiftCardLine(l) ? parseGiftCardToken(l.sizeId) : null;
    if (gift) {
      out.push({ id: l.productId, size: l.sizeId!, sizeLabel: giftCardLineLabel(gift), name: giftCardLineName(gift), price: gift.amountCents, quantity: l.quantity });
      continue;
    }
    const sample = samples.get(cartLineKey(l));
    if (sample) {
      out.push({ id: l.productId, size: sample.sizeId, sizeLabel: sample.sizeLabel, name: sample.name, price: sample.unitPriceCents, quantity: l.quantity });
      continue;
    }
    const product = products.get(l.productId);
    if (!product) continue;
    const size = l.sizeId ? sizes.get(l.sizeId) : undefined;
    if (l.sizeId && !size) continue;
    out.push({
      id: product.id,
      ...(size ? { size: size.id, sizeLabel: size.label } : {}),
      name: product.name,
      price: Number(size ? size.price_cents : product.price_cents),
      quantity: l.quantity,
    });
  }
  return out;
}

/** The server's copy of a shopper's cart (empty when none). */
export async function readSavedCart(db: Queryable, userId: string): Promise<{ version: number; lines: SavedCartLine[]; cartId: string | null }> {
  const row = await db.selectFrom("saved_carts").select(["version", "lines", "cart_id"]).where("user_id", "=", userId).executeTakeFirst();
  return row ? { version: Number(row.version), lines: row.lines, cartId: row.cart_id } : { version: 0, lines: [], cartId: null };
}

/**
 * Saves what a browser sent and answers the server's cart afterwards (see the file's comment). The merge at sign-in
 * is this same call from a browser whose owner tag is not this shopper's (mergeCartAtSignIn in cart-sync.browser.ts).
 */
export async function syncSavedCart(db: DB, userId: string, request: CartSyncRequest, now = new Date()): Promise<SyncedCart> {
  const owner = cartOwnerTag(userId);
  // a browser whose last sync was for someone else (or no one) merges, whatever version it names
  const baseVersion = request.owner === owner ? request.baseVersion : null;
  const incoming = await knownLines(db, request.lines);
  const baseLines = baseVersion !== null && request.baseLines ? request.baseLines : null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.selectFrom("saved_carts").select(["version", "lines", "cart_id"]).where("user_id", "=", userId).executeTakeFirst();
    if (!row) {
      const inserted = await db
        .insertInto("saved_carts")
        .values({
          user_id: userId,
          lines: JSON.stringify(incoming),
          version: 1,
          cart_id: incoming.length ? newId() : null,
          changed_at: incoming.length ? now.toISOString() : null,
          updated_at: now.toISOString(),
        })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .returning("version")
        .executeTakeFirst();
      if (inserted) return { owner, version: 1, lines: await cartLinesForBrowser(db, incoming) };
      continue; // another request made it first: read it and go on from there
    }
    const version = Number(row.version);
    // this browser's lines first (the device in hand), then what only the server had
    const next = baseVersion === version ? incoming : baseLines ? rebaseCartLines(baseLines, incoming, row.lines) : mergeCartLines(incoming, row.lines);
    if (sameCartLines(next, row.lines)) return { owner, version, lines: await cartLinesForBrowser(db, next) };
    const updated = await db
      .updateTable("saved_carts")
      .set({
        lines: JSON.stringify(next),
        version: version + 1,
        cart_id: next.length ? (row.cart_id ?? newId()) : null,
        changed_at: next.length ? now.toISOString() : null,
        updated_at: now.toISOString(),
      })
      .where("user_id", "=", userId)
      .where("version", "=", version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) return { owner, version: version + 1, lines: await cartLinesForBrowser(db, next) };
  }
  throw new Error("the cart kept changing while it was saved");
}
