// Placeholder: replaced by its area's implementation.
export async function loader() {
  return new Response("Not implemented", { status: 501 });
}
