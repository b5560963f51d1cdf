import { afterEach, describe, expect, it, vi } from "vitest";
import { downloadStream } from "./download-stream.server";
import { logger } from "./logger.server";

afterEach(() => vi.restoreAllMocks());

describe("downloadStream", () => {
  it("a client that hangs up while a chunk is being made: that chunk goes nowhere, one info line says what was sent, the generator ends", async () => {
    const info = vi.spyOn(logger, "info");
    const error = vi.spyOn(logger, "error");
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let reading!: () => void;
    const atGate = new Promise<void>((r) => (reading = r));
    const made: string[] = [];
    let closed = false;
    const stream = downloadStream(
      async function* () {
        try {
          made.push("head");
          yield "head;";
          reading();
          await gate; // a batch being read from the database
          made.push("batch 1");
          yield "batch 1;";
          made.push("batch 2");
          yield "batch 2;";
        } finally {
          closed = true;
        }
      },
      { name: "test export", context: { what: "test" } },
    );
    const reader = stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("head;");
    const pending = reader.read(); // the next pull: waits at the gate
    await atGate;
    const cancelled = reader.cancel();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(closed).toBe(false); // the read in progress finishes first…
    release();
    await cancelled;
    // …then nothing more is made, and the generator's finally has run
    expect(made).toEqual(["head", "batch 1"]);
    expect(closed).toBe(true);
    expect(error).not.toHaveBeenCalled();
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0]![0]).toMatchObject({ what: "test", bytes: 5, chunks: 1 });
    expect(String(info.mock.calls[0]![1])).toMatch(/test export: the client closed the connection before the end/);
  });

  it("a read that fails ends the download with an error, logged once; an empty chunk is skipped", async () => {
    const info = vi.spyOn(logger, "info");
    const error = vi.spyOn(logger, "error");
    const stream = downloadStream(
      async function* () {
        yield "a";
        yield "";
        yield new TextEncoder().encode("b");
        throw new Error("connection lost");
      },
      { name: "test export" },
    );
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe("a");
    expect(decoder.decode((await reader.read()).value)).toBe("b");
    await expect(reader.read()).rejects.toThrow("connection lost");
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]![0]).toMatchObject({ bytes: 2, chunks: 2 });
    expect(info).not.toHaveBeenCalled();
  });

  it("a whole download: every chunk in order, then the end", async () => {
    const stream = downloadStream(
      async function* () {
        for (let i = 0; i < 3; i++) yield `${i};`;
      },
      { name: "test export" },
    );
    expect(await new Response(stream).text()).toBe("0;1;2;");
  });
});
