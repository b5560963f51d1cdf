import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, matchingStep, otpauthUri, totpCode, totpStep } from "./totp.server";

describe("TOTP (RFC 6238, RFC 4226)", () => {
  it("HOTP matches RFC 4226 appendix D", () => {
    const key = new TextEncoder().encode("12345678901234567890");
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
    expected.forEach((code, counter) => expect(hotp(key, counter)).toBe(code));
  });

  it("TOTP matches RFC 6238 appendix B (SHA-1, last 6 digits)", () => {
    const secret = "12345678901234567890";
    expect(totpCode(secret, 59_000)).toBe("287082");
    expect(totpCode(secret, 1_111_111_109_000)).toBe("081804");
    expect(totpCode(secret, 1_234_567_890_000)).toBe("005924");
    expect(totpCode(secret, 20_000_000_000_000)).toBe("353130");
  });

  it("a code matches its own step and one either side, no further", () => {
    const secret = "abcdefghijklmnopqrstuvwxyz012345";
    const now = 1_800_000_000_000;
    const code = totpCode(secret, now);
    expect(matchingStep(secret, code, now)).toBe(totpStep(now));
    expect(matchingStep(secret, code, now + 30_000)).toBe(totpStep(now));
    expect(matchingStep(secret, code, now - 30_000)).toBe(totpStep(now));
    expect(matchingStep(secret, code, now + 90_000)).toBeNull();
    expect(matchingStep(secret, "12345", now)).toBeNull();
    expect(matchingStep(secret, "abcdef", now)).toBeNull();
  });

  it("base32 round-trips and the otpauth link carries it", () => {
    const bytes = new TextEncoder().encode("foobar");
    expect(base32Encode(bytes)).toBe("MZXW6YTBOI");
    expect(new TextDecoder().decode(base32Decode("mzxw 6ytb oi"))).toBe("foobar");
    const uri = otpauthUri("foobar", "Scentara", "a@b.test");
    expect(uri).toBe("otpauth://totp/Scentara:a%40b.test?secret=MZXW6YTBOI&issuer=Scentara&algorithm=SHA1&digits=6&period=30");
  });
});
