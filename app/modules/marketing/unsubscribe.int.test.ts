/**
 * The unsubscribe link (/unsubscribe?token=…), on SQLite and PostgreSQL: it works signed out, from the page and from
 * a mail program's one-click POST (RFC 8058), logs the withdrawal once, and a forged or expired link is refused with
 * a clear message and changes nothing.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import * as route from "~/routes/unsubscribe";
import * as oneClick from "~/routes/unsubscribe.one-click";
import { authSecret } from "~/modules/accounts/auth-secret.server";
import { listConsents } from "~/modules/consent/consent.server";
import { oneClickUnsubscribeWording, unsubscribePageWording } from "~/modules/consent/consent.logic";
import { env } from "~/utils/env.server";
import { callAction, callLoader, dataOf, statusOf, TEST_ORIGIN } from "../../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { signUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS } from "./unsubscribe-token";
import { maskEmail, UNSUBSCRIBE_MESSAGES, unsubscribeLinks, unsubscribeUrl } from "./unsubscribe.server";

const db = () => getDb();
const pathOf = (url: string) => url.slice(env().PUBLIC_BASE_URL.replace(/\/+$/, "").length);

async function state(userId: string) {
  const user = await db().selectFrom("users").select(["email_marketing", "marketing_consent_at"]).where("id", "=", userId).executeTakeFirstOrThrow();
  return { ...user, consents: (await listConsents(db(), userId)).length };
}

describe("the unsubscribe link", () => {
  it("opening it shows the question and the masked address, and changes nothing", async () => {
    const user = await createUser(db(), { email: "thandi.nkosi@example.co.za", emailMarketing: true });
    const before = await state(user.id);
    const result = await callLoader(route.loader, pathOf(unsubscribeUrl(user.id)));
    expect(statusOf(result)).toBe(200);
    expect((await dataOf(result)).state).toEqual({ kind: "ready", email: "th•••@example.co.za", subscribed: true });
    expect(await state(user.id)).toEqual(before);
    expect(maskEmail("a@b.co")).toBe("a•••@b.co");
  });

  it("its button unsubscribes, signed out, once: the log shows the page's words; a second press records nothing", async () => {
    const user = await createUser(db(), { emailMarketing: true });
    const path = pathOf(unsubscribeUrl(user.id));
    const token = new URL(path, TEST_ORIGIN).searchParams.get("token")!;
    const first = await dataOf(await callAction(route.action, "/unsubscribe", { token }));
    expect(first.outcome).toMatchObject({ kind: "done", changed: true, message: UNSUBSCRIBE_MESSAGES.done });
    expect(await state(user.id)).toEqual({ email_marketing: false, marketing_consent_at: null, consents: 1 });
    const [row] = await listConsents(db(), user.id);
    expect(row).toMatchObject({ purpose: "marketing_email", granted: false, source: "unsubscribe", wording: unsubscribePageWording(env().SHOP_NAME), email: user.email, actorUserId: null });

    const second = await dataOf(await callAction(route.action, path, {}));
    expect(second.outcome).toMatchObject({ kind: "done", changed: false, message: UNSUBSCRIBE_MESSAGES.already });
    expect((await state(user.id)).consents).toBe(1);
  });

  it("a mail program's one-click POST (RFC 8058) to the header's address unsubscribes: from another origin, whoever is signed in", async () => {
    const user = await createUser(db(), { emailMarketing: true });
    // also while someone else is signed in on that browser: the token decides, not the session
    const other = await createUser(db());
    const links = unsubscribeLinks(user.id);
    expect(pathOf(links.oneClickUrl)).toBe(pathOf(links.pageUrl).replace("/unsubscribe?", "/unsubscribe/one-click?"));
    const result = await callAction(oneClick.action, pathOf(links.oneClickUrl), { "List-Unsubscribe": "One-Click" }, { headers: { origin: "https://mail.example.com", cookie: await sessionCookieFor(db(), other.id) } });
    expect(statusOf(result)).toBe(200);
    expect(await (result as Response).text()).toBe(UNSUBSCRIBE_MESSAGES.done);
    expect((await state(user.id)).email_marketing).toBe(false);
    const [row] = await listConsents(db(), user.id);
    expect(row).toMatchObject({ granted: false, source: "unsubscribe", wording: oneClickUnsubscribeWording(env().SHOP_NAME) });
    expect(await listConsents(db(), other.id)).toEqual([]);
    // a program that only opens the header's address (RFC 2369) is sent to the page, which asks first
    const opened = (await callLoader(oneClick.loader, pathOf(links.oneClickUrl))) as Response;
    expect(opened.status).toBe(303);
    expect(opened.headers.get("Location")).toBe(pathOf(links.pageUrl));
  });

  it("a forged, altered or expired link is refused with a clear message, and nothing changes", async () => {
    const user = await createUser(db(), { emailMarketing: true });
    const victim = await createUser(db(), { emailMarketing: true });
    const good = new URL(unsubscribeUrl(user.id)).searchParams.get("token")!;
    const [payload, signature] = good.split(".") as [string, string];
    const forgedPayload = Buffer.from(JSON.stringify({ u: victim.id, e: Math.floor(Date.now() / 1000) + 86400 })).toString("base64url");
    const expired = signUnsubscribeToken(user.id, { secret: authSecret(), now: new Date(Date.now() - (UNSUBSCRIBE_LINK_DAYS + 1) * 24 * 3600_000) });
    const otherSecret = signUnsubscribeToken(victim.id, { secret: "not-this-shops-secret-not-this-shops-secret" });
    const cases: Array<[string, string]> = [
      [`${forgedPayload}.${signature}`, UNSUBSCRIBE_MESSAGES.invalid],
      [`${payload}.${signature.slice(0, -2)}`, UNSUBSCRIBE_MESSAGES.invalid],
      [otherSecret, UNSUBSCRIBE_MESSAGES.invalid],
      ["", UNSUBSCRIBE_MESSAGES.invalid],
      [expired, UNSUBSCRIBE_MESSAGES.expired],
    ];
    const before = [await state(user.id), await state(victim.id)];
    for (const [token, message] of cases) {
      const opened = await callLoader(route.loader, `/unsubscribe?token=${encodeURIComponent(token)}`);
      expect(statusOf(opened), token).toBe(400);
      expect((await dataOf(opened)).state.message).toBe(message);
      const posted = await callAction(route.action, `/unsubscribe?token=${encodeURIComponent(token)}`, { token });
      expect(statusOf(posted), token).toBe(400);
      expect((await dataOf(posted)).outcome.message).toBe(message);
      const clicked = (await callAction(oneClick.action, `/unsubscribe/one-click?token=${encodeURIComponent(token)}`, { "List-Unsubscribe": "One-Click" }, { headers: { origin: "https://mail.example.com" } })) as Response;
      expect(clicked.status, token).toBe(400);
      expect(await clicked.text()).toBe(message);
    }
    expect([await state(user.id), await state(victim.id)]).toEqual(before);
  });

  it("the link of a deleted account says there is nothing to unsubscribe", async () => {
    const user = await createUser(db(), { emailMarketing: true });
    const url = unsubscribeUrl(user.id);
    await db().deleteFrom("users").where("id", "=", user.id).execute();
    expect((await dataOf(await callLoader(route.loader, pathOf(url)))).state).toEqual({ kind: "gone", message: UNSUBSCRIBE_MESSAGES.gone });
    expect((await dataOf(await callAction(route.action, pathOf(url), {}))).outcome).toEqual({ kind: "gone", message: UNSUBSCRIBE_MESSAGES.gone });
  });
});
