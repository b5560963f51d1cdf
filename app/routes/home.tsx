import { data } from "react-router";
import type { Route } from "./+types/home";
import { JsonLd } from "~/components/json-ld";
import { HomePage } from "~/components/home/home-page";
import { getDb } from "~/db/db.server";
import type { ContactActionData } from "~/components/contact-form";
import { CONTACT_MESSAGES, HONEYPOT_FIELD, contactSchema } from "~/modules/contact/contact.schema";
import { contactRateLimiter, submitContactMessage } from "~/modules/contact/contact.server";
import { requestInfoContext } from "~/context";
import { loadHome } from "~/modules/home/home.server";
import { seoMeta } from "~/modules/seo/seo";
import { productItemListJsonLd } from "~/modules/seo/structured-data";
import { getShopInfo } from "~/modules/settings/settings.server";
import { rootDataOf, useRootData } from "~/modules/settings/root-data";
import { errorBody, fieldErrorsOf } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { readForm } from "~/utils/request.server";

export async function loader() {
  return loadHome(getDb());
}

/** The contact form (SPEC §2, §8): validate on the server, store, e-mail the shop. Bad input stores nothing. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const fields = {
    name: form.get("name") ?? undefined,
    email: form.get("email") ?? undefined,
    message: form.get("message") ?? undefined,
  };
  const honeypot = form.get(HONEYPOT_FIELD);
  if (typeof honeypot === "string" && honeypot.trim() !== "") {
    // A bot filled the hidden field: answer like a success so it learns nothing, and keep nothing.
    logger.info("contact form: honeypot filled, message dropped");
    return data<ContactActionData>({ ok: true });
  }

  const parsed = contactSchema.safeParse(fields);
  if (!parsed.success) {
    const text = (v: unknown) => (typeof v === "string" ? v.slice(0, 5000) : undefined);
    const values = { name: text(fields.name), email: text(fields.email), message: text(fields.message) };
    return data<ContactActionData>({ ...errorBody(CONTACT_MESSAGES.fixFields, fieldErrorsOf(parsed.error.issues)), values }, { status: 400 });
  }

  if (!(await contactRateLimiter.allow(context.get(requestInfoContext).ip))) {
    logger.warn("contact form: too many messages from one address");
    return data<ContactActionData>(errorBody(CONTACT_MESSAGES.failureTitle), { status: 429 });
  }

  const shop = getShopInfo();
  try {
    await submitContactMessage(getDb(), parsed.data, { to: shop.contactEmail, shopName: shop.name });
  } catch (error) {
    logger.error({ err: error }, "contact form: storing the message failed");
    return data<ContactActionData>(errorBody(CONTACT_MESSAGES.failureTitle), { status: 500 });
  }
  return data<ContactActionData>({ ok: true });
}

export function meta({ matches }: Route.MetaArgs) {
  const { shop, baseUrl } = rootDataOf(matches);
  return seoMeta({
    title: `${shop.name} | Designer-Inspired Fragrances in South Africa`,
    description:
      "Long-lasting, designer-inspired perfumes at fair prices, delivered to your door across South Africa. Shop fragrances for him and her, priced in rand.",
    path: "/",
    baseUrl,
    siteName: shop.name,
  });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { baseUrl } = useRootData();
  return (
    <>
      <HomePage products={loaderData.products} />
      <JsonLd data={productItemListJsonLd(loaderData.products, baseUrl, 10)} />
    </>
  );
}
