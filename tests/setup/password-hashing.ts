/**
 * The integration tests hash passwords with a cheaper scrypt than the shop's. The shop uses better-auth's (N 2^14,
 * r 16: ~0.13 s of CPU a hash, slow by design), and the integration tests hashed ~420 passwords per run through real
 * sign-ups, sign-ins (better-auth hashes even for an unknown e-mail, so the answer takes as long), password changes
 * and confirmations: ~53 s of CPU, a tenth of the Vitest run, spent on a cost no test is about.
 *
 * Here the same node:crypto scrypt runs with N 2^10 (16 times cheaper), and its hashes are marked so that a hash the
 * shop made itself (a command run in a child process, which has none of this) is still checked by the shop's own
 * function. Everything else about passwords — the length rules, the check on sign-in, a wrong password refused,
 * changes and resets — runs as in the shop. The shop's own hashing is what `useShopPasswordHashing()` restores for a
 * test (the stored format is tested that way: app/modules/accounts/accounts.int.test.ts), and what the end-to-end
 * tests' production servers always use.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { afterEach, beforeEach } from "vitest";
import { passwordHashing } from "~/modules/accounts/auth.server";

const MARK = "test-scrypt-n1024$";
const shopHashing = { ...passwordHashing };

function derive(password: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 64, { N: 1024, r: 16, p: 1 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const testHashing: typeof passwordHashing = {
  async hash(password) {
    const salt = randomBytes(16).toString("hex");
    return `${MARK}${salt}:${(await derive(password, salt)).toString("hex")}`;
  },
  async verify({ hash, password }) {
    if (!hash.startsWith(MARK)) return shopHashing.verify({ hash, password });
    const [salt, key] = hash.slice(MARK.length).split(":");
    const stored = Buffer.from(key ?? "", "hex");
    if (!salt || stored.length !== 64) return false; // a damaged hash is a refusal, as the shop's own (timingSafeEqual throws on a length mismatch)
    return timingSafeEqual(await derive(password, salt), stored);
  },
};

Object.assign(passwordHashing, testHashing);

/** The shop's own password hashing for each test of the calling file or describe block. */
export function useShopPasswordHashing() {
  beforeEach(() => void Object.assign(passwordHashing, shopHashing));
  afterEach(() => void Object.assign(passwordHashing, testHashing));
}
