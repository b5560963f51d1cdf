import { createHash, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { parseDatabaseUrl } from "~/utils/database-url.server";
import { env, isRealDeployment } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";

/**
 * The secret that signs session cookies (and derives the simulated provider's webhook key). One source for all:
 * - AUTH_SECRET when set (required on an https:// deployment: env.server.ts refuses to start without it);
 * - tests: a fixed derived value, so nothing is written and runs are repeatable;
 * - a local shop (npm start on a bare machine): a random secret made once and kept beside the SQLite database
 *   (data/.auth-secret, owner-only), reused on every start so sessions survive restarts (docs/decisions/004).
 */
let resolved: { key: string; secret: string } | undefined;

export function authSecret(): string {
  const config = env();
  const key = `${config.AUTH_SECRET ?? ""}|${config.NODE_ENV}|${config.DATABASE_URL}`;
  if (resolved?.key === key) return resolved.secret;
  let secret: string;
  if (config.AUTH_SECRET) secret = config.AUTH_SECRET;
  else if (isRealDeployment(config)) throw new Error("AUTH_SECRET is required when PUBLIC_BASE_URL is https://");
  else if (config.NODE_ENV === "test") secret = createHash("sha256").update("scentara-test-secret").digest("hex");
  else secret = localSecret(localSecretPath(config.DATABASE_URL));
  resolved = { key, secret };
  return secret;
}

/** Beside the SQLite file (data/.auth-secret by default); for PostgreSQL or an in-memory database, data/ here. */
export function localSecretPath(databaseUrl: string): string {
  const location = parseDatabaseUrl(databaseUrl);
  return join(location.kind === "sqlite" ? dirname(location.path) : resolve("data"), ".auth-secret");
}

/**
 * Reads the kept secret, or makes it. The new secret is written whole to a private file (`wx`, 0600) and then
 * hard-linked into place: link() refuses an existing name, so when two processes start at once the first one wins,
 * the other reads the winner's secret, and nobody ever reads a half-written file.
 */
export function localSecret(path: string): string {
  const existing = readSecret(path);
  if (existing) {
    logger.info(`AUTH_SECRET is not set: using the local session secret kept in ${shown(path)} (made on first start)`);
    return existing;
  }
  mkdirSync(dirname(path), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  const draft = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`;
  try {
    writeFileSync(draft, `${secret}\n`, { flag: "wx", mode: 0o600 });
    publish(draft, path);
    logger.info(`AUTH_SECRET is not set: made a local session secret, kept in ${shown(path)} and reused on every start (a real deployment sets AUTH_SECRET)`);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const other = readSecret(path); // another process made it first
    if (other) {
      logger.info(`AUTH_SECRET is not set: using the local session secret kept in ${shown(path)} (made by another process)`);
      return other;
    }
    throw new Error(`${path} exists but holds no secret: delete it to make a new one`);
  } finally {
    rmSync(draft, { force: true });
  }
}

function publish(draft: string, path: string) {
  try {
    linkSync(draft, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Some mounted volumes have no hard links: an exclusive create still gives one secret, only not torn-read-proof.
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw error;
    writeFileSync(path, readFileSync(draft), { flag: "wx", mode: 0o600 });
  }
}

function readSecret(path: string): string | null {
  try {
    const text = readFileSync(path, "utf8").trim();
    return text.length >= 32 ? text : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The path as the owner would type it from the shop's folder (data/.auth-secret), absolute when elsewhere. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
