import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { CONTACT_MESSAGES } from "~/modules/contact/contact.schema";
import { contactRateLimiter } from "~/modules/contact/contact.server";
import { env } from "~/utils/env.server";
import { insertProduct } from "../../tests/factories/catalog";
import { callAction, callLoader, dataOf, statusOf } from "../../tests/setup/route";
import { action, loader } from "./home";
import { loader as notFoundLoader } from "./not-found";

async function counts() {
  const db = getDb();
  const messages = await db.selectFrom("contact_messages").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const mails = await db.selectFrom("mail_outbox").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return { messages: Number(messages.n), mails: Number(mails.n) };
}

beforeEach(async () => {
  const db = getDb();
  await db.deleteFrom("contact_messages").execute();
  await db.deleteFrom("mail_outbox").execute();
  await db.deleteFrom("products").execute();
});

describe("home loader", () => {
  it("shows the 12 newest products, newest first, with prices in cents and a null image when there is none", async () => {
    const db = getDb();
    const inserted = [];
    for (let i = 0; i < 14; i++) {
      inserted.push(await insertProduct(db, { name: `Scent ${i}`, price_cents: 10000 + i * 101, images: i === 13 ? ["/media/products/s13-1200.webp"] : [] }));
    }
    const data = await dataOf(await callLoader(loader, "/"));
    expect(data.products).toHaveLength(12);
    expect(data.products.map((p: any) => p.name)).toEqual(inserted.slice(2).reverse().map((p) => p.name));
    expect(data.products[0]).toMatchObject({ slug: inserted[13].slug, priceCents: 10000 + 13 * 101, image: "/media/products/s13-1200.webp" });
    expect(data.products[1].image).toBeNull();
  });

  it("works with an empty catalogue", async () => {
    const data = await dataOf(await callLoader(loader, "/"));
    expect(data.products).toEqual([]);
  });
});

describe("unknown paths", () => {
  it("answer with the home page's data and status 404", async () => {
    const product = await insertProduct(getDb(), { name: "Velvet Oud" });
    const result = await callLoader(notFoundLoader, "/no-such-page");
    expect(statusOf(result)).toBe(404);
    const data = await dataOf(result);
    expect(data.products.map((p: any) => p.slug)).toEqual([product.slug]);
  });
});

describe("contact form action", () => {
  const valid = { name: "Thandi Mokoena", email: "thandi@example.co.za", message: "Do you deliver to Polokwane?" };

  it("stores a valid message and e-mails it to the shop's contact address", async () => {
    const result = await callAction(action, "/?index", { ...valid, name: "  Thandi   Mokoena ", message: "Do you deliver to Polokwane?\r\nThanks!" });
    expect(statusOf(result)).toBe(200);
    expect(await dataOf(result)).toEqual({ ok: true });

    const rows = await getDb().selectFrom("contact_messages").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "Thandi Mokoena", email: "thandi@example.co.za", message: "Do you deliver to Polokwane?\nThanks!" });

    const mails = await getDb().selectFrom("mail_outbox").selectAll().execute();
    expect(mails).toHaveLength(1);
    expect(mails[0].to_address).toBe(env().CONTACT_EMAIL);
    expect(mails[0].subject).toContain("Thandi Mokoena");
    expect(mails[0].text_body).toContain("From: Thandi Mokoena");
    expect(mails[0].text_body).toContain("E-mail: thandi@example.co.za");
    expect(mails[0].text_body).toContain("Do you deliver to Polokwane?\nThanks!");
    // en-ZA long date with time, South African time
    expect(mails[0].text_body).toMatch(/Submitted: \d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4} at \d{2}:\d{2} SAST/);
    expect(mails[0].html_body).toContain("thandi@example.co.za");
  });

  it("escapes HTML in the e-mail's HTML body", async () => {
    await callAction(action, "/?index", { ...valid, message: "<script>alert(1)</script>" });
    const mail = await getDb().selectFrom("mail_outbox").selectAll().executeTakeFirstOrThrow();
    expect(mail.html_body).not.toContain("<script>");
    expect(mail.html_body).toContain("&lt;script&gt;");
  });

  const failures: Array<[string, Record<string, string>, string, string]> = [
    ["missing name", { ...valid, name: "" }, "name", CONTACT_MESSAGES.nameRequired],
    ["blank name", { ...valid, name: "   " }, "name", CONTACT_MESSAGES.nameRequired],
    ["missing email", { ...valid, email: "" }, "email", CONTACT_MESSAGES.emailRequired],
    ["invalid email", { ...valid, email: "thandi@" }, "email", CONTACT_MESSAGES.emailInvalid],
    ["email without domain dot", { ...valid, email: "not an email" }, "email", CONTACT_MESSAGES.emailInvalid],
    ["missing message", { ...valid, message: "" }, "message", CONTACT_MESSAGES.messageRequired],
    ["blank message", { ...valid, message: " \n " }, "message", CONTACT_MESSAGES.messageRequired],
    ["too long message", { ...valid, message: "x".repeat(5001) }, "message", CONTACT_MESSAGES.messageTooLong],
  ];
  it.each(failures)("%s: says why, answers 400 and stores nothing", async (_label, form, field, message) => {
    const result = await callAction(action, "/?index", form);
    expect(statusOf(result)).toBe(400);
    const data = await dataOf(result);
    expect(data.ok).toBe(false);
    expect(data.fieldErrors[field]).toBe(message);
    expect(data.error).toBe(CONTACT_MESSAGES.fixFields);
    expect(await counts()).toEqual({ messages: 0, mails: 0 });
  });

  it("a request missing every field reports each field", async () => {
    const result = await callAction(action, "/?index", {});
    expect(statusOf(result)).toBe(400);
    const data = await dataOf(result);
    expect(Object.keys(data.fieldErrors).sort()).toEqual(["email", "message", "name"]);
    expect(await counts()).toEqual({ messages: 0, mails: 0 });
  });

  it("keeps what was typed for the no-JavaScript form", async () => {
    const data = await dataOf(await callAction(action, "/?index", { ...valid, email: "bad" }));
    expect(data.values).toEqual({ name: valid.name, email: "bad", message: valid.message });
  });

  it("refuses a flood of messages from one address with the failure message, storing nothing more", async () => {
    const ip = "203.0.113.77";
    for (let i = 0; i < contactRateLimiter.limit; i++) {
      expect(statusOf(await callAction(action, "/?index", valid, { ip }))).toBe(200);
    }
    const blocked = await callAction(action, "/?index", valid, { ip });
    expect(statusOf(blocked)).toBe(429);
    expect(await dataOf(blocked)).toMatchObject({ ok: false, error: CONTACT_MESSAGES.failureTitle });
    expect(await counts()).toEqual({ messages: contactRateLimiter.limit, mails: contactRateLimiter.limit });
    // another address is not affected
    expect(statusOf(await callAction(action, "/?index", valid, { ip: "203.0.113.78" }))).toBe(200);
  });

  it("silently drops a message whose hidden honeypot field was filled", async () => {
    const result = await callAction(action, "/?index", { ...valid, website: "http://spam.example" });
    expect(statusOf(result)).toBe(200);
    expect(await dataOf(result)).toEqual({ ok: true });
    expect(await counts()).toEqual({ messages: 0, mails: 0 });
  });
});
