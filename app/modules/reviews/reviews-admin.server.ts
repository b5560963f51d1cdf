import { sql } from "kysely";
import { containsInsensitive, type Queryable } from "~/db/db.server";
import { paginate, type Page } from "~/db/paginate.server";
import { DomainError } from "~/utils/errors";

/** Reviews as the owner moderates them (SPEC §2, §7): newest first, with the product and the author's e-mail. */
export const ADMIN_REVIEWS_PAGE_SIZE = 25;

export interface AdminReview {
  id: string;
  rating: number;
  comment: string;
  createdAt: string;
  productName: string;
  productSlug: string;
  userEmail: string | null;
}

/** Search looks in the comment, the product's name and the author's e-mail; rating narrows to one star count. */
export async function listAdminReviews(db: Queryable, input: { q: string; rating: string; page: number }): Promise<Page<AdminReview> & { total: number }> {
  let query = db
    .selectFrom("reviews as r")
    .innerJoin("products as p", "p.id", "r.product_id")
    .leftJoin("users as u", "u.id", "r.user_id")
    .select(["r.id", "r.rating", "r.comment", "r.created_at", "p.name as product_name", "p.slug as product_slug", "u.email as user_email"]);
  if (input.q) query = query.where((eb) => eb.or([containsInsensitive("r.comment", input.q), containsInsensitive("p.name", input.q), containsInsensitive("u.email", input.q)]));
  if (input.rating) query = query.where("r.rating", "=", Number(input.rating));
  const [page, total] = await Promise.all([
    paginate(query.orderBy("r.created_at", "desc").orderBy("r.id", "desc"), { page: input.page, pageSize: ADMIN_REVIEWS_PAGE_SIZE }),
    db.selectFrom("reviews").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    ...page,
    total: Number(total.n),
    rows: page.rows.map((r) => ({
      id: r.id,
      rating: Number(r.rating),
      comment: r.comment ?? "",
      createdAt: r.created_at,
      productName: r.product_name,
      productSlug: r.product_slug,
      userEmail: r.user_email,
    })),
  };
}

/** The average over all reviews, for the page's figures (1 decimal; null with none). */
export async function reviewStats(db: Queryable): Promise<{ count: number; average: number | null }> {
  const row = await db.selectFrom("reviews").select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.avg<number>(sql`rating`).as("avg")]).executeTakeFirstOrThrow();
  const count = Number(row.n);
  return { count, average: count ? Math.round(Number(row.avg) * 10) / 10 : null };
}

export async function updateReview(db: Queryable, input: { id: string; rating: number; comment: string }): Promise<void> {
  const result = await db.updateTable("reviews").set({ rating: input.rating, comment: input.comment }).where("id", "=", input.id).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new DomainError("That review no longer exists", 404);
}

export async function deleteReview(db: Queryable, id: string): Promise<void> {
  const result = await db.deleteFrom("reviews").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new DomainError("That review no longer exists", 404);
}
