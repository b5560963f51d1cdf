import { describe, expect, it } from "vitest";
import { afterCommit, deferringEffects } from "./after-commit.server";
import { onStorefrontChange, storefrontChanged } from "./storefront-changes.server";

describe("effects that follow a commit", () => {
  it("run at once outside a deferring scope", () => {
    const seen: string[] = [];
    afterCommit(() => seen.push("now"));
    expect(seen).toEqual(["now"]);
  });

  it("inside one, wait until its work is done (the admin dispatcher's transaction), then run in order", async () => {
    const seen: string[] = [];
    const stop = onStorefrontChange((reason) => seen.push(`cache dropped: ${reason}`));
    try {
      const result = await deferringEffects(async () => {
        storefrontChanged("price saved");
        afterCommit(() => seen.push("sessions forgotten"));
        await Promise.resolve();
        seen.push("committed");
        return 42;
      });
      expect(result).toBe(42);
      expect(seen).toEqual(["committed", "cache dropped: price saved", "sessions forgotten"]);
    } finally {
      stop();
    }
  });

  it("run even when the work fails (part of it may have committed; a needless cache drop is harmless)", async () => {
    const seen: string[] = [];
    await expect(
      deferringEffects(async () => {
        afterCommit(() => seen.push("dropped"));
        throw new Error("refund refused");
      }),
    ).rejects.toThrow("refund refused");
    expect(seen).toEqual(["dropped"]);
  });
});
