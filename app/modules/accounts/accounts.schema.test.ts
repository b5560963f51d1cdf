import { describe, expect, it } from "vitest";
import { COMMON_PASSWORDS } from "./common-passwords";
import { changePasswordSchema, emailSchema, isCommonPassword, MESSAGES, newPasswordSchema, preferencesSchema } from "./accounts.schema";

const firstError = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0]!.message);

describe("password policy", () => {
  it("needs at least 8 characters and allows up to 128, with no composition rules", () => {
    expect(firstError(newPasswordSchema.safeParse("abcdefg"))).toBe(MESSAGES.passwordTooShort);
    expect(newPasswordSchema.safeParse("lavender").success).toBe(true);
    expect(newPasswordSchema.safeParse("a".repeat(7) + "z").success).toBe(true);
    expect(newPasswordSchema.safeParse("x".repeat(64)).success).toBe(true);
    expect(newPasswordSchema.safeParse("x".repeat(128)).success).toBe(true);
    expect(firstError(newPasswordSchema.safeParse("x".repeat(129)))).toBe(MESSAGES.passwordTooLong);
    expect(newPasswordSchema.safeParse("only lowercase words").success).toBe(true);
  });

  it("refuses the most common passwords whatever their case", () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(300);
    for (const p of ["password", "PASSWORD1", "12345678", "qwerty123", "iloveyou", "Springbok"]) expect(isCommonPassword(p)).toBe(true);
    expect(firstError(newPasswordSchema.safeParse("Password123"))).toBe(MESSAGES.passwordCommon);
    expect(isCommonPassword("velvet-amber-orchid-42")).toBe(false);
  });

  it("change password needs both fields", () => {
    const r = changePasswordSchema.safeParse({ intent: "password", currentPassword: "", newPassword: "" });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message)).toEqual([MESSAGES.currentPasswordRequired, MESSAGES.newPasswordRequired]);
  });
});

describe("email", () => {
  it("is trimmed and lower-cased, and must look like an e-mail", () => {
    expect(emailSchema.parse("  Thandi@Example.CO.ZA ")).toBe("thandi@example.co.za");
    expect(firstError(emailSchema.safeParse(""))).toBe(MESSAGES.emailRequired);
    expect(firstError(emailSchema.safeParse("thandi@"))).toBe(MESSAGES.emailInvalid);
  });
});

describe("preferences form", () => {
  it("reads checkboxes: present = on, absent = off", () => {
    expect(preferencesSchema.parse({ intent: "preferences", emailMarketing: "on" })).toEqual({ intent: "preferences", emailNotifications: false, emailMarketing: true });
  });
});
