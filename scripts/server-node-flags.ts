/**
 * The Node.js flags the shop's server runs with, read from `npm start` in package.json (`node <flags> server.js`), so
 * the benches measure the server as it is started, and a test keeps the systemd unit's ExecStart the same.
 * Why these flags: README "Configure for production" (V8's young generation; allocation-site pretenuring).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function serverNodeFlags(root = process.cwd()): string[] {
  const start = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.start ?? "";
  return flagsBeforeServerJs(start);
}

/** The flags between `node` and `server.js` in a command line ("" when it runs no `node … server.js`). */
export function flagsBeforeServerJs(command: string): string[] {
  const match = /(?:^|[\s/])node((?:\s+--[^\s]+)*)\s+server\.js\b/.exec(command);
  return match ? match[1]!.trim().split(/\s+/).filter(Boolean) : [];
}
