import { describe, expect, it } from "vitest";
import { ALL_PERMISSIONS, PRESET_ROLES } from "~/modules/accounts/permissions";
import { INVITATION_MS, invitationState, roleNameKey, withinOwnRole } from "./staff.logic";

describe("invitationState", () => {
  const sent = new Date("2026-12-01T08:00:00.000Z");
  const row = { accepted_at: null, revoked_at: null, expires_at: new Date(sent.getTime() + INVITATION_MS).toISOString() };
  it("is pending until the 72 hours are up, to the millisecond, then expired", () => {
    expect(INVITATION_MS).toBe(72 * 3600_000);
    expect(invitationState(row, new Date(sent.getTime() + INVITATION_MS - 1))).toBe("pending");
    expect(invitationState(row, new Date(sent.getTime() + INVITATION_MS))).toBe("expired");
  });
  it("accepted or revoked whatever the time", () => {
    expect(invitationState({ ...row, accepted_at: sent.toISOString() }, sent)).toBe("accepted");
    expect(invitationState({ ...row, revoked_at: sent.toISOString() }, sent)).toBe("revoked");
    expect(invitationState({ ...row, accepted_at: sent.toISOString() }, new Date("2030-01-01"))).toBe("accepted");
  });
});

describe("withinOwnRole", () => {
  it("an owner may give every role; a manager not the owner's; nobody a permission they lack", () => {
    for (const preset of Object.values(PRESET_ROLES)) expect(withinOwnRole(ALL_PERMISSIONS, preset.permissions)).toBe(true);
    expect(withinOwnRole(PRESET_ROLES.manager.permissions, PRESET_ROLES.owner.permissions)).toBe(false);
    expect(withinOwnRole(PRESET_ROLES.manager.permissions, PRESET_ROLES.packer.permissions)).toBe(true);
    expect(withinOwnRole(["staff", "orders.view"], ["orders.view", "data"])).toBe(false);
    expect(withinOwnRole(["staff"], [])).toBe(true);
  });
});

describe("roleNameKey", () => {
  it("ignores case and extra spaces", () => {
    expect(roleNameKey("  Weekend   Packer ")).toBe(roleNameKey("weekend packer"));
    expect(roleNameKey("Owner")).toBe("owner");
  });
});
