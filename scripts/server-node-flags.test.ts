import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_PROCESS_ENV } from "../server/cluster";
import { flagsBeforeServerJs, serverNodeFlags } from "./server-node-flags";

describe("the server's Node.js flags", () => {
  it("are read from npm start, and the systemd unit starts the server with the same ones", () => {
    const flags = serverNodeFlags();
    expect(flags).toContain("--max-semi-space-size=16");
    expect(flags).toContain("--no-allocation-site-pretenuring");
    expect(flags).toContain("--heap-growing-percent=50");
    const unit = readFileSync("deploy/systemd/scentara@.service", "utf8");
    const execStart = /^ExecStart=(.*)$/m.exec(unit)![1]!;
    expect(flagsBeforeServerJs(execStart)).toEqual(flags);
    // and the environment the cluster's workers get (the unit runs one process: it must set it itself)
    const environment = [...unit.matchAll(/^Environment=(.*)$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    for (const [name, value] of Object.entries(SERVER_PROCESS_ENV)) expect(environment).toContain(`${name}=${value}`);
  });

  it("finds the flags in a command line, and none where no node runs server.js", () => {
    expect(flagsBeforeServerJs("react-router build && node --a=1 --b server.js")).toEqual(["--a=1", "--b"]);
    expect(flagsBeforeServerJs("/srv/app/node_modules/.bin/node server.js")).toEqual([]);
    expect(flagsBeforeServerJs("tsx scripts/bench.ts")).toEqual([]);
  });
});
