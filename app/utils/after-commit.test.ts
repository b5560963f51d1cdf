import { describe, expect, it } from "vitest";
import { afterCommit, afterCommitAsync, deferringEffects } from "./after-commit.server";
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

  it("an async effect (a flow's messages) is awaited before the work's answer, and one that fails doesn't undo the answer", async () => {
    const seen: string[] = [];
    const result = await deferringEffects(async () => {
      expect(await afterCommitAsync(true, async () => void seen.push("confirmation sent"))).toBe(true);
      afterCommit(() => {
        throw new Error("a listener failed");
      });
      expect(await afterCommitAsync(true, async () => void seen.push("notice sent"))).toBe(true);
      seen.push("committed");
      return "saved";
    });
    expect(result).toBe("saved");
    expect(seen).toEqual(["committed", "confirmation sent", "notice sent"]);
  });

  it("an async effect outside a scope runs now after the caller's own commit, and is refused while its transaction is open", async () => {
    const seen: string[] = [];
    expect(await afterCommitAsync(false, async () => void seen.push("sent"))).toBe(true);
    expect(seen).toEqual(["sent"]);
    expect(await afterCommitAsync(true, async () => void seen.push("too early"))).toBe(false);
    expect(seen).toEqual(["sent"]);
  });
});
