import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { authSecret } from "~/modules/accounts/auth-secret.server";

/**
 * A sold card's code, sealed (docs/decisions/053 "Selling gift cards"). A hand-issued card's code is shown once and
 * never kept; a sold card's must be printable by its buyer and e-mailed on a later day, so it is kept sealed with
 * AES-256-GCM under a key derived from the shop's secret (AUTH_SECRET): a leaked database alone still hands out no
 * spendable code. Changing AUTH_SECRET makes the sealed codes unreadable (their cards still work; the owner cancels
 * and reissues one whose PDF is needed again).
 */
const VERSION = "v1";

function key(): Buffer {
  return createHash("sha256").update(`gift-card-seal\n${authSecret()}`).digest();
}

export function sealCode(code: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(code, "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

/** The code, or null when the seal is not ours (another secret, tampered). */
export function openCode(sealed: string): string | null {
  const [version, data] = sealed.split(".");
  if (version !== VERSION || !data) return null;
  const raw = Buffer.from(data, "base64url");
  if (raw.length < 29) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
