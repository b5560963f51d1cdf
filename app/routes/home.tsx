import type { Route } from "./+types/home";
import { getDb } from "~/db/db.server";

export async function loader() {
  const products = await getDb().selectFrom("products").select(["id", "name"]).limit(12).execute();
  return { products };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <h1>Scentara ({loaderData.products.length})</h1>;
}
