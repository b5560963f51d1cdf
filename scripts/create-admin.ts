/**
 * npm run create-admin -- someone@example.com
 *
 * Makes that e-mail an admin with a freshly generated password, printed once. A new account is created; an existing
 * account is promoted, its password replaced and its sessions signed out. No password ships with the shop.
 * Uses DATABASE_URL like the server (SQLite file by default), migrating it first if needed.
 */
import { z } from "zod";
import { closeDatabase, getDb } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createOrResetAdmin } from "~/modules/accounts/accounts.server";
import { describeDatabase } from "~/utils/database-url.server";
import { env } from "~/utils/env.server";
import { publishRevocationsOf } from "../server/change-feed";

async function main() {
  const arg = process.argv.slice(2).find((a) => !a.startsWith("-"));
  const parsed = z.email().safeParse(arg?.trim());
  if (!parsed.success) {
    console.error("Usage: npm run create-admin -- <email>");
    process.exitCode = 1;
    return;
  }
  const db = getDb();
  await migrateToLatest(db);
  // The running servers hear of the ended sessions (and the new role) through the change feed, as from each other.
  const { password, created } = await publishRevocationsOf(db, () => createOrResetAdmin(db, parsed.data));
  const email = parsed.data.toLowerCase();
  console.log(
    [
      "",
      created
        ? `Admin account created: ${email} (an owner)`
        : `Existing account ${email} is now an owner; its password was replaced, its sessions signed out, and its second factors (authenticator app, backup codes, passkeys) removed.`,
      `  in ${describeDatabase(env().DATABASE_URL)}`,
      "",
      `  One-time password: ${password}`,
      "",
      `Sign in at ${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}/auth/login, then change this password under Profile → Account.`,
      "This password is shown only now; run the command again to get a new one.",
      "",
    ].join("\n"),
  );
}

main()
  .catch((error) => {
    console.error("create-admin failed:", error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => closeDatabase());
