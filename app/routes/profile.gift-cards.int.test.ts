import { expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { issueGiftCard } from "~/modules/gift-cards/gift-cards.server";
import { callAction, callLoader, dataOf } from "../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../tests/factories/users";
import * as profile from "./profile._index";
import * as check from "./api.gift-cards.check";

it("a shopper sees the gift cards issued to their e-mail with their balances, and no one else's", async () => {
  const db = getDb();
  const shopper = await createUser(db);
  const other = await createUser(db);
  const mine = await issueGiftCard(db, { amountCents: 50000, recipientEmail: shopper.email.toUpperCase(), actor: { kind: "admin", id: null } });
  await issueGiftCard(db, { amountCents: 9900, recipientEmail: other.email, actor: { kind: "admin", id: null } });
  const page = await dataOf(await callLoader(profile.loader, "/profile", { headers: { cookie: await sessionCookieFor(db, shopper.id) } }));
  expect(page.giftCards).toEqual([expect.objectContaining({ last4: mine.last4, balance: "R500.00", state: "Active" })]);
});

it("the checkout's Apply answers a card's last four and balance, never another field of it", async () => {
  const db = getDb();
  const shopper = await createUser(db);
  const card = await issueGiftCard(db, { amountCents: 12345, recipientEmail: "someone@example.test", note: "private", actor: { kind: "admin", id: null } });
  const cookie = await sessionCookieFor(db, shopper.id);
  const answer = await dataOf(await callAction(check.action, "/api/gift-cards/check", { code: card.code.replace(/-/g, " ") }, { headers: { cookie } }));
  expect(answer).toEqual({ ok: true, code: card.code.replace(/-/g, ""), last4: card.last4, balanceCents: 12345, expiresAt: card.expiresAt });
  const wrong = await dataOf(await callAction(check.action, "/api/gift-cards/check", { code: "nonsense" }, { headers: { cookie } }));
  expect(wrong).toEqual({ ok: false, error: "A gift card code has 16 letters and digits, e.g. K7QM-2WXE-H9TP-RB4N." });
});
