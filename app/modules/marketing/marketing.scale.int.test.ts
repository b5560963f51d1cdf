/**
 * Marketing at a shop's scale, on SQLite and PostgreSQL: many customers opted in (20 000 by default;
 * MARKETING_SCALE_USERS=100000 for a bigger run, outside CI). Send lists them all in one statement, every one of them
 * exactly once; the sender's time per e-mail (without a mail server: the outbox write, the consent check, the claim)
 * stays far below what the throttle allows; the consent log's CSV streams every row. The figures are printed.
 */
import { parse } from "csv-parse/sync";
import { beforeAll, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { loader as consentsCsv } from "~/routes/admin.consents[.]csv";
import { newId } from "~/utils/ids";
import { callLoader } from "../../../tests/setup/route";
import { createUser, sessionCookieFor } from "../../../tests/factories/users";
import { MARKETING_CONSENT } from "~/modules/consent/consent.logic";
import { sendAnnouncementBatch } from "./announcement-sender.server";
import { announcementProgress, queueAnnouncement, saveAnnouncement } from "./announcements.server";

const USERS = Number(process.env.MARKETING_SCALE_USERS ?? 20_000);
const BATCH = 1000;
let adminId: string;
let cookie: string;

beforeAll(async () => {
  const db = getDb();
  const admin = await createUser(db, { isAdmin: true });
  adminId = admin.id;
  cookie = await sessionCookieFor(db, admin.id);
  const at = new Date().toISOString();
  for (let start = 0; start < USERS; start += BATCH) {
    const users = Array.from({ length: Math.min(BATCH, USERS - start) }, (_, i) => ({ id: newId(), email: `scale-${start + i}@example.test`, n: start + i }));
    await db
      .insertInto("users")
      .values(users.map((u) => ({ id: u.id, email: u.email, email_verified: false, is_admin: false, email_notifications: true, email_marketing: true, marketing_consent_at: at, created_at: at, updated_at: at })))
      .execute();
    await db
      .insertInto("consents")
      .values(users.map((u) => ({ id: newId(), user_id: u.id, email: u.email, purpose: "marketing_email" as const, version: MARKETING_CONSENT.version, wording: "News and offers by e-mail.", granted: true, source: "register" as const, actor_user_id: null, created_at: new Date(Date.parse(at) + u.n).toISOString() })))
      .execute();
  }
}, 300_000);

it(`Send lists all ${USERS} opted-in customers at once, each once; the sender and the consent log keep up`, { timeout: 300_000 }, async () => {
  const db = getDb();
  const id = await saveAnnouncement(db, adminId, { id: "new", subject: "Scale", body: "Hello", product1: "", product2: "" });
  let t = performance.now();
  const listed = await queueAnnouncement(db, id, adminId);
  const queueMs = performance.now() - t;
  expect(listed).toBe(USERS);
  const distinct = await db.selectFrom("announcement_recipients").select((eb) => eb.fn.count<number>("user_id").distinct().as("n")).where("announcement_id", "=", id).executeTakeFirstOrThrow();
  expect(Number(distinct.n)).toBe(USERS);

  // one throttled minute's worth at the highest rate the setting allows in 10-second runs (6000 a minute: 1000 a run)
  t = performance.now();
  const run = await sendAnnouncementBatch(db, { limit: 1000 });
  const sendMs = performance.now() - t;
  expect(run.sent).toBe(1000);
  expect(await announcementProgress(db, id)).toMatchObject({ total: USERS, sent: 1000, pending: USERS - 1000 });
  // Far below what the throttle allows: 60 a minute by default is 1 s an e-mail; 50 ms an e-mail allows 20 times that
  // even on a busy machine (the figure printed below is what to compare with MARKETING_EMAILS_PER_MINUTE).
  expect(sendMs / 1000).toBeLessThan(50);

  t = performance.now();
  const response = (await callLoader(consentsCsv, "/admin/consents.csv", { headers: { cookie } })) as Response;
  const text = await response.text();
  const csvMs = performance.now() - t;
  const rows = parse(text, { bom: true }) as string[][];
  expect(rows.length - 1).toBe(await db.selectFrom("consents").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow().then((r) => Number(r.n)));
  console.log(
    `marketing at scale (${process.env.TEST_DB}): Send listed ${USERS} recipients in ${queueMs.toFixed(0)} ms; ` +
      `the sender wrote 1000 e-mails in ${sendMs.toFixed(0)} ms (${(sendMs / 1000).toFixed(2)} ms each); ` +
      `the consent log's ${rows.length - 1} rows as CSV in ${csvMs.toFixed(0)} ms (${(text.length / 1024 / 1024).toFixed(1)} MB)`,
  );
});
