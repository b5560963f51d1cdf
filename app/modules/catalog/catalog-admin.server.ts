import { sql } from "kysely";
import { isUniqueViolation, type Queryable } from "~/db/db.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { CATEGORY_MESSAGES, categorySlugFor } from "./catalog-admin.schema";

/** The catalogue as the owner manages it: categories here; products and their images below. */

export interface AdminCategory {
  id: string;
  name: string;
  slug: string;
  createdAt: string;
  productCount: number;
}

/** Every category by name, with how many products each holds. */
export async function listAdminCategories(db: Queryable): Promise<AdminCategory[]> {
  const rows = await db
    .selectFrom("categories as c")
    .leftJoin("products as p", "p.category_id", "c.id")
    .select(["c.id", "c.name", "c.slug", "c.created_at", (eb) => eb.fn.count<number>("p.id").as("n")])
    .groupBy(["c.id", "c.name", "c.slug", "c.created_at"])
    .orderBy("c.name")
    .orderBy("c.slug")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, createdAt: r.created_at, productCount: Number(r.n) }));
}

/** Adds a category; a name or slug already taken (case-insensitively) is refused with a message. */
export async function addCategory(db: Queryable, input: { name: string }): Promise<AdminCategory> {
  const name = input.name.trim().replace(/\s+/g, " ");
  const slug = categorySlugFor(name);
  if (!slug) throw new DomainError("Category name needs at least one letter or digit", 400, "name");
  const clash = await db
    .selectFrom("categories")
    .select("id")
    .where((eb) => eb.or([eb(sql<string>`lower(name)`, "=", name.toLowerCase()), eb("slug", "=", slug)]))
    .executeTakeFirst();
  if (clash) throw new DomainError(CATEGORY_MESSAGES.duplicate, 409, "name");
  const row = { id: newId(), name, slug, created_at: new Date().toISOString() };
  try {
    await db.insertInto("categories").values(row).execute();
  } catch (error) {
    // Two admins adding the same name at once: the unique slug decides, the second hears why.
    if (isUniqueViolation(error)) throw new DomainError(CATEGORY_MESSAGES.duplicate, 409, "name");
    throw error;
  }
  return { id: row.id, name, slug, createdAt: row.created_at, productCount: 0 };
}

/**
 * Deletes a category. Its products stay in the shop, uncategorised (the foreign key sets their category to null);
 * the answer says how many, so nothing changes silently.
 */
export async function deleteCategory(db: Queryable, id: string): Promise<{ name: string; moved: number }> {
  const category = await db.selectFrom("categories").select(["id", "name"]).where("id", "=", id).executeTakeFirst();
  if (!category) throw new DomainError("That category no longer exists", 404);
  const { n } = await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).where("category_id", "=", id).executeTakeFirstOrThrow();
  await db.updateTable("products").set({ category_id: null }).where("category_id", "=", id).execute();
  await db.deleteFrom("categories").where("id", "=", id).execute();
  return { name: category.name, moved: Number(n) };
}
